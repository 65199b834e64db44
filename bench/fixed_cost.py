#!/usr/bin/env python3
"""The fixed cost of a `jforge gen` run, per phase and per class size, old binary against new.

What a user waits for besides generating: set-up (reading classes, instrumenting, starting
workers), finishing the tests (re-running them in two JVMs, minimizing) and the check (javac,
then the JUnit runs of the written suite). Every workload has a fixed amount of generation
(--generated-limit), so any difference is fixed cost.

Workloads (--only picks by substring):
  small       java.util.StringJoiner, 3,000 sequences
  TreeMap     java.util.TreeMap, 30,000 sequences (issue 35's command)
  StrBuilder  org.apache.commons.lang3.text.StrBuilder (Debian's commons-lang3), 30,000
  package     org.apache.commons.collections4.list (Debian's commons-collections4, 28 class
              files), 30,000

The binaries run alternately (old, new, new, old, ...), so that neither always has the
quieter machine; each figure is the median of --repeat runs. Phase times are jforge's own
(`phase_seconds` of --stats-json); the check's javac and JUnit runs come from JFORGE_TIMING=1.

    git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --release)
    python3 bench/fixed_cost.py --old /tmp/base/target/release/jforge \\
        --new target/release/jforge --repeat 3 --markdown
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

LANG3 = "/usr/share/java/commons-lang3.jar"
COLL4 = "/usr/share/java/commons-collections4.jar"

WORKLOADS = [
    ("small", ["--class", "java.util.StringJoiner", "--generated-limit", "3000"]),
    ("TreeMap", ["--class", "java.util.TreeMap", "--generated-limit", "30000"]),
    ("StrBuilder", ["--classpath", LANG3, "--class", "org.apache.commons.lang3.text.StrBuilder",
                    "--generated-limit", "30000"]),
    ("package", ["--classpath", COLL4, "--package", "org.apache.commons.collections4.list",
                 "--generated-limit", "30000"]),
]

TIMING = re.compile(r"^jforge timing: (.*): ([0-9.]+) s$")


def one(binary, argv, tmp):
    """The figures of one run: wall, phases, the check's javac and JUnit runs, tests."""
    js = os.path.join(tmp, "stats.json")
    out = os.path.join(tmp, "out")
    for p in (js,):
        if os.path.exists(p):
            os.remove(p)
    cmd = [binary, "gen", "--quiet", "--seed", "1", "--output-dir", out, "--stats-json", js] + argv
    env = dict(os.environ, JFORGE_TIMING="1")
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-3000:]}")
    with open(js) as f:
        s = json.load(f)
    javac = runs = 0.0
    for line in p.stderr.splitlines():
        m = TIMING.match(line.strip())
        if not m:
            continue
        what, sec = m.group(1), float(m.group(2))
        if what.startswith("javac round"):
            javac += sec
        elif what.startswith("run "):
            runs += sec
    ph = s.get("phase_seconds", {})
    subprocess.run(["rm", "-rf", out])
    return {
        "wall": wall,
        "setup": ph.get("setup", 0.0),
        "generation": ph.get("generation", 0.0),
        "finish": ph.get("finish", 0.0),
        "check": ph.get("check", 0.0),
        "fixed": ph.get("setup", 0.0) + ph.get("finish", 0.0) + ph.get("check", 0.0),
        "javac": javac,
        "junit_runs_sum": runs,
        "tests": s.get("regression_tests", 0),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", help="the binary before (optional: only --new is measured without it)")
    ap.add_argument("--new", required=True, help="the binary after")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="workloads whose name contains this")
    ap.add_argument("--json", help="write every run's figures here")
    ap.add_argument("--markdown", action="store_true", help="print a table for BENCHMARKS.md")
    a = ap.parse_args()
    for jar in (LANG3, COLL4):
        if not os.path.exists(jar):
            sys.exit(f"{jar} is missing: apt-get install libcommons-lang3-java libcommons-collections4-java")
    bins = [("old", a.old), ("new", a.new)] if a.old else [("new", a.new)]
    results = {}
    with tempfile.TemporaryDirectory(prefix="jforge-fixed-cost") as tmp:
        for name, argv in WORKLOADS:
            if a.only and a.only not in name:
                continue
            for r in range(a.repeat):
                order = bins if r % 2 == 0 else bins[::-1]
                for label, b in order:
                    f = one(b, argv, tmp)
                    results.setdefault(name, {}).setdefault(label, []).append(f)
                    print(f"{name:10} {label}: total {f['wall']:.2f} s, fixed {f['fixed']:.2f} s "
                          f"(set-up {f['setup']:.2f}, finish {f['finish']:.2f}, check {f['check']:.2f}: "
                          f"javac {f['javac']:.2f}, JUnit runs {f['junit_runs_sum']:.2f}), "
                          f"generation {f['generation']:.2f}, {f['tests']} tests", file=sys.stderr)
    cols = ["wall", "fixed", "setup", "generation", "finish", "check", "javac", "tests"]
    med = {n: {l: {c: statistics.median(x[c] for x in runs) for c in cols} for l, runs in by.items()}
           for n, by in results.items()}
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": platform.node(), "cpus": os.cpu_count(),
                       "date": time.strftime("%Y-%m-%d %H:%M"), "runs": results, "median": med}, f, indent=1)
    if a.markdown:
        print("| class | binary | total s | fixed s | set-up | generation | finish | check | of it javac | tests |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for n, by in med.items():
            for l, m in by.items():
                print(f"| {n} | {l} | {m['wall']:.2f} | {m['fixed']:.2f} | {m['setup']:.2f} | "
                      f"{m['generation']:.2f} | {m['finish']:.2f} | {m['check']:.2f} | {m['javac']:.2f} | "
                      f"{m['tests']:.0f} |")
    else:
        for n, by in med.items():
            for l, m in by.items():
                print(f"{n:10} {l}: " + ", ".join(f"{c} {m[c]:.2f}" for c in cols))


if __name__ == "__main__":
    main()
