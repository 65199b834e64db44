#!/usr/bin/env python3
"""Benchmark of `jforge exhaustive` (BEAPI) on the subjects of tests/subjects/exhaustive.

Runs each subject at growing scopes (release build, --workers N) until a run exceeds the time
budget, and prints one row per run: class, scope, seconds, structures, explored. With
--markdown it prints a Markdown table for BENCHMARKS.md.

    cargo build --release
    python3 bench/exhaustive.py --budget 60 --workers 2 --markdown
    python3 bench/exhaustive.py --paper --markdown     # the configurations of BEAPI's Table 1
    python3 bench/exhaustive.py --paper --repeat 3 --markdown   # speedup of the slowest of 3 runs

--paper runs, once each, the subject/scope/domain that matches a row of the BEAPI paper's
Table 1 (Politano et al., FASE 2023; times on an i7-8700, one thread) and prints our time,
structure count and the speedup over the published time. Extra flags for jforge go after
`--`, e.g. `-- --no-reuse` for the ablation without prototype reuse.
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECTS = [
    # class, builders regex (None: the whole public API), first scope, extra flags
    ("ds.SinglyLinkedList", r"ds\.SinglyLinkedList(\(\)|\.add\(.*)", 3, []),
    ("ds.DoublyLinkedList", r"ds\.DoublyLinkedList(\(\)|\.add\(.*)", 3, []),
    ("ds.BinarySearchTree", r"ds\.BinarySearchTree(\(\)|\.add\(.*|\.remove\(.*)", 3, []),
    ("ds.AvlTree", r"ds\.AvlTree(\(\)|\.add\(.*)", 3, []),
    ("ds.RedBlackTree", r"ds\.RedBlackTree(\(\)|\.add\(.*|\.remove\(.*)", 3, []),
    ("ds.BinomialHeap", r"ds\.BinomialHeap(\(\)|\.insert\(.*|\.extractMin\(.*)", 3, []),
    ("ds.FibonacciHeap", r"ds\.FibonacciHeap(\(\)|\.insert\(.*|\.extractMin\(.*)", 3, []),
    ("ds.NodeCachingLinkedList", r"ds\.NodeCachingLinkedList(\(\)|\.add\(.*|\.remove\(.*)", 3, ["--omit-fields", "modCount"]),
    ("java.util.TreeMap", r"java\.util\.TreeMap(\(\)|\.put\(.*|\.remove\(.*)", 2, ["--omit-fields", "modCount"]),
    ("java.util.HashMap", r"java\.util\.HashMap(\(\)|\.put\(.*|\.remove\(.*)", 2, ["--omit-fields", "modCount"]),
]

# Rows of BEAPI's Table 1 and our matching configuration:
# (paper subject, paper scope, paper seconds, paper structures, our class, builders, flags, note)
PAPER = [
    ("DDList (Korat)", 7, 108.08, 960_800, "ds.DoublyLinkedList", r"ds\.DoublyLinkedList(\(\)|\.add\(.*)",
     ["--scope", "8", "--ints", "0:6"], "our header is an Entry: scope 8 = 7 elements"),
    ("SLList (Korat)", 8, 256.49, 2_396_745, "ds.SinglyLinkedList", r"ds\.SinglyLinkedList(\(\)|\.add\(.*)",
     ["--scope", "7", "--ints", "0:7"], "Korat's list has a header: 7 elements, 8 values"),
    ("BST (Korat)", 11, 199.46, 974_427, "ds.BinarySearchTree", r"ds\.BinarySearchTree(\(\)|\.add\(.*|\.remove\(.*)",
     ["--scope", "11"], ""),
    ("AVL (FAJITA)", 13, 45.45, 145_206, "ds.AvlTree", r"ds\.AvlTree(\(\)|\.add\(.*)",
     ["--scope", "13"], ""),
    ("RBT (Korat)", 13, 689.06, 314_852, "ds.RedBlackTree", r"ds\.RedBlackTree(\(\)|\.add\(.*|\.remove\(.*)",
     ["--scope", "13"], ""),
    ("BinHeap (FAJITA)", 8, 97.08, 603_744, "ds.BinomialHeap", r"ds\.BinomialHeap(\(\)|\.insert\(.*|\.extractMin\(.*)",
     ["--scope", "8"], ""),
    ("FibHeap (ROOPS)", 7, 129.01, 898_394, "ds.FibonacciHeap", r"ds\.FibonacciHeap(\(\)|\.insert\(.*|\.extractMin\(.*)",
     ["--scope", "7"], ""),
    ("NCL (ROOPS)", 8, 769.63, 2_739_136, "ds.NodeCachingLinkedList", r"ds\.NodeCachingLinkedList(\(\)|\.add\(.*|\.remove\(.*)",
     ["--scope", "8", "--omit-fields", "modCount"], ""),
    ("TreeMap (Kiasan)", 6, 866.71, 1_098_397, "java.util.TreeMap", r"java\.util\.TreeMap(\(\)|\.put\(.*|\.remove\(.*)",
     ["--scope", "6", "--omit-fields", "modCount"], ""),
]


def compile_subjects(tmp):
    classes = os.path.join(tmp, "classes")
    src = os.path.join(ROOT, "tests", "subjects", "exhaustive")
    files = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".java")]
    subprocess.run(["javac", "-nowarn", "-d", classes] + files, check=True)
    return classes


def paper(a, extra):
    jforge = os.path.join(ROOT, "target", "release", "jforge")
    tmp = tempfile.mkdtemp(prefix="jforge-exh-paper-")
    classes = compile_subjects(tmp)
    rows = []
    for name, pscope, psec, pstruct, cls, builders, flags, note in PAPER:
        if a.only and a.only not in cls and a.only not in name:
            continue
        bfile = os.path.join(tmp, cls + ".builders")
        with open(bfile, "w") as f:
            f.write(builders + "\n")
        js = os.path.join(tmp, "s.json")
        cmd = [jforge, "exhaustive", "-q", "--classpath", classes, "--class", cls, "--builders", bfile,
               "--workers", str(a.workers), "--stats-json", js, "--batch", "4000"] + flags + extra
        walls = []
        for _ in range(a.repeat):
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True)
            walls.append(time.time() - t0)
            if p.returncode not in (0, 3):  # 3: failures found, the run is complete
                break
        if p.returncode not in (0, 3):
            print(f"{cls}: {p.stderr.strip()}", file=sys.stderr)
            continue
        # the slowest run: the speedup holds for every run
        wall = max(walls)
        j = json.load(open(js))
        if j["structures"] != pstruct:
            note = (note + "; " if note else "") + f"count differs from the paper's ({pstruct:,})"
        runs = ", ".join(f"{w:.2f}" for w in walls)
        row = (name, pscope, psec, pstruct, cls, " ".join(flags), j["seconds"], runs, j["structures"],
               j["explored"], psec / wall, note)
        rows.append(row)
        print(f"{name:18} paper {psec:8.2f}s {pstruct:>10}  jforge {runs}s {j['structures']:>10}  "
              f"speedup {psec / wall:5.1f}x", file=sys.stderr)
    if a.markdown:
        print("| paper subject, scope | paper s | paper structures | jforge config | jforge wall s | "
              "structures | explored | speedup (slowest run) | note |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r[0]} {r[1]} | {r[2]:.2f} | {r[3]:,} | {r[4]} {r[5]} | {r[7]} | {r[8]:,} | "
                  f"{r[9]:,} | {r[10]:.1f}x | {r[11]} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=60.0, help="stop a subject after a run this long (s)")
    ap.add_argument("--max-scope", type=int, default=13)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default=None, help="substring of the class names to run")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--paper", action="store_true", help="run the configurations of BEAPI's Table 1")
    ap.add_argument("--repeat", type=int, default=1,
                    help="--paper: run each configuration this many times; the speedup is the slowest run's")
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    a = ap.parse_args(argv)
    if a.paper:
        return paper(a, extra)
    jforge = os.path.join(ROOT, "target", "release", "jforge")
    tmp = tempfile.mkdtemp(prefix="jforge-exh-bench-")
    classes = compile_subjects(tmp)
    rows = []
    for cls, builders, first, sub_extra in SUBJECTS:
        if a.only and a.only not in cls:
            continue
        bfile = os.path.join(tmp, cls + ".builders")
        with open(bfile, "w") as f:
            f.write(builders + "\n")
        for scope in range(first, a.max_scope + 1):
            js = os.path.join(tmp, "s.json")
            cmd = [jforge, "exhaustive", "-q", "--classpath", classes, "--class", cls,
                   "--scope", str(scope), "--builders", bfile, "--workers", str(a.workers),
                   "--stats-json", js, "--batch", "4000"] + extra + sub_extra
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True)
            wall = time.time() - t0
            if p.returncode not in (0, 3):
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
