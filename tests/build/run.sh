#!/bin/sh
# run.sh CASE.silk [EXPECTED]: one program built and run.  make check does
# not run it itself: its test is run-all.sh, which runs this script once
# per tests/build/programs/*.silk and examples/*.silk, several at a time.
# By hand: SILKC=build/src/silkc sh tests/build/run.sh tests/build/programs/CASE.silk
#
# The program is run by `silkc run` on the CPU backend (SILK_BACKEND=cpu)
# and must print exactly EXPECTED.out on standard output and EXPECTED.err
# on standard error (nothing when there is no .err), and exit with the
# status in EXPECTED.status (0 when there is none); EXPECTED is CASE
# without .silk unless given.  Its C (--emit=c) must then compile with
# $CC -std=gnu11 -Wall -Wextra -Werror.  A first line `// silkc: ARGS`
# adds ARGS to silkc's command (more files, options); a line
# `// run: ARGS` gives the program its arguments.  UPDATE=1 rewrites the
# expected files from what the program does now (review the diff).
# Exit status 0 when everything matches, 1 when something differs.
set -u
case_file=$1
expected=${2:-${1%.silk}}
silkc=${SILKC:-silkc}
cc=${CC:-cc}
runtime=${SILK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/std/runtime
dir=$(dirname "$case_file")
name=$(basename "$case_file")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

args=$(sed -n '1s|^// silkc: *||p' "$case_file")
[ "$args" = "$(sed -n 1p "$case_file")" ] && args=""
run_args=$(sed -n 's|^// run: *||p' "$case_file" | head -n 1)

compare() { # expected-file actual-file what
    if [ "${UPDATE:-0}" = 1 ]; then
        if [ -s "$2" ] || [ "$3" = stdout ]; then cp "$2" "$1"; else rm -f "$1"; fi
    elif [ -f "$1" ]; then
        diff -u "$1" "$2" || { echo "FAIL: $case_file: $3 differs from $1"; status=1; }
    elif [ -s "$2" ]; then
        echo "FAIL: $case_file: unexpected $3 (no $1):"; cat "$2"; status=1
    fi
}

# shellcheck disable=SC2086
(cd "$dir" && NO_COLOR=1 SILK_BACKEND=cpu "$silkc" run $args "$name" -- $run_args) \
    >"$work/out" 2>"$work/err"
code=$?
compare "$expected.out" "$work/out" stdout
compare "$expected.err" "$work/err" stderr
want=0
[ -f "$expected.status" ] && want=$(cat "$expected.status")
if [ "${UPDATE:-0}" = 1 ]; then
    if [ "$code" -ne 0 ]; then echo "$code" >"$expected.status"; else rm -f "$expected.status"; fi
elif [ "$code" -ne "$want" ]; then
    echo "FAIL: $case_file: exit status $code, expected $want"
    status=1
fi

# shellcheck disable=SC2086
if ! (cd "$dir" && "$silkc" build $args "$name" --emit=c -o "$work/program.c") 2>"$work/cerr"; then
    echo "FAIL: $case_file: silkc build --emit=c failed:"; cat "$work/cerr"; status=1
elif ! "$cc" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I "$runtime" "$work/program.c" \
        2>"$work/cerr"; then
    echo "FAIL: $case_file: its C is not clean under $cc -Wall -Wextra -Werror:"
    head -n 20 "$work/cerr"
    status=1
fi
exit $status
