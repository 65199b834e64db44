#!/usr/bin/env python3
"""Benchmark of `jforge gen --project` on released open-source Maven projects (issue 33, item 9).

Each project is rebuilt from Maven Central alone: the released pom, its `-sources.jar` and its
`-test-sources.jar` (https://repo1.maven.org/maven2/, SHA-1 checked, cached under
~/.cache/jforge-bench/real-projects; nothing of it is in the repository) are unpacked into a
Maven layout: pom.xml, src/main/java and src/test/java for the .java files, src/main/resources
and src/test/resources for the other files of the jars (without the META-INF files a build
adds itself: MANIFEST.MF, maven/, LICENSE, NOTICE, DEPENDENCIES). The pom is not changed.

Per project, in a fresh copy of that layout (a git repository, for the churn):

  1. own suite:   mvn -B clean org.jacoco:jacoco-maven-plugin:VER:prepare-agent verify
                  then mvn -B org.jacoco:jacoco-maven-plugin:VER:report
                  (the project's own `mvn verify`, its tests run with the JaCoCo agent, which
                  prepare-agent hands Surefire through the `argLine` property; without
                  prepare-agent when the build attaches JaCoCo itself, as the effective POM
                  says (two agents on one file stop the fork); the report is a call of its
                  own so that a failing build still reports coverage):
                  branch and line coverage of the main classes, pass/fail, wall time.
  2. gen:         jforge gen --project DIR --time-limit T --stats-json ... (wall time).
  3. written:     the files jforge wrote (under src/test/java, found by their `// jforge:`
                  marker line, docs/output.md): files, `@Test` methods, lines; the
                  `*ErrorCases` files apart (Surefire's default includes skip them).
  4. own+written: step 1 again with the written tests in place: coverage, pass/fail of
                  `mvn verify` and its first [ERROR] lines, wall time; what the written
                  classes printed (Surefire's console between `Running C` and C's `Tests
                  run:`) and the written lines that call System.out/err. When that build
                  fails, the coverage comes from one more run, `clean prepare-agent test
                  report -Drat.skip=true -Dmaven.test.failure.ignore=true`, and the table
                  says so.
  5. re-run:      jforge gen --project again into the same project (same flags): the lines
                  that changed in the written files (git diff --numstat against the first
                  run, committed; the larger of added and removed lines, summed over the
                  files, as a share of the first run's written lines), and whether every
                  earlier test is counted (earlier_suite.tests of --stats-json equals the
                  first run's regression @Test count, kept + added equals the second's).

Prints a table (Markdown) and writes every figure with --json FILE.

A project's flags, when its build needs some as laid out, are listed in PROJECTS with the
reason (commons-lang3's javadoc, which needs the internet; no other). Rejected, 2026-11-27: jsoup 1.18.1 and joda-convert 2.2.3 (no
-test-sources.jar on Central), commons-codec 1.17.1 (its own Base64Test.testCodec265 runs out
of heap in Surefire's fork on the 24 GiB benchmark machine: `mvn verify` fails without jforge),
commons-validator 1.9.0 (its Surefire argLine is `${argLine}`, defined only by commons-parent's
JaCoCo profile, which a file of src/site switches on: laid out without src/site, the fork
gets a literal `${argLine}` and `mvn verify` fails; it would need -DargLine=), commons-text
1.12.0 (two of its own tests look up apache.org: no internet but Maven Central here),
commons-jexl3 3.4.0 (its sources jar holds the JavaCC parser's generated files without
license headers: apache-rat fails), commons-collections4 4.4 (maven-bundle-plugin 4.1.0 stops
with a ConcurrentModificationException on JDK 17).

Usage:
  bench/real_projects.py [--projects NAME,...] [--time-limit 60s] [--jforge PATH]
                         [--json FILE] [--work DIR] [--keep]
  bench/real_projects.py --layout-only NAME DIR   # lay one project out into DIR (an empty
                                                  # or missing folder) and exit
  bench/real_projects.py --list
  bench/real_projects.py --table A.json B.json    # one table from earlier --json files
"""
import argparse
import datetime
import difflib  # noqa: F401  (kept for readers who compare files by hand)
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CENTRAL = "https://repo1.maven.org/maven2"
JACOCO_PLUGIN = "org.jacoco:jacoco-maven-plugin:0.8.12"
MARKER = re.compile(r"^// jforge: ")
TEST_ANNOTATION = re.compile(r"^\s*@Test\b", re.M)
# META-INF files of a sources jar that the project's build makes itself (not sources).
SKIP_META = ("META-INF/MANIFEST.MF", "META-INF/maven/", "META-INF/LICENSE", "META-INF/NOTICE",
             "META-INF/DEPENDENCIES")
# Files of a sources jar that the build generates again (JMH's annotation processor writes
# these into target/generated-test-sources; commons-text's test-sources jar holds copies,
# which apache-rat rejects and javac would see twice).
GENERATED = ("/jmh_generated/", "META-INF/BenchmarkList", "META-INF/CompilerHints")
# Flags of the coverage run after a failed `mvn verify` with the written tests (only then).
COVERAGE_FALLBACK = ["-Drat.skip=true", "-Dmaven.test.failure.ignore=true"]
MVN_TIMEOUT = 3600
GEN_TIMEOUT = 1800

# name -> groupId, artifactId, version, flags for every Maven call (each with its reason).
PROJECTS = {
    "commons-cli": {"group": "commons-cli", "artifact": "commons-cli", "version": "1.9.0",
                    "flags": []},
    "commons-csv": {"group": "org.apache.commons", "artifact": "commons-csv", "version": "1.14.1",
                    "flags": []},
    "commons-text": {"group": "org.apache.commons", "artifact": "commons-text", "version": "1.12.0",
                     "flags": []},
    "commons-dbutils": {"group": "commons-dbutils", "artifact": "commons-dbutils", "version": "1.8.1",
                        "flags": []},
    # -Dmaven.javadoc.skip=true: its build makes the javadoc jar in `package`, linking to
    # commons.apache.org and docs.oracle.com; with only Maven Central reachable javadoc fails
    # ("Error fetching URL") and so does `mvn verify`, although all 11,508 tests pass.
    "commons-lang3": {"group": "org.apache.commons", "artifact": "commons-lang3", "version": "3.17.0",
                      "flags": ["-Dmaven.javadoc.skip=true"]},
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    return os.path.join(base, "jforge-bench", "real-projects")


# ---------------------------------------------------------------- Maven Central


def fetch(rel, cache):
    """A file of Maven Central (path relative to the repository root), downloaded once into the
    cache and checked against its .sha1. Fails with a clear message when Central is unreachable."""
    path = os.path.join(cache, rel)
    if os.path.exists(path):
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    url = f"{CENTRAL}/{rel}"
    log(f"downloading {url}")
    try:
        data = urllib.request.urlopen(url, timeout=120).read()
        want = urllib.request.urlopen(url + ".sha1", timeout=60).read().decode().split()[0]
    except (urllib.error.URLError, OSError) as e:
        raise SystemExit(f"cannot download {url} (Maven Central unreachable?): {e}")
    if hashlib.sha1(data).hexdigest() != want:
        raise SystemExit(f"SHA-1 mismatch for {url}")
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)
    return path


def artifact_files(p, cache):
    base = f"{p['group'].replace('.', '/')}/{p['artifact']}/{p['version']}/{p['artifact']}-{p['version']}"
    return (fetch(base + ".pom", cache), fetch(base + "-sources.jar", cache),
            fetch(base + "-test-sources.jar", cache))


def unpack(jar, java_dir, res_dir):
    n = 0
    with zipfile.ZipFile(jar) as z:
        for info in z.infolist():
            name = info.filename
            if info.is_dir() or name.startswith(SKIP_META) or ".." in name.split("/") or \
                    any(g in name for g in GENERATED):
                continue
            dest = os.path.join(java_dir if name.endswith(".java") else res_dir, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(info) as src, open(dest, "wb") as out:
                shutil.copyfileobj(src, out)
            n += 1
    return n


def layout(name, dest, cache):
    """Lays project NAME out in DEST (missing or empty) as a Maven project."""
    if name not in PROJECTS:
        raise SystemExit(f"unknown project {name!r}; known: {', '.join(PROJECTS)}")
    if os.path.exists(dest) and os.listdir(dest):
        raise SystemExit(f"{dest} is not empty")
    pom, src, test = artifact_files(PROJECTS[name], cache)
    os.makedirs(dest, exist_ok=True)
    shutil.copyfile(pom, os.path.join(dest, "pom.xml"))
    unpack(src, os.path.join(dest, "src/main/java"), os.path.join(dest, "src/main/resources"))
    unpack(test, os.path.join(dest, "src/test/java"), os.path.join(dest, "src/test/resources"))
    return dest


# ---------------------------------------------------------------- Maven and git


# [ERROR] lines of a build that passes too: the SPDX plugin of Apache parents without spdx.org.
NOISE = ("spdx.org",)


def first_errors(out, n=8):
    lines = [l.rstrip() for l in out.splitlines()
             if l.startswith("[ERROR]") and l.strip() != "[ERROR]" and not any(x in l for x in NOISE)]
    return lines[:n]


def mvn(project, args, flags):
    cmd = ["mvn", "-B", "-f", os.path.join(project, "pom.xml")] + flags + args
    t = time.monotonic()
    env = dict(os.environ)
    env.pop("MAVEN_ARGS", None)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=MVN_TIMEOUT, env=env)
        rc, out = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = -1, f"[ERROR] timed out after {MVN_TIMEOUT} s\n{e.stdout or ''}"
    return rc, out, time.monotonic() - t


def git(project, *args):
    return subprocess.run(["git", "-C", project, "-c", "user.name=bench", "-c", "user.email=bench@localhost",
                           "-c", "commit.gpgsign=false"] + list(args),
                          capture_output=True, text=True, check=True).stdout


def jacoco_csv_totals(project):
    """Branch and line counters of the main classes from JaCoCo's CSV report."""
    path = os.path.join(project, "target", "site", "jacoco", "jacoco.csv")
    if not os.path.exists(path):
        return None
    tot = {"branches_covered": 0, "branches_total": 0, "lines_covered": 0, "lines_total": 0}
    with open(path, encoding="utf-8") as f:
        head = f.readline().strip().split(",")
        ix = {k: head.index(k) for k in ("BRANCH_MISSED", "BRANCH_COVERED", "LINE_MISSED", "LINE_COVERED")}
        for line in f:
            c = line.strip().split(",")
            if len(c) < len(head):
                continue
            bc, bm = int(c[ix["BRANCH_COVERED"]]), int(c[ix["BRANCH_MISSED"]])
            lc, lm = int(c[ix["LINE_COVERED"]]), int(c[ix["LINE_MISSED"]])
            tot["branches_covered"] += bc
            tot["branches_total"] += bc + bm
            tot["lines_covered"] += lc
            tot["lines_total"] += lc + lm
    return tot


def attaches_jacoco(project, flags):
    """Whether the project's build already runs JaCoCo's prepare-agent (commons-dbutils does):
    a second agent on the same file stops Surefire's fork, so it is not added then."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "effective.xml")
        rc, out, _ = mvn(project, ["help:effective-pom", f"-Doutput={path}"], flags)
        if rc != 0 or not os.path.exists(path):
            raise SystemExit(f"mvn help:effective-pom failed in {project}:\n" + "\n".join(first_errors(out)))
        with open(path, encoding="utf-8") as f:
            text = f.read()
    text = re.sub(r"<pluginManagement>.*?</pluginManagement>", "", text, flags=re.S)
    text = re.sub(r"<reporting>.*?</reporting>", "", text, flags=re.S)
    return "<goal>prepare-agent</goal>" in text


def verify_with_coverage(project, flags, own_agent):
    """The project's `mvn verify` with the JaCoCo agent (its own when its build attaches one),
    then JaCoCo's report (its own call)."""
    agent = [] if own_agent else [f"{JACOCO_PLUGIN}:prepare-agent"]
    rc, out, secs = mvn(project, ["clean"] + agent + ["verify"], flags)
    rrc, rout, rsecs = mvn(project, [f"{JACOCO_PLUGIN}:report"], flags)
    cov = jacoco_csv_totals(project) if rrc == 0 else None
    tests = surefire_counts(out)
    return {"passed": rc == 0, "errors": [] if rc == 0 else first_errors(out), "seconds": round(secs + rsecs, 1),
            "coverage": cov, "surefire": tests, "report_errors": [] if rrc == 0 else first_errors(rout),
            "output": out}


def console_output(out, classes):
    """What the given test classes printed in the build: Surefire runs one class at a time and
    copies its console output between `Running C` and C's `Tests run:` line."""
    hits, current = [], None
    for line in out.splitlines():
        if line.startswith("[INFO] Running "):
            c = line[len("[INFO] Running "):].strip()
            current = c if c in classes else None
        elif line.startswith("[") and "Tests run:" in line:
            current = None
        elif current:
            hits.append(f"{current}: {line}")
    return hits


def surefire_counts(out):
    """Surefire's last `Tests run: N, Failures: F, Errors: E, Skipped: S` total line."""
    m = re.findall(r"^\[(?:INFO|WARNING|ERROR)\] Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$",
                   out, re.M)
    if not m:
        return None
    run, fail, err, skip = map(int, m[-1])
    return {"run": run, "failures": fail, "errors": err, "skipped": skip}


# ---------------------------------------------------------------- jforge's files


def written_files(project):
    """The files jforge wrote under src/test/java (a `// jforge:` marker line near the top)."""
    out = []
    root = os.path.join(project, "src", "test", "java")
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".java"):
                continue
            path = os.path.join(d, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                head = [fh.readline() for _ in range(60)]
            if any(MARKER.match(l) for l in head):
                out.append(path)
    return sorted(out)


def suite_counts(files):
    c = {"files": 0, "tests": 0, "lines": 0, "error_files": 0, "error_tests": 0, "error_lines": 0}
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        tests, lines = len(TEST_ANNOTATION.findall(text)), text.count("\n")
        pre = "error_" if os.path.basename(path).endswith("ErrorCases.java") else ""
        c[pre + "files"] += 1
        c[pre + "tests"] += tests
        c[pre + "lines"] += lines
    return c


CONSOLE_CALL = re.compile(r"\bSystem\s*\.\s*(out|err)\b")


def console_calls(files):
    """Lines of the written files that name System.out or System.err (what a test prints
    through the code under test is in written_console_output, from the build's output)."""
    hits = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for i, line in enumerate(fh, 1):
                if CONSOLE_CALL.search(line) and not line.lstrip().startswith("//"):
                    hits.append(f"{os.path.basename(path)}:{i}: {line.strip()}")
    return hits


def license_header(project, folder):
    """The block comment most .java files under src/FOLDER/java start with (None without one)."""
    heads = {}
    root = os.path.join(project, "src", folder, "java")
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".java"):
                with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                    text = fh.read().lstrip()
                if text.startswith("/*"):
                    end = text.find("*/")
                    if end > 0:
                        h = text[:end + 2]
                        heads[h] = heads.get(h, 0) + 1
    if not heads:
        return None
    return max(heads.items(), key=lambda kv: kv[1])[0]


def missing_header(files, header):
    out = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as fh:
            if not fh.read().lstrip().startswith(header):
                out.append(path)
    return out


def churn(project, first_lines):
    """Lines changed by the re-run in the written files, against the commit of the first run."""
    git(project, "add", "-A", "src/test/java")
    stat = git(project, "diff", "--cached", "--numstat", "HEAD", "--", "src/test/java")
    added = removed = 0
    for line in stat.splitlines():
        a, r, _ = line.split("\t", 2)
        if a != "-":
            added, removed = added + int(a), removed + int(r)
    changed = max(added, removed)
    return {"added": added, "removed": removed, "changed": changed,
            "share": round(changed / first_lines, 4) if first_lines else None}


# ---------------------------------------------------------------- one project


def jforge_gen(jforge, project, flags, time_limit, stats):
    cmd = [jforge, "gen", "--project", project, "--time-limit", time_limit, "--quiet", "--stats-json", stats]
    cmd += [f"--maven-arg={f}" for f in flags]
    t = time.monotonic()
    env = dict(os.environ)
    env.pop("MAVEN_ARGS", None)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=GEN_TIMEOUT, env=env)
        rc, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        rc, err = -1, f"timed out after {GEN_TIMEOUT} s"
    secs = time.monotonic() - t
    s = None
    if os.path.exists(stats):
        with open(stats) as f:
            s = json.load(f)
    with open(stats[:-len(".json")] + ".stderr", "w") as f:  # the whole of it, next to the stats
        f.write(err)
    return {"exit": rc, "seconds": round(secs, 1), "stderr_tail": err.strip().splitlines()[-8:],
            "errors": [l for l in err.splitlines() if l.startswith("error")][:5],
            "command": " ".join(cmd)}, s


def run_project(name, args, work):
    p = PROJECTS[name]
    flags = p["flags"]
    proj = os.path.join(work, name)
    res = {"project": name, "version": p["version"], "coordinates": f"{p['group']}:{p['artifact']}:{p['version']}",
           "maven_flags": flags}
    t = time.monotonic()
    layout(name, proj, args.cache)
    git(proj, "init", "-q")
    git(proj, "add", "-A")
    git(proj, "commit", "-q", "-m", "laid out")
    res["layout_seconds"] = round(time.monotonic() - t, 1)

    # The header the project's own tests share (its main sources' when it has no tests),
    # read before jforge writes: the one apache-rat accepts in the folder jforge writes to.
    header = license_header(proj, "test") or license_header(proj, "main")
    own_agent = attaches_jacoco(proj, flags)
    res["jacoco_agent"] = "the project's own" if own_agent else JACOCO_PLUGIN
    log(f"{name}: own suite (mvn verify with JaCoCo)")
    res["own"] = verify_with_coverage(proj, flags, own_agent)
    log(f"{name}: jforge gen --project --time-limit {args.time_limit}")
    res["gen"], stats1 = jforge_gen(args.jforge, proj, flags, args.time_limit, os.path.join(work, f"{name}-1.json"))
    files = written_files(proj)
    res["written"] = suite_counts(files)
    res["missing_license_header"] = [os.path.relpath(f, proj) for f in missing_header(files, header)] if header else []
    res["console_calls"] = console_calls(files)[:20]
    log(f"{name}: own+written (mvn verify with JaCoCo)")
    res["own_written"] = verify_with_coverage(proj, flags, own_agent)
    if not res["own_written"]["coverage"]:
        # The build failed before JaCoCo's data was complete (apache-rat on the written files,
        # a failing test): measure the coverage anyway, past those two, and say so.
        fb = COVERAGE_FALLBACK
        agent = [] if own_agent else [f"{JACOCO_PLUGIN}:prepare-agent"]
        rc, out, secs = mvn(proj, ["clean"] + agent + ["test", f"{JACOCO_PLUGIN}:report"] + fb, flags)
        res["own_written"]["coverage"] = jacoco_csv_totals(proj) if rc == 0 else None
        res["own_written"]["coverage_flags"] = fb
        res["own_written"]["coverage_surefire"] = surefire_counts(out)
    root = os.path.join(proj, "src", "test", "java")
    classes = {os.path.relpath(f, root)[:-len(".java")].replace(os.sep, ".") for f in files}
    res["written_console_output"] = console_output(res["own_written"]["output"], classes)[:20]
    for k in ("own", "own_written"):
        res[k].pop("output")

    git(proj, "add", "-A", "src/test/java")
    git(proj, "commit", "-q", "--allow-empty", "-m", "first run")
    log(f"{name}: re-run")
    res["rerun"], stats2 = jforge_gen(args.jforge, proj, flags, args.time_limit, os.path.join(work, f"{name}-2.json"))
    files2 = written_files(proj)
    res["rerun"]["written"] = suite_counts(files2)
    res["rerun"]["churn"] = churn(proj, res["written"]["lines"] + res["written"]["error_lines"])
    earlier = (stats2 or {}).get("earlier_suite")
    res["rerun"]["earlier_suite"] = earlier
    first_reg, second_reg = res["written"]["tests"], res["rerun"]["written"]["tests"]
    res["rerun"]["all_counted"] = bool(earlier) and earlier["tests"] == first_reg and \
        earlier["kept"] + earlier["added"] == second_reg if first_reg else earlier is None
    for key, s in (("gen", stats1), ("rerun", stats2)):
        cov = ((s or {}).get("coverage") or {}).get("suite") or {}
        res[key]["jforge_suite_coverage"] = {k: cov.get(k) for k in ("branches_covered", "branches_total",
                                                                       "lines_covered", "lines_total") if k in cov}
        # jforge's final check: tests it removed and why (a budget cut can remove them all).
        res[key]["validation"] = (s or {}).get("validation")
        res[key]["regression_tests"] = (s or {}).get("regression_tests")
    if not args.keep:
        shutil.rmtree(proj, ignore_errors=True)
    return res


# ---------------------------------------------------------------- report


def pct(c, what):
    if not c or not c.get(f"{what}_total"):
        return "-"
    return f"{c[f'{what}_covered']}/{c[f'{what}_total']} ({100.0 * c[f'{what}_covered'] / c[f'{what}_total']:.1f}%)"


def table(results):
    rows = ["| project | own branches | own lines | own+written branches | own+written lines "
            "| tests / lines written | mvn verify with them | re-run churn | own verify s | gen s | verify s | re-run s |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "failed" in r:
            rows.append(f"| {r['project']} {r.get('version', '')} | failed: {r['failed']} |" + " |" * 10)
            continue
        w, ch = r["written"], r["rerun"]["churn"]
        err = "" if not w["error_tests"] else f" (+{w['error_tests']} error tests)"
        verdict = "passes" if r["own_written"]["passed"] else "FAILS"
        sf = r["own_written"].get("surefire") or r["own_written"].get("coverage_surefire")
        if not r["own_written"]["passed"] and sf and sf["failures"] + sf["errors"]:
            verdict += f" ({sf['failures'] + sf['errors']} of {sf['run']} tests fail)"
        if not r["own"]["passed"]:
            verdict += " (fails without them too)"
        churn_s = f"{ch['changed']}/{w['lines'] + w['error_lines']} ({100 * ch['share']:.1f}%)" if ch["share"] is not None else "-"
        if r["rerun"]["exit"] not in (0, 3):
            churn_s = f"re-run failed (exit {r['rerun']['exit']})"
        elif not r["rerun"]["all_counted"]:
            churn_s += ", tests uncounted"
        if r["gen"]["exit"] not in (0, 3):
            verdict = f"gen failed (exit {r['gen']['exit']}); " + verdict
        v = r["gen"].get("validation") or {}
        if v.get("budget_cut") and v.get("failing_removed"):
            err += f" (check cut by its budget: {v['failing_removed']} tests removed)"
        if r["missing_license_header"]:
            verdict += f"; {len(r['missing_license_header'])} files without the license header"
        if r["written_console_output"]:
            verdict += f"; prints ({len(r['written_console_output'])} lines)"
        if r["console_calls"]:
            verdict += f"; {len(r['console_calls'])} calls of System.out/err"
        if r["own_written"].get("coverage_flags"):
            verdict += " (coverage with " + " ".join(r["own_written"]["coverage_flags"]) + ")"
        rows.append(
            f"| {r['project']} {r['version']} | {pct(r['own']['coverage'], 'branches')} | {pct(r['own']['coverage'], 'lines')} "
            f"| {pct(r['own_written']['coverage'], 'branches')} | {pct(r['own_written']['coverage'], 'lines')} "
            f"| {w['tests']} / {w['lines']}{err} | {verdict} | {churn_s} | {r['own']['seconds']:.0f} "
            f"| {r['gen']['seconds']:.0f} | {r['own_written']['seconds']:.0f} | {r['rerun']['seconds']:.0f} |")
    return "\n".join(rows)


def machine():
    def out(cmd):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True)
            return (r.stdout + r.stderr).strip().splitlines()[0]
        except OSError:
            return "?"
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "nproc": os.cpu_count(), "kernel": platform.release(), "java": out(["java", "-version"]),
            "maven": re.sub(r"\x1b\[[0-9;]*m", "", out(["mvn", "-v"]))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--projects", help="comma-separated names (default: all)")
    ap.add_argument("--time-limit", default="60s", help="jforge gen's --time-limit (default 60s)")
    ap.add_argument("--jforge", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                                                     "release", "jforge"))
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--work", help="work folder (default: a temporary one, removed)")
    ap.add_argument("--keep", action="store_true", help="keep each project's folder")
    ap.add_argument("--cache", default=cache_dir())
    ap.add_argument("--layout-only", nargs=2, metavar=("NAME", "DIR"))
    ap.add_argument("--flags", metavar="NAME", help="print the Maven flags project NAME needs, one a line")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--table", nargs="+", metavar="JSON", help="print the table of earlier --json files and exit")
    a = ap.parse_args()
    if a.table:
        results = []
        for path in a.table:
            with open(path) as f:
                results += json.load(f)["projects"]
        print(table(results))
        return
    if a.list:
        for n, p in PROJECTS.items():
            print(f"{n}\t{p['group']}:{p['artifact']}:{p['version']}")
        return
    if a.flags:
        if a.flags not in PROJECTS:
            raise SystemExit(f"unknown project {a.flags!r}")
        for f in PROJECTS[a.flags]["flags"]:
            print(f)
        return
    if a.layout_only:
        layout(a.layout_only[0], a.layout_only[1], a.cache)
        print(a.layout_only[1])
        return
    names = a.projects.split(",") if a.projects else list(PROJECTS)
    for n in names:
        if n not in PROJECTS:
            raise SystemExit(f"unknown project {n!r}; known: {', '.join(PROJECTS)}")
    if not os.access(a.jforge, os.X_OK):
        raise SystemExit(f"{a.jforge} is not an executable (build it: cargo build --release, or --jforge PATH)")
    a.jforge = os.path.abspath(a.jforge)
    work = a.work or tempfile.mkdtemp(prefix="jforge-real-")
    os.makedirs(work, exist_ok=True)
    results = []
    info = machine()
    for n in names:
        t = time.monotonic()
        try:
            r = run_project(n, a, work)
        except subprocess.CalledProcessError as e:
            r = {"project": n, "version": PROJECTS[n]["version"], "failed": f"{e.cmd}: {e.stderr.strip()[:300]}"}
        r["total_seconds"] = round(time.monotonic() - t, 1)
        results.append(r)
        log(json.dumps(r, indent=1))
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"machine": info, "time_limit": a.time_limit, "projects": results}, f, indent=1)
    print(table(results))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
