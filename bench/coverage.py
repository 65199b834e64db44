#!/usr/bin/env python3
"""Benchmark of coverage in `jforge gen` (issue 3, item 7): for java.util.TreeMap,
commons-lang3's StrBuilder and StringUtils, runs gen for the given time in three modes:
guided (default), measured but unguided (--no-guidance) and without coverage
(--no-coverage), and prints executed sequences/s and branch/line coverage.

Usage: bench/coverage.py [--seconds 60] [--workers N] [--subject CLASS]
Record the figures in BENCHMARKS.md with the date and machine. The instrumentation figures
for guava come from `cargo test --release --test it instrument_jars -- --nocapture`.
"""
import argparse, json, os, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANG3 = "/usr/share/java/commons-lang3.jar"
SUBJECTS = [
    ("org.apache.commons.lang3.text.StrBuilder", LANG3),
    ("org.apache.commons.lang3.StringUtils", LANG3),
    ("java.util.TreeMap", ""),
]
MODES = [("guided", []), ("unguided", ["--no-guidance"]), ("no coverage", ["--no-coverage"])]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--throughput-seconds", type=int, default=20,
                    help="length of the --no-coverage runs (they only measure throughput)")
    ap.add_argument("--subject", action="append")
    ap.add_argument("--mode", action="append", help="guided, unguided, 'no coverage'")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "jforge")
    print("| subject | mode | seq/s | branches | lines |")
    print("|---|---|---|---|---|")
    for cls, cp in SUBJECTS:
        if a.subject and cls not in a.subject:
            continue
        for mode, flags in MODES:
            if a.mode and mode not in a.mode:
                continue
            with tempfile.TemporaryDirectory() as d:
                js = os.path.join(d, "s.json")
                cmd = [exe, "gen", "--quiet", "--no-validate", "--class", cls,
                       "--time-limit", f"{a.throughput_seconds if mode == 'no coverage' else a.seconds}s", "--output-dir", os.path.join(d, "o"),
                       "--stats-json", js] + flags
                if cp:
                    cmd += ["--classpath", cp]
                if a.workers:
                    cmd += ["--workers", str(a.workers)]
                p = subprocess.run(cmd, stdout=subprocess.DEVNULL)
                if p.returncode not in (0, 3):  # 3: error-revealing tests written
                    raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}")
                s = json.load(open(js))
                c = s.get("coverage")
                br = f"{c['branches_covered']}/{c['branches_total']} ({c['branch_percent']:.1f}%)" if c else "-"
                li = f"{c['lines_covered']}/{c['lines_total']} ({c['line_percent']:.1f}%)" if c else "-"
                print(f"| {cls} | {mode} | {s['sequences_per_second']:.0f} | {br} | {li} |", flush=True)

if __name__ == "__main__":
    main()
