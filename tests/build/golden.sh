#!/bin/sh
# golden.sh: every valid golden program with host code (a
# tests/golden/*/*.silk that silkc check accepts, with a host function)
# built into a program by `silkc build`, and its C (--emit=c) clean under
# $CC -std=gnu11 -Wall -Wextra -Werror.  A program without fn main is built
# with a second root file that holds only `fn main() {}`.  The case's
# `// silkc: ARGS` first line is passed on, as run.sh of the golden tests
# does.  Several cases at a time; a line per failure and a summary.
# Exits 77 (skipped) without a C compiler.
set -u
# one CASE: PASS, SKIP (not a valid program with host code) or FAIL with why
one() {
    dir=$(dirname "$1") name=$(basename "$1")
    args=$(sed -n '1s|^// silkc: *||p' "$1")
    [ "$args" = "$(sed -n 1p "$1")" ] && args=""
    out=$(mktemp -d "$work/case.XXXXXX")
    # shellcheck disable=SC2086
    (cd "$dir" && "$SILKC" check $args "$name") >/dev/null 2>&1 || { echo "SKIP $1"; return; }
    grep -Eq '^(async |task )*fn [A-Za-z_]' "$1" || { echo "SKIP $1"; return; }
    extra=""
    grep -q '^fn main()' "$1" || extra="$work/main.silk"
    # shellcheck disable=SC2086
    if ! (cd "$dir" && "$SILKC" build $args "$name" $extra -o "$out/program") >"$out/log" 2>&1; then
        printf 'FAIL %s: silkc build failed:\n%s\n' "$1" "$(cat "$out/log")"
    elif [ ! -x "$out/program" ]; then
        echo "FAIL $1: silkc build made no program"
    elif ! (cd "$dir" && "$SILKC" build $args "$name" $extra --emit=c -o "$out/program.c") \
            >"$out/log" 2>&1 ||
         ! "$CC" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I "$RUNTIME_INCLUDE" \
            "$out/program.c" >"$out/log" 2>&1; then
        printf 'FAIL %s: its C is not clean:\n%s\n' "$1" "$(head -n 20 "$out/log")"
    else
        echo "PASS $1"
    fi
    rm -rf "$out"
}
if [ "${1:-}" = --one ]; then # one case, in the directory the run made
    one "$2"
    exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
export SILKC
CC=${CC:-cc}
export CC
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($CC) for silkc build"; exit 77; }
RUNTIME_INCLUDE=${SILK_SRCDIR:-$top}/std/runtime
export RUNTIME_INCLUDE
jobs=$(nproc 2>/dev/null || echo 2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'fn main() {\n}\n' >"$work/main.silk"
export work


find "$top/tests/golden" -mindepth 2 -name '*.silk' | sort >"$work/cases"
results=$work/results
xargs -P "$jobs" -I{} sh "$0" --one {} <"$work/cases" >"$results" # each case: this script again
passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
grep '^FAIL ' -A 20 "$results" | grep -v '^PASS \|^SKIP '
echo "golden programs built: $passed passed, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
