#!/bin/sh
# run-all.sh: every program of tests/build/programs/ (its expected output
# beside it) and every example (examples/NAME.silk, expected in
# tests/build/examples/NAME.*), each built and run by run.sh on the CPU
# backend, several at a time; a line per failing case and a summary.
# Adding a case is adding CASE.silk and CASE.out (UPDATE=1 writes them).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
export SILKC
jobs=$(nproc 2>/dev/null || echo 2)
results=$(mktemp)
trap 'rm -f "$results"' EXIT

{
    for f in "$here"/programs/*.silk; do printf '%s %s\n' "$f" "${f%.silk}"; done
    for f in "$top"/examples/*.silk; do
        printf '%s %s\n' "$f" "$here/examples/$(basename "$f" .silk)"
    done
} | xargs -P "$jobs" -L 1 sh -c 'out=$(sh "$0/run.sh" "$1" "$2" 2>&1); rc=$?
        if [ $rc -eq 0 ]; then echo "PASS $1"; else printf "FAIL %s\n%s\n" "$1" "$out"; fi' \
    "$here" >"$results"

passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
grep -v '^PASS ' "$results"
echo "programs: $passed passed, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
