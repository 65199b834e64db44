#!/usr/bin/env python3
"""Benchmark of `jforge concolic` against `jforge gen` (random, coverage-guided) on the "hard
branches" subject (tests/subjects/concolic/hard: arithmetic equalities, a checksum, nested
ranges, a switch on a computed value, overflow, division, an exception caught inside, an
array read at a symbolic index). Both get the same time limit; each written suite is then
measured by `jforge coverage` (the same yardstick for both). Prints, per command, the
branches its written suite covers, and for concolic the paths, infeasible alternatives,
solver calls, time in the solver and paths per second.

Usage: bench/concolic.py [--seconds 60] [--binary PATH] [--solver z3|cvc5]
Without --binary this tree is built in release mode. Needs z3 (or cvc5) and javac.
"""
import argparse, json, os, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECT = ("hard.HardBranches", os.path.join(ROOT, "tests", "subjects", "concolic", "hard"))


def measured(exe, classes, cls, tests, d):
    """Branches (covered, total) of `cls` under the suite in `tests`, by jforge coverage."""
    js = os.path.join(d, "cov.json")
    subprocess.run([exe, "coverage", "-q", "--classpath", classes, "--class", cls, "--tests",
                    tests, "--json", js], check=True, stdout=subprocess.DEVNULL)
    b = json.load(open(js))["branches"]
    return b["covered"], b["total"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--binary")
    ap.add_argument("--solver", default="z3")
    a = ap.parse_args()
    exe = a.binary
    if not exe:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        exe = os.path.join(ROOT, "target", "release", "jforge")
    cls, src = SUBJECT
    with tempfile.TemporaryDirectory() as d:
        classes = os.path.join(d, "classes")
        srcs = [os.path.join(src, f) for f in os.listdir(src) if f.endswith(".java")]
        subprocess.run(["javac", "-d", classes, *srcs], check=True)
        for cmd in ("gen", "concolic"):
            out = os.path.join(d, cmd)
            js = os.path.join(d, cmd + ".json")
            args = [exe, cmd, "--quiet", "--classpath", classes, "--class", cls,
                    "--time-limit", f"{a.seconds}s", "--output-dir", out, "--stats-json", js]
            if cmd == "concolic":
                args += ["--solver", a.solver]
            p = subprocess.run(args, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            if p.returncode not in (0, 3):
                print(f"{cmd}: exit {p.returncode}\n{p.stderr}")
                continue
            s = json.load(open(js))
            cov, total = measured(exe, classes, cls, out, d)
            line = f"{cmd:9} {a.seconds:3} s: written suite covers {cov}/{total} branches"
            if cmd == "concolic":
                line += (f"; {s['paths']} paths, {s['infeasible']} infeasible, "
                         f"{s['solver_timeouts']} solver time-outs, {s['solver_calls']} solver "
                         f"calls, {s['solver_seconds']:.2f} s in the solver, "
                         f"{s['paths_per_second']:.1f} paths/s, explored in "
                         f"{s['explore_seconds']:.1f} s, {s['tests_written']} tests")
            print(line)


if __name__ == "__main__":
    main()
