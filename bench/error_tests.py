#!/usr/bin/env python3
"""Benchmark of the error-revealing tests `jforge gen` writes on real libraries: does a
maintainer believe them? Runs gen on guava's com.google.common.collect and on
commons-collections4 (the Debian jars in /usr/share/java) and lists every error test written
(class, contract, operation, where the class's code broke it) and the violations set aside
as input-caused, for classification by hand (real defect or false alarm) in BENCHMARKS.md.

The third subject, "guava views", is the issue's own setting made reachable: the seven guava
classes whose lazy views (and TreeBasedTable built with Ordering.compound) gave the issue's
false alarms, so that 120 s reach those views on a shared 2-core machine, which the whole
package at 120 s does not.

Usage: bench/error_tests.py [--seconds 30] [--binary PATH] [--seed 1] [--keep DIR]
                            [--only NAME]...
--binary compares another build (e.g. the base branch's target/release/jforge); without it
this tree is built in release mode. --keep DIR keeps the written error tests there. --only
runs only the named subjects ("guava collect", "guava views", "commons-collections4";
repeatable).
"""
import argparse, json, os, re, shutil, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECTS = [
    ("guava collect", ["--classpath", "/usr/share/java/guava.jar",
                       "--package", "com.google.common.collect"]),
    ("guava views", ["--classpath", "/usr/share/java/guava.jar"]
     + [f for c in ["Maps", "Lists", "Collections2", "Multimaps", "Multisets",
                    "TreeBasedTable", "Ordering"]
        for f in ("--class", f"com.google.common.collect.{c}")]),
    ("commons-collections4", ["--jar", "/usr/share/java/commons-collections4.jar"]),
]
# The factories of the views behind the false alarms: how many written tests (regression
# and error) call each shows whether a run reached them at all. Written calls may carry type
# arguments (Maps.<String, Integer>asMap(...)).
VIEWS = ["Maps.asMap", "Maps.asConverter", "Lists.transform", "Collections2.transform",
         "Maps.transformEntries", "Multimaps.transformEntries", "Multisets.filter",
         "Ordering.compound", "TreeBasedTable.create"]
CALL = {v: re.compile(re.escape(v.split(".")[0]) + r"\.(?:<[^()]*?>)?" + v.split(".")[1] + r"\(")
        for v in VIEWS}


def reached(dirs):
    """Per view factory of VIEWS, the number of @Test methods in dirs that call it."""
    counts = {v: 0 for v in VIEWS}
    for top in dirs:
        for base, _, files in os.walk(top):
            for f in files:
                if not f.endswith(".java"):
                    continue
                text = open(os.path.join(base, f), encoding="utf-8").read()
                for test in re.split(r"@Test", text)[1:]:
                    for v in VIEWS:
                        if CALL[v].search(test):
                            counts[v] += 1
    return {v: n for v, n in counts.items() if n}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    ap.add_argument("--only", action="append", choices=[n for n, _ in SUBJECTS])
    a = ap.parse_args()
    exe = a.binary
    if not exe:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        exe = os.path.join(ROOT, "target", "release", "jforge")
    for name, sel in SUBJECTS:
        if a.only and name not in a.only:
            continue
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, "stats.json")
            cmd = [exe, "gen", "--quiet", *sel, "--time-limit", f"{a.seconds}s",
                   "--seed", str(a.seed), "--output-dir", os.path.join(d, "out"),
                   "--stats-json", js]
            p = subprocess.run(cmd, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            if p.returncode not in (0, 3):
                print(f"{name}: exit {p.returncode}\n{p.stderr}")
                continue
            s = json.load(open(js))
            errs = s.get("errors", [])
            print(f"## {name} ({a.seconds} s, seed {a.seed}): {len(errs)} error tests, "
                  f"{s.get('regression_tests')} regression tests; load average at the end "
                  f"{os.getloadavg()[0]:.1f}")
            for e in errs:
                where = e.get("broken_in") or "-"
                print(f"- {e['class']}: {e['contract']} via {e['operation']}; broken in {where}")
            aside = s.get("set_aside")
            if aside is not None:
                print(f"set aside: {json.dumps(aside, sort_keys=True)}")
            if name.startswith("guava"):
                tests = [os.path.join(d, "out"), os.path.join(d, "jforge-error-tests")]
                print(f"tests calling the issue's view factories: {json.dumps(reached(tests))}")
            if a.keep:
                dst = os.path.join(a.keep, name.replace(" ", "-"))
                shutil.rmtree(dst, ignore_errors=True)
                src = os.path.join(d, "jforge-error-tests")
                if os.path.isdir(src):
                    shutil.copytree(src, dst)
            print()


if __name__ == "__main__":
    main()
