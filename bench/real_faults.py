#!/usr/bin/env python3
"""Real-fault benchmark: do the tests jforge writes catch the bugs of Defects4J? (issue 34, item 1)

A fault is detected when a test written on the fixed version of a class passes there and fails
on the version with the real fault (the protocol of Shamshiri et al., ASE 2015). Randoop 4.3.4
runs beside jforge on every fault with the same budget and the same protocol, as a yardstick.

Sources (nothing of them is in the repository, nor written into it):

- Defects4J (`github:rjust/defects4j`, a git directory or a checkout: `--defects4j DIR` or env
  DEFECTS4J): per project `framework/projects/<P>/active-bugs.csv` (bug id, buggy and fixed
  commit of the project's own history), `dir-layout.csv` (the source folder at a commit),
  `modified_classes/<id>.src` (the classes the fix changed) and `patches/<id>.src.patch` (the
  source diff, written from the fixed version to the faulty one). A git directory is read with
  `git --git-dir=DIR show HEAD:...`.
- each project's own Git history (PROJECTS: the GitHub repository), a git directory found as
  `<mirrors>/<owner>+<name>/repo` (`--mirrors DIR`, env JFORGE_MIRRORS, default /work/.mirror)
  or given with `--repo P=GIT_DIR`. A project whose history is missing, or lacks a bug's fixed
  commit, is skipped with that reason (`--list` shows what is selectable).

Per fault, cached under `--cache` (default ~/.cache/jforge-bench/real-faults/<P>/<id>/):

1. fixed version: `git archive <revision.id.fixed> <source folder>` (and its sibling
   `resources` folder when the layout is `.../main/java`), unpacked into `fixed/`;
   faulty version: a copy of it with the Defects4J patch applied (`git apply`, checked first
   with `git apply --check`: the patch must apply forward to the fixed sources; a patch that
   only applies in reverse, or not at all, skips the bug with that reason);
2. each version's main sources compiled with JDK 17's javac (`--release 8 -nowarn
   -encoding UTF-8`, ISO-8859-1 when UTF-8 fails; `module-info.java` left out), non-Java
   files of the source and resources folders copied next to the classes. The jars the main
   code needs at some commits (MAIN_DEPS, from Defects4J's lib folders: commons-lang 2.1 for
   CLI 1.x, 2.4 for jsoup 0.x, jsr305 for Gson) come from Maven Central (SHA-1 checked,
   cached in <cache>/jars) and go on every class path below; a bug whose sources do not
   compile is skipped with javac's first error;
3. per tool and per modified class C (tests in `<bug>/runs/<tool>-<seconds>s-seed<S>/<C>/`):
   - jforge: `jforge gen --quiet --class C --classpath FIXED --time-limit <S>s --seed S
     --workers W --output-dir out --error-output-dir errors --stats-json stats.json`
     (W = `--workers`, 1 by default, as Randoop uses one thread); the regression tests
     (not the error-revealing ones, which fail by design) compiled with javac against
     FIXED + JUnit 4 (Debian's /usr/share/java/junit4.jar, hamcrest);
   - Randoop: `randoop-run RANDOOP_JAR FIXED C <S> OUTDIR` (../shared/anchors, README.md
     there; `--randomseed=1`, Randoop's defaults otherwise); its regression tests
     `RegressionTest<N>` (not `ErrorTest<N>`);
4. the test classes run under JUnit 4's JUnitCore three times on FIXED (the first run with
   the JaCoCo agent, `includes=C:C$*`); a test that fails in any of the three is flaky and
   set aside; then once on FAULTY (the same compiled tests, the faulty classes in place of the
   fixed ones): the fault is detected when a test that is not flaky fails there (a run that
   hangs on FAULTY, after passing on FIXED, counts as detected: "timeout"). A test that
   fails there only with a linkage error (NoSuchMethodError and its kin: it calls a member
   the fix added or changed the signature of) reveals an API difference, not the fault: when
   all the failures are such, the fault is a miss, "only linkage errors (the API differs)";
5. a miss gets the furthest stage its tests reached on FIXED, from JaCoCo's XML report of
   the first run (line counters of C and its nested classes, class files compiled with line
   numbers) and the patch's hunks (the fixed-version lines the patch removes or changes, or
   for a hunk that only adds lines, the fixed lines on either side of the insertion):
   - `class not reached`: no regression test written or compiled, or none executes a line
     of the class;
   - `method not reached`: no method that holds a changed line is entered (a changed line
     belongs to the method of its source file whose first line is the closest before it);
   - `line not covered`: the method is entered, no changed line runs;
   - `covered, no assertion differs`: a changed line runs and every test still passes.
   Changed lines that are not executable (imports, field declarations without initializer,
   comments) are replaced by the executable lines of their hunk. A fault whose patch changes
   several classes is detected when any class's tests detect it; its reason is the furthest
   over its classes.

Results go to `<bug>/runs/.../result.json` as soon as a class is done: an interrupted run,
restarted with the same flags, resumes where it stopped (`--fresh` ignores the cache); a
result judged by an earlier version of the rules of step 4-5 (JUDGED) is judged again from
its kept logs, without running the tools again.
Prints a per-fault table and per-project totals (Markdown); `--json FILE` writes them all.

Selection: the projects of `--projects` (default: every project of PROJECTS whose history is
found), their active bugs in id order, `--bugs P-N,P-N..M` to name some, `--limit N` for the
first N taken round-robin over the projects (so a trial spreads over them).

Usage:
  bench/real_faults.py --list [--defects4j DIR] [--mirrors DIR]
  bench/real_faults.py [--projects Cli,Csv,...] [--bugs Cli-1,Csv-2..4] [--limit N]
                       [--time 60] [--seed 1] [--workers 1] [--tools jforge,randoop]
                       [--defects4j DIR] [--mirrors DIR] [--repo P=GIT_DIR]... [--cache DIR]
                       [--jforge PATH] [--randoop-jar JAR] [--anchor-scripts DIR]
                       [--json FILE] [--fresh]
  bench/real_faults.py --build-only [selection flags]   # lay out and compile only
  bench/real_faults.py --table FILE.json                # the tables of an earlier --json
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import io
import hashlib
import time
import urllib.request
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import suite_coverage as sc  # noqa: E402  (tools, JaCoCo download, suite discovery)

# Defects4J project -> GitHub repository whose history the bug's commits are in.
PROJECTS = {
    "Cli": "apache/commons-cli",
    "Csv": "apache/commons-csv",
    "Codec": "apache/commons-codec",
    "Lang": "apache/commons-lang",
    "Gson": "google/gson",
    "Jsoup": "jhy/jsoup",
    "JxPath": "apache/commons-jxpath",
    "Collections": "apache/commons-collections",
}
# Jars the main code of a project needs at some of its commits (from Defects4J's
# framework/projects/<P>/lib, without the test-only ones), fetched from Maven Central.
MAIN_DEPS = {
    "Cli": ["commons-lang:commons-lang:2.1"],  # TypeHandler of CLI 1.x uses commons-lang's NumberUtils
    "Gson": ["com.google.code.findbugs:jsr305:3.0.0"],  # annotations at some commits
    "Jsoup": ["commons-lang:commons-lang:2.4"],  # Document, Entities of jsoup 0.x use StringUtils
}
CENTRAL = "https://repo1.maven.org/maven2"
TOOLS = ("jforge", "randoop")
JUNIT4 = sc.JUNIT4
TEST_TIMEOUT = 300
FAILURE_LINE = re.compile(r"^\d+\) (\S.*)$", re.M)
# The stages of a miss, from the least reached to the most.
REASONS = ["class not reached", "method not reached", "line not covered", "covered, no assertion differs"]
# A test that fails on the faulty version only because a member or class the fix added (or
# changed the signature of) is missing there does not reveal the fault: a miss of its own,
# ranked after the others.
LINKAGE = re.compile(r"\b(NoSuchMethodError|NoSuchFieldError|NoClassDefFoundError|AbstractMethodError|"
                     r"IncompatibleClassChangeError|IllegalAccessError|InstantiationError)\b")
LINKAGE_ONLY = "only linkage errors (the API differs)"
REASONS.append(LINKAGE_ONLY)
JUDGED = 2  # the version of judge()'s rules a cached result was judged with

log = sc.log
run = sc.run
tail = sc.tail


# ---------------------------------------------------------------- Defects4J and the histories


class Defects4J:
    """Reads framework/projects/... from a git directory (HEAD) or a checkout."""

    def __init__(self, path):
        self.path = path
        self.checkout = os.path.isdir(os.path.join(path, "framework", "projects"))

    def read(self, rel):
        if self.checkout:
            with open(os.path.join(self.path, rel), encoding="utf-8", errors="replace") as f:
                return f.read()
        out = subprocess.run(["git", "--git-dir", self.path, "show", "HEAD:" + rel],
                             capture_output=True)
        if out.returncode != 0:
            raise FileNotFoundError(rel)
        return out.stdout.decode("utf-8", errors="replace")

    def bugs(self, project):
        rows = self.read(f"framework/projects/{project}/active-bugs.csv").splitlines()
        head = rows[0].split(",")
        return [dict(zip(head, r.split(","))) for r in rows[1:] if r.strip()]

    def layout(self, project):
        out = {}
        for r in self.read(f"framework/projects/{project}/dir-layout.csv").splitlines():
            parts = r.strip().split(",")
            if len(parts) >= 2:
                out[parts[0]] = parts[1]
        return out


def project_git(a, project):
    if project in a.repo:
        return a.repo[project]
    gh = PROJECTS.get(project)
    if not gh:
        return None
    path = os.path.join(a.mirrors, gh.replace("/", "+"), "repo")
    return path if os.path.isdir(path) else None


def has_commit(git_dir, commit):
    return subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-e", commit + "^{commit}"],
                          capture_output=True).returncode == 0


def selectable(a, d4j):
    """[(project, bug dict)] of the selected projects, and {project: reason} of those skipped."""
    faults, skipped = [], {}
    for p in a.projects:
        git = project_git(a, p)
        if not git:
            skipped[p] = f"no Git history of {PROJECTS.get(p, '?')} (fetch github:{PROJECTS.get(p, '?')})"
            continue
        try:
            bugs = d4j.bugs(p)
        except FileNotFoundError:
            skipped[p] = "not a Defects4J project"
            continue
        missing = [b["bug.id"] for b in bugs if not has_commit(git, b["revision.id.fixed"])]
        for b in bugs:
            if b["bug.id"] not in missing:
                faults.append((p, b))
        if missing:
            skipped[p] = f"{len(missing)} fixed commits not in the history: bugs {','.join(missing)}"
    return faults, skipped


def pick(faults, a):
    if a.bugs:
        want = set()
        for item in a.bugs.split(","):
            m = re.fullmatch(r"(\w+)-(\d+)(?:\.\.(\d+))?", item.strip())
            if not m:
                sys.exit(f"--bugs: {item!r} is not P-N or P-N..M")
            for n in range(int(m.group(2)), int(m.group(3) or m.group(2)) + 1):
                want.add((m.group(1), str(n)))
        faults = [f for f in faults if (f[0], f[1]["bug.id"]) in want]
    if a.limit:
        by_p = {}
        for f in faults:
            by_p.setdefault(f[0], []).append(f)
        out, i = [], 0
        while len(out) < a.limit and any(i < len(v) for v in by_p.values()):
            for v in by_p.values():
                if i < len(v) and len(out) < a.limit:
                    out.append(v[i])
            i += 1
        faults = out
    return faults


# ---------------------------------------------------------------- building the two versions


def central_jar(coord, cache):
    """A jar of Maven Central (group:artifact:version), SHA-1 checked, cached in cache/jars."""
    g, art, v = coord.split(":")
    rel = f"{g.replace('.', '/')}/{art}/{v}/{art}-{v}.jar"
    path = os.path.join(cache, "jars", os.path.basename(rel))
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        log(f"downloading {CENTRAL}/{rel}")
        data = urllib.request.urlopen(f"{CENTRAL}/{rel}", timeout=120).read()
        want = urllib.request.urlopen(f"{CENTRAL}/{rel}.sha1", timeout=60).read().decode().split()[0]
        if hashlib.sha1(data).hexdigest() != want:
            sys.exit(f"SHA-1 mismatch for {rel}")
        with open(path + ".part", "wb") as f:
            f.write(data)
        os.replace(path + ".part", path)
    return path


def javac(src_dir, out_dir, log_path, cp=""):
    """Compile every .java file under src_dir into out_dir; (ok, first error line)."""
    files = []
    for dp, _, fs in os.walk(src_dir):
        files += [os.path.join(dp, f) for f in fs if f.endswith(".java") and f != "module-info.java"]
    lst = out_dir + ".sources"
    with open(lst, "w") as f:
        f.write("\n".join(files) + "\n")
    for enc in ("UTF-8", "ISO-8859-1"):
        shutil.rmtree(out_dir, ignore_errors=True)
        os.makedirs(out_dir)
        rc, _ = run([sc.jdk_tool("javac"), "--release", "8", "-nowarn", "-g", "-encoding", enc,
                     "-cp", cp or ".", "-d", out_dir, "@" + lst], log_path)
        if rc == 0:
            return True, ""
        if "unmappable character" not in tail(log_path, 100000):
            break
    errs = [l for l in tail(log_path, 100000).splitlines() if "error:" in l]
    return False, (errs[0] if errs else tail(log_path, 3)).strip()[:300]


def copy_resources(folders, out_dir):
    for folder in folders:
        for dp, _, fs in os.walk(folder):
            for f in fs:
                if f.endswith(".java") or f.endswith(".html") and f == "package.html":
                    continue
                rel = os.path.relpath(os.path.join(dp, f), folder)
                os.makedirs(os.path.join(out_dir, os.path.dirname(rel)), exist_ok=True)
                shutil.copy(os.path.join(dp, f), os.path.join(out_dir, rel))


def build(a, d4j, project, bug, bug_dir):
    """Lay out and compile the fixed and faulty versions; the build record (cached)."""
    rec_path = os.path.join(bug_dir, "build.json")
    if os.path.exists(rec_path) and not a.fresh:
        with open(rec_path) as f:
            return json.load(f)
    bid, fixed = bug["bug.id"], bug["revision.id.fixed"]
    rec = {"project": project, "bug": bid, "fixed_commit": fixed, "buggy_commit": bug["revision.id.buggy"],
           "report": bug.get("report.url", "")}
    shutil.rmtree(bug_dir, ignore_errors=True)
    os.makedirs(bug_dir)
    git = project_git(a, project)
    src = d4j.layout(project).get(fixed)
    folders = [src] if src else []
    if src and src.endswith("main/java"):
        res = src[:-len("java")] + "resources"
        if subprocess.run(["git", "--git-dir", git, "cat-file", "-e", f"{fixed}:{res}"],
                          capture_output=True).returncode == 0:
            folders.append(res)
    rec["source_folders"] = folders
    rec["classes"] = [c.strip() for c in
                      d4j.read(f"framework/projects/{project}/modified_classes/{bid}.src").splitlines() if c.strip()]
    patch = d4j.read(f"framework/projects/{project}/patches/{bid}.src.patch")
    with open(os.path.join(bug_dir, "src.patch"), "w") as f:
        f.write(patch)
    if not src:
        rec["skip"] = f"no source folder for {fixed[:10]} in dir-layout.csv"
        return save(rec, rec_path)
    fixed_src = os.path.join(bug_dir, "fixed-src")
    os.makedirs(fixed_src)
    arch = subprocess.run(["git", "--git-dir", git, "archive", fixed] + folders, capture_output=True)
    if arch.returncode != 0:
        rec["skip"] = "git archive failed: " + arch.stderr.decode(errors="replace").strip()[:200]
        return save(rec, rec_path)
    tarfile.open(fileobj=io.BytesIO(arch.stdout)).extractall(fixed_src)
    faulty_src = os.path.join(bug_dir, "faulty-src")
    shutil.copytree(fixed_src, faulty_src)
    pf = os.path.join(bug_dir, "src.patch")
    check = subprocess.run(["git", "apply", "--check", pf], cwd=faulty_src, capture_output=True)
    if check.returncode != 0:
        rev = subprocess.run(["git", "apply", "--check", "--reverse", pf], cwd=faulty_src, capture_output=True)
        rec["skip"] = ("the patch applies only in reverse to the fixed commit" if rev.returncode == 0 else
                       "the patch does not apply to the fixed sources: " +
                       check.stderr.decode(errors="replace").strip().splitlines()[0][:200])
        return save(rec, rec_path)
    subprocess.run(["git", "apply", pf], cwd=faulty_src, check=True, capture_output=True)
    rec["deps"] = [central_jar(c, a.cache) for c in MAIN_DEPS.get(project, [])]
    for ver, sdir in (("fixed", fixed_src), ("faulty", faulty_src)):
        out = os.path.join(bug_dir, ver + "-classes")
        ok, err = javac(os.path.join(sdir, src), out, os.path.join(bug_dir, f"javac-{ver}.log"),
                        ":".join(rec["deps"]))
        if not ok:
            rec["skip"] = f"the {ver} sources do not compile: {err}"
            return save(rec, rec_path)
        copy_resources([os.path.join(sdir, fo) for fo in folders], out)
    rec["changed"] = changed_lines(patch)
    return save(rec, rec_path)


def save(rec, path):
    with open(path + ".part", "w") as f:
        json.dump(rec, f, indent=1)
    os.replace(path + ".part", path)
    return rec


def changed_lines(patch):
    """{file of the fixed version: {"lines": [changed lines], "hunks": [[first, last]]}}: the
    lines the patch removes or replaces (the patch goes fixed -> faulty, so its old side is the
    fixed version); for an insertion only, the lines on either side of it."""
    out, cur = {}, None
    old, removed = 0, False
    for line in patch.splitlines():
        if line.startswith("--- "):
            name = line[4:].split("\t")[0]
            cur = None if name == "/dev/null" else out.setdefault(re.sub(r"^a/", "", name),
                                                                  {"lines": set(), "hunks": []})
            continue
        if line.startswith("+++ "):
            continue
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", line)
        if m:
            old = int(m.group(1))
            removed = False
            if cur is not None:
                cur["hunks"].append([old, old + int(m.group(2) or 1) - 1])
            continue
        if cur is None or not line:
            if not line:
                old += 1
                removed = False
            continue
        if line[0] == " ":
            old += 1
            removed = False
        elif line[0] == "-":
            cur["lines"].add(old)
            old += 1
            removed = True
        elif line[0] == "+" and not removed:
            cur["lines"].update({old - 1, old})
    return {k: {"lines": sorted(v["lines"]), "hunks": v["hunks"]} for k, v in out.items()}


# ---------------------------------------------------------------- running a suite


def junit(test_cp, tests, log_path, jvm=()):
    """Run tests under JUnitCore; (status, failed test names) with status ok/failed/timeout/error.

    The JVM runs in the log's folder: a test that crashes it (Gson-8's faulty UnsafeAllocator
    dies in the JVM on a null class) leaves its hs_err file there, not where the script started."""
    cmd = [sc.jdk_tool("java")] + list(jvm) + ["-cp", test_cp + ":" + ":".join(JUNIT4),
                                               "org.junit.runner.JUnitCore"] + tests
    rc, _ = run(cmd, log_path, cwd=os.path.dirname(log_path), timeout=TEST_TIMEOUT)
    if rc == "timeout":
        return "timeout", []
    text = tail(log_path, 10 ** 7)
    if re.search(r"^OK \(\d+ tests?\)", text, re.M):
        return "ok", []
    if re.search(r"^Tests run: \d+,\s+Failures: \d+", text, re.M):
        return "failed", sorted(set(FAILURE_LINE.findall(text)))
    return "error", []


def jforge_suite(a, cls, fixed, work):
    """Generate with jforge and compile the regression tests; (test class names, classes dir, info)."""
    out = os.path.join(work, "out")
    stats = os.path.join(work, "stats.json")
    cmd = [a.jforge, "gen", "--quiet", "--class", cls, "--classpath", fixed, "--time-limit", f"{a.time}s",
           "--seed", str(a.seed), "--workers", str(a.workers), "--output-dir", out,
           "--error-output-dir", os.path.join(work, "errors"), "--stats-json", stats]
    rc, wall = run(cmd, os.path.join(work, "gen.log"), cwd=work, timeout=a.time * 10 + 900)
    info = {"command": cmd, "exit": rc, "wall_seconds": round(wall, 1)}
    if os.path.exists(stats):
        with open(stats) as f:
            st = json.load(f)
        info["regression_tests"] = st.get("regression_tests")
        info["stop_reason"] = st.get("stop_reason")
    if rc != 0:
        info["error"] = sc.first_error_line(os.path.join(work, "gen.log"))
    suite = sc.find_suite(out) if os.path.isdir(out) else []
    tests = [n for _, n, s in suite if sc.is_test_class(s)]
    info["tests_written"] = sum(sc.count_tests(s) for _, _, s in suite)
    if not tests:
        info.setdefault("error", "no regression test written: " + sc.first_error_line(os.path.join(work, "gen.log")))
        return [], None, info
    cdir = os.path.join(work, "test-classes")
    shutil.rmtree(cdir, ignore_errors=True)
    os.makedirs(cdir)
    lst = os.path.join(work, "sources.txt")
    with open(lst, "w") as f:
        f.write("\n".join(p for p, _, _ in suite) + "\n")
    rc, _ = run([sc.jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-d", cdir,
                 "-cp", ":".join([fixed] + JUNIT4), "@" + lst], os.path.join(work, "javac.log"))
    if rc != 0:
        info["error"] = "the tests do not compile: " + sc.first_error_line(os.path.join(work, "javac.log"))
        return [], None, info
    return tests, cdir, info


def randoop_suite(a, cls, fixed, work):
    out = os.path.join(work, "randoop")
    cmd = [os.path.join(a.anchor_scripts, "randoop-run"), a.randoop_jar, fixed, cls, str(a.time), out]
    rc, wall = run(cmd, os.path.join(work, "randoop-run.log"), cwd=work, timeout=a.time * 10 + 900)
    info = {"command": cmd, "exit": rc, "wall_seconds": round(wall, 1)}
    files = [p for p in sc.java_files(os.path.join(out, "src"), "RegressionTest*.java")
             if re.fullmatch(r"RegressionTest\d+\.java", os.path.basename(p))]
    info["tests_written"] = sum(sc.count_tests(open(p, errors="replace").read()) for p in files)
    if not files or not os.path.exists(os.path.join(out, "cls", "RegressionTest0.class")):
        info["error"] = sc.first_error_line(os.path.join(out, "randoop.log"), os.path.join(out, "javac.log"),
                                            os.path.join(work, "randoop-run.log"))
        return [], None, info
    return [os.path.basename(p)[:-5] for p in files], os.path.join(out, "cls"), info


def jacoco_xml(a, cls, fixed, exe, work):
    """Line and method data of cls and its nested classes from the .exec of a run."""
    orig = os.path.join(work, "classes-orig")
    shutil.rmtree(orig, ignore_errors=True)
    os.makedirs(orig)
    sc.class_files_from_path(cls, fixed, orig)
    xml = os.path.join(work, "jacoco.xml")
    rc, _ = run([sc.jdk_tool("java"), "-jar", a.jacoco["cli"], "report"] + ([exe] if os.path.exists(exe) else []) +
                ["--classfiles", orig, "--xml", xml], os.path.join(work, "report.log"))
    if rc != 0:
        return None
    root = ET.parse(xml).getroot()
    lines, methods, class_lines = {}, [], 0
    for pkg in root.iter("package"):
        for c in pkg.iter("class"):
            for cnt in c.findall("counter"):
                if cnt.get("type") == "LINE":
                    class_lines += int(cnt.get("covered"))
            for m in c.iter("method"):
                if m.get("line"):
                    entered = any(x.get("type") == "METHOD" and int(x.get("covered")) > 0 for x in m.findall("counter"))
                    methods.append((int(m.get("line")), m.get("name"), entered, c.get("sourcefilename")))
        for sf in pkg.iter("sourcefile"):
            for ln in sf.iter("line"):
                lines[(sf.get("name"), int(ln.get("nr")))] = int(ln.get("ci")) > 0
    return {"class_lines_covered": class_lines, "lines": lines, "methods": methods}


def classify(cov, cls, changed):
    """How far the suite got towards the changed lines of cls's source file (a REASONS entry)."""
    if cov is None or cov["class_lines_covered"] == 0:
        return REASONS[0], {}
    # The class's source file: its name, or that of an enclosing class (a top-level class may
    # have a `$` in its name, such as Gson's `$Gson$Types`).
    parts = cls.replace(".", "/").split("$")
    paths = ["$".join(parts[:i]) + ".java" for i in range(len(parts), 0, -1) if parts[i - 1]]
    path = next((p for p in paths if any(k.endswith("/" + p) for k in changed)), paths[-1])
    entry = next((v for k, v in changed.items() if k.endswith("/" + path)), None)
    sfile = os.path.basename(path)
    if not entry:
        return REASONS[3], {"note": "the patch changes no line of this class's file"}
    execs = {n: c for (f, n), c in cov["lines"].items() if f == sfile}
    want = [n for n in entry["lines"] if n in execs]
    if not want:
        want = [n for n in execs if any(h[0] <= n <= h[1] for h in entry["hunks"])]
    mine = sorted((ln, name, entered) for ln, name, entered, f in cov["methods"] if f == sfile)
    faulty_methods = {}
    for n in want:
        before = [m for m in mine if m[0] <= n]
        if before:
            faulty_methods[before[-1][1] + ":" + str(before[-1][0])] = before[-1][2]
    detail = {"changed_lines": want, "methods": faulty_methods,
              "changed_lines_covered": [n for n in want if execs.get(n)]}
    if faulty_methods and not any(faulty_methods.values()):
        return REASONS[1], detail
    if not detail["changed_lines_covered"]:
        return REASONS[2], detail
    return REASONS[3], detail


def failures(log_path):
    """{failed test: first line of its exception} from a JUnitCore log."""
    out, lines = {}, tail(log_path, 10 ** 7).splitlines()
    for i, line in enumerate(lines):
        m = FAILURE_LINE.match(line)
        if m:
            out[m.group(1)] = lines[i + 1].strip() if i + 1 < len(lines) else ""
    return out


def judge(a, cls, rec, work, res):
    """Detected or not, and why, from the logs of the runs in work."""
    fixed = ":".join([os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(work))), "fixed-classes")]
                     + rec.get("deps", []))
    fixed_runs, flaky, st = res["fixed_runs"], set(res["flaky"]), res["faulty_run"]
    failed = failures(os.path.join(work, "junit-faulty.log")) if st == "failed" else {}
    real = {t: e for t, e in failed.items() if t not in flaky}
    semantic = [t for t, e in real.items() if not LINKAGE.search(e)]
    res["failing_on_faulty"] = [f"{t}: {e}"[:200] for t, e in list(real.items())[:20]]
    res["failing_on_faulty_count"] = len(real)
    res["linkage_only"] = sorted(set(real) - set(semantic))[:20]
    res.pop("note", None)
    res.pop("detail", None)
    whole_fixed_bad = any(s in ("timeout", "error") for s in fixed_runs)
    res["detected"] = False
    if semantic and not whole_fixed_bad:
        res["detected"], res["reason"] = True, "failing test"
    elif st == "timeout" and not whole_fixed_bad:
        res["detected"], res["reason"] = True, "timeout"
    elif st == "error" and not whole_fixed_bad:
        res["detected"], res["reason"] = True, "JUnit did not finish on the faulty version"
        res["note"] = tail(os.path.join(work, "junit-faulty.log"), 3)
    else:
        exe = os.path.join(work, "jacoco.exec")
        res["reason"], res["detail"] = classify(jacoco_xml(a, cls, fixed, exe, work), cls, rec.get("changed", {}))
        if real and not whole_fixed_bad:
            res["reason"] = LINKAGE_ONLY
        if whole_fixed_bad:
            res["note"] = f"the runs on the fixed version: {fixed_runs}"
    res["judged"] = JUDGED


def one_class(a, tool, cls, rec, bug_dir):
    """Generate for cls with tool, run on fixed x3 and faulty; the class's result (cached)."""
    work = os.path.join(bug_dir, "runs", f"{tool}-{a.time}s-seed{a.seed}", cls)
    res_path = os.path.join(work, "result.json")
    if os.path.exists(res_path) and not a.fresh:
        with open(res_path) as f:
            res = json.load(f)
        if "faulty_run" in res and res.get("judged") != JUDGED:
            judge(a, cls, rec, work, res)  # a result of an earlier rule: judged again from its logs
            save(res, res_path)
        return res
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    deps = rec.get("deps", [])
    fixed = ":".join([os.path.join(bug_dir, "fixed-classes")] + deps)
    faulty = ":".join([os.path.join(bug_dir, "faulty-classes")] + deps)
    t0 = time.monotonic()
    maker = jforge_suite if tool == "jforge" else randoop_suite
    tests, cdir, info = maker(a, cls, fixed, work)
    res = {"tool": tool, "class": cls, "gen": info, "detected": False}
    if not tests:
        res["reason"] = REASONS[0]
        res["seconds"] = round(time.monotonic() - t0, 1)
        return save(res, res_path)
    exe = os.path.join(work, "jacoco.exec")
    agent = f"-javaagent:{a.jacoco['agent']}=destfile={exe},includes={cls}:{cls}$*"
    flaky, fixed_runs = set(), []
    for i in range(3):
        st, failed = junit(cdir + ":" + fixed, tests, os.path.join(work, f"junit-fixed{i + 1}.log"),
                           [agent] if i == 0 else [])
        fixed_runs.append(st)
        flaky.update(failed)
    res["fixed_runs"], res["flaky"] = fixed_runs, sorted(flaky)
    st, failed = junit(cdir + ":" + faulty, tests, os.path.join(work, "junit-faulty.log"))
    res["faulty_run"] = st
    judge(a, cls, rec, work, res)
    res["seconds"] = round(time.monotonic() - t0, 1)
    return save(res, res_path)


def fault_verdict(results):
    """(detected, reason) of a fault from its classes' results."""
    if not results:
        return False, "not run"
    if any(r["detected"] for r in results):
        return True, next(r["reason"] for r in results if r["detected"])
    return False, max((r["reason"] for r in results), key=lambda x: REASONS.index(x) if x in REASONS else -1)


# ---------------------------------------------------------------- report


def cell(v):
    if not v:
        return "-"
    det, reason, n = v
    return f"**detected** ({n} tests)" if det else f"missed: {reason} ({n} tests)"


def report_builds(rows, skipped):
    """--build-only: which faults compile, per project."""
    print("| project | faults | both versions compile | skipped |")
    print("|---|---|---|---|")
    for p in sorted({r["project"] for r in rows}, key=list(PROJECTS).index):
        mine = [r for r in rows if r["project"] == p]
        bad = [r for r in mine if r.get("skip")]
        print(f"| {p} | {len(mine)} | {len(mine) - len(bad)} | {len(bad)} |")
    for r in rows:
        if r.get("skip"):
            print(f"skipped {r['project']}-{r['bug']}: {r['skip']}")
    for p, why in skipped.items():
        print(f"skipped in {p}: {why}")


def report(rows, skipped, tools):
    if not tools:
        return report_builds(rows, skipped)
    print("| project | bug | class(es) | " + " | ".join(tools) + " |")
    print("|---|---|---|" + "---|" * len(tools))
    for r in rows:
        classes = ", ".join(c.rsplit(".", 1)[-1] for c in r.get("classes", []))
        if r.get("skip"):
            print(f"| {r['project']} | {r['bug']} | {classes} | " + " | ".join(["skipped"] * len(tools)) + " |")
            continue
        cells = []
        for t in tools:
            v = r["tools"].get(t)
            cells.append(cell((v["detected"], v["reason"], v["tests"])) if v else "-")
        print(f"| {r['project']} | {r['bug']} | {classes} | " + " | ".join(cells) + " |")
    print()
    print("| project | faults run | skipped | " + " | ".join(f"{t} detected" for t in tools) + " |")
    print("|---|---|---|" + "---|" * len(tools))
    for p in sorted({r["project"] for r in rows}, key=list(PROJECTS).index):
        mine = [r for r in rows if r["project"] == p]
        ran = [r for r in mine if not r.get("skip")]
        cells = []
        for t in tools:
            done = [r for r in ran if t in r["tools"]]
            cells.append(f"{sum(r['tools'][t]['detected'] for r in done)} / {len(done)}")
        print(f"| {p} | {len(ran)} | {len(mine) - len(ran)} | " + " | ".join(cells) + " |")
    print()
    for t in tools:
        reasons = {}
        for r in rows:
            v = r.get("tools", {}).get(t)
            if v and not v["detected"]:
                reasons[v["reason"]] = reasons.get(v["reason"], 0) + 1
        if reasons:
            print(f"{t} misses: " + ", ".join(f"{k}: {n}" for k, n in sorted(reasons.items(), key=lambda x: REASONS.index(x[0]) if x[0] in REASONS else 9)))
    for r in rows:
        for t in tools:
            for c in r.get("tools", {}).get(t, {}).get("classes", []):
                if c["reason"] == REASONS[0] and c["gen"].get("error"):
                    print(f"{r['project']}-{r['bug']} {t} on {c['class'].rsplit('.', 1)[-1]}: {c['gen']['error']}")
    for r in rows:
        if r.get("skip"):
            print(f"skipped {r['project']}-{r['bug']}: {r['skip']}")
    for p, why in skipped.items():
        print(f"skipped in {p}: {why}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring (the top of this file) for the protocol.")
    ap.add_argument("--defects4j", default=os.environ.get("DEFECTS4J", "/work/.mirror/rjust+defects4j/repo"),
                    help="Defects4J git directory or checkout (env DEFECTS4J)")
    ap.add_argument("--mirrors", default=os.environ.get("JFORGE_MIRRORS", "/work/.mirror"),
                    help="folder of <owner>+<name>/repo git directories (env JFORGE_MIRRORS)")
    ap.add_argument("--repo", action="append", default=[], metavar="P=GIT_DIR",
                    help="the history of project P (repeatable)")
    ap.add_argument("--projects", default=",".join(PROJECTS), help="comma-separated Defects4J project names")
    ap.add_argument("--bugs", default="", help="P-N or P-N..M, comma-separated")
    ap.add_argument("--limit", type=int, default=0, help="first N faults, round-robin over the projects")
    ap.add_argument("--time", type=int, default=60, help="seconds per class and tool (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="jforge's worker JVMs (default 1)")
    ap.add_argument("--tools", default="jforge,randoop")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/jforge-bench/real-faults"))
    ap.add_argument("--jforge", default=os.environ.get("JFORGE", os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "jforge")))
    ap.add_argument("--randoop-jar", default=os.environ.get("RANDOOP_JAR",
                                                            os.path.expanduser("~/anchors/randoop/randoop-all.jar")))
    ap.add_argument("--anchor-scripts", default=os.environ.get("JFORGE_ANCHORS",
                                                               os.path.join(ROOT, "..", "shared", "anchors")))
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--fresh", action="store_true", help="ignore cached builds and results")
    ap.add_argument("--list", action="store_true", help="list the selectable faults per project and exit")
    ap.add_argument("--table", metavar="JSON", help="print the tables of an earlier --json file and exit")
    ap.add_argument("--build-only", action="store_true",
                    help="only lay out and compile the selected faults (no tool runs); says which compile")
    a = ap.parse_args()
    if a.table:
        with open(a.table) as f:
            d = json.load(f)
        report(d["faults"], d["meta"]["skipped_projects"], d["meta"]["tools"])
        return
    a.repo = dict(r.split("=", 1) for r in a.repo)
    a.projects = [p for p in a.projects.split(",") if p]
    a.tools = [t for t in a.tools.split(",") if t]
    for t in a.tools:
        if t not in TOOLS:
            sys.exit(f"--tools: unknown tool {t} (known: {', '.join(TOOLS)})")
    if not os.path.exists(a.defects4j):
        sys.exit(f"{a.defects4j}: no Defects4J here (fetch github:rjust/defects4j, pass --defects4j)")
    d4j = Defects4J(a.defects4j)
    faults, skipped = selectable(a, d4j)
    if a.list:
        for p in a.projects:
            n = sum(1 for f in faults if f[0] == p)
            print(f"{p}: {n} selectable" + (f" ({skipped[p]})" if p in skipped else ""))
        print(f"total: {len(faults)} selectable faults")
        return
    chosen = pick(faults, a)
    if a.build_only:
        a.tools = []
    if "jforge" in a.tools and not os.access(a.jforge, os.X_OK):
        sys.exit(f"{a.jforge}: no jforge binary (cargo build --release, or --jforge)")
    if "randoop" in a.tools and not os.path.exists(a.randoop_jar):
        sys.exit(f"{a.randoop_jar}: no Randoop jar (see ../shared/anchors/README.md)")
    a.jacoco = sc.jacoco_jars(os.path.dirname(os.path.normpath(a.cache)))
    started = datetime.datetime.now(datetime.timezone.utc)
    rows = []
    meta = {"date": started.isoformat(timespec="seconds"), "machine": platform.node(), "cores": os.cpu_count(),
            "argv": sys.argv[1:], "time": a.time, "seed": a.seed, "workers": a.workers, "tools": a.tools,
            "selectable": len(faults), "selected": len(chosen), "skipped_projects": skipped}

    def write_json():
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"meta": meta, "faults": rows}, f, indent=1)

    for i, (p, bug) in enumerate(chosen, 1):
        bug_dir = os.path.join(a.cache, p, bug["bug.id"])
        log(f"[{i}/{len(chosen)}] {p}-{bug['bug.id']}: building")
        rec = build(a, d4j, p, bug, bug_dir)
        row = {"project": p, "bug": bug["bug.id"], "classes": rec.get("classes", []),
               "fixed_commit": rec["fixed_commit"], "tools": {}}
        if rec.get("skip"):
            row["skip"] = rec["skip"]
            log(f"  skipped: {rec['skip']}")
        elif a.build_only:
            pass
        else:
            for t in a.tools:
                results = []
                for cls in rec["classes"]:
                    log(f"  {t} on {cls}")
                    results.append(one_class(a, t, cls, rec, bug_dir))
                det, reason = fault_verdict(results)
                row["tools"][t] = {"detected": det, "reason": reason,
                                   "tests": sum(r["gen"].get("tests_written") or 0 for r in results),
                                   "classes": results}
                log(f"  {t}: {'detected' if det else 'missed: ' + reason}")
        rows.append(row)
        write_json()
    meta["seconds"] = round((datetime.datetime.now(datetime.timezone.utc) - started).total_seconds())
    write_json()
    report(rows, skipped, a.tools)
    print(f"\n{len(rows)} of {len(faults)} selectable faults selected; {meta['seconds']} s")


if __name__ == "__main__":
    main()
