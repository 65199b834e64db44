#!/usr/bin/env python3
"""Benchmark of `jforge builders` on the subjects of tests/subjects/exhaustive and
java.util.TreeMap: for each subject, algorithm (hill climbing, genetic algorithm) and seed, the
builder set found, whether the tool verified it sufficient and minimal, and the times.

    cargo build --release
    python3 bench/builders.py --seeds 5 --markdown
    python3 bench/builders.py --only TreeMap --algorithm hc --seeds 1
    python3 bench/builders.py --compare-gen 60 --markdown      # seed 004's experiment

Times: "identification" is observer detection plus the search for a set (what BEAPI reports
as builder identification), "verification" the check against the whole API, "check" the
independent restricted exhaustive search, "wall" the whole command (JVM starts included).
--compare-gen S instead runs, per subject, hill climbing (seed 0) then random generation (gen's
generator, unguided, ints 0..99 added to its literals) for S seconds with only the builders and
for S seconds with the whole API, and compares the distinct objects of the class built
(canonical forms, no scope bound) and the largest (objects reachable from it).
Extra flags for jforge go after `--`.
"""
import argparse, collections, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREEMAP_VIEWS = "modCount|entrySet|navigableKeySet|descendingMap|keySet|values"
SUBJECTS = [
    # label, class, extra flags
    ("NCL", "ds.NodeCachingLinkedList", []),
    ("BinaryTree (BST)", "ds.BinarySearchTree", []),
    ("BinomialHeap", "ds.BinomialHeap", []),
    ("FibonacciHeap", "ds.FibonacciHeap", []),
    ("RedBlackTree", "ds.RedBlackTree", []),
    ("AVL", "ds.AvlTree", []),
    ("SinglyLinkedList", "ds.SinglyLinkedList", []),
    ("java.util.TreeMap", "java.util.TreeMap", ["--omit-fields", TREEMAP_VIEWS]),
    ("DisjointSets (union)", "ds.DisjointSets", []),
]
# seed 004's experiment: the data structures of its Table 3
GEN_SUBJECTS = ["NCL", "BinaryTree (BST)", "BinomialHeap", "FibonacciHeap", "RedBlackTree"]


def compile_subjects(tmp):
    classes = os.path.join(tmp, "classes")
    src = os.path.join(ROOT, "tests", "subjects", "exhaustive")
    files = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".java")]
    subprocess.run(["javac", "-nowarn", "-d", classes] + files, check=True)
    return classes


def short(sig, cls):
    """`ds.AvlTree.add(int)` -> `add(int)`; constructors `ds.AvlTree()` -> `AvlTree()`."""
    head, params = sig.split("(", 1)
    name = cls.rsplit(".", 1)[-1] if head == cls else head.rsplit(".", 1)[-1]
    return name + "(" + params


def run(a, classes, cls, flags, alg, seed, extra):
    jforge = os.path.join(ROOT, "target", "release", "jforge")
    js = tempfile.mktemp(suffix=".json")
    cmd = [jforge, "builders", "-q", "--classpath", classes, "--class", cls, "--algorithm", alg,
           "--seed", str(seed), "--workers", str(a.workers), "--stats-json", js] + flags + extra
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
    wall = time.time() - t0
    if p.returncode != 0:
        print(p.stderr, file=sys.stderr)
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed", "wall": wall}
    j = json.load(open(js))
    os.unlink(js)
    t = j["timings"]
    v = j["verdict"]
    return {
        "set": tuple(sorted(short(b, cls) for b in j["builders"])),
        "sufficient": v["sufficient"],
        "minimal": v["minimal"],
        "agrees": (j.get("search_check") or {}).get("agrees"),
        "structures": v["structures"],
        "api_structures": v["api_structures"],
        "ident": t["observers"] + t["identification"],
        "verify": t["verification"],
        "check": t["search_check"],
        "wall": wall,
        "sequences": j["sequences"],
        "evaluations": j["evaluations"],
        "observers": len(j["observers"]),
        "methods": len(j["methods"]),
        "excluded": [m for m, _ in j["excluded"]],
        "gen": j.get("gen_comparison"),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--only", default=None, help="substring of a subject's label or class")
    ap.add_argument("--algorithm", choices=["hc", "ga", "both"], default="both")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--compare-gen", type=int, default=None, metavar="S")
    a, extra = ap.parse_known_args()
    extra = [x for x in extra if x != "--"]
    tmp = tempfile.mkdtemp(prefix="jforge-bld-bench-")
    classes = compile_subjects(tmp)
    algs = ["hc", "ga"] if a.algorithm == "both" else [a.algorithm]
    if a.compare_gen:
        print("| subject | builders | distinct objects: builders / whole API | largest (objects) "
              "| sequences: builders / whole API |")
        print("|---|---|---|---|---|")
        for label, cls, flags in SUBJECTS:
            if a.only and a.only not in label and a.only not in cls:
                continue
            if not a.only and label not in GEN_SUBJECTS:
                continue
            r = run(a, classes, cls, flags + ["--compare-gen", f"{a.compare_gen}s", "--no-search-check"],
                    "hc", 0, extra)
            if "error" in r:
                print(f"| {label} | error: {r['error']} | | | |", flush=True)
                continue
            g = r["gen"]
            b, w = g["builders"], g["whole_api"]
            ratio = b["distinct"] / max(1, w["distinct"])
            print(f"| {label} | {{{', '.join(r['set'])}}} | {b['distinct']:,} / {w['distinct']:,} "
                  f"({ratio:.1f}x) | {b['largest']} / {w['largest']} "
                  f"| {b['sequences']:,} / {w['sequences']:,} |", flush=True)
        return
    rows = []
    for label, cls, flags in SUBJECTS:
        if a.only and a.only not in label and a.only not in cls:
            continue
        for alg in algs:
            runs = []
            for seed in range(a.seeds):
                r = run(a, classes, cls, flags, alg, seed, extra)
                runs.append(r)
                if not a.markdown:
                    print(label, alg, seed, json.dumps(r), flush=True)
            rows.append((label, alg, runs))
    if a.markdown:
        print("| subject | alg | set found | sufficient | minimal | restricted search agrees "
              "| structures (set / API) | identification s (median, max) | verification s "
              "| wall s (max) | methods (observers) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for label, alg, runs in rows:
            ok = [r for r in runs if "error" not in r]
            if not ok:
                print(f"| {label} | {alg} | error: {runs[0]['error']} | | | | | | | | |")
                continue
            sets = collections.Counter(r["set"] for r in ok)
            found = "; ".join(f"{{{', '.join(s)}}}" + (f" x{n}" if len(sets) > 1 else "")
                              for s, n in sets.most_common())
            n = len(runs)
            ident = sorted(r["ident"] for r in ok)
            med = ident[len(ident) // 2]
            print(f"| {label} | {alg} | {found} | {sum(r['sufficient'] for r in ok)}/{n} "
                  f"| {sum(r['minimal'] for r in ok)}/{n} "
                  f"| {sum(1 for r in ok if r['agrees'])}/{n} "
                  f"| {ok[0]['structures']:,} / {ok[0]['api_structures']:,} "
                  f"| {med:.2f}, {ident[-1]:.2f} | {max(r['verify'] for r in ok):.2f} "
                  f"| {max(r['wall'] for r in ok):.2f} | {ok[0]['methods']} ({ok[0]['observers']}) |")


if __name__ == "__main__":
    main()
