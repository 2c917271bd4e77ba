#!/bin/sh
# examples_oracle.sh: the AMD engine agrees with LLVM on real Silk kernels
# (issue 15, item 4, first half).  Every example and every golden program
# that compiles, on gfx90a, gfx942, gfx1100 and gfx1201, as written and at
# each @launch size of SIZES (the file's @launch(N[, M]) rewritten to N;
# a program whose host code fixes its launch size then does not compile
# and is listed): silkc
# writes the LLVM IR (--emit=llvm), llc-19 compiles it with
# -pass-remarks-analysis=kernel-resource-usage, and for every kernel the
# remark's "Occupancy [waves/SIMD]" must be the waves_per_simd that
# `silk-occ report --arch T --format json` gives for it (its figures read
# from the code object silkc's AMDGPU target links).  A program the AMD
# backend refuses (a construct without an AMD form) is listed, not
# compared; one whose kernels disagree fails the test.
#
# Needs llc-19 and ld.lld-19 ($SILK_LLC, $SILK_LLD) and jq; exits 77
# naming what is missing.  Run by make check (SILKC, SILK_OCC, SILK_SRCDIR).
set -u
: "${SILKC:?}" "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
LLC=${SILK_LLC:-llc-19}
for tool in "$LLC" "${SILK_LLD:-ld.lld-19}" jq; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
TARGETS="gfx90a gfx942 gfx1100 gfx1201"
SIZES=${SIZES:-"64 256 1024"}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0 compared=0 refused=0

for f in "$SILK_SRCDIR"/examples/*.silk "$SILK_SRCDIR"/tests/golden/programs/*.silk; do
    grep -q '@launch(' "$f" || continue
    for n in as-written $SIZES; do
        src=$work/$(basename "$f" .silk)_$n.silk
        if [ "$n" = as-written ]; then cp "$f" "$src"; else sed "s/@launch([0-9]*/@launch($n/" "$f" >"$src"; fi
        # Other files of the program (./ imports) beside it.
        for dep in "$(dirname "$f")"/*.silk; do
            [ -e "$work/$(basename "$dep")" ] || cp "$dep" "$work/"
        done
        for t in $TARGETS; do
            ll=$work/k.$t.ll
            if ! "$SILKC" compile --arch "$t" --emit=llvm -o "$ll" "$src" >/dev/null 2>"$work/err"; then
                refused=$((refused + 1))
                echo "note: $(basename "$f") @launch($n) on $t: not compiled: $(head -n 1 "$work/err")"
                continue
            fi
            "$LLC" -mtriple=amdgcn-amd-amdhsa -mcpu="$t" -filetype=null \
                -pass-remarks-analysis=kernel-resource-usage "$ll" 2>"$work/remarks" || {
                echo "FAIL: $(basename "$f") @launch($n) on $t: llc rejected silkc's IR"; fail=1; continue; }
            # "kernel occupancy" per kernel, from the remarks and from silk-occ.
            awk '/Function Name:/ { k = $NF } /Occupancy \[waves\/SIMD\]:/ { print k, $NF }' \
                "$work/remarks" | sort >"$work/llvm"
            "$SILK_OCC" report "$src" --arch "$t" --format json >"$work/json" 2>"$work/occ_err" || {
                echo "FAIL: $(basename "$f") @launch($n) on $t: silk-occ report failed: $(head -n 1 "$work/occ_err")"
                fail=1; continue; }
            jq -r '.amd[] | "\(.kernel) \(.waves_per_simd)"' "$work/json" | sort >"$work/ours"
            compared=$((compared + $(wc -l <"$work/llvm")))
            if [ ! -s "$work/llvm" ] || ! cmp -s "$work/llvm" "$work/ours"; then
                echo "FAIL: $(basename "$f") @launch($n) on $t: llc-19 [$(tr '\n' ';' <"$work/llvm")] silk-occ [$(tr '\n' ';' <"$work/ours")]"
                fail=1
            fi
        done
    done
done
echo "$compared kernel configurations agree with $LLC; $refused compilations refused by silkc"
[ "$compared" -gt 0 ] || fail=1
exit $fail
