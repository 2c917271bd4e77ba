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
# from the launch block.
"$SILK_OCC" report "$sgemm" --gpu mi300x,rx-7900-xtx >"$work/out" 2>&1 || fail "report --gpu mi300x,rx-7900-xtx exited $?" "$work/out"
cat >"$work/want" <<'WANT'
sgemm on gfx942: 16384 work items (the launch block's grid), 64 workgroups of 256
  product                     CUs    waves   full  last wave    idle  persistent
  mi300x                      304     0.03      0       2.6%   97.4%        2432

sgemm on gfx1100: 16384 work items (the launch block's grid), 64 workgroups of 256
  product                    WGPs    waves   full  last wave    idle  persistent
  rx-7900-xtx                  48     0.17      0      16.7%   83.3%         384
WANT
sed -n '/^sgemm on gfx942/,$p' "$work/out" >"$work/got"
cmp -s "$work/want" "$work/got" || { diff "$work/want" "$work/got" >"$work/diff"; fail "AMD tail text" "$work/diff"; }
grep -q '^AMD targets' "$work/out" && ! grep -q 'sm_90\|h100' "$work/out" ||
    fail "--gpu with AMD products only has an NVIDIA section" "$work/out"

# Mixed with an NVIDIA product: h100-sxm selects sm_90, mi300x gfx942.
"$SILK_OCC" report "$sgemm" --gpu h100-sxm,mi300x --format json >"$work/json" 2>"$work/err" ||
    fail "report --gpu h100-sxm,mi300x exited $?" "$work/err"
got=$(jq -c '[(.reports | map(.arch)), (.amd[] | [.arch, .work, .workgroups_per_cu,
        (.products[] | [.id, .cus, (.waves * 10000 | round), .full_waves,
                        (.last_wave_fill * 1000 | round), (.idle * 1000 | round), .persistent_grid])])]' \
        "$work/json" 2>&1)
want='[["sm_90"],["gfx942",16384,8,["mi300x",304,263,0,26,974,2432]]]'
[ "$got" = "$want" ] || { echo "FAIL: --gpu h100-sxm,mi300x JSON: $got (want $want)"; status=1; }

# --arch gfx942 with --work: every gfx942 product, in the table's order.
"$SILK_OCC" report "$sgemm" --arch gfx942 --work 1000000 --format json >"$work/json" 2>"$work/err" ||
    fail "report --arch gfx942 --work 1000000 exited $?" "$work/err"
got=$(jq -c '[.amd[] | .work, (.products[] | [.id, .cus, (.waves * 100 | round), .full_waves,
        (.last_wave_fill * 1000 | round), (.idle * 1000 | round), .persistent_grid])]' "$work/json" 2>&1)
want='[1000000,["mi300a",228,214,2,142,286,1824],["mi300x",304,161,1,606,197,2432],["mi325x",304,161,1,606,197,2432]]'
[ "$got" = "$want" ] || { echo "FAIL: --arch gfx942 --work 1000000 JSON: $got (want $want)"; status=1; }

# A 2-D --work is the NVIDIA side's: no AMD waves, not the launch's grid.
"$SILK_OCC" report "$sgemm" --gpu mi300x --work 64x64 --format json >"$work/json" 2>"$work/err" ||
    fail "report --gpu mi300x --work 64x64 exited $?" "$work/err"
got=$(jq -c '[.amd[] | .work, (.products[] | [.id, .waves, .persistent_grid])]' "$work/json" 2>&1)
want='[null,["mi300x",null,2432]]'
[ "$got" = "$want" ] || { echo "FAIL: --work 64x64 JSON: $got (want $want)"; status=1; }

# A wrong name in a mixed list is still the NVIDIA side's error.
"$SILK_OCC" report "$sgemm" --gpu mi300x,nosuch >"$work/out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "nosuch" "$work/out" || fail "--gpu mi300x,nosuch exited $rc" "$work/out"
exit $status
