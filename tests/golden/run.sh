#!/bin/sh
# run.sh CASE.silk: one golden test.  make check does not run it itself:
# its test is run-all.sh, which runs this script once per
# tests/golden/*/*.silk, several at a time.  By hand, for one case:
# SILKC=build/src/silkc sh tests/golden/run.sh tests/golden/parse/CASE.silk
# Exit status 0 when every expected file matches, 1 when one differs (the
# diff is printed), 99 when the case has no expected file.
#
# The expected files beside CASE.silk pick what is compared:
#   CASE.ast   stdout of `silkc check --dump-ast CASE.silk`
#   CASE.err   stderr of `silkc check CASE.silk` (no colour); the exit status
#              must be 1 when it holds an error, else 0
#   CASE.ir    stdout of `silkc compile -O0 --emit=ir CASE.silk`: the IR as
#              lowered, before any optimisation pass (tests/golden/lower/);
#              the compile must succeed
# A first line `// silkc: ARGS` adds ARGS to the command.  A case needs at
# least one expected file.  UPDATE=1 rewrites the expected files from what
# silkc prints now (review the diff before committing it).
set -u
case_file=$1
dir=$(dirname "$case_file")
name=$(basename "$case_file" .silk)
silkc=${SILKC:-silkc}
cd "$dir" || exit 99

args=$(sed -n '1s|^// silkc: *||p' "$name.silk")
[ "$args" = "$(sed -n 1p "$name.silk")" ] && args=""
status=0
found=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

compare() { # expected-file actual-file
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$2" "$1"
    elif ! diff -u "$1" "$2"; then
        echo "FAIL: $dir/$1 differs (UPDATE=1 rewrites it)"
        status=1
    fi
}

if [ -f "$name.ast" ]; then
    found=1
    # shellcheck disable=SC2086
    NO_COLOR=1 "$silkc" check --dump-ast $args "$name.silk" >"$out" 2>/dev/null
    compare "$name.ast" "$out"
fi
if [ -f "$name.ir" ]; then
    found=1
    # shellcheck disable=SC2086
    if ! NO_COLOR=1 "$silkc" compile -O0 --emit=ir $args "$name.silk" >"$out" 2>"$err"; then
        echo "FAIL: $dir/$name.silk: silkc compile --emit=ir failed:"
        cat "$err"
        status=1
    fi
    compare "$name.ir" "$out"
fi
want_err=0
[ -f "$name.err" ] && want_err=1
# UPDATE=1 on a case with neither file starts it as a diagnostics case.
[ "${UPDATE:-0}" = 1 ] && [ "$found" = 0 ] && want_err=1
if [ "$want_err" = 1 ]; then
    found=1
    # shellcheck disable=SC2086
    NO_COLOR=1 "$silkc" check $args "$name.silk" >/dev/null 2>"$err"
    code=$?
    compare "$name.err" "$err"
    want=0
    grep -q -e ': error: ' -e '"kind": *"error"' "$name.err" && want=1
    if [ "$code" -ne "$want" ]; then
        echo "FAIL: $dir/$name.silk: exit status $code, expected $want"
        status=1
    fi
fi
if [ "$found" = 0 ]; then
    echo "FAIL: $dir/$name.silk has no $name.ast, $name.err or $name.ir beside it"
    exit 99
fi
exit $status
