#!/bin/sh
# amd_arch_table.sh: --arch-table files of AMD rows (issue 23 item 3).  A
# target file adds gfx942x, gfx942 with 32 KiB of LDS per CU, and a product
# file adds mi300y, a 200-CU gfx942; calc, arch show and report use them,
# with exact output.  The same fault in an AMD and an NVIDIA table gives
# the same message, and a file that is no table is an error naming it.
# The report part needs llc-19 and ld.lld-19; run by make check, which sets
# SILK_OCC and SILK_SRCDIR.
#
# The figures by hand: 256 work-items = 4 waves of 64; 20000 bytes of LDS
# of the 32768 per CU fit one workgroup (4 waves over 4 SIMDs: 1 wave per
# SIMD); 2 workgroups need 16384 each, 20000 - 16384 = 3616 B = 3.53 KiB to
# cut.  sgemm on gfx942 holds 8 workgroups per CU (amd_report.sh): on 200
# CUs a wave is 1600 workgroups, 64 / 1600 = 0.04 waves, idle 96.0%.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
SILK_NO_DEVICE=1; export SILK_NO_DEVICE
status=0
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# expect NAME WANT_STATUS WANT_TEXT -- ARGS: stdout+stderr and status.
expect() {
    name=$1 want_status=$2 want=$3
    shift 4
    "$SILK_OCC" "$@" >"$work/out" 2>&1
    got_status=$?
    printf '%s\n' "$want" >"$work/want"
    if [ "$got_status" != "$want_status" ] || ! cmp -s "$work/want" "$work/out"; then
        echo "FAIL: $name: silk-occ $* exited $got_status (want $want_status):"
        diff "$work/want" "$work/out" | sed 's/^/    /'
        status=1
    fi
}

targets=$work/targets.csv products=$work/products.csv
{
    printf '# gfx942 with half its LDS\n'
    printf 'gfx,family,aliases,wave_size,occupancy_unit,cus_per_unit,simds_per_unit,'
    printf 'max_waves_per_simd,max_workgroup_size,max_workgroup_barriers,vgprs_per_simd,'
    printf 'vgpr_alloc_granule,addressable_vgprs,agpr_file,agpr_align,sgpr_waves,sgprs_per_simd,'
    printf 'sgpr_alloc_granule,addressable_sgprs,trap_sgprs,lds_per_unit,lds_per_workgroup\n'
    printf 'gfx942x,CDNA3,,64,CU,1,4,8,1024,16,512,8,512,unified,4,80:10;88:9;100:8;*:7,'
    printf '800,16,102,16,32768,32768\n'
} >"$targets"
printf 'id,name,aliases,gfx,compute_units,memory_gib\nmi300y,AMD Instinct MI300Y,,gfx942,200,96\n' \
    >"$products"

expect "calc on a target from --arch-table" 0 "gfx942x (CDNA3, wave64)
kernel: 256 work-items per workgroup (4 waves), 128 VGPRs + 0 AGPRs, 0 SGPRs, 19.53 KiB LDS

  limiter                           waves/SIMD
  wave slots of a SIMD                       8
  VGPRs                                      4
  SGPRs                                     10
  LDS                                        1  <- limits
  workgroup slots                            8
  the amdgpu-waves-per-eu attribute          -

  1 workgroup per CU, 1 of 8 waves per SIMD: 12.5% theoretical occupancy
  allocated per wave: 128 VGPRs and AGPRs per lane (in units of 8)

Limited by: LDS.
Next step: cut 3.53 KiB of LDS for 2 waves per SIMD.
Slack: 384 more VGPRs, 12.47 KiB more LDS, before losing a wave." -- \
    calc --arch gfx942x --arch-table "$targets" --vgprs 128 --threads 256 --lds 20000

expect "without the file, gfx942x is no AMD target" 2 "silk-occ calc: error: --vgprs: is for AMD \
targets (gfx90a, gfx942, gfx1100, gfx1201, ...); gfx942x takes --regs and --smem" -- \
    calc --arch gfx942x --vgprs 128 --threads 256

# A product of the new target, from a second file: a file may name what an
# earlier one added, not what a later one will.  3907 workgroups of 256 at
# 1 per CU on 200 CUs: 19.54 waves, the last 107 / 200 = 53.5% full, and 93 of
# 20 x 200 slots idle (2.3%).
printf 'id,name,aliases,gfx,compute_units,memory_gib\nmi300z,AMD Instinct MI300Z,,gfx942x,200,96\n' \
    >"$work/mi300z.csv"
expect "calc --gpu on a product of the new target" 0 "gfx942x (CDNA3, wave64), AMD Instinct MI300Z, 200 CUs
kernel: 256 work-items per workgroup (4 waves), 128 VGPRs + 0 AGPRs, 0 SGPRs, 19.53 KiB LDS

  limiter                           waves/SIMD
  wave slots of a SIMD                       8
  VGPRs                                      4
  SGPRs                                     10
  LDS                                        1  <- limits
  workgroup slots                            8
  the amdgpu-waves-per-eu attribute          -

  1 workgroup per CU, 1 of 8 waves per SIMD: 12.5% theoretical occupancy
  allocated per wave: 128 VGPRs and AGPRs per lane (in units of 8)

Limited by: LDS.
Next step: cut 3.53 KiB of LDS for 2 waves per SIMD.
Slack: 384 more VGPRs, 12.47 KiB more LDS, before losing a wave.

Work of 1000000 items: 3907 workgroups of 256 work-items (the last has 64).
On 200 CUs at 1 workgroup each, a wave is 200 workgroups: 19.54 waves, 19 full, the last \
53.5% full; 2.3% of workgroup slots idle.
Persistent grid: 200 workgroups (200 CUs x 1)." -- \
    calc --gpu mi300z --arch-table "$targets" --arch-table "$work/mi300z.csv" --vgprs 128 --threads 256 \
    --lds 20000 --work 1000000
expect "a product before its target's file" 2 "silk-occ calc: error: --arch-table: $work/mi300z.csv:2: \
field 'gfx': 'gfx942x' is not in the AMD target table" -- \
    calc --gpu mi300z --arch-table "$work/mi300z.csv" --arch-table "$targets" --vgprs 128 --threads 256

# A malformed table: the same fault, the same words, whichever vendor's.
calc="silk-occ calc: error: --arch-table: $work/bad.csv"
arch="silk-occ arch: error: --arch-table: $work/bad.csv"
open="field 'family': malformed CSV: a quoted field that never closes"
printf 'gfx,family\ngfx942,"CDNA3\n' >"$work/bad.csv"
expect "an AMD table's open quote" 2 \
    "$calc:2: $open" -- \
    calc --arch gfx942 --arch-table "$work/bad.csv" --vgprs 8 --threads 64
printf 'cc,family\n9.0,"Hopper\n' >"$work/bad.csv"
expect "an NVIDIA table's open quote" 2 \
    "$calc:2: $open" -- \
    calc --arch gfx942 --arch-table "$work/bad.csv" --vgprs 8 --threads 64
printf 'gfx,wave_size\ngfx942,64,1\n' >"$work/bad.csv"
expect "an AMD row's field count" 2 \
    "$arch:2: field 'wave_size': the row has 3 fields, the header 2" -- \
    arch show gfx942 --arch-table "$work/bad.csv"
printf 'colour\nred\n' >"$work/bad.csv"
expect "a file that is no table" 2 \
    "$arch:1: the header names none of the key columns 'id', 'cc', 'gfx': not a table (see silk-arch-tables(5))" -- \
    arch list --arch-table "$work/bad.csv"

llc=${SILK_LLC:-llc-19}
if command -v "$llc" >/dev/null 2>&1 && command -v ld.lld-19 >/dev/null 2>&1; then
    # The tail and the persistent grid on mi300y, in the report's sections.
    "$SILK_OCC" report --gpu mi300y --arch-table "$products" "$SILK_SRCDIR/examples/sgemm.silk" \
        >"$work/out" 2>&1
    got_status=$?
    grep -e '^sgemm (' -e '^     mi300y ' -e '^  Persistent' "$work/out" |
        sed "s|$SILK_SRCDIR/||" >"$work/got"
    cat >"$work/want" <<'WANT'
sgemm (examples/sgemm.silk) on AMD Instinct MI300Y (CDNA3, wave64, gfx942, 200 CUs)
     mi300y                     200     0.04      0       4.0%   96.0%
  Persistent grid (CUs x resident workgroups): mi300a 1824, mi300x 2432, mi325x 2432, mi300y 1600
WANT
    if [ "$got_status" != 0 ] || ! cmp -s "$work/want" "$work/got"; then
        echo "FAIL: report --gpu on a product from --arch-table exited $got_status:"
        diff "$work/want" "$work/got" | sed 's/^/    /'
        status=1
    fi
else
    echo "note: $llc or ld.lld-19 missing: report --gpu mi300y not run"
fi
exit $status
