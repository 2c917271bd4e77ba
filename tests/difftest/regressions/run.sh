#!/bin/sh
# run.sh: the regressions of the optimiser (issue 13, item 4): every
# difference between -O0 and the passes ever found (by the differential
# tests, tests/cpu/differential.sh and tests/difftest/differential.sh, or
# otherwise) as a small program, reduced by tests/difftest/reduce.sh,
# beside the buffers it must leave.  Each CASE.silk here, its first line
# `// exec: ...` the options it runs with and its comment the bug (the
# commit that fixed it, how it was found), is run by `silkc exec` at -O0
# and with the passes (--workers 1, the default --seed 1), and both runs'
# --dump must be CASE.out exactly.  A new case: its CASE.out from the -O0
# run, checked by hand against what the program must compute, and the
# case failing with the fix reverted (its commit says so).
#
# Run by `make check` (SILKC set); exits 77 (skipped) without a C compiler.
set -u
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0 cases=0
for c in "$here"/*.silk; do
    name=$(basename "$c" .silk)
    exec_line=$(sed -n '1s|^// exec: ||p' "$c")
    [ -n "$exec_line" ] || { echo "FAIL $name: no // exec: first line"; status=1; continue; }
    [ -f "$here/$name.out" ] || { echo "FAIL $name: no $name.out"; status=1; continue; }
    cases=$((cases + 1))
    for level in -O0 -O; do
        opt=$level
        [ "$level" = -O ] && opt=
        # shellcheck disable=SC2086 # the exec line is words, $opt one or none
        if ! "$SILKC" exec "$c" $opt --workers 1 $exec_line --dump >"$work/out" 2>"$work/err"; then
            echo "FAIL $name ($level): $(head -n 3 "$work/err")"
            status=1
        elif ! cmp -s "$here/$name.out" "$work/out"; then
            echo "FAIL $name ($level): the buffers are not $name.out:"
            diff "$here/$name.out" "$work/out" | head -n 10
            status=1
        fi
    done
done
echo "regressions: $cases cases at -O0 and with the passes"
exit $status
