#!/usr/bin/env python3
"""Benchmark of the error-revealing tests `jforge gen` writes on real libraries: does a
maintainer believe them? Runs gen on guava's com.google.common.collect and on
commons-collections4 (the Debian jars in /usr/share/java) and lists every error test written
(class, contract, operation, where the class's code broke it) and the violations set aside
as input-caused, for classification by hand (real defect or false alarm) in BENCHMARKS.md.

Usage: bench/error_tests.py [--seconds 30] [--binary PATH] [--seed 1] [--keep DIR]
--binary compares another build (e.g. the base branch's target/release/jforge); without it
this tree is built in release mode. --keep DIR keeps the written error tests there.
"""
import argparse, json, os, shutil, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECTS = [
    ("guava collect", ["--classpath", "/usr/share/java/guava.jar",
                       "--package", "com.google.common.collect"]),
    ("commons-collections4", ["--jar", "/usr/share/java/commons-collections4.jar"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    a = ap.parse_args()
    exe = a.binary
    if not exe:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        exe = os.path.join(ROOT, "target", "release", "jforge")
    for name, sel in SUBJECTS:
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
                  f"{s.get('regression_tests')} regression tests")
            for e in errs:
                where = e.get("broken_in") or "-"
                print(f"- {e['class']}: {e['contract']} via {e['operation']}; broken in {where}")
            aside = s.get("set_aside")
            if aside is not None:
                print(f"set aside: {json.dumps(aside, sort_keys=True)}")
            if a.keep:
                dst = os.path.join(a.keep, name.replace(" ", "-"))
                shutil.rmtree(dst, ignore_errors=True)
                src = os.path.join(d, "jforge-error-tests")
                if os.path.isdir(src):
                    shutil.copytree(src, dst)
            print()


if __name__ == "__main__":
    main()
