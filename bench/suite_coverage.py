#!/usr/bin/env python3
"""Coverage of the suite `jforge gen` writes, measured with the standard tools (JUnit + JaCoCo).

jforge's own coverage figure (the `coverage` object of `--stats-json`) counts every branch
that any executed sequence reached during generation. Users get only the written regression
suite, so this command measures that suite the way a user's build would, per class:

1. `jforge gen --class C --time-limit Ns --seed S --stats-json ...` into a fresh temporary
   output folder (`--workers` and any arguments after `--` are passed on);
2. every `.java` file jforge wrote under that folder is compiled with javac, except the
   error-revealing tests (files whose name contains `ErrorTest`, or that sit under an
   error-tests folder outside their package path), so the layout `jforge/tests/RegressionTest0.java`
   and the layout `<package>/<Class>RegressionTest0.java` are both found;
3. the test classes run in a plain JVM under JUnit (JUnit 4's JUnitCore; the JUnit Platform
   console launcher for JUnit 5 suites) to count failures (should be 0), then again with
   JaCoCo attached:
   - classes from the class path: the JaCoCo agent with `includes=C:C$*`;
   - JDK classes (java.util.TreeMap): the agent does not instrument classes of the boot
     layer, so the class and its nested classes are extracted from the JDK's `lib/modules`
     with `jimage extract`, instrumented offline with `jacococli instrument`, patched into
     their module with `--patch-module java.base=...`; the JaCoCo runtime goes on
     `-Xbootclasspath/a` and `--add-reads java.base=ALL-UNNAMED` lets java.base see it.
     Anything the JVM or JUnit itself does with the class counts too: the "baseline"
     figures in `--json` are those of a run of one empty test under the same set-up;
4. `jacococli report` analyses the original class files of C and of every nested class
   C$* (so the totals are JaCoCo's fixed totals for the class, loaded or not) and the
   branch and line counters of those classes are added up.

5. with `--mutation`, PIT (pitest-command-line, resolved from Maven Central by `mvn` into
   ~/.m2 on first use) mutates C and C$* and runs the compiled regression suite against
   every mutant. PIT mutates only class folders, so the jar that holds C is unpacked into a
   folder that takes its place on the class path; PIT's own jars stay off the tests' class
   path (`--includeLaunchClasspath=false`: PIT needs commons-lang3 3.18 itself, and the
   subject may be another commons-lang3). JDK classes cannot be mutated by PIT (it does not
   transform the boot layer): their row says so.

6. with `--anchors randoop,evosuite`, the peer tools run on the same class after jforge, as
   yardsticks: Randoop 4.3.4 and EvoSuite 1.2.0 are not on Maven Central (GitHub releases only),
   so they are built outside the repository by the scripts in ../shared/anchors (README.md
   there; nothing of them is committed here) and run through its `randoop-run` and
   `evosuite-run` with the same seconds (`--randoop-jar`, `--evosuite-home`, `--anchor-scripts`
   or the env variables RANDOOP_JAR, EVOSUITE_HOME, JFORGE_ANCHORS say where they are).
   - Randoop: `--time-limit=N --randomseed=1`, Randoop's defaults otherwise (`--randoop-args`
     adds flags); its regression tests, `RegressionTest<N>.java` in the default package, are
     compiled and run; the error-revealing `ErrorTest*` ones (failing by design) are not;
   - EvoSuite: `-Dsearch_budget=N -seed 1`; that bounds only the search (minimization,
     assertions and its own JUnit check keep EvoSuite's timeouts), so its wall time is
     recorded next to the budget. `<Class>_ESTest.java` and its scaffolding (in the class's
     package) are compiled with `--release 11` and run on this JVM with EvoSuite's standalone
     runtime on the class path and its `java17-opens.txt` argument file. If `--release 11`
     fails (EvoSuite may import JDK internals, e.g. `sun.nio.cs.UTF_8`, which it hides), they
     are compiled by this JDK's javac with those packages exported, and the row says so;
   both suites run under JUnit 4 with the same JaCoCo set-up as jforge's (agent `includes=C:C$*`,
   or the offline-instrumented JDK classes) and the same report over the original class files,
   so the totals are those of jforge's row. Each row gets the anchor's branches, tests written
   (`@Test` methods in its regression files), tests that failed under JaCoCo, and wall time
   (the run script: generation and javac); a tool that writes nothing gets "failed: <its first
   error line>" and the run goes on.

Classes: DEFAULT_CLASSES, or `--classes FILE`: `CLASS [CLASSPATH]` per line (blanks or tabs
between, further columns ignored, `#` comments), or a tab-separated file whose header names
the columns `class` and `classpath`; a CLASSPATH entry may be `jdk` or `-` (none), a bare
Debian jar name (commons-math3.jar, looked up in /usr/share/java), or a folder of `.java`
sources (an own subject such as tests/subjects/gen/booking, relative to the repository),
which is compiled with javac into the class's work folder first.

One row per class: JaCoCo branch and line coverage of the written regression suite,
jforge's own figures for the class and its nested classes from `--stats-json`, regression
tests written, tests that failed under the plain JUnit run, and jforge's wall time; with
`--mutation`, PIT's mutation score (mutants detected: killed, timed out or out of memory,
over all mutants) and test strength (detected over the mutants the suite reaches); with
`--anchors`, a second table: per class, the branches and tests of jforge, Randoop and EvoSuite
side by side, and the wall times.

JaCoCo 0.8.15 (agent runtime and CLI) is downloaded from Maven Central into
~/.cache/jforge-bench/ on first use (Debian's libjacoco-java 0.8.6 has no CLI and predates
JaCoCo's support of Java 17 class files). JUnit comes from Debian (junit4, junit5),
commons-lang3, guava, commons-collections4, commons-math3 and joda-time from
libcommons-lang3-java, libguava-java, libcommons-collections4-java, libcommons-math3-java,
libjoda-time-java.

With `--concolic`, gen runs as `gen --concolic` and each row's solver figures (plateaus
handed over, paths and paths per second of the helper, solver calls and time) follow the
table.

Usage:
  bench/suite_coverage.py [--seconds 60] [--seed 1] [--workers N] [--only NAME]...
                          [--classes FILE] [--mutation] [--concolic] [--markdown] [--json FILE]
                          [--anchors randoop,evosuite] [--randoop-jar JAR] [--evosuite-home DIR]
                          [--jforge PATH] [-- GEN-ARGS...]
"""
import argparse
import csv
import datetime
import glob
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARE = "/usr/share/java"
LANG3 = f"{SHARE}/commons-lang3.jar"
GUAVA = f"{SHARE}/guava.jar"
COLL4 = f"{SHARE}/commons-collections4.jar"
MATH3 = f"{SHARE}/commons-math3.jar"
JODA = f"{SHARE}/joda-time.jar"
DEFAULT_CLASSES = [
    ("org.apache.commons.lang3.text.StrBuilder", LANG3),
    ("org.apache.commons.lang3.math.Fraction", LANG3),
    ("org.apache.commons.lang3.StringUtils", LANG3),
    ("com.google.common.math.IntMath", GUAVA),
    ("java.util.TreeMap", ""),
    ("org.apache.commons.collections4.queue.CircularFifoQueue", COLL4),
    ("org.apache.commons.collections4.list.TreeList", COLL4),
    ("org.apache.commons.math3.fraction.Fraction", MATH3),
    ("org.joda.time.LocalDate", JODA),
    ("java.time.LocalDate", ""),
    # An own subject: a folder of sources is compiled with javac into the class's work folder.
    ("bk.Booking", "tests/subjects/gen/booking"),
]
JUNIT4 = [f"{SHARE}/junit4.jar", f"{SHARE}/hamcrest-core.jar"]
CONSOLE = f"{SHARE}/junit-platform-console-standalone.jar"

JACOCO_VERSION = "0.8.15"
MAVEN = "https://repo1.maven.org/maven2/org/jacoco"
JACOCO_JARS = {
    "agent": f"org.jacoco.agent/{JACOCO_VERSION}/org.jacoco.agent-{JACOCO_VERSION}-runtime.jar",
    "cli": f"org.jacoco.cli/{JACOCO_VERSION}/org.jacoco.cli-{JACOCO_VERSION}-nodeps.jar",
}
PIT_VERSION = "1.30.1"
PIT_JUNIT5_VERSION = "1.2.3"
# What PIT counts as detected (its "Killed" figure): the suite failed, hung or ran out of memory.
PIT_DETECTED = {"KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR"}
# Folder names (outside the package path) that hold error-revealing tests.
ERROR_DIRS = {"error", "errors", "errortest", "errortests"}
RUN_TIMEOUT = 1800


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- tools


def java_home():
    if os.environ.get("JAVA_HOME"):
        return os.environ["JAVA_HOME"]
    java = shutil.which("java")
    if not java:
        sys.exit("no java on PATH and no JAVA_HOME")
    return os.path.dirname(os.path.dirname(os.path.realpath(java)))


def jdk_tool(name):
    return os.path.join(java_home(), "bin", name)


def jacoco_jars(cache):
    """Paths of JaCoCo's agent runtime and CLI jars, downloaded (SHA-1 checked) if missing."""
    os.makedirs(cache, exist_ok=True)
    out = {}
    for key, rel in JACOCO_JARS.items():
        path = os.path.join(cache, os.path.basename(rel))
        if not os.path.exists(path):
            log(f"downloading {MAVEN}/{rel}")
            data = urllib.request.urlopen(f"{MAVEN}/{rel}", timeout=120).read()
            want = urllib.request.urlopen(f"{MAVEN}/{rel}.sha1", timeout=60).read().decode().split()[0]
            if hashlib.sha1(data).hexdigest() != want:
                sys.exit(f"SHA-1 mismatch for {rel}")
            with open(path + ".part", "wb") as f:
                f.write(data)
            os.replace(path + ".part", path)
        out[key] = path
    return out


def pit_classpath(cache):
    """PIT's command line and its dependencies (and the JUnit 5 plugin), resolved by Maven from
    Maven Central into ~/.m2; the class path is kept in the cache folder."""
    folder = os.path.join(cache, f"pit-{PIT_VERSION}")
    cp_file = os.path.join(folder, "classpath.txt")
    if not os.path.exists(cp_file):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "pom.xml"), "w") as f:
            f.write(f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>jforge.bench</groupId><artifactId>pit-classpath</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.pitest</groupId><artifactId>pitest-command-line</artifactId>
      <version>{PIT_VERSION}</version></dependency>
    <dependency><groupId>org.pitest</groupId><artifactId>pitest-junit5-plugin</artifactId>
      <version>{PIT_JUNIT5_VERSION}</version></dependency>
  </dependencies>
</project>
""")
        mvn = shutil.which("mvn")
        if not mvn:
            sys.exit("--mutation needs Maven (apt-get install -y maven) to fetch PIT")
        log(f"resolving PIT {PIT_VERSION} with Maven")
        subprocess.run([mvn, "-q", "-B", "dependency:build-classpath",
                        "-Dmdep.outputFile=" + cp_file + ".part"], cwd=folder, check=True)
        os.replace(cp_file + ".part", cp_file)
    with open(cp_file) as f:
        return f.read().strip()


def run(cmd, log_path, cwd=None, timeout=RUN_TIMEOUT):
    """Run cmd with stdout+stderr to log_path; return (exit code, seconds). On timeout the
    whole process group goes: a tool's launcher script killed alone left its JVM running
    (Randoop on RandomStringUtils, which does not stop at its time limit, kept a core busy
    for the rest of a benchmark)."""
    t0 = time.monotonic()
    with open(log_path, "wb") as f:
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            rc = "timeout"
    return rc, time.monotonic() - t0


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


# ---------------------------------------------------------------- the written suite


def package_of(src):
    m = re.search(r"^\s*package\s+([\w.]+)\s*;", src, re.M)
    return m.group(1) if m else ""


def find_suite(out_dir):
    """The regression test sources under out_dir: [(path, binary class name, source)]."""
    found = []
    for dirpath, _, files in os.walk(out_dir):
        for fn in sorted(files):
            if not fn.endswith(".java") or "ErrorTest" in fn:
                continue
            path = os.path.join(dirpath, fn)
            with open(path, encoding="utf-8", errors="replace") as f:
                src = f.read()
            pkg = package_of(src)
            rel_dir = os.path.relpath(dirpath, out_dir).split(os.sep)
            pkg_parts = pkg.split(".") if pkg else []
            # Folders above the package path, e.g. out/errors/com/acme/...: only those can
            # mark a file as an error test (a package may well be called `errors`).
            if pkg_parts and rel_dir[-len(pkg_parts):] == pkg_parts:
                outer = rel_dir[:-len(pkg_parts)]
            else:
                outer = rel_dir
            if any(d.lower().replace("-", "").replace("_", "") in ERROR_DIRS for d in outer):
                continue
            name = (pkg + "." if pkg else "") + fn[:-5]
            found.append((path, name, src))
    return found


def is_test_class(src):
    return "@Test" in src and not re.search(r"\babstract\s+class\b", src)


def count_tests(src):
    return len(re.findall(r"@(?:org\.junit\.)?Test\b", src))


def junit_cmd(java, cp, classes, junit5, reports):
    """Command that runs the given test classes under JUnit."""
    if junit5:
        cmd = [java, "-jar", CONSOLE, "-cp", cp, "--disable-banner", "--details=summary",
               "--reports-dir", reports]
        return cmd + [a for c in classes for a in ("--select-class", c)]
    return [java, "-cp", cp + ":" + ":".join(JUNIT4), "org.junit.runner.JUnitCore"] + classes


def junit_counts(log_path, junit5):
    """(tests run, tests failed) from a JUnit run's output; None where not found."""
    text = tail(log_path, 400)
    if junit5:
        found = re.search(r"(\d+) tests found", text)
        failed = re.search(r"(\d+) tests failed", text)
        return (int(found.group(1)) if found else None, int(failed.group(1)) if failed else None)
    ok = re.search(r"^OK \((\d+) tests?\)", text, re.M)
    if ok:
        return int(ok.group(1)), 0
    bad = re.search(r"^Tests run: (\d+),\s+Failures: (\d+)", text, re.M)
    if bad:
        return int(bad.group(1)), int(bad.group(2))
    return None, None


# ---------------------------------------------------------------- class files of the subject


def class_files_from_path(cls, classpath, dest):
    """Copy C.class and C$*.class from the first class path entry that has C into dest."""
    base = cls.replace(".", "/")
    pat = re.compile(re.escape(base) + r"(\$.*)?\.class$")
    for entry in filter(None, classpath.split(":")):
        names = []
        if os.path.isdir(entry):
            if os.path.exists(os.path.join(entry, base + ".class")):
                d = os.path.join(entry, os.path.dirname(base))
                for f in os.listdir(d):
                    rel = os.path.dirname(base) + "/" + f
                    if pat.match(rel):
                        names.append(rel)
                        os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
                        shutil.copy(os.path.join(entry, rel), os.path.join(dest, rel))
        elif os.path.isfile(entry):
            with zipfile.ZipFile(entry) as z:
                if base + ".class" in z.namelist():
                    for rel in z.namelist():
                        if pat.match(rel):
                            names.append(rel)
                            z.extract(rel, dest)
        if names:
            return names
    return []


def class_files_from_jdk(cls, dest):
    """Extract C.class and C$*.class from the JDK's lib/modules into dest/<module>/...;
    return (module, [relative paths])."""
    base = cls.replace(".", "/")
    modules = os.path.join(java_home(), "lib", "modules")
    subprocess.run([jdk_tool("jimage"), "extract", "--dir", dest, "--include",
                    "regex:/[^/]+/" + re.escape(base) + r"(\$.*)?\.class", modules], check=True)
    for module in sorted(os.listdir(dest)):
        if os.path.exists(os.path.join(dest, module, base + ".class")):
            names = sorted(os.path.relpath(p, os.path.join(dest, module)) for p in
                           glob.glob(os.path.join(dest, module, glob.escape(base) + "*.class")))
            names = [n for n in names if re.fullmatch(re.escape(base) + r"(\$.*)?\.class", n)]
            return module, names
    return None, []


def jacoco_counters(csv_path):
    """Sum of the classes' counters in a JaCoCo CSV report."""
    tot = dict(branches_covered=0, branches_total=0, lines_covered=0, lines_total=0,
               instructions_covered=0, instructions_total=0, classes=0)
    with open(csv_path, newline="") as f:
        for r in csv.DictReader(f):
            for key, col in (("branches", "BRANCH"), ("lines", "LINE"), ("instructions", "INSTRUCTION")):
                cov, miss = int(r[col + "_COVERED"]), int(r[col + "_MISSED"])
                tot[key + "_covered"] += cov
                tot[key + "_total"] += cov + miss
            tot["classes"] += 1
    return tot


# ---------------------------------------------------------------- JaCoCo set-up and runs


EXEC = "@EXEC@"  # stands for the .exec file of one run in the JVM arguments of a set-up


def jacoco_setup(cls, classpath, jacoco, work):
    """How the JUnit runs of any suite of cls are measured: {mode, orig (the class files the
    report analyses), jvm_args (with EXEC for the .exec file), classes}; raises RuntimeError."""
    java = jdk_tool("java")
    orig = os.path.join(work, "classes-orig")
    os.makedirs(orig)
    names = class_files_from_path(cls, classpath, orig) if classpath else []
    if names:
        return {"mode": "agent", "orig": orig, "classes": len(names),
                "jvm_args": [f"-javaagent:{jacoco['agent']}=destfile={EXEC},includes={cls}:{cls}$*"]}
    module, names = class_files_from_jdk(cls, os.path.join(work, "jdk"))
    if not names:
        raise RuntimeError(f"{cls}: class file found neither on the class path nor in the JDK")
    orig = os.path.join(work, "jdk", module)
    inst = os.path.join(work, "classes-instrumented")
    rc, _ = run([java, "-jar", jacoco["cli"], "instrument", orig, "--dest", inst],
                os.path.join(work, "instrument.log"))
    if rc != 0:
        raise RuntimeError("jacococli instrument failed:\n" + tail(os.path.join(work, "instrument.log")))
    return {"mode": f"offline, patched into {module}", "orig": orig, "classes": len(names),
            "jvm_args": [f"--patch-module={module}={inst}", f"-Xbootclasspath/a:{jacoco['agent']}",
                         f"--add-reads={module}=ALL-UNNAMED", f"-Djacoco-agent.destfile={EXEC}"]}


def jacoco_measure(setup, jacoco, tag, test_classes, class_path, junit5, work, keep, extra_jvm=()):
    """Run test_classes under JUnit with JaCoCo as set up; ((tests run, failed), counters of the
    class and its nested classes). Files: work/junit-TAG.log, jacoco-TAG.{exec,csv}."""
    java = jdk_tool("java")
    exe = os.path.join(work, f"jacoco-{tag}.exec")
    args = list(extra_jvm) + [s.replace(EXEC, exe) for s in setup["jvm_args"]]
    cmd = junit_cmd(java, class_path, test_classes, junit5, os.path.join(work, f"reports-{tag}"))
    cmd = cmd[:1] + args + cmd[1:]
    lg = os.path.join(work, f"junit-{tag}.log")
    run(cmd, lg, cwd=work)
    counts = junit_counts(lg, junit5)
    report = [java, "-jar", jacoco["cli"], "report"] + ([exe] if os.path.exists(exe) else [])
    report += ["--classfiles", setup["orig"], "--csv", os.path.join(work, f"jacoco-{tag}.csv")]
    if keep:
        report += ["--xml", os.path.join(work, f"jacoco-{tag}.xml"),
                   "--html", os.path.join(work, f"jacoco-{tag}-html")]
    rc, _ = run(report, os.path.join(work, f"report-{tag}.log"))
    if rc != 0:
        raise RuntimeError("jacococli report failed:\n" + tail(os.path.join(work, f"report-{tag}.log")))
    return counts, jacoco_counters(os.path.join(work, f"jacoco-{tag}.csv"))


# ---------------------------------------------------------------- one class


def measure(cls, classpath, a, jforge, jacoco, setup, pit_cp, work):
    row = {"class": cls, "classpath": classpath}
    out_dir = os.path.join(work, "out")
    stats_path = os.path.join(work, "stats.json")
    java = jdk_tool("java")

    # 1. generate
    cmd = [jforge, "gen", "--quiet", "--class", cls, "--time-limit", f"{a.seconds}s",
           "--seed", str(a.seed), "--output-dir", out_dir, "--stats-json", stats_path]
    if classpath:
        cmd += ["--classpath", classpath]
    if a.workers:
        cmd += ["--workers", str(a.workers)]
    cmd += a.gen_args
    row["gen_command"] = cmd
    rc, wall = run(cmd, os.path.join(work, "gen.log"), cwd=work, timeout=a.seconds * 10 + 900)
    row["jforge_wall_seconds"] = round(wall, 2)
    if rc != 0:
        row["error"] = f"jforge gen exited with {rc}:\n" + tail(os.path.join(work, "gen.log"))
        return row
    with open(stats_path) as f:
        stats = json.load(f)
    row["jforge_regression_tests"] = stats.get("regression_tests")
    row["jforge_total_seconds"] = stats.get("total_seconds")
    if stats.get("concolic"):
        row["concolic"] = stats["concolic"]
    cov = stats.get("coverage")
    if cov:
        mine = [c for c in cov["classes"] if c["name"] == cls or c["name"].startswith(cls + "$")]
        row["jforge"] = {
            "branches_covered": sum(c["branches"]["covered"] for c in mine),
            "branches_total": sum(c["branches"]["total"] for c in mine),
            "lines_covered": sum(c["lines"]["covered"] for c in mine),
            "lines_total": sum(c["lines"]["total"] for c in mine),
            "classes": len(mine),
        }
        row["jforge_totals"] = {k: cov[k] for k in
                                ("branches_covered", "branches_total", "lines_covered", "lines_total")}

    # 2. compile the regression suite
    suite = find_suite(out_dir)
    row["regression_files"] = [os.path.relpath(p, out_dir) for p, _, _ in suite]
    row["regression_tests"] = sum(count_tests(s) for _, _, s in suite)
    tests = [n for _, n, s in suite if is_test_class(s)]
    if not tests:
        row["error"] = "no regression test written"
        return row
    junit5 = any("org.junit.jupiter" in s for _, _, s in suite)
    row["junit"] = 5 if junit5 else 4
    classes_dir = os.path.join(work, "test-classes")
    os.makedirs(classes_dir)
    junit_cp = [CONSOLE] if junit5 else JUNIT4
    cp = ":".join(filter(None, [classpath] + junit_cp))
    with open(os.path.join(work, "sources.txt"), "w") as f:
        f.write("\n".join(p for p, _, _ in suite) + "\n")
    rc, _ = run([jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-d", classes_dir,
                 "-cp", cp, "@" + os.path.join(work, "sources.txt")], os.path.join(work, "javac.log"))
    if rc != 0:
        row["error"] = "the regression suite does not compile:\n" + tail(os.path.join(work, "javac.log"))
        return row
    test_cp = ":".join(filter(None, [classes_dir, classpath]))

    # 3a. plain JUnit run
    rc, _ = run(junit_cmd(java, test_cp, tests, junit5, os.path.join(work, "reports-plain")),
                os.path.join(work, "junit-plain.log"), cwd=work)
    row["tests_run"], row["tests_failed"] = junit_counts(os.path.join(work, "junit-plain.log"), junit5)
    if row["tests_run"] is None:
        row["error"] = f"JUnit run exited with {rc} and no summary:\n" + tail(os.path.join(work, "junit-plain.log"))
        return row

    # 3b. the same run with JaCoCo (set up once per class in main(), shared with the anchors)
    row["jacoco_mode"], row["jacoco_classes"] = setup["mode"], setup["classes"]

    def jacoco_run(tag, test_classes, class_path):
        return jacoco_measure(setup, jacoco, tag, test_classes, class_path, junit5, work, a.keep)

    try:
        (_, row["tests_failed_under_jacoco"]), row["jacoco"] = jacoco_run("suite", tests, test_cp)
        # Baseline: one empty test under the same set-up (what JUnit and the JVM cover alone).
        empty = os.path.join(work, "empty")
        os.makedirs(empty)
        with open(os.path.join(empty, "EmptyTest.java"), "w") as f:
            f.write("public class EmptyTest {\n" +
                    ("  @org.junit.jupiter.api.Test" if junit5 else "  @org.junit.Test") +
                    " public void nothing() {}\n}\n")
        subprocess.run([jdk_tool("javac"), "-d", empty, "-cp", cp, os.path.join(empty, "EmptyTest.java")],
                       check=True)
        _, row["jacoco_baseline"] = jacoco_run("baseline", ["EmptyTest"], ":".join(filter(None, [empty, classpath])))
    except RuntimeError as e:
        row["error"] = str(e)
        return row

    # 5. PIT on the same compiled suite
    if pit_cp:
        if row["jacoco_mode"] != "agent":
            row["pit_skipped"] = "a JDK class: PIT does not mutate the boot layer"
        else:
            try:
                row["pit"] = mutation_score(cls, classpath, tests, classes_dir, junit5, pit_cp, work)
            except RuntimeError as e:
                row["error"] = str(e)
    return row


def pit_counts(csv_path):
    """Mutants by status from PIT's mutations.csv (one row per mutant; status in column 6)."""
    counts = {}
    with open(csv_path, newline="") as f:
        for r in csv.reader(f):
            if len(r) >= 6:
                counts[r[5]] = counts.get(r[5], 0) + 1
    total = sum(counts.values())
    detected = sum(n for s, n in counts.items() if s in PIT_DETECTED)
    reached = total - counts.get("NO_COVERAGE", 0)
    return {"mutants": total, "detected": detected, "reached": reached, "by_status": counts}


def mutation_score(cls, classpath, tests, test_classes, junit5, pit_cp, work):
    """PIT's figures for the written suite (see step 5 of the module documentation)."""
    jar = next((e for e in filter(None, classpath.split(":"))
                if os.path.isfile(e) and class_files_from_path(cls, e, os.path.join(work, "probe"))),
               None)
    entries = [e for e in filter(None, classpath.split(":")) if e != jar]
    mutable = os.path.join(work, "subject-classes")
    if jar:
        with zipfile.ZipFile(jar) as z:
            z.extractall(mutable, [n for n in z.namelist()
                                   if n.endswith(".class") and not n.startswith("META-INF/")])
    else:
        # A class folder: PIT mutates it in place (it never writes into it).
        mutable = next((e for e in entries if os.path.isdir(e)), None)
        if mutable is None:
            raise RuntimeError(f"{cls}: no jar or class folder of the class path holds it")
        entries.remove(mutable)
    # The JUnit 5 plugin, once on PIT's class path, takes over even JUnit 4 suites (and fails
    # without the JUnit Platform): it is there for JUnit 5 suites only, and then on the
    # tests' class path too, where the minions that run them look for it.
    plugin = [e for e in pit_cp.split(":") if "pitest-junit5-plugin" in e]
    tool_cp = [e for e in pit_cp.split(":") if e not in plugin or junit5]
    junit_cp = [CONSOLE] + plugin if junit5 else JUNIT4
    cut_cp = [test_classes, mutable] + entries + junit_cp
    report_dir = os.path.join(work, "pit")
    cmd = [jdk_tool("java"), "-cp", ":".join(tool_cp), "org.pitest.mutationtest.commandline.MutationCoverageReport",
           "--reportDir", report_dir, "--targetClasses", f"{cls},{cls}$*",
           "--targetTests", ",".join(tests), "--sourceDirs", os.path.join(work, "out"),
           "--classPath", ",".join(cut_cp), "--mutableCodePaths", mutable,
           "--includeLaunchClasspath=false", "--outputFormats", "CSV,XML",
           "--timestampedReports=false", "--threads", str(os.cpu_count() or 1)]
    log_path = os.path.join(work, "pit.log")
    rc, secs = run(cmd, log_path)
    csv_path = os.path.join(report_dir, "mutations.csv")
    if rc != 0 or not os.path.exists(csv_path):
        raise RuntimeError(f"PIT exited with {rc}:\n" + tail(log_path, 25))
    out = pit_counts(csv_path)
    out["seconds"] = round(secs, 1)
    return out


# ---------------------------------------------------------------- the anchors (Randoop, EvoSuite)


ANCHORS = ("randoop", "evosuite")
ANCHOR_NAMES = {"randoop": "Randoop", "evosuite": "EvoSuite"}
RANDOOP_VERSION = "4.3.4"
EVOSUITE_VERSION = "1.2.0"
EVOSUITE_RUNTIME = f"evosuite-standalone-runtime-{EVOSUITE_VERSION}.jar"
# Lines of a tool's log that say what went wrong: first an exception's message, a javac error or
# EvoSuite's "* Error ..." and "* Unknown class ...", else any line that mentions an error
# (Randoop's statistics mention "error seqs").
CAUSE_LINE = re.compile(r"^\* (?:Error|Unknown class)|^(?:Caused by: )?[\w.$]+(?:Exception|Error): |"
                        r"^error: |: error: ")
ERROR_LINE = re.compile(r"\b(?:\w*(?:Exception|Error)\b|ERROR\b|[Ee]rror:|[Ff]ailed\b|[Cc]annot\b|"
                        r"refus|[Nn]ot supported|wrote no test)")
NOT_AN_ERROR = re.compile(r"error seqs|error-revealing|ErrorTest|No error|failing inputs")


def first_error_line(*logs):
    """The first line of the first log that names a cause (CAUSE_LINE), else that looks like an
    error (ERROR_LINE), else the last line of the last log."""
    last = ""
    for path in logs:
        try:
            with open(path, errors="replace") as f:
                lines = [l.strip() for l in f if l.strip()]
        except OSError:
            continue
        for pattern in (CAUSE_LINE, ERROR_LINE):
            for line in lines:
                if pattern.search(line) and not NOT_AN_ERROR.search(line):
                    return line[:300]
        if lines:
            last = lines[-1][:300]
    return last or "no output"


def java_files(folder, pattern):
    return sorted(glob.glob(os.path.join(folder, "**", pattern), recursive=True))


NOT_VISIBLE = re.compile(r"package (\S+) is not visible\s*\n(?:.*\n){0,3}?.*declared in module (\S+),")


def anchor_suite(tool, files, extra_cp, classpath, setup, jacoco, work, keep, extra_jvm=(), release=None,
                 opens=None):
    """Compile an anchor's regression test files and run them with JaCoCo: the figures of a row.
    With release, javac --release RELEASE first; if that fails and opens (a java argument file of
    --add-opens) is given, javac without --release and with those packages exported, plus any
    package javac then says is not visible (EvoSuite may import JDK internals such as
    sun.nio.cs.UTF_8, which --release hides): the row notes it (compile_note)."""
    res = {"regression_files": [os.path.basename(p) for p in files]}
    sources = [(p, open(p, encoding="utf-8", errors="replace").read()) for p in files]
    res["regression_tests"] = sum(count_tests(src) for _, src in sources)
    tests = [(package_of(src) + "." if package_of(src) else "") + os.path.basename(p)[:-5]
             for p, src in sources if is_test_class(src)]
    if not tests:
        res["error"] = "no regression test written"
        return res
    classes_dir = os.path.join(work, f"{tool}-classes")
    os.makedirs(classes_dir)
    cp = ":".join(filter(None, [classpath] + JUNIT4 + extra_cp))
    with open(os.path.join(work, f"{tool}-sources.txt"), "w") as f:
        f.write("\n".join(p for p, _ in sources) + "\n")
    cmd = [jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-d", classes_dir, "-cp", cp]
    sources_arg = "@" + os.path.join(work, f"{tool}-sources.txt")
    javac_log = os.path.join(work, f"{tool}-javac.log")
    rc, _ = run(cmd + (["--release", release] if release else []) + [sources_arg], javac_log)
    if rc != 0 and release and opens:
        first = first_error_line(javac_log).replace(work + os.sep, "")
        exports_file = os.path.join(work, f"{tool}-javac-exports.txt")
        with open(opens) as f, open(exports_file, "w") as g:
            g.write(f.read().replace("--add-opens", "--add-exports"))
        extra = []
        for attempt in range(3):
            shutil.copy(javac_log, javac_log + f".{attempt}")
            rc, _ = run(cmd + ["@" + exports_file] + [f"--add-exports={m}/{p}=ALL-UNNAMED" for p, m in extra]
                        + [sources_arg], javac_log)
            found = [pm for pm in NOT_VISIBLE.findall(open(javac_log, errors="replace").read())
                     if pm not in extra]
            if rc == 0 or not found:
                break
            extra += sorted(set(found))
        if rc == 0:
            res["compile_note"] = (f"javac --release {release} failed ({first}); compiled with this JDK's "
                                   "javac and --add-exports of the packages opened for the run"
                                   + "".join(f", {m}/{p}" for p, m in extra))
            extra_jvm = list(extra_jvm) + [f"--add-opens={m}/{p}=ALL-UNNAMED" for p, m in extra]
    if rc != 0:
        res["error"] = "the regression tests do not compile: " + first_error_line(javac_log).replace(work + os.sep, "")
        res["error_detail"] = tail(javac_log)
        return res
    test_cp = ":".join(filter(None, [classes_dir, classpath] + extra_cp))
    try:
        (res["tests_run"], res["tests_failed"]), res["jacoco"] = jacoco_measure(
            setup, jacoco, tool, tests, test_cp, False, work, keep, extra_jvm)
    except RuntimeError as e:
        res["error"] = str(e).splitlines()[0]
        res["error_detail"] = str(e)
        return res
    if res["tests_run"] is None:
        res["error"] = "JUnit printed no summary: " + first_error_line(os.path.join(work, f"junit-{tool}.log"))
    return res


def run_randoop(cls, classpath, a, setup, jacoco, work):
    """Randoop through ../shared/anchors/randoop-run (same seconds); its regression tests
    (RegressionTest<N>.java, default package) compiled and measured like jforge's suite."""
    out = os.path.join(work, "randoop")
    cmd = [os.path.join(a.anchor_scripts, "randoop-run"), a.randoop_jar, classpath, cls, str(a.seconds), out]
    cmd += shlex.split(a.randoop_args)
    script_log = os.path.join(work, "randoop-run.log")
    rc, wall = run(cmd, script_log, cwd=work, timeout=a.seconds * 10 + 900)
    res = {"tool": f"Randoop {RANDOOP_VERSION}", "seconds": a.seconds, "wall_seconds": round(wall, 2),
           "exit": rc, "command": cmd}
    tool_log = os.path.join(out, "randoop.log")
    text = tail(tool_log, 100000)
    for key, pat in (("sequences", r"num_sequences_generated: (\d+)"),
                     ("regression_sequences", r"Regression test count: (\d+)"),
                     ("error_sequences", r"Error test count: (\d+)")):
        found = re.findall(pat, text)
        if found:
            res[key] = int(found[-1])
    src = os.path.join(out, "src")
    files = [p for p in java_files(src, "RegressionTest*.java")
             if re.fullmatch(r"RegressionTest\d+\.java", os.path.basename(p))]
    res["error_tests_written"] = sum(count_tests(open(p, errors="replace").read())
                                     for p in java_files(src, "ErrorTest*.java"))
    if not files:
        res["error"] = first_error_line(tool_log, script_log)
        res["error_detail"] = tail(tool_log) + tail(script_log)
        return res
    res.update(anchor_suite("randoop", files, [], classpath, setup, jacoco, work, a.keep))
    return res


def run_evosuite(cls, classpath, a, setup, jacoco, work):
    """EvoSuite through ../shared/anchors/evosuite-run (search budget = the same seconds; the
    other phases keep EvoSuite's own timeouts); <Class>_ESTest.java and its scaffolding
    compiled with --release 11 and run on this JVM with the opens EvoSuite's runtime needs."""
    out = os.path.join(work, "evosuite")
    home = a.evosuite_home
    # A JDK class: EvoSuite looks for the class on -projectCP only ("No classpath has been
    # defined", "Unknown class"); given the extracted class files it says whether it takes it.
    project_cp = classpath or setup["orig"]
    cmd = [os.path.join(a.anchor_scripts, "evosuite-run"), project_cp, cls, str(a.seconds), out]
    cmd += shlex.split(a.evosuite_args)
    script_log = os.path.join(work, "evosuite-run.log")
    env_home = os.environ.get("EVOSUITE_HOME")
    os.environ["EVOSUITE_HOME"] = home
    try:
        rc, wall = run(cmd, script_log, cwd=work, timeout=a.seconds * 20 + 1200)
    finally:
        if env_home is None:
            del os.environ["EVOSUITE_HOME"]
        else:
            os.environ["EVOSUITE_HOME"] = env_home
    res = {"tool": f"EvoSuite {EVOSUITE_VERSION}", "search_budget": a.seconds,
           "wall_seconds": round(wall, 2), "exit": rc, "command": cmd}
    stats = os.path.join(out, "report", "statistics.csv")
    if os.path.exists(stats):
        with open(stats, newline="") as f:
            own = list(csv.DictReader(f))
        if own:
            res["evosuite_own"] = own[-1]
    tool_log = os.path.join(out, "evosuite.log")
    src = os.path.join(out, "src")
    files = java_files(src, "*_ESTest.java")
    if not files:
        res["error"] = first_error_line(tool_log, script_log)
        res["error_detail"] = tail(tool_log, 30) + tail(script_log)
        return res
    files += java_files(src, "*_ESTest_scaffolding.java")
    runtime = os.path.join(home, EVOSUITE_RUNTIME)
    opens = os.path.join(home, "java17-opens.txt")
    res.update(anchor_suite("evosuite", files, [runtime], classpath, setup, jacoco, work, a.keep,
                            extra_jvm=["@" + opens], release="11", opens=opens))
    return res


RUN_ANCHOR = {"randoop": run_randoop, "evosuite": run_evosuite}


# ---------------------------------------------------------------- output


def pct(c, t):
    return f"{100.0 * c / t:.1f}% ({c}/{t})" if t else "-"


def columns(r):
    j, g = r.get("jacoco"), r.get("jforge")
    failed = r.get("tests_failed")
    return [
        r["class"],
        pct(j["branches_covered"], j["branches_total"]) if j else "-",
        pct(j["lines_covered"], j["lines_total"]) if j else "-",
        pct(g["branches_covered"], g["branches_total"]) if g else "-",
        pct(g["lines_covered"], g["lines_total"]) if g else "-",
        str(r.get("regression_tests", "-")),
        "-" if failed is None else str(failed),
        f"{r['jforge_wall_seconds']:.1f}" if "jforge_wall_seconds" in r else "-",
    ]


def mutation_columns(r):
    p = r.get("pit")
    if not p:
        return ["-", "-"]
    return [pct(p["detected"], p["mutants"]), pct(p["detected"], p["reached"])]


HEADER = ["class", "JaCoCo branches", "JaCoCo lines", "jforge branches", "jforge lines",
          "tests", "failed", "jforge s"]


MUTATION_HEADER = ["PIT mutation score", "PIT test strength"]


def print_rows(header, body, markdown):
    """A table: Markdown, or plain columns (the first left-aligned, the others right)."""
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for b in body:
            print("| " + " | ".join(b) + " |")
    else:
        w = [max(len(x[i]) for x in [header] + body) for i in range(len(header))]
        for b in [header] + body:
            print("  ".join(x.ljust(w[i]) if i == 0 else x.rjust(w[i]) for i, x in enumerate(b)))


def print_table(rows, markdown, mutation=False):
    header = HEADER + (MUTATION_HEADER if mutation else [])
    body = [columns(r) + (mutation_columns(r) if mutation else []) for r in rows]
    print_rows(header, body, markdown)
    for r in rows:
        if r.get("error"):
            print(f"\n{r['class']}: {r['error']}")
        g, t = r.get("jforge"), r.get("jforge_totals")
        if g and t and (g["branches_total"], g["lines_total"]) != (t["branches_total"], t["lines_total"]):
            print(f"\n{r['class']}: jforge's totals over all instrumented classes: branches "
                  f"{pct(t['branches_covered'], t['branches_total'])}, lines {pct(t['lines_covered'], t['lines_total'])}")
        base = r.get("jacoco_baseline")
        if base and (base["branches_covered"] or base["lines_covered"]):
            print(f"\n{r['class']}: an empty JUnit test alone covers branches "
                  f"{pct(base['branches_covered'], base['branches_total'])}, lines "
                  f"{pct(base['lines_covered'], base['lines_total'])} (included in the JaCoCo figures)")
        if mutation and r.get("pit_skipped"):
            print(f"\n{r['class']}: no mutation score ({r['pit_skipped']})")
        if r.get("tests_failed_under_jacoco") not in (None, r.get("tests_failed")):
            print(f"\n{r['class']}: {r['tests_failed_under_jacoco']} tests failed under JaCoCo")



def tests_cell(n, failed):
    if n is None:
        return "-"
    return f"{n}" + (f" ({failed} failed)" if failed else "")


def anchor_columns(r, anchors):
    """class | jforge branches | jforge tests | <anchor> branches | <anchor> tests ... | wall s."""
    j = r.get("jacoco")
    cells = [r["class"],
             pct(j["branches_covered"], j["branches_total"]) if j else
             ("failed: " + r["error"].splitlines()[0] if r.get("error") else "-"),
             tests_cell(r.get("regression_tests"), r.get("tests_failed")) if j else "-"]
    walls = [f"{r['jforge_wall_seconds']:.0f}" if "jforge_wall_seconds" in r else "-"]
    for name in anchors:
        x = r.get("anchors", {}).get(name)
        if not x:
            cells += ["-", "-"]
            walls.append("-")
            continue
        if x.get("error") or not x.get("jacoco"):
            cells += ["failed: " + x.get("error", "no figures").replace("|", "\\|"),
                      tests_cell(x.get("regression_tests"), x.get("tests_failed"))]
        else:
            jc = x["jacoco"]
            cells += [pct(jc["branches_covered"], jc["branches_total"]),
                      tests_cell(x.get("regression_tests"), x.get("tests_failed"))]
        walls.append(f"{x['wall_seconds']:.0f}" if "wall_seconds" in x else "-")
    return cells + [" / ".join(walls)]


def print_anchor_table(rows, anchors, markdown, seconds):
    header = ["class", "jforge branches", "jforge tests"]
    for name in anchors:
        header += [f"{ANCHOR_NAMES[name]} branches", f"{ANCHOR_NAMES[name]} tests"]
    header.append("wall s (" + " / ".join(["jforge"] + [ANCHOR_NAMES[n] for n in anchors]) + ")")
    body = [anchor_columns(r, anchors) for r in rows]
    print(f"\nSide by side ({seconds} s each; EvoSuite: search budget {seconds} s, its other phases "
          "keep their own timeouts; branches: JaCoCo over C and C$*, the regression tests only):")
    print_rows(header, body, markdown)
    for r in rows:
        for name in anchors:
            note = (r.get("anchors", {}).get(name) or {}).get("compile_note")
            if note:
                print(f"\n{r['class']}, {ANCHOR_NAMES[name]}: {note}")


def read_class_list(path):
    """Lines `CLASS [CLASSPATH]` (blanks or tabs between); `#` starts a comment. A tab-separated
    file whose first line names its columns (`class`, and `classpath`, `cp` or `jar`) is read by
    those names, and other columns are ignored, so a richer corpus file can be given as is."""
    out = []
    columns, first = None, True
    with open(path) as f:
        for line in f:
            parts = line.split("#", 1)[0].rstrip("\n")
            if not parts.strip():
                continue
            if first:
                first = False
                names = [c.strip().lower() for c in parts.split("\t")]
                if "class" in names:
                    columns = names
                    continue
            if columns:
                cells = [c.strip() for c in parts.split("\t")] + [""] * len(columns)
                cls = cells[columns.index("class")]
                cp = next((cells[columns.index(k)] for k in ("classpath", "cp", "jar") if k in columns), "")
                if cls:
                    out.append((cls, cp))
                continue
            fields = parts.split()
            out.append((fields[0], fields[1] if len(fields) > 1 else ""))
    return out


def resolve_classpath(classpath, work):
    """Class path entries as given, relative ones against the current folder or else the
    repository, a bare jar name against /usr/share/java, `jdk` or `-` for none; an entry that is a folder of `.java` sources and no `.class` files (an own
    subject such as tests/subjects/gen/booking) is compiled with javac into work first."""
    entries = []
    for entry in filter(None, classpath.split(":")):
        if entry in ("jdk", "-"):  # a JDK class: nothing on the class path
            continue
        if "/" not in entry and not os.path.exists(entry) and os.path.exists(os.path.join(SHARE, entry)):
            entry = os.path.join(SHARE, entry)  # a Debian jar by its name
        if not os.path.isabs(entry) and not os.path.exists(entry) and os.path.exists(os.path.join(ROOT, entry)):
            entry = os.path.join(ROOT, entry)
        if not os.path.exists(entry):
            raise RuntimeError(f"{entry} is missing" + (
                " (apt-get install -y libcommons-lang3-java libguava-java libcommons-collections4-java "
                "libcommons-math3-java libjoda-time-java)" if entry.startswith(SHARE) else ""))
        if os.path.isdir(entry):
            sources = java_files(entry, "*.java")
            if sources and not java_files(entry, "*.class"):
                dest = os.path.join(work, "subject-" + str(len(entries)))
                os.makedirs(dest)
                lg = os.path.join(work, "subject-javac.log")
                # Java 11 class files: EvoSuite 1.2.0 runs on Java 11 (--anchors evosuite).
                javac = [jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-g", "-d", dest]
                rc, _ = run(javac + ["--release", "11"] + sources, lg)
                if rc != 0:
                    rc, _ = run(javac + sources, lg)
                if rc != 0:
                    raise RuntimeError(f"the sources in {entry} do not compile:\n" + tail(lg))
                entry = dest
        entries.append(os.path.abspath(entry))
    return ":".join(entries)


def main():
    argv = sys.argv[1:]
    gen_args = []
    if "--" in argv:
        i = argv.index("--")
        argv, gen_args = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(
        description="Generate a suite with `jforge gen` per class and measure the written "
                    "regression suite with JUnit and JaCoCo (branch and line coverage of the class "
                    "and its nested classes), next to jforge's own figure.",
        epilog="Arguments after `--` go to `jforge gen`. Default classes: "
               + ", ".join(c for c, _ in DEFAULT_CLASSES)
               + ". --anchors runs Randoop 4.3.4 and EvoSuite 1.2.0, built outside the repository "
                 "(../shared/anchors/README.md), on each class with the same seconds.")
    ap.add_argument("--seconds", type=int, default=60, help="jforge gen --time-limit per class (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="jforge gen --seed (default 1)")
    ap.add_argument("--workers", type=int, default=0, help="jforge gen --workers (default: jforge's)")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="only this class (binary or simple name; repeatable)")
    ap.add_argument("--classes", metavar="FILE",
                    help="class list instead of the default: one `CLASS [CLASSPATH]` per line, or a "
                         "tab-separated file with a header naming `class` and `classpath` (or `cp`, `jar`); "
                         "a class path entry that is a folder of .java sources is compiled first")
    ap.add_argument("--jforge", metavar="PATH",
                    help="jforge binary (default target/release/jforge, built if missing)")
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "jforge-bench"),
        help="where the JaCoCo jars are kept (default ~/.cache/jforge-bench)")
    ap.add_argument("--mutation", action="store_true",
                    help=f"also run PIT {PIT_VERSION} on the written suite (mutation score; fetched with mvn)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    ap.add_argument("--keep", action="store_true",
                    help="keep each class's work folder (suite, logs, JaCoCo XML and HTML) and print its path")
    ap.add_argument("--concolic", action="store_true",
                    help="run `jforge gen --concolic` (needs z3 or cvc5) and print the solver's figures per class")
    home = os.path.expanduser("~")
    ap.add_argument("--anchors", default="", metavar="LIST",
                    help="also run these peer tools on each class with the same seconds, and measure "
                         "their regression tests the same way: randoop, evosuite (comma-separated)")
    ap.add_argument("--randoop-jar", default=os.environ.get(
        "RANDOOP_JAR", os.path.join(home, "anchors", "randoop", "randoop-all.jar")),
        help="Randoop 4.3.4's all-in-one jar (env RANDOOP_JAR; default ~/anchors/randoop/randoop-all.jar)")
    ap.add_argument("--evosuite-home", default=os.environ.get(
        "EVOSUITE_HOME", os.path.join(home, "anchors", "evosuite")),
        help="EvoSuite 1.2.0 as built by get-evosuite.sh (env EVOSUITE_HOME; default ~/anchors/evosuite)")
    ap.add_argument("--anchor-scripts", default=os.environ.get(
        "JFORGE_ANCHORS", os.path.join(os.path.dirname(ROOT), "shared", "anchors")),
        help="folder of randoop-run and evosuite-run (env JFORGE_ANCHORS; default ../shared/anchors "
             "next to the repository)")
    ap.add_argument("--randoop-args", default="", metavar="FLAGS",
                    help="extra Randoop flags, e.g. '--check-compilable=false' (default: none, Randoop's defaults)")
    ap.add_argument("--evosuite-args", default="", metavar="FLAGS",
                    help="extra EvoSuite options, e.g. '-Dassertion_timeout=60' (default: none)")
    a = ap.parse_args(argv)
    a.anchors = [x.strip().lower() for x in a.anchors.split(",") if x.strip()]
    for name in a.anchors:
        if name not in ANCHORS:
            sys.exit(f"--anchors: unknown tool {name!r} (known: {', '.join(ANCHORS)})")
    for name, need in (("randoop", [a.randoop_jar, os.path.join(a.anchor_scripts, "randoop-run")]),
                       ("evosuite", [os.path.join(a.evosuite_home, f"evosuite-{EVOSUITE_VERSION}.jar"),
                                     os.path.join(a.evosuite_home, EVOSUITE_RUNTIME),
                                     os.path.join(a.evosuite_home, "java17-opens.txt"),
                                     os.path.join(a.anchor_scripts, "evosuite-run")])):
        for path in need if name in a.anchors else []:
            if not os.path.exists(path):
                sys.exit(f"--anchors {name}: {path} is missing (see ../shared/anchors/README.md)")
    if a.concolic:
        gen_args.append("--concolic")
    a.gen_args = gen_args

    subjects = read_class_list(a.classes) if a.classes else DEFAULT_CLASSES
    if a.only:
        subjects = [s for s in subjects if s[0] in a.only or s[0].rsplit(".", 1)[-1] in a.only]
        if not subjects:
            sys.exit(f"no class matches --only {a.only}")
    for jar in JUNIT4 + [CONSOLE]:
        if not os.path.exists(jar):
            sys.exit(f"{jar} is missing (apt-get install -y junit4 junit5)")

    jforge = a.jforge or os.path.join(ROOT, "target", "release", "jforge")
    if not a.jforge and not os.path.exists(jforge):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    jforge = os.path.abspath(jforge)
    jacoco = jacoco_jars(a.cache)
    pit_cp = pit_classpath(a.cache) if a.mutation else None

    java_version = subprocess.run([jdk_tool("java"), "-version"], capture_output=True,
                                  text=True).stderr.splitlines()[0]

    def write_json(rows, done):
        """The results so far (after each class, so that a long run that stops keeps them)."""
        if not a.json:
            return
        with open(a.json + ".part", "w") as f:
            json.dump({"date": str(datetime.date.today()), "machine": platform.node(),
                       "cores": os.cpu_count(), "java": java_version, "jacoco": JACOCO_VERSION,
                       "pit": PIT_VERSION if a.mutation else None,
                       "seconds": a.seconds, "seed": a.seed, "workers": a.workers,
                       "gen_args": gen_args, "jforge": jforge,
                       "anchors": {n: {"randoop": {"version": RANDOOP_VERSION, "jar": a.randoop_jar},
                                       "evosuite": {"version": EVOSUITE_VERSION, "home": a.evosuite_home}}[n]
                                   for n in a.anchors},
                       "anchor_scripts": a.anchor_scripts if a.anchors else None,
                       "randoop_args": a.randoop_args, "evosuite_args": a.evosuite_args,
                       "load_average": os.getloadavg(), "complete": done,
                       "results": rows}, f, indent=1)
        os.replace(a.json + ".part", a.json)

    rows = []
    for i, (cls, cp) in enumerate(subjects, 1):
        log(f"[{i}/{len(subjects)}] {cls}: jforge gen {a.seconds} s, then JUnit + JaCoCo"
            + (" + PIT" if a.mutation else "") + "".join(f", then {ANCHOR_NAMES[n]}" for n in a.anchors))
        work = tempfile.mkdtemp(prefix="jforge-suite-cov-")
        load = os.getloadavg()
        try:
            try:
                cp = resolve_classpath(cp, work)
                setup = jacoco_setup(cls, cp, jacoco, work)
            except RuntimeError as e:
                row = {"class": cls, "classpath": cp, "error": str(e)}
            else:
                row = measure(cls, cp, a, jforge, jacoco, setup, pit_cp, work)
                for name in a.anchors:
                    log(f"    {ANCHOR_NAMES[name]} {a.seconds} s")
                    try:
                        x = RUN_ANCHOR[name](cls, cp, a, setup, jacoco, work)
                    except Exception as e:  # a broken anchor must not stop the other rows
                        x = {"error": f"{type(e).__name__}: {e}"}
                    row.setdefault("anchors", {})[name] = x
                    jc = x.get("jacoco")
                    log(f"    {ANCHOR_NAMES[name]}: " + (
                        f"{pct(jc['branches_covered'], jc['branches_total'])} branches, "
                        f"{x.get('regression_tests')} tests, {x.get('tests_failed')} failed"
                        if jc and not x.get("error") else "failed: " + x.get("error", "?"))
                        + f", {x.get('wall_seconds', 0):.0f} s")
        finally:
            if a.keep:
                log(f"    kept {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
        if a.keep:
            row["work_dir"] = work
        row["load_average_before"] = [round(x, 2) for x in load]
        row["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
        rows.append(row)
        write_json(rows, done=False)
    print(f"{datetime.date.today()}, {platform.node()} {platform.machine()}, {os.cpu_count()} cores, "
          f"{java_version}, JaCoCo {JACOCO_VERSION}" + (f", PIT {PIT_VERSION}" if a.mutation else "")
          + f"; jforge gen {a.seconds} s, seed {a.seed}"
          + (f", {a.workers} workers" if a.workers else "")
          + (f", extra: {' '.join(gen_args)}" if gen_args else "")
          + (f"; Randoop {RANDOOP_VERSION}" + (f" {a.randoop_args}" if a.randoop_args else "")
             if "randoop" in a.anchors else "")
          + (f"; EvoSuite {EVOSUITE_VERSION}" + (f" {a.evosuite_args}" if a.evosuite_args else "")
             if "evosuite" in a.anchors else "")
          + "; load average at the end " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    print_table(rows, a.markdown, a.mutation)
    if a.anchors:
        print_anchor_table(rows, a.anchors, a.markdown, a.seconds)
    for r in rows:
        c = r.get("concolic")
        if c:
            print(f"{r['class']}: concolic {c['handoffs']} plateaus, {c['methods_explored']} methods, "
                  f"{c['paths']} paths ({c['paths'] / max(c['seconds'], 1e-9):.1f}/s), "
                  f"{c['solver_calls']} solver calls in {c['solver_seconds']:.1f} s, "
                  f"{c['solver_timeouts']} time-outs, {c['new_branches']} new branches")
    write_json(rows, done=True)
    return 1 if any(r.get("error") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
