#!/bin/sh
# lds_limit.sh: the static shared memory a kernel may have comes from each
# target's table row: an AMD target's LDS per workgroup (64 KiB on the
# four silkc targets, amd-targets.csv), an NVIDIA architecture's 48 KiB
# (compute-capabilities.csv), the lowest of a build's targets, and with
# no target the lowest any target allows.  The exact diagnostics (silkc
# check), then, with llc-19 and ld.lld-19, the 56000 bytes that NVIDIA
# refuses compiled for the four AMD targets, and exactly 65536.  Exit 77
# after the first part without them.  Run by make check (SILKC).
set -u
: "${SILKC:?SILKC must name the silkc to test (make check sets it)}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
NO_COLOR=1
export NO_COLOR
status=0
fail() { echo "FAIL: $*"; status=1; }
amd="gfx90a gfx942 gfx1100 gfx1201"

# kernel FILE FLOATS: one kernel of a FLOATS-element f32 shared array.
kernel() {
    printf '@launch(256)\nkernel k(o: tensor<f32>[256]) {\n  shared a: f32[%s]\n' "$2" >"$1"
    printf '  a[ctx.tid] = 1.0\n  sync()\n  o[ctx.tid] = a[255 - ctx.tid]\n}\n' >>"$1"
}

# expect STATUS "FIRST STDERR LINE" ARGS...: silkc check's exit status
# and the first line of its diagnostics ("" for none at all).
expect() {
    want_status=$1 want=$2
    shift 2
    "$SILKC" check "$@" 2>err
    got=$?
    [ "$got" -eq "$want_status" ] || fail "silkc check $*: exit $got, want $want_status ($(cat err))"
    if [ -z "$want" ]; then
        [ -s err ] && fail "silkc check $*: said $(cat err)"
    else
        [ "$(head -1 err)" = "$want" ] || fail "silkc check $*:
  got:  $(head -1 err)
  want: $want"
    fi
}

kernel between.silk 14000 # 56000 bytes: over 48 KiB, within 64 KiB
kernel exact.silk 16384   # 65536
kernel over.silk 16385    # 65540
at="between.silk:3:3: error: 'a' brings the static shared memory of 'k' to"
for t in $amd; do
    expect 0 "" --arch "$t" between.silk
    expect 0 "" --arch "$t" exact.silk
    expect 1 "over.silk:3:3: error: 'a' brings the static shared memory of 'k' to 65540 bytes; a kernel may have at most 65536 (64 KiB) on $t" \
        --arch "$t" over.silk
done
expect 1 "$at 56000 bytes; a kernel may have at most 49152 (48 KiB) on sm_90" --arch sm_90 between.silk
# The lowest of the targets, at the first that has it; none: every target's.
expect 1 "$at 56000 bytes; a kernel may have at most 49152 (48 KiB) on sm_80" --arch gfx942,sm_80,sm_90 between.silk
expect 1 "$at 56000 bytes; a kernel may have at most 49152 (48 KiB)" between.silk

llc=$(command -v llc-19) lld=$(command -v ld.lld-19)
if [ -z "$llc" ] || [ -z "$lld" ]; then
    [ $status = 0 ] || exit 1
    echo "SKIP: the code objects: llc-19 or ld.lld-19 not found (install llvm-19 and lld-19)"
    exit 77
fi
export SILK_LLC="$llc" SILK_LLD="$lld"
for f in between exact; do
    "$SILKC" compile "$f.silk" --arch "$(echo $amd | tr ' ' ,)" -o "$f.hsaco" --resource-usage >table 2>err ||
        { fail "$f.silk: silkc compile: $(cat err)"; continue; }
    bytes=$((4 * $([ $f = between ] && echo 14000 || echo 16384)))
    for t in $amd; do
        [ -s "$f.$t.hsaco" ] || fail "$f.silk: no $f.$t.hsaco"
        got=$(awk -v t="$t" '$1 == t && $2 == "k" { print $6 }' table)
        [ "$got" = "$bytes" ] || fail "$f.silk on $t: LDS $got, want $bytes ($(cat table))"
    done
done
[ $status = 0 ] && echo "lds_limit: each target's limit from its row; 56000 and 65536 bytes through llc-19 for $amd"
exit $status
