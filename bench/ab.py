#!/usr/bin/env python3
"""Interleaved A/B of two jforge binaries on the workloads BENCHMARKS.md tracks.

Why a separate script: a refactor must not make jforge slower "by more than the noise", and on
a shared 2-core host the noise between two separate benchmark sessions (tens of percent) hides
anything smaller. Running the old and the new binary alternately (ABBA order, so neither
always runs on a warmer or quieter machine) on the same workloads in one session, and
comparing CPU time (user + sys of jforge and its worker JVMs, from wait4) as well as wall
time, makes a few percent visible.

    git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --release)
    cargo build --release
    python3 bench/ab.py --old /tmp/base/target/release/jforge \
        --new target/release/jforge --repeat 3 --markdown

Workloads (--only picks by substring of the name):
  exhaustive/<row>  every row of BEAPI's Table 1 as `bench/exhaustive.py --paper` runs it
                    (same class, builders, scope and flags); fixed work, so time is the figure;
                    the structure counts of both binaries must agree
  gen/TreeMap-30000 `jforge gen --class java.util.TreeMap --generated-limit 30000`, end to end
                    (generation, selection, writing and the final JUnit check): fixed work
  gen/<Class>-30s   `jforge gen --time-limit 30s`: fixed time, so sequences/s is the figure
  builders/<subject>-<alg>  `jforge builders` (hill climbing, genetic algorithm; seed 0) as
                    `bench/builders.py` runs it; fixed work; the fitness of the set found must
                    agree (only in binaries that have `builders`: since commit 46ee41f)
  params/java.util  `jforge params --package java.util` (seed 000): fixed work until every
                    method is settled; methods invoked is the figure (only in binaries that
                    have `params`)
Both binaries must accept the flags used here (those of `exhaustive` and `gen` exist since
the first `exhaustive`).
"""
import argparse, json, os, platform, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exhaustive import PAPER, compile_subjects  # noqa: E402
from builders import TREEMAP_VIEWS  # noqa: E402

STRBUILDER_CP = "/usr/share/java/commons-lang3.jar"


def workloads(tmp, classes):
    """(name, argv after the binary, stats-json path, figure) for every workload."""
    out = []
    for name, _pscope, _psec, _pstruct, cls, builders, flags, _note in PAPER:
        bfile = os.path.join(tmp, cls + ".builders")
        with open(bfile, "w") as f:
            f.write(builders + "\n")
        js = os.path.join(tmp, "exh.json")
        argv = ["exhaustive", "-q", "--classpath", classes, "--class", cls, "--builders", bfile,
                "--workers", "2", "--stats-json", js, "--batch", "4000"] + flags
        out.append((f"exhaustive/{name.split(' ')[0]}", argv, js, "structures"))
    js = os.path.join(tmp, "gen.json")
    out.append(("gen/TreeMap-30000",
                ["gen", "--quiet", "--class", "java.util.TreeMap", "--generated-limit", "30000",
                 "--output-dir", os.path.join(tmp, "gen-out"), "--stats-json", js],
                js, "executed"))
    for cls, cp in (("java.util.TreeMap", ""), ("org.apache.commons.lang3.text.StrBuilder", STRBUILDER_CP)):
        argv = ["gen", "--quiet", "--class", cls, "--time-limit", "30s",
                "--output-dir", os.path.join(tmp, "gen-out"), "--stats-json", js]
        if cp:
            argv += ["--classpath", cp]
        out.append((f"gen/{cls.rsplit('.', 1)[1]}-30s", argv, js, "sequences_per_second"))
    for label, cls, flags in (("NCL", "ds.NodeCachingLinkedList", []),
                              ("TreeMap", "java.util.TreeMap", ["--omit-fields", TREEMAP_VIEWS])):
        for alg in ("hc", "ga"):
            js = os.path.join(tmp, "builders.json")
            argv = ["builders", "-q", "--classpath", classes, "--class", cls, "--algorithm", alg,
                    "--seed", "0", "--workers", "2", "--stats-json", js] + flags
            out.append((f"builders/{label}-{alg}", argv, js, "fitness"))
    js = os.path.join(tmp, "params.json")
    out.append(("params/java.util",
                ["params", "-q", "--package", "java.util", "--workers", "2", "--stats-json", js],
                js, "invoked"))
    return out


def run_once(binary, argv, js):
    """(wall s, CPU s of jforge and its reaped children, the stats JSON) of one run."""
    if os.path.exists(js):
        os.remove(js)
    t0 = time.monotonic()
    p = subprocess.Popen([binary] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):  # 3: error-revealing tests written / failures found: a complete run
        raise SystemExit(f"{binary} {' '.join(argv)} exited {code}:\n{err.decode(errors='replace')}")
    return wall, ru.ru_utime + ru.ru_stime, json.load(open(js))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="the baseline jforge binary")
    ap.add_argument("--new", required=True, help="the jforge binary under test")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each binary per workload")
    ap.add_argument("--only", action="append", help="substring of workload names to run (repeatable)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="jforge-ab-")
    classes = compile_subjects(tmp)
    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores; "
          f"{time.strftime('%Y-%m-%d %H:%M')}; old {a.old}; new {a.new}", file=sys.stderr)
    rows = []
    for name, argv, js, figure in workloads(tmp, classes):
        if a.only and not any(o in name for o in a.only):
            continue
        res = {"old": [], "new": []}
        for r in range(a.repeat):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for which in order:
                res[which].append(run_once(getattr(a, which), argv, js))
        med = {w: (statistics.median(x[0] for x in res[w]), statistics.median(x[1] for x in res[w]),
                   statistics.median(x[2][figure] for x in res[w])) for w in res}
        rows.append((name, figure, res, med))
        print(f"{name:28} wall old {med['old'][0]:7.2f} new {med['new'][0]:7.2f} "
              f"({med['new'][0] / med['old'][0]:.3f})  cpu old {med['old'][1]:7.2f} new {med['new'][1]:7.2f} "
              f"({med['new'][1] / med['old'][1]:.3f})  {figure} old {med['old'][2]:,.0f} new {med['new'][2]:,.0f}",
              file=sys.stderr)
    if a.markdown:
        print(f"| workload | figure | old (median of {a.repeat}) | new | new/old | old wall s | new wall s | "
              "old CPU s | new CPU s | CPU new/old |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name, figure, res, med in rows:
            o, n = med["old"], med["new"]
            walls = lambda w: ", ".join(f"{x[0]:.2f}" for x in res[w])
            cpus = lambda w: ", ".join(f"{x[1]:.1f}" for x in res[w])
            print(f"| {name} | {figure} | {o[2]:,.0f} | {n[2]:,.0f} | {n[2] / o[2]:.3f} | {walls('old')} | "
                  f"{walls('new')} | {cpus('old')} | {cpus('new')} | {n[1] / o[1]:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
