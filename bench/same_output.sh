#!/usr/bin/env bash
# Do two jforge binaries write the same files? For a change meant to leave behaviour alone
# (a layout change, a refactoring): runs the same fixed-seed commands with OLD and NEW (gen on
# a JDK class, on a subject with a JUnit 5 suite, --per-class over two JDK classes and on a
# commons-lang3 class; exhaustive with and without failures; builders; params; concolic;
# coverage) and compares every written test file byte for byte, and every --help text.
#
#   bench/same_output.sh OLD_BINARY NEW_BINARY [WORK_DIR]
#
# Prints `same` or the files that differ, and exits 1 when any differs. Reports (JSON, XML) and
# summaries are not compared: they hold times. A class whose calls run into the call time
# limit can differ with the machine's load (java.util.BitSet does on a busy machine): run the
# OLD binary twice to tell that apart from a change.
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
work=${3:-$(mktemp -d /tmp/jforge-same-XXXX)}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work/subj"
subj=$work/subj
for d in ds bk hard2 pm; do mkdir -p "$subj/$d"; done
javac -d "$subj/ds" "$repo"/tests/subjects/exhaustive/ds/*.java
javac -d "$subj/bk" $(find "$repo/tests/subjects/gen/booking" -name '*.java')
javac -g -d "$subj/hard2" "$repo"/tests/subjects/concolic/hard2/*.java
javac -d "$subj/pm" $(find "$repo/tests/subjects/params" -name '*.java')
lang3=/usr/share/java/commons-lang3.jar

run_all() {
  local j=$1 out=$2
  rm -rf "$out"
  mkdir -p "$out"
  cd "$out"
  echo "$(basename "$out"): $j" >&2
  "$j" gen --class java.util.LinkedList --seed 1 --generated-limit 3000 --workers 1 --time-limit 5m --output-dir gen1 -q > gen1.out 2>&1 || true
  "$j" gen --class bk.Booking --classpath "$subj/bk" --seed 1 --generated-limit 3000 --workers 1 --time-limit 5m --output-dir gen2 --junit 5 -q > gen2.out 2>&1 || true
  "$j" gen --class java.util.BitSet --class java.util.StringJoiner --per-class --seed 2 --generated-limit 1500 --workers 1 --time-limit 5m --output-dir gen3 -q > gen3.out 2>&1 || true
  if [ -f "$lang3" ]; then
    "$j" gen --class org.apache.commons.lang3.text.StrTokenizer --classpath "$lang3" --seed 1 --generated-limit 2000 --workers 1 --time-limit 5m --output-dir gen4 -q > gen4.out 2>&1 || true
  fi
  "$j" exhaustive --class ds.AvlTree --classpath "$subj/ds" --scope 3 --workers 1 --output-dir ex1 -q > ex1.out 2>&1 || true
  "$j" exhaustive --class ds.BuggyList --classpath "$subj/ds" --scope 3 --workers 1 --output-dir ex2 -q > ex2.out 2>&1 || true
  "$j" builders --class ds.NodeCachingLinkedList --classpath "$subj/ds" --workers 1 --seed 1 --output b1.txt -q > b1.out 2>&1 || true
  "$j" params --class pm.Store --class pm.Tag --classpath "$subj/pm" --workers 1 --output-dir pa1 -q > pa1.out 2>&1 || true
  if command -v z3 > /dev/null; then
    "$j" concolic --class hard2.Opaque --classpath "$subj/hard2" --workers 1 --time-limit 20s --output-dir co1 -q > co1.out 2>&1 || true
  fi
  "$j" coverage --classpath "$subj/bk" --tests gen2 --class bk.Booking --json cov1.json -q > cov1.txt 2>&1 || true
  for c in "" gen exhaustive coverage builders params concolic merge; do
    "$j" $c --help 2>&1 | sed "s|$(basename "$j")|jforge|" > "help-${c:-top}.txt"
  done
  cd - > /dev/null
}

run_all "$old" "$work/old"
run_all "$new" "$work/new"
if diff -rq "$work/old" "$work/new" -x '*.out' -x '*.json' > "$work/diff.txt"; then
  echo "same (written tests, builders file, coverage table, --help) in $work"
else
  cat "$work/diff.txt"
  exit 1
fi
