#!/bin/sh
# llc-all.sh: every valid Silk program we have, compiled by silkc for the
# four AMD targets, must be accepted by llc-19 and linked by ld.lld-19
# into a code object whose metadata reads (silkc compile does all three).
#
# The programs: each tests/golden/*/*.silk whose expected diagnostics
# (CASE.err) hold no error, and each examples/*.silk, as
# tests/codegen/ptxas-all.sh takes them (a first line `// silkc: ARGS`
# adds ARGS, run in the case's directory).  The programs that use what
# has no AMD form are listed below with the one diagnostic each must get
# instead (on every target).  Summary: "N programs x 4 targets: M code
# objects"; passes when M is all of the others' and each refusal is exact.
#
# Run by make check (SILKC, SILK_SRCDIR).  Exit 77 without llc-19 or
# ld.lld-19 ($SILK_LLC, $SILK_LLD override).
set -u
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
srcdir=${SILK_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
llc=${SILK_LLC:-$(command -v llc-19)}
lld=${SILK_LLD:-$(command -v ld.lld-19)}
if [ -z "$llc" ] || [ -z "$lld" ]; then
    echo "llc-all: llc-19 or ld.lld-19 not found (install llvm-19 and lld-19, or set SILK_LLC and SILK_LLD); skipped"
    exit 77
fi
targets="gfx90a gfx942 gfx1100 gfx1201"

# The refusals: program (relative to the source tree) and its diagnostic.
refused() {
    case $1 in
    tests/golden/parse/fields.silk)
        echo "fields.silk:6:122: error: ctx.sms has no AMDGPU form: no register holds the number of CUs" ;;
    esac
}

# One program: "OK target" per code object, "REFUSED" when refused as
# listed, or "FAIL ..." lines.
check_one() {
    f=$1
    rel=${f#"$srcdir"/}
    dir=$(dirname "$f") name=$(basename "$f" .silk)
    out="$work/$(echo "$rel" | tr '/' '_')"
    mkdir -p "$out"
    args=$(sed -n '1s|^// silkc: *||p' "$f")
    want=$(refused "$rel")
    # One silkc run for the four targets (llc and ld.lld run per target
    # inside it); a program one target refuses is then compiled per target.
    # shellcheck disable=SC2086
    if [ -z "$want" ] && (cd "$dir" && NO_COLOR=1 SILK_LLC=$llc SILK_LLD=$lld "$SILKC" compile $args \
            "$name.silk" --arch "$(echo $targets | tr ' ' ,)" -o "$out/$name.hsaco") >"$out/all.log" 2>&1; then
        for t in $targets; do
            if [ -s "$out/$name.$t.hsaco" ]; then echo "OK $t"; else echo "FAIL $rel $t: no $name.$t.hsaco"; fi
        done
        return
    fi
    for t in $targets; do
        # shellcheck disable=SC2086
        (cd "$dir" && NO_COLOR=1 SILK_LLC=$llc SILK_LLD=$lld "$SILKC" compile $args "$name.silk" \
            --arch "$t" -o "$out/$name.$t.hsaco") >"$out/$t.log" 2>&1
        got=$?
        if [ -n "$want" ]; then
            if [ $got -eq 1 ] && [ "$(head -n 1 "$out/$t.log")" = "$want" ]; then
                echo "REFUSED $t"
            else
                echo "FAIL $rel $t: not refused as '$want' (exit $got):"
                head -n 3 "$out/$t.log" | sed 's/^/    /'
            fi
        elif [ $got -eq 0 ] && [ -s "$out/$name.$t.hsaco" ]; then
            echo "OK $t"
        else
            echo "FAIL $rel $t: silkc compile failed (exit $got):"
            head -n 5 "$out/$t.log" | sed 's/^/    /'
        fi
    done
}

if [ "${1:-}" = --one ]; then
    check_one "$2"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SILKC srcdir llc lld work

{
    for f in "$srcdir"/tests/golden/*/*.silk; do
        err=${f%.silk}.err
        if [ -f "$err" ] && grep -q -e ': error: ' -e '"kind": *"error"' "$err"; then
            continue
        fi
        echo "$f"
    done
    ls "$srcdir"/examples/*.silk
} > "$work/programs"

jobs=$(nproc 2>/dev/null || echo 2)
xargs -P "$jobs" -I{} sh "$0" --one {} <"$work/programs" >"$work/results"

programs=$(wc -l <"$work/programs")
made=$(grep -c '^OK ' "$work/results")
refusals=$(grep -c '^REFUSED ' "$work/results")
grep -v -e '^OK ' -e '^REFUSED ' "$work/results"
failed=$(grep -c '^FAIL ' "$work/results")
echo "llc-all: $programs programs x 4 targets: $made code objects, $refusals refused as" \
    "expected (no AMD form), $failed failures"
[ "$failed" -eq 0 ] && [ $((made + refusals)) -eq $((programs * 4)) ]
