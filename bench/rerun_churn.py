#!/usr/bin/env python3
"""How many lines a timed re-run of `jforge gen` changes on unchanged code (issue 33, item 6).

Per workload and binary: one run into a fresh folder, then --reruns runs of the same command
into the same folder; after each re-run, the lines that differ from the folder before it (as
`diff -r` counts added and removed lines), out of the lines of the suite. Old and new binaries
alternate workload by workload, so both see the same load. A time limit is what makes re-runs
differ (each run reaches another count of sequences); --load N runs N busy loops beside every
re-run (not the first run), so that re-runs get less far than the run they follow, as on a
loaded machine.

    python3 bench/rerun_churn.py --old OLD_BINARY --new NEW_BINARY [--reruns 3] [--time 5s]
        [--load 0] [--only TreeMap] [--json FILE]

Prints one line per re-run and a table for BENCHMARKS.md.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

LANG3 = "/usr/share/java/commons-lang3.jar"
COLL4 = "/usr/share/java/commons-collections4.jar"
WORKLOADS = [
    ("TreeMap", ["--class", "java.util.TreeMap"]),
    ("StrBuilder", ["--classpath", LANG3, "--class", "org.apache.commons.lang3.text.StrBuilder"]),
    ("TreeList", ["--classpath", COLL4, "--class", "org.apache.commons.collections4.list.TreeList"]),
]


def lines_of(folder):
    n = 0
    for root, _, files in os.walk(folder):
        for f in files:
            if f.endswith(".java"):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    n += sum(1 for _ in fh)
    return n


def changed(before, after):
    out = subprocess.run(["diff", "-r", before, after], capture_output=True, text=True).stdout
    return sum(1 for l in out.splitlines() if l.startswith("<") or l.startswith(">"))


def gen(binary, argv, out, js, time_limit):
    cmd = [binary, "gen", "--quiet", "--time-limit", time_limit, "--output-dir", out,
           "--stats-json", js] + argv
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    with open(js, encoding="utf-8") as fh:
        return json.load(fh)


def busy(n):
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(n)]


def measure(binary, argv, work, args):
    out = os.path.join(work, "out")
    first = gen(binary, argv, out, os.path.join(work, "0.json"), args.time)
    rows = []
    for k in range(1, args.reruns + 1):
        before = os.path.join(work, f"before{k}")
        shutil.copytree(out, before)
        hogs = busy(args.load)
        try:
            s = gen(binary, argv, out, os.path.join(work, f"{k}.json"), args.time)
        finally:
            for h in hogs:
                h.kill()
        e = s.get("earlier_suite") or {}
        rows.append({
            "changed": changed(before, out),
            "lines": lines_of(out),
            "generated": s["generated"],
            "first_generated": first["generated"],
            "stop_reason": s["stop_reason"],
            "added": e.get("added"),
            "removed": e.get("removed"),
        })
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old")
    ap.add_argument("--new", required=True)
    ap.add_argument("--reruns", type=int, default=3)
    ap.add_argument("--time", default="5s", help="--time-limit of every run")
    ap.add_argument("--load", type=int, default=0, help="busy loops beside each re-run")
    ap.add_argument("--only", help="workloads whose name contains this")
    ap.add_argument("--json")
    args = ap.parse_args()
    for jar in (LANG3, COLL4):
        if not os.path.exists(jar):
            sys.exit(f"{jar} is missing: apt-get install libcommons-lang3-java libcommons-collections4-java")
    binaries = [("old", args.old), ("new", args.new)] if args.old else [("new", args.new)]
    results = []
    for name, argv in WORKLOADS:
        if args.only and args.only not in name:
            continue
        for label, binary in binaries:
            with tempfile.TemporaryDirectory(prefix="jforge-churn-") as work:
                rows = measure(os.path.realpath(binary), argv, work, args)
            for k, r in enumerate(rows, 1):
                print(f"{name:10} {label}: re-run {k}: {r['changed']} of {r['lines']} lines changed "
                      f"({r['generated']} sequences, first run {r['first_generated']}; "
                      f"stopped: {r['stop_reason']}; added {r['added']}, removed {r['removed']})",
                      flush=True)
            results.append({"workload": name, "binary": label, "reruns": rows})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=1)
    print("| class | binary | lines changed per re-run | of lines | worst share |")
    print("|---|---|---|---|---|")
    for r in results:
        ch = [x["changed"] for x in r["reruns"]]
        lines = r["reruns"][-1]["lines"] if r["reruns"] else 0
        worst = max((x["changed"] / x["lines"] for x in r["reruns"] if x["lines"]), default=0)
        print(f"| {r['workload']} | {r['binary']} | {', '.join(map(str, ch))} | {lines} | {100 * worst:.1f}% |")


if __name__ == "__main__":
    main()
