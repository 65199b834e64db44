#!/usr/bin/env python3
"""Benchmark of `jforge exhaustive` (BEAPI) on the subjects of tests/subjects/exhaustive.

Runs each subject at growing scopes (release build, --workers N) until a run exceeds the time
budget, and prints one row per run: class, scope, seconds, structures, explored. With
--markdown it prints a Markdown table for BENCHMARKS.md.

    cargo build --release
    python3 bench/exhaustive.py --budget 60 --workers 2 --markdown
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECTS = [
    # class, builders regex (None: the whole public API), first scope, extra flags
    ("ds.SinglyLinkedList", r"ds\.SinglyLinkedList(\(\)|\.add\(.*)", 3, []),
    ("ds.DoublyLinkedList", r"ds\.DoublyLinkedList(\(\)|\.add\(.*)", 3, []),
    ("ds.BinarySearchTree", r"ds\.BinarySearchTree(\(\)|\.add\(.*|\.remove\(.*)", 3, []),
    ("ds.AvlTree", r"ds\.AvlTree(\(\)|\.add\(.*)", 3, []),
    ("ds.RedBlackTree", r"ds\.RedBlackTree(\(\)|\.add\(.*)", 3, []),
    ("ds.BinomialHeap", r"ds\.BinomialHeap(\(\)|\.insert\(.*|\.extractMin\(.*)", 3, []),
    ("ds.FibonacciHeap", r"ds\.FibonacciHeap(\(\)|\.insert\(.*|\.extractMin\(.*)", 3, []),
    ("ds.NodeCachingLinkedList", r"ds\.NodeCachingLinkedList(\(\)|\.add\(.*|\.remove\(.*)", 3, []),
    ("java.util.TreeMap", r"java\.util\.TreeMap(\(\)|\.put\(.*|\.remove\(.*)", 2, ["--omit-fields", "modCount"]),
    ("java.util.HashMap", r"java\.util\.HashMap(\(\)|\.put\(.*|\.remove\(.*)", 2, ["--omit-fields", "modCount"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=60.0, help="stop a subject after a run this long (s)")
    ap.add_argument("--max-scope", type=int, default=13)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default=None, help="substring of the class names to run")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    jforge = os.path.join(ROOT, "target", "release", "jforge")
    tmp = tempfile.mkdtemp(prefix="jforge-exh-bench-")
    classes = os.path.join(tmp, "classes")
    src = os.path.join(ROOT, "tests", "subjects", "exhaustive")
    files = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".java")]
    subprocess.run(["javac", "-nowarn", "-d", classes] + files, check=True)
    rows = []
    for cls, builders, first, extra in SUBJECTS:
        if a.only and a.only not in cls:
            continue
        bfile = os.path.join(tmp, cls + ".builders")
        with open(bfile, "w") as f:
            f.write(builders + "\n")
        for scope in range(first, a.max_scope + 1):
            js = os.path.join(tmp, "s.json")
            cmd = [jforge, "exhaustive", "-q", "--classpath", classes, "--class", cls,
                   "--scope", str(scope), "--builders", bfile, "--workers", str(a.workers),
                   "--stats-json", js, "--batch", "4000"] + extra
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True)
            wall = time.time() - t0
            if p.returncode != 0:
                print(f"{cls} scope {scope}: {p.stderr.strip()}", file=sys.stderr)
                break
            j = json.load(open(js))
            row = (cls, scope, j["seconds"], wall, j["structures"], j["explored"])
            rows.append(row)
            print(f"{cls:28} scope {scope:3}  {j['seconds']:8.2f}s  (wall {wall:6.2f}s)  "
                  f"structures {j['structures']:>10}  explored {j['explored']:>11}", file=sys.stderr)
            if wall > a.budget:
                break
    if a.markdown:
        print("| class | scope | search s | wall s | structures | explored |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r[0]} | {r[1]} | {r[2]:.2f} | {r[3]:.2f} | {r[4]:,} | {r[5]:,} |")


if __name__ == "__main__":
    main()
