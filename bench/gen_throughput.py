#!/usr/bin/env python3
"""Benchmark of `jforge gen`: executed sequences/s, statements/s, tests written and peak memory
for java.util.TreeMap, java.util.ArrayList and commons-lang3's StrBuilder.

Usage: bench/gen_throughput.py [--seconds 60] [--workers N]
Builds jforge in release mode, runs each subject for the given time, prints one table.
Record the figures in BENCHMARKS.md with the date and machine.
"""
import argparse, json, os, platform, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECTS = [
    ("java.util.TreeMap", ""),
    ("java.util.ArrayList", ""),
    ("org.apache.commons.lang3.text.StrBuilder", "/usr/share/java/commons-lang3.jar"),
]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--subject", action="append", help="only these classes")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "jforge")
    rows = []
    for cls, cp in SUBJECTS:
        if a.subject and cls not in a.subject:
            continue
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, "stats.json")
            cmd = [exe, "gen", "--quiet", "--class", cls, "--time-limit", f"{a.seconds}s",
                   "--output-dir", os.path.join(d, "out"), "--stats-json", js]
            if cp:
                cmd += ["--classpath", cp]
            if a.workers:
                cmd += ["--workers", str(a.workers)]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            s = json.load(open(js))
            rows.append((cls.rsplit(".", 1)[1], s["sequences_per_second"], s["statements_per_second"],
                         s["executed"], s["regression_tests"], s["error_tests"],
                         (s.get("rust_peak_rss_kb") or 0) / 1024,
                         "/".join(f"{k/1024:.0f}" for k in s["worker_peak_rss_kb"]),
                         s["generation_seconds"], s["total_seconds"]))
    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores; budget {a.seconds}s per class")
    hdr = ("class", "seq/s", "stmt/s", "executed", "regr", "err", "rust MiB", "workers MiB", "gen s", "total s")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for r in rows:
        print(f"| {r[0]} | {r[1]:.0f} | {r[2]:.0f} | {r[3]} | {r[4]} | {r[5]} | {r[6]:.0f} | {r[7]} | {r[8]:.1f} | {r[9]:.1f} |")

if __name__ == "__main__":
    sys.exit(main())
