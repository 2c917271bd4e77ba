#!/bin/sh
# amd_report.sh: the tail and persistent grid of `silk-occ report` on AMD
# products (issue 15 item 3), in text and JSON, and --gpu naming AMD
# products beside NVIDIA ones.  Needs llc-19 and ld.lld-19 (the compiler's
# AMDGPU backend) and jq.  Run by make check, which sets SILK_OCC and
# SILK_SRCDIR.
#
# The figures by hand: examples/sgemm.silk is @launch(256, 2) and its
# main launches a 256 x 256 C in 32 x 32 blocks: grid = 8 * 8 * 256 =
# 16384 work items, 64 workgroups of 256.  On gfx942 it holds 8 waves per
# SIMD, 4 SIMDs a CU, 4 waves a workgroup: 8 workgroups per CU.
#   MI300X, 304 CUs: a wave is 8 * 304 = 2432 workgroups (the persistent
#     grid); 64 / 2432 = 0.0263 waves, 0 full, last wave 2.6% full, idle
#     1 - 64/2432 = 97.4%.
#   MI300A, 228 CUs: 8 * 228 = 1824.
#   --work 1000000: ceil(1000000 / 256) = 3907 workgroups; on MI300X
#     3907 / 2432 = 1.61 waves, 1 full, the last 1475 / 2432 = 60.6%,
#     idle (2 * 2432 - 3907) / (2 * 2432) = 19.7%.
# On gfx1100 (RDNA3, WGPs of 2 CUs) 16 waves per SIMD of 32 lanes, 4
# SIMDs a WGP, 8 waves a workgroup: 8 workgroups per WGP; RX 7900 XTX has
# 96 CUs = 48 WGPs: 8 * 48 = 384, 64 / 384 = 0.17 waves, 16.7% full.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
llc=${SILK_LLC:-llc-19}
command -v "$llc" >/dev/null 2>&1 || { echo "skip: $llc (LLVM 19's llc) is not installed"; exit 77; }
command -v ld.lld-19 >/dev/null 2>&1 || { echo "skip: ld.lld-19 is not installed"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "skip: jq is not installed"; exit 77; }
SILK_NO_DEVICE=1; export SILK_NO_DEVICE
status=0
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
sgemm=$SILK_SRCDIR/examples/sgemm.silk

fail() {
    echo "FAIL: $1"
    sed 's/^/    /' "$2"
    status=1
}

# The AMD tail of --gpu mi300x,rx-7900-xtx: only those products, the work
# from the launch block, in the report's own sections (issue 23: all
# seven on AMD targets too).
"$SILK_OCC" report "$sgemm" --gpu mi300x,rx-7900-xtx >"$work/out" 2>&1 || fail "report --gpu mi300x,rx-7900-xtx exited $?" "$work/out"
cat >"$work/want" <<'WANT'
sgemm (SGEMM) on AMD Instinct MI300X (CDNA3, wave64, gfx942, 304 CUs)
     work 16384 (the launch block at line 65): 64 workgroups of 256 threads, the last with 256 (1.56% of the work)
     mi300x                     304     0.03      0       2.6%   97.4%
  Persistent grid (CUs x resident workgroups): mi300a 1824, mi300x 2432, mi325x 2432
sgemm (SGEMM) on AMD Radeon RX 7900 XTX (RDNA3, wave32, gfx1100, 48 WGPs)
     work 16384 (the launch block at line 65): 64 workgroups of 256 threads, the last with 256 (1.56% of the work)
     rx-7900-xtx                 48     0.17      0      16.7%   83.3%
  Persistent grid (WGPs x resident workgroups): rx-7900-xtx 384, rx-7900-xt 336, pro-w7900 384
WANT
sed "s|$sgemm|SGEMM|" "$work/out" | grep '^sgemm (\|^     work \|^     mi300x \|^     rx-7900-xtx \|^  Persistent' >"$work/got"
cmp -s "$work/want" "$work/got" || { diff "$work/want" "$work/got" >"$work/diff"; fail "AMD tail text" "$work/diff"; }
for section in "1. Occupancy" "2. Selected configuration" "3. Tail" "4. @launch / __launch_bounds__" \
    "5. Host launch code" "6. Grid validity" "7. Verification"; do
    [ "$(grep -c "^  $section" "$work/out")" = 2 ] || fail "section $section not on both AMD targets" "$work/out"
done
grep -q 'hipModuleLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, stream, args, NULL);' "$work/out" &&
    grep -q 'hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, sgemm, 256, 0);' "$work/out" &&
    ! grep -q 'sm_90\|h100' "$work/out" ||
    fail "--gpu with AMD products only: HIP host code, no NVIDIA target" "$work/out"

# Mixed with an NVIDIA product: h100-sxm selects sm_90, mi300x gfx942.
"$SILK_OCC" report "$sgemm" --gpu h100-sxm,mi300x --format json >"$work/json" 2>"$work/err" ||
    fail "report --gpu h100-sxm,mi300x exited $?" "$work/err"
got=$(jq -c '[(.reports | map(.arch)), (.reports[] | select(.vendor == "amd") |
        [.arch, .tail.work, .selected.active_blocks_per_sm,
         (.tail.products[] | [.gpu, .sm_count, (.waves * 10000 | round), .full_waves,
                              (.last_wave_fill * 1000 | round), (.idle_fraction * 1000 | round)]),
         (.persistent_grid[] | select(.gpu == "mi300x") | .grid)])]' "$work/json" 2>&1)
want='[["sm_90","gfx942"],["gfx942",16384,8,["mi300x",304,263,0,26,974],2432]]'
[ "$got" = "$want" ] || { echo "FAIL: --gpu h100-sxm,mi300x JSON: $got (want $want)"; status=1; }

# --arch gfx942 with --work: every gfx942 product, in the table's order.
"$SILK_OCC" report "$sgemm" --arch gfx942 --work 1000000 --format json >"$work/json" 2>"$work/err" ||
    fail "report --arch gfx942 --work 1000000 exited $?" "$work/err"
got=$(jq -c '[.reports[] | .tail.work, (.tail.products[] | [.gpu, .sm_count, (.waves * 100 | round),
        .full_waves, (.last_wave_fill * 1000 | round), (.idle_fraction * 1000 | round)]),
        (.persistent_grid | map(.grid))]' "$work/json" 2>&1)
want='[1000000,["mi300a",228,214,2,142,286],["mi300x",304,161,1,606,197],["mi325x",304,161,1,606,197],[1824,2432,2432]]'
[ "$got" = "$want" ] || { echo "FAIL: --arch gfx942 --work 1000000 JSON: $got (want $want)"; status=1; }

# A 2-D --work on AMD: blocks a wave wide (64 x 4), 1 x 16 workgroups,
# 16 over 8 x 304 resident: 0.0066 waves.
"$SILK_OCC" report "$sgemm" --gpu mi300x --work 64x64 --format json >"$work/json" 2>"$work/err" ||
    fail "report --gpu mi300x --work 64x64 exited $?" "$work/err"
got=$(jq -c '[.reports[] | .tail.block, .tail.grid, (.tail.products[] | [.gpu, (.waves * 10000 | round)])]' "$work/json" 2>&1)
want='[[64,4],[1,16],["mi300x",66]]'
[ "$got" = "$want" ] || { echo "FAIL: --work 64x64 JSON: $got (want $want)"; status=1; }

# A wrong name in a mixed list is still the NVIDIA side's error.
"$SILK_OCC" report "$sgemm" --gpu mi300x,nosuch >"$work/out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "nosuch" "$work/out" || fail "--gpu mi300x,nosuch exited $rc" "$work/out"
# A code object is reported on its own target, given no --arch; a wave64
# one on RDNA counts as LLVM's +wavefrontsize64 does (issue 22, item 10):
# @wide's 100 VGPRs are 108 of 768 per lane, 7 waves per SIMD, not
# wave32's 120 of 1536, 12.  @shared's 40000 bytes of LDS leave room for
# 3 workgroups in a WGP's 128 KiB: 12 waves of 64 over 4 SIMDs, 3 (24
# waves of 32, 6); --arch gfx1100+cumode counts a CU of 2 SIMDs and 64
# KiB: 1 workgroup, 8 waves of 32 over 2 SIMDs, 4.  Each is llc-19's
# remark for the same -mattr.
cat >"$work/wide.ll" <<'LL'
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [10000 x i32] poison, align 4
define amdgpu_kernel void @wide() #0 {
  call void asm sideeffect "", "~{v99}"()
  ret void
}
define amdgpu_kernel void @shared(i32 %i) #0 {
  %q = getelementptr [10000 x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  store volatile i32 %i, ptr addrspace(3) %q, align 4
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
LL
# object NAME MATTR: wide.ll for gfx1100 with -mattr=MATTR ("" none) as
# NAME.hsaco; llc-19's Occupancy [waves/SIMD] of each kernel, as a JSON
# list, in NAME.remark.
object() {
    "$llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 ${2:+-mattr=$2} -filetype=obj \
        -pass-remarks-analysis=kernel-resource-usage -o "$work/$1.o" "$work/wide.ll" 2>"$work/$1.log" &&
        ld.lld-19 -shared -o "$work/$1.hsaco" "$work/$1.o" ||
        { fail "llc-19 or ld.lld-19 on wide.ll ($2)" "$work/$1.log"; return 1; }
    sed -n 's/.*Occupancy \[waves\/SIMD\]: \([0-9]*\)$/\1/p' "$work/$1.log" | paste -sd, |
        sed 's/.*/[&]/' >"$work/$1.remark"
}
# check WHAT NAME WANT ARGS: report NAME.hsaco ARGS: the JSON's arch and
# waves per SIMD of each kernel are WANT, and the waves llc-19's.
check() {
    what=$1 name=$2 want=$3
    shift 3
    got=$("$SILK_OCC" report "$work/$name.hsaco" "$@" --format json 2>"$work/err" |
        jq -c '[.reports[] | [.kernel, .arch,
            (.occupancy_table[] | select(.threads == 256) | .waves_per_simd)]]' 2>&1)
    llc_waves=$(echo "$got" | jq -c 'map(.[2])' 2>&1)
    if [ "$got" != "$want" ] || [ "$llc_waves" != "$(cat "$work/$name.remark")" ]; then
        echo "FAIL: $what: $got (want $want; llc-19 says $(cat "$work/$name.remark"))"
        status=1
    fi
}
if object w64 +wavefrontsize64 && object w32 "" && object cu +cumode; then
    check "a wave64 .hsaco" w64 '[["wide","gfx1100+wave64",7],["shared","gfx1100+wave64",3]]'
    check "a wave64 .hsaco, --arch gfx1100" w64 '[["wide","gfx1100+wave64",7],["shared","gfx1100+wave64",3]]' \
        --arch gfx1100
    check "a wave32 .hsaco" w32 '[["wide","gfx1100",12],["shared","gfx1100",6]]'
    check "--arch gfx1100+cumode" cu '[["wide","gfx1100+cumode",12],["shared","gfx1100+cumode",4]]' \
        --arch gfx1100+cumode
    # The processor's products are the wave64 row's too: 7 workgroups per WGP x 48.
    got=$("$SILK_OCC" report "$work/w64.hsaco" --gpu rx-7900-xtx --format json 2>&1 |
        jq -c '[.reports[] | select(.kernel == "wide") | .persistent_grid[] |
            select(.gpu == "rx-7900-xtx") | [.gpu, .sm_count, .grid]]' 2>&1)
    [ "$got" = '[["rx-7900-xtx",48,336]]' ] || { echo "FAIL: wave64 products: $got"; status=1; }
    "$SILK_OCC" report "$work/w64.hsaco" >"$work/out" 2>&1
    grep -q '^wide (.*w64.hsaco) on gfx1100+wave64 (RDNA3, wave64)$' "$work/out" &&
        grep -q '^     block 256 threads, 7 workgroups per WGP, 43.8% occupancy (7 waves per SIMD)$' "$work/out" ||
        fail "wave64 report text" "$work/out"
    # A wave64 object and a CDNA row of 64 but a wave32 object on gfx942: no such row.
    "$SILK_OCC" report "$work/w32.hsaco" --arch gfx1100+wave64 --format json 2>&1 |
        jq -c '[.reports[] | .arch] | unique' >"$work/out" 2>&1
    [ "$(cat "$work/out")" = '["gfx1100"]' ] || fail "a wave32 object on --arch gfx1100+wave64" "$work/out"
fi

# A code object's figure no target can have is named, exit 2 (item 9):
# @plain's .max_flat_workgroup_size, 1024 (0xcd 0x04 0x00 after the key),
# made 0x4000 = 16384.
cp "$SILK_SRCDIR/tests/data/amdgpu/pinned.gfx942.hsaco" "$work/big.hsaco"
for at in $(grep -obUa '\.max_flat_workgroup_size' "$work/big.hsaco" | cut -d: -f1); do
    value=$(od -An -tx1 -j $((at + 24)) -N 3 "$work/big.hsaco" | tr -d ' ')
    [ "$value" = cd0400 ] && printf '\100' | dd of="$work/big.hsaco" bs=1 seek=$((at + 25)) conv=notrunc 2>/dev/null
done
"$SILK_OCC" report "$work/big.hsaco" >"$work/out" 2>&1
rc=$?
want="silk-occ report: error: $work/big.hsaco: plain: .max_flat_workgroup_size 16384 is above the workgroup limit of 1024 work-items on gfx942"
[ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$want" ] || fail "a huge .max_flat_workgroup_size exited $rc" "$work/out"

# A wave size the code object's target does not run: .wavefront_size 32
# (0x20 for 0x40) on gfx942.
cp "$SILK_SRCDIR/tests/data/amdgpu/pinned.gfx942.hsaco" "$work/w32on942.hsaco"
at=$(grep -obUa '\.wavefront_size' "$work/w32on942.hsaco" | head -n 1 | cut -d: -f1)
printf '\040' | dd of="$work/w32on942.hsaco" bs=1 seek=$((at + 15)) conv=notrunc 2>/dev/null
"$SILK_OCC" report "$work/w32on942.hsaco" >"$work/out" 2>&1
rc=$?
want="silk-occ report: error: $work/w32on942.hsaco: pinned: .wavefront_size 32, but gfx942 runs waves of 64"
[ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$want" ] || fail "a wave32 gfx942 object exited $rc" "$work/out"

# An input with no kernels is an error on AMD targets as on NVIDIA ones
# (item 12; it was an empty table and exit 0).
printf 'fn helper(x: i32) -> i32 { return x; }\n' >"$work/none.silk"
for arch in gfx942 sm_90 sm_90,gfx1100; do
    "$SILK_OCC" report "$work/none.silk" --arch $arch >"$work/out" 2>&1
    rc=$?
    [ "$rc" = 2 ] && [ "$(cat "$work/out")" = "silk-occ report: error: the input has no kernels" ] ||
        fail "no kernels, --arch $arch, exited $rc" "$work/out"
done

# The +wave64 and +cumode rows are for code objects: silkc builds neither.
"$SILK_OCC" report "$sgemm" --arch gfx1100+wave64 >"$work/out" 2>&1
rc=$?
want="silk-occ report: error: $sgemm: --arch gfx1100+wave64: silkc compiles for gfx1100 in its default mode only (the row is for .hsaco files and calc)"
[ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$want" ] || fail "sgemm.silk on gfx1100+wave64 exited $rc" "$work/out"

# Nor any processor its AMDGPU target does not know (it once exited 1 without a word).
"$SILK_OCC" report "$sgemm" --arch gfx1030 >"$work/out" 2>&1
rc=$?
want="silk-occ report: error: $sgemm: --arch gfx1030: silkc compiles for gfx90a, gfx942, gfx1100, gfx1201 only (the row is for .hsaco files and calc)"
[ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$want" ] || fail "sgemm.silk on gfx1030 exited $rc" "$work/out"

# One vendor's code keeps the other vendor's report: a .hsaco beside
# NVIDIA targets is the AMD targets' alone, PTX the NVIDIA targets' alone
# (it was parsed as Silk, and the NVIDIA report was lost).
pinned=$SILK_SRCDIR/tests/data/amdgpu/pinned.gfx942.hsaco
"$SILK_OCC" report "$pinned" --arch sm_90,gfx942 --format json >"$work/out" 2>"$work/err"
rc=$?
got=$(jq -c '[(.reports | map(select(.vendor == "nvidia")) | length),
              [.reports[] | select(.vendor == "amd") | .kernel + "@" + .arch]]' "$work/out" 2>&1)
[ "$rc" = 0 ] && [ "$got" = '[0,["pinned@gfx942","plain@gfx942"]]' ] &&
    [ "$(cat "$work/err")" = "silk-occ report: warning: $pinned: an AMD code object, no figures for the NVIDIA targets" ] ||
    fail "a .hsaco on sm_90,gfx942 exited $rc: $got" "$work/err"
if command -v "${SILK_PTXAS:-ptxas}" >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ptxas ]; then
    ptx=$SILK_SRCDIR/tests/report/inputs/kernels.ptx
    "$SILK_OCC" report "$ptx" --arch sm_80,gfx942 --format json >"$work/out" 2>"$work/err"
    rc=$?
    got=$(jq -c '[[.reports[] | .kernel + "@" + .arch], (.reports | map(select(.vendor == "amd")) | length)]' "$work/out" 2>&1)
    want='[["free_saxpy@sm_80","bounded_saxpy@sm_80","fixed_saxpy@sm_80"],0]'
    warning="silk-occ report: warning: $ptx: NVIDIA code, no figures for the AMD targets (they take .silk and .hsaco files)"
    [ "$rc" = 0 ] && [ "$got" = "$want" ] && [ "$(cat "$work/err")" = "$warning" ] ||
        fail "a .ptx on sm_80,gfx942 exited $rc: $got" "$work/err"
    "$SILK_OCC" report "$ptx" --arch gfx942 >"$work/out" 2>&1
    rc=$?
    want="silk-occ report: error: $ptx: NVIDIA code, and --arch names no NVIDIA target (the AMD targets take .silk and .hsaco files)"
    [ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$want" ] || fail "a .ptx on gfx942 exited $rc" "$work/out"
else
    echo "note: no ptxas: the .ptx beside an AMD target is left out"
fi

# A code object given NVIDIA targets alone is named for what it is.
"$SILK_OCC" report "$SILK_SRCDIR/tests/data/amdgpu/pinned.gfx942.hsaco" --arch sm_90 >"$work/out" 2>&1
rc=$?
want="silk-occ report: error: $SILK_SRCDIR/tests/data/amdgpu/pinned.gfx942.hsaco: an AMD code object, and --arch names no AMD target (give its own, or no --arch)"
[ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$want" ] || fail "a .hsaco on sm_90 exited $rc" "$work/out"

exit $status
