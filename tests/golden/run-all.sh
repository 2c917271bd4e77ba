#!/bin/sh
# run-all.sh: every golden case (tests/golden/*/*.silk), each by run.sh, in
# parallel; prints a line per failing case and a summary, and fails when a
# case fails.  Adding a case is adding CASE.silk and its expected file.
# UPDATE=1 rewrites the expected files (see run.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
export SILKC
jobs=$(nproc 2>/dev/null || echo 2)
results=$(mktemp)
trap 'rm -f "$results"' EXIT

find "$here" -mindepth 2 -name '*.silk' | sort |
    xargs -P "$jobs" -I{} sh -c 'out=$(sh "$1/run.sh" "$2" 2>&1); rc=$?
        if [ $rc -eq 0 ]; then echo "PASS $2"; else printf "FAIL %s\n%s\n" "$2" "$out"; fi' \
        sh "$here" {} >"$results"

passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
grep -v '^PASS ' "$results"
echo "golden: $passed passed, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
