#!/usr/bin/env python3
"""Whole packages and jars: where a `jforge gen` run's time goes, and what its suite covers.

Users start with `--package` or `--jar`, where one run covers a hundred classes. This
command runs `jforge gen` on such a selection (or reads a run already made, `--reuse`) and
reports, per binary given:

- sequences executed per second of generation, worker restarts by cause, the crashes the
  workers survived, and the worker time by what it went to (`worker_seconds` of
  `--stats-json`: executing, JVM starts, loading classes, lost to timeouts and crashes);
- the written regression suite's JaCoCo branch and line coverage over every class of the
  package (or jar): the suite compiled with javac, run under JUnit 4 with the JaCoCo agent
  (`includes=` the package), `jacococli report` over the class files of the package taken
  from the jar (so classes no test loads count as missed, as in a user's build).

Usage:
  bench/package_speed.py --jar /usr/share/java/guava.jar --package com.google.common.collect \\
      --seconds 120 --jforge before=/path/to/old/jforge --jforge after=target/release/jforge
  bench/package_speed.py --jar /usr/share/java/commons-lang3.jar --seconds 120 ...
  (without --package: the whole jar, `jforge gen --jar`)

`--reuse DIR` reads `DIR/<name>.json` and `DIR/out-<name>` (the stats and output folder of a
run made before) instead of running jforge. JaCoCo comes from suite_coverage.py's cache
(downloaded from Maven Central on first use); JUnit 4 from Debian.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_coverage as sc  # noqa: E402


def gen(binary, a, out_dir, stats):
    sel = ["--classpath", a.jar, "--package", a.package] if a.package else ["--jar", a.jar]
    cmd = [binary, "gen", *sel, "--time-limit", f"{a.seconds}s", "--output-dir", out_dir,
           "--stats-json", stats, "--quiet"]
    sc.log(" ".join(cmd))
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def package_classes(jar, package, dest):
    """Extracts the class files of the package (the whole jar without one) into dest."""
    prefix = package.replace(".", "/") + "/" if package else ""
    n = 0
    with zipfile.ZipFile(jar) as z:
        for name in z.namelist():
            if name.endswith(".class") and name.startswith(prefix) and "META-INF" not in name \
                    and not name.endswith("module-info.class"):
                z.extract(name, dest)
                n += 1
    return n


def suite_coverage(a, out_dir, work, jacoco):
    """JaCoCo figures of the regression suite in out_dir over the package's classes."""
    suite = sc.find_suite(out_dir)
    tests = [n for _, n, s in suite if sc.is_test_class(s)]
    if not tests:
        return {"error": "no regression test written"}
    classes = os.path.join(work, "test-classes")
    os.makedirs(classes)
    cp = ":".join([a.jar] + sc.JUNIT4)
    with open(os.path.join(work, "sources.txt"), "w") as f:
        f.write("\n".join(p for p, _, _ in suite) + "\n")
    rc, _ = sc.run([sc.jdk_tool("javac"), "-nowarn", "-encoding", "UTF-8", "-d", classes, "-cp", cp,
                    "@" + os.path.join(work, "sources.txt")], os.path.join(work, "javac.log"))
    if rc != 0:
        return {"error": "suite does not compile:\n" + sc.tail(os.path.join(work, "javac.log"))}
    orig = os.path.join(work, "classes-orig")
    nclasses = package_classes(a.jar, a.package, orig)
    exe = os.path.join(work, "jacoco.exec")
    includes = (a.package + ".*") if a.package else "*"
    java = sc.jdk_tool("java")
    cmd = sc.junit_cmd(java, classes + ":" + a.jar, tests, False, None)
    cmd = cmd[:1] + [f"-javaagent:{jacoco['agent']}=destfile={exe},includes={includes}"] + cmd[1:]
    lg = os.path.join(work, "junit.log")
    sc.run(cmd, lg, cwd=work)
    run, failed = sc.junit_counts(lg, False)
    csv_path = os.path.join(work, "jacoco.csv")
    rc, _ = sc.run([java, "-jar", jacoco["cli"], "report", exe, "--classfiles", orig, "--csv", csv_path],
                   os.path.join(work, "report.log"))
    if rc != 0:
        return {"error": "jacococli report failed:\n" + sc.tail(os.path.join(work, "report.log"))}
    c = sc.jacoco_counters(csv_path)
    c.update(tests_run=run, tests_failed=failed, class_files=nclasses)
    return c


def row(name, stats, cov):
    ws = stats.get("worker_seconds", {})
    return {
        "binary": name,
        "executed": stats["executed"],
        "generation_seconds": round(stats["generation_seconds"], 1),
        "sequences_per_second": round(stats["sequences_per_second"]),
        "worker_restarts": stats["worker_restarts"],
        "restart_causes": dict(timeouts=stats["worker_timeouts"], **stats["worker_crashes"]),
        "survived": ws.get("survived"),
        "worker_seconds": {k: (round(v, 1) if isinstance(v, float) else v)
                           for k, v in ws.items() if k != "survived"} or None,
        "regression_tests": stats["regression_tests"],
        "suite": cov,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--package", help="a package of the jar (default: the whole jar)")
    ap.add_argument("--seconds", type=int, default=120)
    ap.add_argument("--jforge", action="append", required=True, metavar="NAME=PATH")
    ap.add_argument("--reuse", metavar="DIR", help="read DIR/<NAME>.json and DIR/out-<NAME>")
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache", "jforge-bench"))
    ap.add_argument("--json", metavar="FILE")
    a = ap.parse_args()
    jacoco = sc.jacoco_jars(a.cache)
    rows = []
    with tempfile.TemporaryDirectory(prefix="jforge-package-") as tmp:
        for spec in a.jforge:
            name, _, path = spec.partition("=")
            base = a.reuse or tmp
            out_dir, stats_path = os.path.join(base, f"out-{name}"), os.path.join(base, f"{name}.json")
            if not a.reuse:
                gen(os.path.abspath(path), a, out_dir, stats_path)
            with open(stats_path) as f:
                stats = json.load(f)
            work = os.path.join(tmp, f"cov-{name}")
            os.makedirs(work)
            rows.append(row(name, stats, suite_coverage(a, out_dir, work, jacoco)))
    for r in rows:
        s = r["suite"]
        cov = (f"{s['branches_covered']}/{s['branches_total']} branches "
               f"({100.0 * s['branches_covered'] / max(1, s['branches_total']):.1f}%)") \
            if "branches_total" in s else s.get("error", "?")
        print(f"{r['binary']}: {r['sequences_per_second']} seq/s ({r['executed']} in "
              f"{r['generation_seconds']} s), restarts {r['worker_restarts']} {r['restart_causes']}, "
              f"survived {r['survived']}, worker seconds {r['worker_seconds']}, "
              f"{r['regression_tests']} tests, suite {cov}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
