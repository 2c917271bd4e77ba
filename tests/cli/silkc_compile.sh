#!/bin/sh
# silkc_compile.sh: `silkc compile` end to end — the seed's lanes-and-warps
# kernel becomes PTX for two targets with its launch bounds, the IR can be
# printed, bad options and bad source give their exit status,
# --resource-usage reports the kernel (measured by ptxas, or estimated);
# with ptxas hidden (SILK_PTXAS=none) the estimate is printed and marked as
# one, and --emit=cubin exits 3; --emit=header writes a header that a C
# program compiles against, whose tables name the kernel's parameters and
# whose embedded PTX is the .ptx file byte for byte (and, when the CUDA
# toolkit's cuda.h is here, a driver-API program using it compiles and
# links).  What needs ptxas itself is in silkc_ptxas.sh.  Run by make
# check, which sets SILKC and SILK_SRCDIR (and CC, when it is set).
set -u
: "${SILKC:?}" "${SILK_SRCDIR:?}"
seed="$SILK_SRCDIR/tests/golden/seeds/lanes_and_warps.silk"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# json_field FILE KERNEL FIELD: FIELD of KERNEL in a --format json report
# (cJSON's layout: one "name":<tab>value per line, kernel before the figures).
json_field() {
    awk -v k="\"$2\"" -v f="\"$3\":" '
        $1 == "\"kernel\":" { cur = $2; sub(/,$/, "", cur) }
        $1 == f && cur == k { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}

"$SILKC" compile "$seed" --arch sm_90,sm_80 -o "$work/lw.ptx" || fail "compile exited $?"
for t in sm_90 sm_80; do
    f="$work/lw.$t.ptx"
    [ -f "$f" ] || { fail "no $f"; continue; }
    grep -q "^\.target $t\$" "$f" || fail "$f: no .target $t"
    grep -q '^\.reqntid 128, 1, 1$' "$f" || fail "$f: no .reqntid 128, 1, 1"
    grep -q '^\.minnctapersm 4$' "$f" || fail "$f: no .minnctapersm 4"
done
grep -q '^\.version 7\.8$' "$work/lw.sm_90.ptx" || fail "sm_90: not .version 7.8"

"$SILKC" compile "$seed" --emit=ir > "$work/lw.ir" || fail "--emit=ir exited $?"
grep -q '^kernel @lanes_and_warps(%0: i64 \$O) reqntid 128 minnctapersm 4 {$' "$work/lw.ir" ||
    fail "--emit=ir: no kernel header"

"$SILKC" compile "$seed" --arch sm_42 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "--arch sm_42 exited $rc, not 2"
grep -q "unknown target 'sm_42'" "$work/err" || fail "--arch sm_42: $(cat "$work/err")"
"$SILKC" compile "$seed" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "no --arch exited $rc, not 2"
printf '@launch(48)\nkernel k(O: tensor<i32>[1]) {\n  O[0] = 1\n}\n' > "$work/bad.silk"
"$SILKC" compile "$work/bad.silk" --arch sm_90 2>/dev/null; rc=$?
[ $rc -eq 1 ] || fail "a rejected @launch exited $rc, not 1"

"$SILKC" compile "$seed" --emit=asm 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "--emit=asm exited $rc, not 2"
grep -q "'asm' is not ptx, ir, cubin, header or llvm" "$work/err" || fail "--emit=asm: $(cat "$work/err")"

# --resource-usage: ptxas's figures, or without it the estimate ("~N").
if "$SILKC" compile "$seed" --arch sm_90 -o "$work/r.ptx" --resource-usage > "$work/usage" 2>"$work/err"; then
    grep -q '^sm_90 *lanes_and_warps *~\{0,1\}[0-9]' "$work/usage" || fail "--resource-usage: $(cat "$work/usage")"
else
    fail "--resource-usage: $(cat "$work/err")"
fi

# ---- without ptxas: the estimate, marked in every form ----------------------
export SILK_PTXAS=none
hist="$SILK_SRCDIR/tests/golden/programs/histogram.silk"
"$SILKC" compile "$hist" --arch sm_90,sm_80 -o "$work/h.ptx" --resource-usage > "$work/usage" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "estimate: exited $rc: $(cat "$work/err")"
grep -q '^sm_90 *histogram *~[0-9][0-9]* *0 *0 *0 *1024 *1$' "$work/usage" ||
    fail "estimate: no sm_90 row with ~registers, 1024 bytes smem, 1 barrier: $(cat "$work/usage")"
grep -q '^sm_80 *histogram *~[0-9]' "$work/usage" || fail "estimate: no sm_80 row"
grep -q '^~ estimated: no ptxas was found' "$work/usage" || fail "estimate: no footnote: $(cat "$work/usage")"
"$SILKC" compile "$hist" --arch sm_90 -o "$work/h.ptx" --resource-usage --format json > "$work/usage.json" ||
    fail "estimate --format json exited $?"
grep -q '"estimated":[[:space:]]*true' "$work/usage.json" || fail "estimate: JSON not marked: $(cat "$work/usage.json")"
grep -q '"static_smem":[[:space:]]*1024,' "$work/usage.json" || fail "estimate: JSON smem not 1024"
# @launch(128, 1, 32)'s register limit caps the estimate, and the rest spills
"$SILKC" compile "$SILK_SRCDIR/tests/data/silk/pressure.silk" --arch sm_90 -o "$work/p.ptx" \
    --resource-usage --format json > "$work/p.json" || fail "estimate of pressure.silk exited $?"
[ "$(json_field "$work/p.json" squeezed registers)" = 32 ] || fail "estimate: squeezed not capped at 32"
[ "$(json_field "$work/p.json" squeezed spill_stores)" -gt 0 ] || fail "estimate: squeezed has no spills"
[ "$(json_field "$work/p.json" roomy registers)" -gt 32 ] || fail "estimate: roomy within 32 registers"
[ "$(json_field "$work/p.json" roomy spill_stores)" = 0 ] || fail "estimate: roomy spills"

"$SILKC" compile "$seed" --arch sm_90 --emit=cubin -o "$work/x.cubin" 2>"$work/err"; rc=$?
[ $rc -eq 3 ] || fail "--emit=cubin without ptxas exited $rc, not 3"
{ [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q '^silkc: error: --emit=cubin needs ptxas' "$work/err"; } ||
    fail "--emit=cubin without ptxas: $(cat "$work/err")"
[ ! -e "$work/x.cubin" ] || fail "--emit=cubin without ptxas wrote a file"

# A ptxas that rejects the PTX: its own words, called a compiler bug, exit 1.
printf '#!/bin/sh\necho "ptxas fatal   : Unresolved extern function '"'"'nope'"'"'"\nexit 255\n' \
    > "$work/bad-ptxas"
chmod +x "$work/bad-ptxas"
export SILK_PTXAS="$work/bad-ptxas"
"$SILKC" compile "$seed" --arch sm_90,sm_80 --emit=cubin -o "$work/bad.cubin" 2>"$work/err"; rc=$?
[ $rc -eq 1 ] || fail "a rejected cubin exited $rc, not 1"
grep -q "^silkc: error: $work/bad-ptxas rejected the PTX for sm_80 (a compiler bug" "$work/err" ||
    fail "a rejected cubin: $(cat "$work/err")"
grep -q "^ptxas fatal   : Unresolved extern function 'nope'$" "$work/err" ||
    fail "a rejected cubin: not ptxas's text: $(cat "$work/err")"
[ ! -e "$work/bad.sm_90.cubin" ] || fail "a rejected cubin left a file"
"$SILKC" compile "$seed" --arch sm_90 -o "$work/bad.ptx" --resource-usage 2>"$work/err"; rc=$?
[ $rc -eq 1 ] || fail "a rejected --resource-usage exited $rc, not 1"
grep -q "^silkc: error: $work/bad-ptxas rejected $work/bad.ptx for sm_90 (a compiler bug)" "$work/err" ||
    fail "a rejected --resource-usage: $(cat "$work/err")"
unset SILK_PTXAS

# ---- --emit=header ----------------------------------------------------------
"$SILKC" compile "$hist" --arch sm_90,sm_80 -o "$work/hist.ptx" || fail "histogram PTX exited $?"
"$SILKC" compile "$hist" --arch sm_90,sm_80 --emit=header -o "$work/hist.h" || fail "--emit=header exited $?"
[ ! -e "$work/hist.sm_90.h" ] || fail "--emit=header wrote one file per target"
cp "$SILK_SRCDIR/tests/cli/use_header.c" "$SILK_SRCDIR/tests/cli/use_cuda.c" "$work/"
cc=${CC:-cc}
if ! command -v "${cc%% *}" >/dev/null 2>&1; then
    echo "SKIP part: --emit=header: no C compiler ($cc)"
elif $cc -std=c11 -Wall -Wextra -Werror -I"$work" -o "$work/use_header" "$work/use_header.c" 2>"$work/err"; then
    "$work/use_header" "$work/hist.sm_90.ptx" "$work/hist.sm_80.ptx" || fail "--emit=header: the checks above"
else
    fail "--emit=header: the header does not compile: $(cat "$work/err")"
fi

# The header against the CUDA driver API, compiled and linked (not run).
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ -f "$cuda/include/cuda.h" ] && command -v "${cc%% *}" >/dev/null 2>&1; then
    libs=""
    [ -f "$cuda/lib64/stubs/libcuda.so" ] && libs="-L$cuda/lib64/stubs -lcuda"
    # shellcheck disable=SC2086
    $cc -std=c11 -Wall -Wextra -Werror -I"$cuda/include" -I"$work" -o "$work/use_cuda" \
        "$work/use_cuda.c" $libs 2>"$work/err" || fail "--emit=header with cuda.h: $(cat "$work/err")"
else
    echo "note: no $cuda/include/cuda.h: the header was not compiled against the driver API"
fi

[ $failures -eq 0 ] && echo "silkc compile: all checks passed"
[ $failures -eq 0 ]
