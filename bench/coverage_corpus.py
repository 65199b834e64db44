#!/usr/bin/env python3
"""The coverage corpus: a floor under the branch coverage of the suite `jforge gen` writes.

Issue 31. For every class of the corpus file (bench/corpus.tsv), this runs

    jforge gen --class C [--classpath CP] --generated-limit N --seed 1 --workers W
               --time-limit 10m --output-dir WORK/out --stats-json WORK/stats.json

(deterministic: `--seed` with `--generated-limit` and one worker write the same suite on
every run; with two workers five of the corpus's classes get other figures, StringUtils'
vary from run to run; TZ=UTC and LC_ALL=C.UTF-8 fix the defaults some classes branch on),
compiles the written regression suite with javac, runs it
under JUnit with JaCoCo attached and compares JaCoCo's covered branches of C and its nested
classes C$* with the class's floor. The measuring is bench/suite_coverage.py's (imported,
read-only): its search for the written suite, its JUnit command lines, its class-file
extraction (a JDK class is taken from `lib/modules` with `jimage extract`, instrumented
offline and patched into its module) and its JaCoCo report. Unlike suite_coverage.py,
the suite runs once (under JaCoCo, which also counts the failures), without the plain
JUnit run and the run of an empty test beside it: they cost ~4 s a class and change no
figure of the corpus.

A floor is today's best value minus one branch. `--check` (the default, run by .ci/run)
fails (exit status 1) when a class is below its floor, printing
`CLASS: floor F/T, now N/T (-K branches)`; and also when a class could not be measured
deterministically or fully: jforge gen failed or stopped for another reason than the
generated limit (a time limit is not deterministic), a finish budget cut the suite, the
written suite does not compile or has failing tests, or the class's total of branches
changed (another version of the library: the floor no longer applies). A class more than
one branch above its floor is listed with "raise the floor with --update". When JaCoCo's
figure and jforge's own figure for the written suite (`coverage.suite.per_class` of
`--stats-json`) differ by more than two branches, a warning says so: the two measure the
same suite, so a difference is a bug to find.

One thing a loaded machine can still change: a call that takes longer than jforge's
wall-clock call limit (at least 100 ms) ends its sequence in a timeout, and the run goes
another way. So a class below its floor whose run had such cuts runs once more, alone, and
fails only if it is below again (a warning says when the two figures differ; `--no-retry`
turns this off).

`--update` rewrites the floors of the classes it ran to today's value minus one branch,
only raising them unless `--allow-lower` (which also accepts a changed total). Raising a
floor is part of the change that earns it.

The corpus file: tab-separated, `#` starts a comment line; columns
  class  class-path  N  floor  total  comment
where class-path is `jdk` (the JDK's own classes, no class path), a jar name under
/usr/share/java (`commons-lang3.jar`: a Debian package), an absolute path, or a folder of the
repository with Java sources (`tests/subjects/gen/ds`), compiled by this script with javac
into a temporary folder. A floor of `-` means none yet (`--check` fails, `--update` sets it).

Usage:
  bench/coverage_corpus.py [--check | --update [--allow-lower]] [--only NAME]...
                           [--corpus FILE] [--jforge PATH] [--jobs J] [--workers W]
                           [--json FILE] [--keep] [--no-retry]
  bench/coverage_corpus.py --self-test
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import suite_coverage as sc  # noqa: E402  (read-only: another change owns it)

DEFAULT_CORPUS = os.path.join(HERE, "corpus.tsv")
SHARE = "/usr/share/java"
SEED = 1
TIME_LIMIT = "10m"          # never reached by a healthy run; its finish budget is 150 s
GEN_TIMEOUT = 1200          # seconds; a hung jforge fails its class instead of the CI job
RUN_TIMEOUT = 600           # javac, JUnit, jacococli
MARGIN = 1                  # floor = today's value - MARGIN
AGREE = 2                   # JaCoCo and jforge may differ by this many branches unwarned
COLUMNS = ["class", "class-path", "N", "floor", "total", "comment"]
PACKAGES = {"commons-lang3.jar": "libcommons-lang3-java",
            "commons-collections4.jar": "libcommons-collections4-java",
            "commons-math3.jar": "libcommons-math3-java",
            "guava.jar": "libguava-java",
            "joda-time.jar": "libjoda-time-java"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the corpus file


class Entry:
    def __init__(self, cls, cp_key, n, floor, total, comment, line_no):
        self.cls, self.cp_key, self.n = cls, cp_key, n
        self.floor, self.total, self.comment, self.line_no = floor, total, comment, line_no

    def short(self):
        return self.cls.rsplit(".", 1)[-1]


def parse_int(text, what, line_no):
    if text in ("", "-"):
        return None
    try:
        return int(text)
    except ValueError:
        raise SystemExit(f"corpus line {line_no}: {what} is not a number: {text!r}")


def read_corpus(path):
    """(lines of the file, entries); each entry knows its line so that --update can rewrite it."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    entries = []
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 3:
            raise SystemExit(f"{path}:{i + 1}: want tab-separated {' '.join(COLUMNS)}, got {line!r}")
        cols += [""] * (len(COLUMNS) - len(cols))
        n = parse_int(cols[2], "N", i + 1)
        if not n or n <= 0:
            raise SystemExit(f"{path}:{i + 1}: N must be a positive number of sequences")
        entries.append(Entry(cols[0].strip(), cols[1].strip(), n, parse_int(cols[3].strip(), "floor", i + 1),
                             parse_int(cols[4].strip(), "total", i + 1), "\t".join(cols[5:]), i))
    names = [e.cls for e in entries]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f"{path}: classes listed twice: {', '.join(sorted(dup))}")
    return lines, entries


def format_entry(e):
    return "\t".join([e.cls, e.cp_key, str(e.n), "-" if e.floor is None else str(e.floor),
                      "-" if e.total is None else str(e.total), e.comment])


def write_corpus(path, lines, entries):
    lines = list(lines)
    for e in entries:
        lines[e.line_no] = format_entry(e)
    with open(path + ".part", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".part", path)


# ---------------------------------------------------------------- class paths


def resolve_classpath(key, build_dir, compiled):
    """The class path of a corpus key; a source folder of the repository is compiled once."""
    if key == "jdk":
        return ""
    if "/" not in key and key.endswith(".jar"):
        path = os.path.join(SHARE, key)
        if not os.path.exists(path):
            pkg = PACKAGES.get(key, "the Debian package that has it")
            raise SystemExit(f"{path} is missing (apt-get install -y {pkg})")
        return path
    if os.path.isabs(key):
        if not os.path.exists(key):
            raise SystemExit(f"{key} is missing")
        return key
    src = os.path.join(ROOT, key)
    if not os.path.isdir(src):
        raise SystemExit(f"class-path key {key!r}: not `jdk`, a jar under {SHARE}, an absolute "
                         "path, or a source folder of the repository")
    if key not in compiled:
        dest = os.path.join(build_dir, key.strip("/").replace("/", "_"))
        os.makedirs(dest)
        sources = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".java"))
        r = subprocess.run([sc.jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-d", dest] + sources,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"javac of {key} failed:\n{r.stdout}{r.stderr}")
        compiled[key] = dest
    return compiled[key]


# ---------------------------------------------------------------- one class


def jforge_suite_figure(stats, cls):
    """jforge's own figure for the written suite: coverage.suite.per_class of C and C$*."""
    per = ((stats.get("coverage") or {}).get("suite") or {}).get("per_class") or []
    mine = [c for c in per if c["name"] == cls or c["name"].startswith(cls + "$")]
    if not mine:
        return None
    return {"branches_covered": sum(c["branches"]["covered"] for c in mine),
            "branches_total": sum(c["branches"]["total"] for c in mine)}


def measure(e, cp, jforge, jacoco, workers, work):
    """Generate C's suite and measure it with JUnit + JaCoCo; a dict, with `error` on failure."""
    row = {"class": e.cls, "classpath": cp, "N": e.n}
    t0 = time.monotonic()
    try:
        _measure(row, e, cp, jforge, jacoco, workers, work)
    except (RuntimeError, OSError, subprocess.SubprocessError) as err:
        row["error"] = str(err)
    row["seconds"] = round(time.monotonic() - t0, 1)
    return row


def _measure(row, e, cp, jforge, jacoco, workers, work):
    cls = e.cls
    out_dir, stats_path = os.path.join(work, "out"), os.path.join(work, "stats.json")
    java = sc.jdk_tool("java")

    # 1. generate
    cmd = [jforge, "gen", "--class", cls, "--generated-limit", str(e.n), "--seed", str(SEED),
           "--workers", str(workers), "--time-limit", TIME_LIMIT,
           "--output-dir", out_dir, "--stats-json", stats_path]
    if cp:
        cmd += ["--classpath", cp]
    row["gen_command"] = " ".join(cmd)
    gen_log = os.path.join(work, "gen.log")
    rc, wall = sc.run(cmd, gen_log, cwd=work, timeout=GEN_TIMEOUT)
    row["gen_seconds"] = round(wall, 1)
    if rc not in (0, 3):  # 3: error-revealing tests written, a success
        raise RuntimeError(f"jforge gen exited with {rc}:\n" + sc.tail(gen_log))
    with open(stats_path) as f:
        stats = json.load(f)
    row["stop_reason"] = stats.get("stop_reason")
    row["regression_tests"] = stats.get("regression_tests")
    row["jforge_suite"] = jforge_suite_figure(stats, cls)
    # What the run spent, for a class that got slow: restarts and timeouts cost whole JVM starts.
    row["jforge_run"] = {k: stats.get(k) for k in ("worker_restarts", "worker_timeouts", "total_seconds")}
    row["jforge_run"]["phase_seconds"] = stats.get("phase_seconds")
    row["jforge_run"]["worker_seconds"] = stats.get("worker_seconds")
    row["jforge_run"]["incidents"] = stats.get("incidents")
    ws = stats.get("worker_seconds") or {}
    # Calls cut by a wall-clock limit (a timeout, survived or not): which calls hit it can
    # depend on the machine's load, and so can the suite.
    row["timeouts"] = (stats.get("worker_timeouts") or 0) + sum(
        n for kind, n in (ws.get("survived") or {}).items() if "timeout" in kind)
    if stats.get("stop_reason") != "generated-limit":
        raise RuntimeError(f"jforge gen stopped by {stats.get('stop_reason')!r}, not by the generated "
                           f"limit: the figure would depend on the machine's speed")
    finish, validation = stats.get("finish") or {}, stats.get("validation") or {}
    cuts = [k for k, v in (("finish.minimization_cut", finish.get("minimization_cut")),
                           ("finish.replacements_cut", finish.get("replacements_cut")),
                           ("validation.budget_cut", validation.get("budget_cut"))) if v]
    if cuts:
        raise RuntimeError(f"a time budget cut the suite ({', '.join(cuts)}): the figure would "
                           "depend on the machine's speed")

    # 2. compile the written regression suite (error-revealing tests left out)
    suite = sc.find_suite(out_dir)
    tests = [n for _, n, s in suite if sc.is_test_class(s)]
    row["tests_written"] = sum(sc.count_tests(s) for _, _, s in suite)
    if not tests:
        raise RuntimeError("no regression test written")
    junit5 = any("org.junit.jupiter" in s for _, _, s in suite)
    classes_dir = os.path.join(work, "test-classes")
    os.makedirs(classes_dir)
    junit_cp = [sc.CONSOLE] if junit5 else sc.JUNIT4
    with open(os.path.join(work, "sources.txt"), "w") as f:
        f.write("\n".join(p for p, _, _ in suite) + "\n")
    javac_log = os.path.join(work, "javac.log")
    rc, _ = sc.run([sc.jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-d", classes_dir,
                    "-cp", ":".join(filter(None, [cp] + junit_cp)), "@" + os.path.join(work, "sources.txt")],
                   javac_log, timeout=RUN_TIMEOUT)
    if rc != 0:
        raise RuntimeError("the written regression suite does not compile:\n" + sc.tail(javac_log))

    # 3. one JUnit run with JaCoCo: the agent for a class of the class path, offline
    # instrumentation patched into its module for a JDK class
    orig = os.path.join(work, "classes-orig")
    os.makedirs(orig)
    names = sc.class_files_from_path(cls, cp, orig) if cp else []
    exec_path = os.path.join(work, "jacoco.exec")
    if names:
        jvm_args = [f"-javaagent:{jacoco['agent']}=destfile={exec_path},includes={cls}:{cls}$*"]
    else:
        module, names = sc.class_files_from_jdk(cls, os.path.join(work, "jdk"))
        if not names:
            raise RuntimeError("class file found neither on the class path nor in the JDK")
        orig = os.path.join(work, "jdk", module)
        inst = os.path.join(work, "classes-instrumented")
        rc, _ = sc.run([java, "-jar", jacoco["cli"], "instrument", orig, "--dest", inst],
                       os.path.join(work, "instrument.log"), timeout=RUN_TIMEOUT)
        if rc != 0:
            raise RuntimeError("jacococli instrument failed:\n" + sc.tail(os.path.join(work, "instrument.log")))
        jvm_args = [f"--patch-module={module}={inst}", f"-Xbootclasspath/a:{jacoco['agent']}",
                    f"--add-reads={module}=ALL-UNNAMED", f"-Djacoco-agent.destfile={exec_path}"]
    test_cp = ":".join(filter(None, [classes_dir, cp]))
    cmd = sc.junit_cmd(java, test_cp, tests, junit5, os.path.join(work, "reports"))
    junit_log = os.path.join(work, "junit.log")
    rc, _ = sc.run(cmd[:1] + jvm_args + cmd[1:], junit_log, cwd=work, timeout=RUN_TIMEOUT)
    row["tests_run"], row["tests_failed"] = sc.junit_counts(junit_log, junit5)
    if row["tests_run"] is None:
        raise RuntimeError(f"JUnit exited with {rc} and no summary:\n" + sc.tail(junit_log))
    if row["tests_failed"]:
        raise RuntimeError(f"{row['tests_failed']} of {row['tests_run']} written regression tests "
                           f"failed under JUnit:\n" + sc.tail(junit_log, 30))
    csv_path = os.path.join(work, "jacoco.csv")
    report_log = os.path.join(work, "report.log")
    rc, _ = sc.run([java, "-jar", jacoco["cli"], "report"] + ([exec_path] if os.path.exists(exec_path) else [])
                   + ["--classfiles", orig, "--csv", csv_path], report_log, timeout=RUN_TIMEOUT)
    if rc != 0:
        raise RuntimeError("jacococli report failed:\n" + sc.tail(report_log))
    row["jacoco"] = sc.jacoco_counters(csv_path)


# ---------------------------------------------------------------- comparison


def judge(e, row):
    """Compare a measured row with its corpus entry: (status, messages, warnings).

    status: `error` (not measured, or not comparable), `no-floor`, `below`, `ok` or `above`
    (more than MARGIN over the floor). Only `ok` and `above` pass --check."""
    warnings = []
    if row.get("error"):
        return "error", [f"{e.cls}: {row['error']}"], warnings
    j = row["jacoco"]
    now, total = j["branches_covered"], j["branches_total"]
    g = row.get("jforge_suite")
    if g is None:
        warnings.append(f"{e.cls}: jforge's --stats-json has no figure for the written suite "
                        "(coverage.suite.per_class)")
    elif abs(g["branches_covered"] - now) > AGREE or g["branches_total"] != total:
        warnings.append(f"{e.cls}: JaCoCo and jforge disagree on the written suite: JaCoCo "
                        f"{now}/{total}, jforge {g['branches_covered']}/{g['branches_total']} "
                        "branches (the same suite: a difference is a bug to find, in jforge or in how "
                        "the two count; BENCHMARKS.md, \"Coverage corpus\", explains the known ones)")
    first = row.get("first_try")
    if first and first["branches_covered"] != now:
        warnings.append(f"{e.cls}: {first['branches_covered']}/{total} branches with {first['timeouts']} "
                        f"calls cut by a time limit, {now}/{total} when run again alone: the figure "
                        "depends on the machine's load")
    if e.total is not None and total != e.total:
        return "error", [f"{e.cls}: total branches changed: the corpus has {e.total}, JaCoCo counts "
                         f"{total} (another version of the class? its floor no longer applies; "
                         "--update --allow-lower takes the new figures)"], warnings
    if e.floor is None:
        return "no-floor", [f"{e.cls}: no floor yet, now {now}/{total} (run --update)"], warnings
    if now < e.floor:
        again = (f"; run twice: first {first['branches_covered']}/{total} with {first['timeouts']} calls "
                 "cut by a time limit, then alone") if first else ""
        return "below", [f"{e.cls}: floor {e.floor}/{total}, now {now}/{total} "
                         f"(-{e.floor - now} branches){again}"], warnings
    if now > e.floor + MARGIN:
        return "above", [f"{e.cls}: floor {e.floor}/{total}, now {now}/{total} "
                         f"(+{now - e.floor} branches): raise the floor with --update"], warnings
    return "ok", [], warnings


def update_entry(e, row, allow_lower):
    """The floor --update would set (and a message), or None to leave the entry alone."""
    if row.get("error"):
        return None
    j = row["jacoco"]
    new_floor, new_total = max(0, j["branches_covered"] - MARGIN), j["branches_total"]
    if e.floor is not None and e.total == new_total and new_floor == e.floor:
        return None
    if e.floor is not None and not allow_lower and (new_floor < e.floor or e.total != new_total):
        what = "a lower floor" if e.total == new_total else "a changed total"
        return ("keep", f"{e.cls}: not lowered to {new_floor}/{new_total} (floor {e.floor}/{e.total}; "
                        f"{what} needs --allow-lower)")
    old = "none" if e.floor is None else f"{e.floor}/{e.total}"
    e.floor, e.total = new_floor, new_total
    return ("set", f"{e.cls}: floor {old} -> {new_floor}/{new_total}")


# ---------------------------------------------------------------- output


def table(entries, rows):
    header = ["class", "N", "floor", "now", "tests", "jforge", "s"]
    body = []
    for e in entries:
        r = rows[e.cls]
        j, g = r.get("jacoco"), r.get("jforge_suite")
        body.append([e.cls, str(e.n),
                     "-" if e.floor is None else f"{e.floor}/{e.total}",
                     f"{j['branches_covered']}/{j['branches_total']}" if j else "error",
                     str(r.get("tests_written", "-")),
                     f"{g['branches_covered']}/{g['branches_total']}" if g else "-",
                     f"{r.get('seconds', 0):.1f}"])
    w = [max(len(x[i]) for x in [header] + body) for i in range(len(header))]
    return "\n".join("  ".join(x.ljust(w[i]) if i == 0 else x.rjust(w[i]) for i, x in enumerate(b))
                     for b in [header] + body)


# ---------------------------------------------------------------- self-test


def self_test():
    """The comparison and the rewrite of the corpus file, on made-up figures (no Java)."""
    def entry(floor, total=100):
        return Entry("a.B", "jdk", 1000, floor, total, "why", 0)

    def row(now, total=100, **kw):
        return dict({"class": "a.B", "jacoco": {"branches_covered": now, "branches_total": total},
                     "jforge_suite": {"branches_covered": now, "branches_total": total}}, **kw)

    st, msgs, _ = judge(entry(80), row(77))
    assert st == "below" and msgs == ["a.B: floor 80/100, now 77/100 (-3 branches)"], msgs
    assert judge(entry(80), row(80))[0] == "ok"
    assert judge(entry(80), row(81))[0] == "ok"
    st, msgs, _ = judge(entry(80), row(85))
    assert st == "above" and "raise the floor with --update" in msgs[0], msgs
    st, msgs, _ = judge(entry(80), row(90, total=120))
    assert st == "error" and "total branches changed" in msgs[0] and "100" in msgs[0], msgs
    st, msgs, _ = judge(entry(80), {"class": "a.B", "error": "2 of 9 written regression tests failed"})
    assert st == "error" and "failed" in msgs[0], msgs
    assert judge(entry(None), row(50))[0] == "no-floor"
    r = row(81)
    r["jforge_suite"] = {"branches_covered": 85, "branches_total": 100}
    st, _, warns = judge(entry(80), r)
    assert st == "ok" and warns and "disagree" in warns[0], warns
    r["jforge_suite"] = {"branches_covered": 83, "branches_total": 100}
    assert judge(entry(80), r)[2] == []
    r = row(80, timeouts=1, first_try={"branches_covered": 76, "timeouts": 2, "seconds": 9})
    st, _, warns = judge(entry(80), r)
    assert st == "ok" and any("76/100 branches with 2 calls" in w for w in warns), warns
    r = row(78, first_try={"branches_covered": 76, "timeouts": 2, "seconds": 9})
    st, msgs, _ = judge(entry(80), r)
    assert st == "below" and msgs == ["a.B: floor 80/100, now 78/100 (-2 branches); run twice: first "
                                      "76/100 with 2 calls cut by a time limit, then alone"], msgs

    e = entry(80)
    assert update_entry(e, row(81), False) is None
    assert update_entry(e, row(90), False)[0] == "set" and e.floor == 89
    assert update_entry(e, row(70), False)[0] == "keep" and e.floor == 89
    assert update_entry(e, row(70), True)[0] == "set" and e.floor == 69
    assert update_entry(e, row(70, total=101), False)[0] == "keep" and e.total == 100
    assert update_entry(e, row(70, total=101), True)[0] == "set" and (e.floor, e.total) == (69, 101)
    assert update_entry(e, {"error": "x"}, True) is None
    e = entry(None, None)
    assert update_entry(e, row(0), False)[0] == "set" and e.floor == 0

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "corpus.tsv")
        with open(path, "w") as f:
            f.write("# comment\tkept\njava.util.X\tjdk\t100\t5\t10\tsome comment\n"
                    "\n# more\np.Y\tguava.jar\t200\t-\t-\n")
        lines, entries = read_corpus(path)
        assert [(x.cls, x.n, x.floor, x.total) for x in entries] == \
            [("java.util.X", 100, 5, 10), ("p.Y", 200, None, None)]
        entries[1].floor, entries[1].total = 7, 9
        write_corpus(path, lines, entries[1:])
        with open(path) as f:
            text = f.read()
        assert text == ("# comment\tkept\njava.util.X\tjdk\t100\t5\t10\tsome comment\n"
                        "\n# more\np.Y\tguava.jar\t200\t7\t9\t\n"), repr(text)
    print("coverage_corpus self-test: ok")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(
        description="Run `jforge gen --generated-limit N --seed 1` on every class of the coverage "
                    "corpus, measure the written suite's branch coverage with JUnit + JaCoCo and "
                    "compare it with the class's floor (today's best value minus one branch).")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="fail (exit 1) if a class is below its floor or could not be measured (default)")
    mode.add_argument("--update", action="store_true",
                      help="rewrite the floors of the classes run to today's value minus one branch (only raises)")
    mode.add_argument("--self-test", action="store_true", help="test the comparison logic (no Java; < 1 s)")
    ap.add_argument("--allow-lower", action="store_true",
                    help="with --update: also lower floors and accept changed totals")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="only this class (binary or simple name; repeatable)")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help="the corpus file (default bench/corpus.tsv)")
    ap.add_argument("--jforge", metavar="PATH",
                    help="jforge binary (default $JFORGE, else $CARGO_TARGET_DIR (or target)/release/jforge, "
                         "built if missing)")
    ap.add_argument("--jobs", type=int, default=2, help="classes run at once (default 2)")
    ap.add_argument("--workers", type=int, default=1,
                    help="jforge gen --workers per class (default 1, the floors' setting: with 2, five "
                         "classes of the corpus get other figures, StringUtils' vary from run to run)")
    ap.add_argument("--no-retry", action="store_true",
                    help="do not run a class again that is below its floor after calls were cut by a time limit")
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    ap.add_argument("--keep", action="store_true", help="keep each class's work folder and print its path")
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "jforge-bench"),
        help="where the JaCoCo jars are kept (default ~/.cache/jforge-bench)")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    if a.allow_lower and not a.update:
        ap.error("--allow-lower goes with --update")

    lines, entries = read_corpus(a.corpus)
    if a.only:
        entries = [e for e in entries if e.cls in a.only or e.short() in a.only]
        if not entries:
            sys.exit(f"no class of {a.corpus} matches --only {' '.join(a.only)}")
    for jar in sc.JUNIT4 + [sc.CONSOLE]:
        if not os.path.exists(jar):
            sys.exit(f"{jar} is missing (apt-get install -y junit4 junit5)")

    # cargo's own output folder: $CARGO_TARGET_DIR when set (a shared build folder), else target/
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    jforge = a.jforge or os.environ.get("JFORGE") or os.path.join(target, "release", "jforge")
    if not a.jforge and not os.environ.get("JFORGE") and not os.path.exists(jforge):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    jforge = os.path.abspath(jforge)
    if not os.access(jforge, os.X_OK):
        sys.exit(f"{jforge}: no such executable")
    jacoco = sc.jacoco_jars(a.cache)
    # The same defaults on every machine: jforge's first run of each sequence (and the JUnit
    # run) use the machine's time zone and locale, which some classes' branches depend on.
    os.environ.update(TZ="UTC", LC_ALL="C.UTF-8", LANG="C.UTF-8")

    build_dir = tempfile.mkdtemp(prefix="jforge-corpus-cp-")
    t_all = time.monotonic()
    rows = {}
    lock = threading.Lock()
    try:
        compiled = {}
        cps = {e.cls: resolve_classpath(e.cp_key, build_dir, compiled) for e in entries}

        def one(e, tag=""):
            work = tempfile.mkdtemp(prefix="jforge-corpus-")
            try:
                r = measure(e, cps[e.cls], jforge, jacoco, a.workers, work)
            finally:
                if a.keep:
                    log(f"    {e.cls}: kept {work}")
                else:
                    shutil.rmtree(work, ignore_errors=True)
            if a.keep:
                r["work_dir"] = work
            with lock:
                j = r.get("jacoco")
                log(f"[{tag or len(rows) + 1}/{len(entries)}] {e.cls} (N={e.n}): "
                    + (f"{j['branches_covered']}/{j['branches_total']} branches" if j else "error")
                    + (f", {r['timeouts']} calls cut by a time limit" if r.get("timeouts") else "")
                    + f", {r['seconds']:.1f} s")
                if not tag:
                    rows[e.cls] = r
            return r

        log(f"coverage corpus: {len(entries)} classes, {a.jobs} at a time, jforge {jforge}")
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            list(pool.map(one, entries))
        # A class below its floor whose run had calls cut by jforge's time limits runs once
        # more, alone: on a loaded machine a call can take longer than the limit, its sequence
        # then ends in a timeout and the run goes another way. A figure lowered by a change
        # is lowered again; one lowered by the load is not (a warning says so).
        for e in entries:
            first = rows[e.cls]
            if not a.no_retry and first.get("timeouts") and judge(e, first)[0] == "below":
                log(f"{e.cls}: below its floor with {first['timeouts']} calls cut by a time limit: "
                    "once more, alone")
                again = one(e, tag="again")
                again["first_try"] = {"branches_covered": first["jacoco"]["branches_covered"],
                                      "timeouts": first["timeouts"], "seconds": first["seconds"]}
                again["seconds"] = round(first["seconds"] + again["seconds"], 1)
                rows[e.cls] = again
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)
    total_s = time.monotonic() - t_all

    verdicts = {e.cls: judge(e, rows[e.cls]) for e in entries}
    failed = [e for e in entries if verdicts[e.cls][0] in ("error", "below", "no-floor")]
    print(f"coverage corpus, {datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores; "
          f"jforge gen --generated-limit N --seed {SEED} --workers {a.workers}, {a.jobs} classes at a time")
    print(table(entries, rows))
    print(f"total {total_s:.1f} s")
    for e in entries:
        for w in verdicts[e.cls][2]:
            print(f"warning: {w}")
    if a.update:
        changes = [(e, update_entry(e, rows[e.cls], a.allow_lower)) for e in entries]
        for _, c in changes:
            if c:
                print(c[1])
        changed = [e for e, c in changes if c and c[0] == "set"]
        if changed:
            write_corpus(a.corpus, lines, changed)
            print(f"{a.corpus}: {len(changed)} floors written")
        else:
            print(f"{a.corpus}: no floor changed")
        for e in entries:
            if rows[e.cls].get("error"):
                print("\n".join(verdicts[e.cls][1]))
    else:
        above = [e for e in entries if verdicts[e.cls][0] == "above"]
        for e in above:
            print("\n".join(verdicts[e.cls][1]))
        if failed:
            print(f"\ncoverage corpus FAILED ({len(failed)} of {len(entries)} classes):")
            for e in failed:
                print("\n".join(verdicts[e.cls][1]))
        else:
            print(f"coverage corpus: all {len(entries)} classes at or above their floors")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"date": str(datetime.date.today()), "machine": platform.node(),
                       "cores": os.cpu_count(), "jacoco": sc.JACOCO_VERSION, "jforge": jforge,
                       "seed": SEED, "workers": a.workers, "jobs": a.jobs, "seconds": round(total_s, 1),
                       "results": [dict(rows[e.cls], floor=e.floor, total=e.total,
                                        status=verdicts[e.cls][0]) for e in entries]}, f, indent=1)
    if a.update:
        # Still failing after the update: errors, and floors a run fell below and --update kept.
        return 1 if any(rows[e.cls].get("error") for e in entries) or any(
            c and c[0] == "keep" for _, c in changes) else 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
