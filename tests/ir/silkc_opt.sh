#!/bin/sh
# silkc_opt.sh: the passes inside `silkc compile`.  For every golden
# program that compiles, the default --emit=ir is exactly the pipeline
# (ir-opt O) run on the -O0 IR, and a fixed point of it; -O0 leaves the
# lowered IR alone (the lanes-and-warps seed keeps its `mul 0, 2`).  Run by
# make check, which sets SILKC, IR_OPT and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${IR_OPT:?}" "${SILK_SRCDIR:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 checked=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for f in "$SILK_SRCDIR"/tests/golden/*/*.silk; do
    "$SILKC" compile -O0 --emit=ir "$f" >"$work/o0.ir" 2>/dev/null || continue
    checked=$((checked + 1))
    "$SILKC" compile --emit=ir "$f" >"$work/opt.ir" 2>"$work/err" || { fail "$f: $(cat "$work/err")"; continue; }
    "$IR_OPT" "$work/o0.ir" O >"$work/again.ir" 2>"$work/err" || { fail "$f: ir-opt: $(cat "$work/err")"; continue; }
    cmp -s "$work/opt.ir" "$work/again.ir" || fail "$f: silkc's IR is not ir-opt O of its -O0 IR"
    "$IR_OPT" "$work/opt.ir" O >"$work/twice.ir" 2>/dev/null
    cmp -s "$work/opt.ir" "$work/twice.ir" || fail "$f: the optimised IR is not a fixed point"
done
[ "$checked" -gt 10 ] || fail "only $checked golden programs compiled"

seed="$SILK_SRCDIR/tests/golden/seeds/lanes_and_warps.silk"
"$SILKC" compile -O0 --emit=ir "$seed" | grep -q ' = mul 0, 2$' || fail "-O0: the lowered IR was changed"
"$SILKC" compile --emit=ir "$seed" | grep -q ' = mul 0, 2$' && fail "the default ran no passes"

[ $failures -eq 0 ] && echo "silkc passes: $checked programs checked"
[ $failures -eq 0 ]
