#!/usr/bin/env bash
# The kill test: a 5,000-row build killed (SIGKILL) at seeded random moments, 20 times, over the
# outputs of an earlier build. After each kill the book and the PDF in the folder must be one
# run's pair — the old pair intact or the new pair complete, byte for byte as a full run writes
# them (builds are deterministic) — never a mix; after a last, uninterrupted run no temporary
# file (`.NAME.roadbook-tmp-PID-RANDOM`) may remain. Then `apply` killed between its two renames
# (the book and BOOK.before-apply.json), by the test hook ROADBOOK_TEST_ABORT_AFTER_RENAME (see
# Sources/AtomicFile/OutputSet.swift): the next writing run must finish the pair from its journal,
# so `undo-apply` gives back the book as it was. Uses the release binary.
#
# Usage: scripts/kill-test.sh [KILLS] [SEED]   (defaults 20 and 10)
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-20}"
seed="${2:-10}"
rows=5000

swift build -c release --product roadbook 2>&1 | grep -E 'error|warning: unre' || true
roadbook="$(swift build -c release --show-bin-path)/roadbook"
[ -x "$roadbook" ] || { echo "kill-test: $roadbook was not built" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Two inputs, so each run replaces the other's outputs with different bytes.
python3 scripts/make-long-gpx.py "$rows" "$work/a.gpx"
python3 scripts/make-long-gpx.py "$((rows - 1))" "$work/b.gpx"

build() {  # build INPUT FOLDER
  "$roadbook" build "$1" -o "$2/book.pdf" --book "$2/book.json" --force --no-turns --title "Kill test" >/dev/null 2>&1
}
pair() {  # the checksums of a folder's book and PDF, on one line
  cat "$1/book.json" "$1/book.pdf" 2>/dev/null | sha256sum | cut -c1-16
}
temporaries() {  # number of temporary files in a folder
  find "$1" -maxdepth 1 -name '.*.roadbook-tmp-*' | wc -l
}

# Reference pairs, and how long a full run takes.
mkdir -p "$work/ref-a" "$work/ref-b" "$work/out"
start=$(date +%s%N)
build "$work/a.gpx" "$work/ref-a"
full_ms=$(( ($(date +%s%N) - start) / 1000000 ))
build "$work/b.gpx" "$work/ref-b"
pair_a=$(pair "$work/ref-a")
pair_b=$(pair "$work/ref-b")
build "$work/b.gpx" "$work/ref-b"
[ "$(pair "$work/ref-b")" = "$pair_b" ] || { echo "kill-test: two runs of one input differ; the test needs deterministic outputs" >&2; exit 1; }
pages_a=$(pdfinfo "$work/ref-a/book.pdf" | awk '/^Pages:/ {print $2}')
pages_b=$(pdfinfo "$work/ref-b/book.pdf" | awk '/^Pages:/ {print $2}')
echo "kill-test: a full run of $rows rows takes ${full_ms} ms ($pages_a pages); $kills kills, seed $seed"

cp "$work/ref-b/book.json" "$work/ref-b/book.pdf" "$work/out/"
RANDOM=$seed
old=0 new=0 with_leftovers=0 failures=0
current=b
for i in $(seq 1 "$kills"); do
  next=$([ "$current" = a ] && echo b || echo a)
  # A moment anywhere in the run or a little past its usual end (a loaded machine runs slower), so
  # both outcomes occur: killed before the commit, or after it.
  delay_ms=$(( RANDOM % (full_ms * 3 / 2 + 1) ))
  "$roadbook" build "$work/$next.gpx" -o "$work/out/book.pdf" --book "$work/out/book.json" --force --no-turns --title "Kill test" \
    >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  now=$(pair "$work/out")
  left=$(temporaries "$work/out")
  [ "$left" -eq 0 ] || with_leftovers=$((with_leftovers + 1))
  if [ "$now" = "$(eval echo \$pair_$current)" ]; then
    old=$((old + 1)); state="old pair intact"
  elif [ "$now" = "$(eval echo \$pair_$next)" ]; then
    new=$((new + 1)); state="new pair complete"; current=$next
  else
    failures=$((failures + 1)); state="MIX OR DAMAGE"
  fi
  printf 'kill %2d at %5d ms: %s, %d temporary file(s) left\n' "$i" "$delay_ms" "$state" "$left"
done

# The next run that writes there removes what the killed runs left.
build "$work/a.gpx" "$work/out"
left=$(temporaries "$work/out")
[ "$(pair "$work/out")" = "$pair_a" ] || { echo "kill-test: the run after the kills did not write its pair" >&2; failures=$((failures + 1)); }
echo "kill-test: $old old pairs intact, $new new pairs complete, $failures mixes; $with_leftovers kills left temporaries; after the next run: $left temporary file(s) (pages $pages_a / $pages_b)"

# Apply killed right after its first rename: the book is the new one, the undo file (the only copy
# of the book as it was) waits in its temporary, named by the commit's journal.
pair_failures=0
apply_fail() { echo "kill-test: apply: $1" >&2; pair_failures=$((pair_failures + 1)); }
for next in undo-apply remove-route; do
  dir="$work/apply-$next"
  mkdir -p "$dir"
  cp Tests/Hostile/seeds/draft-book.json "$dir/book.json"
  cp Tests/Hostile/seeds/draft-book.draft.json "$dir/book.draft.json"
  original=$(sha256sum < "$dir/book.json")
  status=0
  # In a subshell, so the shell's own "Killed" line stays out of the report.
  (ROADBOOK_TEST_ABORT_AFTER_RENAME=1 "$roadbook" apply "$dir/book.json" >/dev/null 2>&1; exit $?) 2>/dev/null || status=$?
  [ "$status" -eq 137 ] || apply_fail "the hook did not kill apply between its renames (exit $status)"
  [ "$(sha256sum < "$dir/book.json")" != "$original" ] || apply_fail "the book was not replaced before the kill"
  [ ! -e "$dir/book.before-apply.json" ] || apply_fail "the undo file was renamed before the kill"
  [ "$(find "$dir" -name '.*.roadbook-journal-*' | wc -l)" -eq 1 ] || apply_fail "no journal after the kill"
  [ "$(temporaries "$dir")" -ge 1 ] || apply_fail "the undo file's temporary is gone after the kill"
  if [ "$next" = remove-route ]; then
    # Another writing command first: it finishes the pair before it reads, then makes its own pair.
    "$roadbook" remove-route "$dir/book.json" -o "$dir/other.json" >/dev/null 2>&1 || apply_fail "remove-route after the kill failed"
  fi
  "$roadbook" undo-apply "$dir/book.json" >/dev/null 2>&1 || apply_fail "undo-apply after the kill ($next) failed"
  [ "$(sha256sum < "$dir/book.json")" = "$original" ] || apply_fail "undo-apply after the kill ($next) did not give back the book as it was"
  [ "$(find "$dir" -name '.*.roadbook-journal-*' -o -name '.*.roadbook-tmp-*' | wc -l)" -eq 0 ] || apply_fail "a journal or temporary remains ($next)"
done
echo "kill-test: apply killed between its two renames, twice: $pair_failures problem(s); the next run finished the pair and undo-apply gave the old book back"
[ "$failures" -eq 0 ] && [ "$left" -eq 0 ] && [ "$pair_failures" -eq 0 ]
