#!/usr/bin/env python3
"""Benchmark of `jforge concolic` against `jforge gen` (random, coverage-guided) in the same
time: the "hard branches" subject (tests/subjects/concolic/hard: arithmetic equalities, a
checksum, nested ranges, a switch on a computed value, overflow, division, an exception
caught inside, an array read at a symbolic index) and the seed's container subjects
(tests/subjects/concolic/containers: IntStack, UBStack, BinSearchTree, BinomialHeap,
LinkedList, TreeMap, HeapArray, our versions of the Symstra/Rostra classics), whose
receivers Candidate Sequence Search sets up. Each written suite is measured by
`jforge coverage` (the same yardstick for both). Prints, per subject and command, the
branches its written suite covers, the run's wall time, and for concolic the paths,
infeasible alternatives, solver calls, time in the solver, paths per second and receiver
sequences or states; for the containers, Symstra's branch coverage and time (seed 002's
table). "explored" is the exploration alone and "covered at" the time in it when the runs
last covered a new branch: the figures comparable with Symstra's times (the rest of the
wall time is JVM starts, instrumentation, writing and the javac + JUnit check).

Commands (--commands): `gen` (random, guidance on), `concolic`, and `gen-concolic`
(`gen --concolic`: random generation that hands its plateaus to the solver), each in the
same time. The subject set `intmath` runs bench/suite_coverage.py on Guava's IntMath
with and without `--concolic` (JaCoCo and PIT on the written suite; needs network access
to Maven Central on first use).

Usage: bench/concolic.py [--seconds 10] [--binary PATH] [--solver z3|cvc5]
                         [--subjects hard,containers,intmath] [--commands gen,concolic,gen-concolic]
Without --binary this tree is built in release mode. Needs z3 (or cvc5) and javac.
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBJECTS = os.path.join(ROOT, "tests", "subjects", "concolic")
# (class, folder, Symstra's branch coverage %, Symstra's time in s at its largest length)
HARD = [("hard.HardBranches", "hard", None, None)]
CONTAINERS = [
    ("containers.IntStack", "containers", 100, 0.7),
    ("containers.UBStack", "containers", 100, 2.3),
    ("containers.BinSearchTree", "containers", 100, None),
    ("containers.BinomialHeap", "containers", 91, 17.5),
    ("containers.LinkedList", "containers", 100, 0.9),
    ("containers.TreeMap", "containers", 84, 173.7),
    ("containers.HeapArray", "containers", 100, 28.5),
]


def measured(exe, classes, cls, tests, d):
    """Branches (covered, total) of `cls` under the suite in `tests`, by jforge coverage."""
    js = os.path.join(d, "cov.json")
    subprocess.run([exe, "coverage", "-q", "--classpath", classes, "--class", cls, "--tests",
                    tests, "--json", js], check=True, stdout=subprocess.DEVNULL)
    b = json.load(open(js))["branches"]
    return b["covered"], b["total"]


def compile_folder(folder, d):
    classes = os.path.join(d, "classes-" + folder)
    src = os.path.join(SUBJECTS, folder)
    srcs = [os.path.join(src, f) for f in os.listdir(src) if f.endswith(".java")]
    subprocess.run(["javac", "-d", classes, *srcs], check=True)
    return classes


def run_one(exe, cmd, classes, cls, seconds, solver, d):
    """Runs one command on one class; returns (stats, written-suite coverage, wall seconds)."""
    tag = cmd + "-" + cls
    out = os.path.join(d, tag)
    js = os.path.join(d, tag + ".json")
    args = [exe, cmd.replace("gen-concolic", "gen"), "--quiet", "--classpath", classes,
            "--class", cls, "--time-limit", f"{seconds}s", "--output-dir", out,
            "--stats-json", js]
    if cmd == "concolic":
        args += ["--solver", solver]
    if cmd == "gen-concolic":
        args += ["--concolic", "--solver", solver]
    t0 = time.monotonic()
    p = subprocess.run(args, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 3):
        print(f"{cmd} {cls}: exit {p.returncode}\n{p.stderr}")
        return None
    return json.load(open(js)), measured(exe, classes, cls, out, d), wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--binary")
    ap.add_argument("--solver", default="z3")
    ap.add_argument("--subjects", default="hard,containers")
    ap.add_argument("--commands", default="gen,concolic,gen-concolic")
    a = ap.parse_args()
    exe = a.binary and os.path.abspath(a.binary)
    if not exe:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        exe = os.path.join(ROOT, "target", "release", "jforge")
    subjects = []
    names = a.subjects.split(",")
    for name in names:
        subjects += {"hard": HARD, "containers": CONTAINERS, "intmath": []}[name]
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    with tempfile.TemporaryDirectory() as d:
        compiled = {}
        for cls, folder, sym_cov, sym_time in subjects:
            if folder not in compiled:
                compiled[folder] = compile_folder(folder, d)
            for cmd in a.commands.split(","):
                r = run_one(exe, cmd, compiled[folder], cls, a.seconds, a.solver, d)
                if r is None:
                    continue
                s, (cov, total), wall = r
                pct = 100.0 * cov / total if total else 100.0
                line = (f"{cls:26} {cmd:8} {a.seconds:3} s: written suite covers {cov}/{total} "
                        f"branches ({pct:.0f}%), {wall:.1f} s wall")
                if cmd == "concolic":
                    seqs = sum(m.get("sequences", 0) for m in s["methods"])
                    dropped = sum(m.get("dropped_sequences", 0) for m in s["methods"])
                    line += (f"; {s['paths']} paths, {s['infeasible']} infeasible, "
                             f"{s['solver_timeouts']} solver time-outs, {s['unexplored']} "
                             f"unexplored, {s['solver_calls']} solver calls, "
                             f"{s['solver_seconds']:.2f} s in the solver, "
                             f"{s['paths_per_second']:.1f} paths/s, explored in "
                             f"{s['explore_seconds']:.2f} s, covered at "
                             f"{s.get('coverage_seconds', 0):.2f} s, "
                             f"{s.get('receiver_states', 0)} states, {seqs} sequences "
                             f"({dropped} dropped), {s['tests_written']} tests")
                    if s.get("full_coverage"):
                        line += ", stopped at full coverage"
                    if sym_cov is not None:
                        line += f"; Symstra {sym_cov}%"
                        if sym_time is not None:
                            line += f" in {sym_time} s"
                if cmd == "gen-concolic" and s.get("concolic"):
                    c = s["concolic"]
                    line += "; helper: " + ", ".join(
                        f"{k} {c[k]}" for k in sorted(c) if not isinstance(c[k], (list, dict)))
                print(line, flush=True)
    if "intmath" in names:
        script = os.path.join(ROOT, "bench", "suite_coverage.py")
        for extra in ([], ["--concolic"]):
            cmd = [sys.executable, script, "--only", "IntMath", "--seconds", str(a.seconds),
                   "--mutation", "--markdown", "--jforge", exe, *extra]
            print("$ " + " ".join(cmd[1:]), flush=True)
            subprocess.run(cmd, check=False)
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
