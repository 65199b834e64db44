#!/usr/bin/env python3
"""Benchmark of `jforge params` (seed 000, HeuriGenJ) on JDK packages: per package the
denominator counted as the seed does (public non-abstract methods and constructors of the
public classes, interfaces not counted; members jforge skips included), methods invoked,
methods that threw and were then handled by a handler (per handler), the time, and the methods
still failing grouped by cause. Then `jforge gen` on the same package for the same time:
its "methods covered by a successful call" (per class: operations with at least one
successful call; gen's own denominator, inherited methods and fields included), on the classes
params tested (gen's --package also takes sub-packages), without coverage (instrumenting
java.lang inside java.base aborts gen's worker JVM at start-up).

    cargo build --release
    python3 bench/params.py                         # java.util and java.lang
    python3 bench/params.py --package java.util --no-gen
    python3 bench/params.py --markdown              # the rows for BENCHMARKS.md
"""
import argparse, collections, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JFORGE = os.path.join(ROOT, "target", "release", "jforge")


def run_params(package, limit, extra):
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "p.json")
        t0 = time.time()
        subprocess.run([JFORGE, "params", "-q", "--package", package, "--time-limit", limit,
                        "--stats-json", js] + extra, check=True, stdout=subprocess.DEVNULL)
        wall = time.time() - t0
        with open(js) as f:
            return json.load(f), wall


def run_gen(classes, seconds):
    """gen on params' classes (gen's --package takes sub-packages too), for `seconds`, without
    coverage (instrumenting java.lang inside java.base aborts the worker JVM at start-up).
    A class gen refuses as explicitly named (nothing it can call: java.lang.ClassValue) is
    dropped and the run repeated."""
    classes = list(classes)
    for _ in range(30):
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, "g.json")
            cl = os.path.join(d, "classes.txt")
            with open(cl, "w") as f:
                f.write("\n".join(classes) + "\n")
            r = subprocess.run([JFORGE, "gen", "-q", "--classlist", cl, "--time-limit", f"{seconds}s",
                                "--no-coverage", "--no-validate", "--output-dir", os.path.join(d, "out"),
                                "--stats-json", js], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            m = re.search(r"class (\S+) (has no public constructor|is not public|is nested)", r.stderr)
            if m and m.group(1) in classes:
                classes.remove(m.group(1))
                continue
            if not os.path.exists(js):
                print(r.stderr, file=sys.stderr)
                return None
            with open(js) as f:
                j = json.load(f)
        ops = sum(c["operations"] for c in j.get("classes", []))
        covered = sum(c["covered"] for c in j.get("classes", []))
        return ops, covered, len(classes)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", action="append")
    ap.add_argument("--time-limit", default="60s")
    ap.add_argument("--no-gen", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    packages = a.package or ["java.util", "java.lang"]
    rows = []
    for p in packages:
        j, wall = run_params(p, a.time_limit, a.extra)
        gen = None if a.no_gen else run_gen(sorted(j["per_class"]), max(5, round(wall)))
        rows.append((p, j, wall, gen))
        print(f"== {p}", file=sys.stderr)
        causes = collections.Counter()
        examples = collections.defaultdict(list)
        for m in j["per_method"]:
            if m["status"] != "invoked":
                c = m["failure"]["cause"] if m.get("failure") else "?"
                causes[c] += 1
                if len(examples[c]) < 3:
                    examples[c].append(m["method"])
        for c, n in causes.most_common():
            print(f"  {n:4d}  {c}   e.g. {', '.join(examples[c])}", file=sys.stderr)
    if a.markdown:
        print("| package | classes | methods (seed's count) | invoked | % | threw | handled | handled by | time (wall) | gen: covered by a successful call in the same time |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    for p, j, wall, gen in rows:
        pct = 100.0 * j["invoked"] / j["methods"] if j["methods"] else 0.0
        by = ", ".join(f"{k} {v}" for k, v in sorted(j["handled_by"].items()))
        g = f"{gen[1]}/{gen[0]} operations of {gen[2]} classes" if gen else "-"
        if a.markdown:
            print(f"| {p} | {j['classes']} | {j['methods']} | {j['invoked']} | {pct:.1f}% | {j['threw']} | {j['handled']} | {by} | {wall:.1f} s | {g} |")
        else:
            print(f"{p}: {j['invoked']}/{j['methods']} invoked ({pct:.1f}%) in {j['classes']} classes; "
                  f"threw {j['threw']}, handled {j['handled']} ({by}); {wall:.1f} s; gen: {g}")


if __name__ == "__main__":
    main()
