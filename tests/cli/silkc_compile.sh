#!/bin/sh
# silkc_compile.sh: `silkc compile` end to end — the seed's lanes-and-warps
# kernel becomes PTX for two targets with its launch bounds, the IR can be
# printed, bad options and bad source give their exit status, and (with
# ptxas) --resource-usage reports the kernel.  Run by make check, which
# sets SILKC and SILK_SRCDIR.
set -u
: "${SILKC:?}" "${SILK_SRCDIR:?}"
seed="$SILK_SRCDIR/tests/golden/seeds/lanes_and_warps.silk"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$SILKC" compile "$seed" --arch sm_90,sm_80 -o "$work/lw.ptx" || fail "compile exited $?"
for t in sm_90 sm_80; do
    f="$work/lw.$t.ptx"
    [ -f "$f" ] || { fail "no $f"; continue; }
    grep -q "^\.target $t\$" "$f" || fail "$f: no .target $t"
    grep -q '^\.maxntid 128, 1, 1$' "$f" || fail "$f: no .maxntid 128, 1, 1"
    grep -q '^\.minnctapersm 4$' "$f" || fail "$f: no .minnctapersm 4"
done
grep -q '^\.version 7\.8$' "$work/lw.sm_90.ptx" || fail "sm_90: not .version 7.8"

"$SILKC" compile "$seed" --emit=ir > "$work/lw.ir" || fail "--emit=ir exited $?"
grep -q '^kernel @lanes_and_warps(%0: i64 \$O) maxntid 128 minnctapersm 4 {$' "$work/lw.ir" ||
    fail "--emit=ir: no kernel header"

"$SILKC" compile "$seed" --arch sm_42 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "--arch sm_42 exited $rc, not 2"
grep -q "unknown target 'sm_42'" "$work/err" || fail "--arch sm_42: $(cat "$work/err")"
"$SILKC" compile "$seed" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "no --arch exited $rc, not 2"
printf '@launch(48)\nkernel k(O: tensor<i32>[1]) {\n  O[0] = 1\n}\n' > "$work/bad.silk"
"$SILKC" compile "$work/bad.silk" --arch sm_90 2>/dev/null; rc=$?
[ $rc -eq 1 ] || fail "a rejected @launch exited $rc, not 1"

if "$SILKC" compile "$seed" --arch sm_90 -o "$work/r.ptx" --resource-usage > "$work/usage" 2>"$work/err"; then
    grep -q '^sm_90 *lanes_and_warps *[0-9]' "$work/usage" || fail "--resource-usage: $(cat "$work/usage")"
elif [ $? -eq 3 ]; then
    echo "SKIP part: --resource-usage: $(cat "$work/err")"
else
    fail "--resource-usage: $(cat "$work/err")"
fi

[ $failures -eq 0 ] && echo "silkc compile: all checks passed"
[ $failures -eq 0 ]
