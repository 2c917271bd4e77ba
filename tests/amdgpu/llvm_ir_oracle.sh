#!/bin/sh
# llvm_ir_oracle.sh: the AMD occupancy engine agrees with LLVM (issue 15,
# item 4, second half).  For every target of arch-tables/amd-targets.csv it
# writes hand-made LLVM IR kernels from one template, each pinning its
# resources: inline asm that clobbers v[N-1], a[M-1] and s[K-1] (so the
# kernel uses N VGPRs, M AGPRs, K SGPRs and the few LLVM adds), an LDS
# array of L bytes, "amdgpu-flat-work-group-size"="T,T" and sometimes
# "amdgpu-waves-per-eu".  N, M, K, L, T and the attribute are drawn from a
# fixed-seed generator (the same configurations every run).  llc-19
# compiles each with -pass-remarks-analysis=kernel-resource-usage; the
# remark's VGPRs, AGPRs, SGPRs and LDS go to `silk-occ calc`, whose waves
# per SIMD (its JSON's waves_per_simd) must be the remark's "Occupancy
# [waves/SIMD]", on every one.
#
# A row named GFX+wave64, GFX+cumode or GFX+wave64+cumode is compiled for
# -mcpu=GFX with -mattr=+wavefrontsize64 and/or +cumode.
#
# Needs llc-19 ($SILK_LLC overrides); exits 77 naming it when absent.
# Run by make check, which sets SILK_OCC and SILK_ARCH_TABLES.
# CASES (default 40) is the number of kernels per target; ONLY (a
# grep -E pattern on the row's name) picks some rows.
set -u
: "${SILK_OCC:?}" "${SILK_ARCH_TABLES:?}"
LLC=${SILK_LLC:-llc-19}
if ! command -v "$LLC" >/dev/null 2>&1; then
    echo "SKIP: $LLC not found (Debian package llvm-19)"
    exit 77
fi
CASES=${CASES:-40}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
TARGETS=$(sed -e '/^#/d' -e '/^gfx,/d' -e 's/,.*//' "$SILK_ARCH_TABLES/amd-targets.csv" |
    grep -E -- "${ONLY:-.}")

# llc_target ROW: llc's -mcpu and -mattr options for a row.
llc_target() {
    echo "-mcpu=${1%%+*}"
    case $1 in
    *+*) echo "-mattr=$(echo "${1#*+}" | sed -e 's/wave64/wavefrontsize64/' -e 's/^/+/' -e 's/+/,+/g' -e 's/^,//')" ;;
    esac
}

# configs GFX: one line "threads vgprs agprs sgprs lds wpe" per case, from a
# 31-bit linear congruential generator seeded by the target's name, so
# that every run (and every awk) draws the same; then fixed edge cases.
configs() {
    grep "^$1," "$SILK_ARCH_TABLES/amd-targets.csv" | awk -F, -v n="$CASES" '
    function rnd(k) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % k }
    {
        seed = 15; for (i = 1; i <= length($1); i++) seed = (seed * 31 + index("0123456789abcdefx", substr($1, i, 1))) % 2147483648
        wave = $4; maxwaves = $8; agprs = $14 != "none"; sgpr_max = $16 != "" ? 90 : 100
        for (c = 0; c < n; c++) {
            threads = rnd(4) == 0 ? 1 + rnd(1024) : wave * (1 + rnd(1024 / wave))
            vgprs = rnd(3) == 0 ? 1 + rnd(40) : 1 + rnd(256)
            a = agprs && rnd(2) ? 1 + rnd(256) : 0
            sgprs = 1 + rnd(sgpr_max)
            lds = rnd(3) == 0 ? 0 : (rnd(2) ? 1 + rnd(65536) : 256 * (1 + rnd(64)))
            wpe = "-"
            r = rnd(4)
            if (r == 0) wpe = (1 + rnd(maxwaves))
            if (r == 1) { lo = 1 + rnd(maxwaves); wpe = lo "," (lo + rnd(maxwaves - lo + 1)) }
            print threads, vgprs, a, sgprs, lds, wpe
        }
        # Then the edges, where one register or byte more costs a wave:
        # VGPRs at and past the granules every file divides at, AGPRs that
        # the alignment after the VGPRs pushes over one, LDS at and past
        # a whole number of workgroups per unit.
        split("24 25 32 33 48 49 64 65 72 73 96 97 128 129 168 169 256", edge, " ")
        for (e in edge) print 256, edge[e], 0, 16, 0, "-"
        if (agprs) {
            split("62:1 61:3 57:8 63:2 125:3 128:128 256:256 1:256", pair, " ")
            for (e in pair) { split(pair[e], va, ":"); print 64, va[1], va[2], 16, 0, "-" }
        }
        # amdgpu-waves-per-eu that LLVM ignores: min above max, max above the slots.
        print 256, 100, 0, 16, 0, "5,1"
        print 256, 100, 0, 16, 0, "2," (maxwaves + 1)
        split("16384 16385 21845 21846 32768 32769 65536", edge, " ")
        for (e in edge) print 64 * (1 + e % 4), 16, 0, 16, edge[e], "-"
    }'
}

# kernel I T V A S L WPE: the template, kernel kI with its own LDS array
# and attribute group, so that every case of a target shares one module.
kernel() {
    clobbers="~{v$(($3 - 1))},~{s$(($5 - 1))}"
    [ "$4" -gt 0 ] && clobbers="$clobbers,~{a$(($4 - 1))}"
    attrs="\"amdgpu-flat-work-group-size\"=\"$2,$2\""
    [ "$7" != - ] && attrs="$attrs \"amdgpu-waves-per-eu\"=\"$7\""
    if [ "$6" -gt 0 ]; then
        echo "@lds$1 = internal addrspace(3) global [$6 x i8] undef, align 4"
    fi
    echo "define amdgpu_kernel void @k$1() #$1 {"
    echo "  call void asm sideeffect \"; pin\", \"$clobbers\"()"
    if [ "$6" -gt 0 ]; then
        echo "  store volatile i8 1, ptr addrspace(3) @lds$1"
    fi
    echo '  ret void'
    echo '}'
    echo "attributes #$1 = { $attrs }"
}

# remarks FILE: "I VGPRs AGPRs SGPRs LDS occupancy" per kernel kI of llc's
# remarks (each key whole: "SGPRs" is not "SGPRs Spill").
remarks() {
    awk '
        function flush() {
            if (k != "") print k, f["VGPRs"], f["AGPRs"], f["SGPRs"], f["LDS Size [bytes/block]"], f["Occupancy [waves/SIMD]"]
        }
        /remark: .*Function Name: k[0-9]+$/ { flush(); k = substr($NF, 2); split("", f); next }
        /remark: / {
            line = $0; sub(/^remark: [^ ]* +/, "", line)
            key = line; sub(/: [^:]*$/, "", key)
            f[key] = $NF
        }
        END { flush() }' "$1"
}

# One module and one llc run per target (a process per kernel was most of
# make check's time); each kernel is still compiled and measured alone by
# llc, its remark block named by its function.
fail=0 compared=0
for t in $TARGETS; do
    configs "$t" >"$work/configs"
    {
        echo 'target triple = "amdgcn-amd-amdhsa"'
        i=0
        while read -r threads v a s lds wpe; do
            i=$((i + 1))
            kernel "$i" "$threads" "$v" "$a" "$s" "$lds" "$wpe"
        done <"$work/configs"
    } >"$work/k.ll"
    # shellcheck disable=SC2046 # one or two options, no spaces in them
    if ! "$LLC" -mtriple=amdgcn-amd-amdhsa $(llc_target "$t") -filetype=null \
        -pass-remarks-analysis=kernel-resource-usage "$work/k.ll" 2>"$work/remarks"; then
        echo "FAIL: $t: llc rejected the kernels:"; grep -v '^remark' "$work/remarks" | head -n 5
        fail=1; continue
    fi
    remarks "$work/remarks" | sort -n >"$work/figures"
    cases=$(wc -l <"$work/configs")
    if [ "$(wc -l <"$work/figures")" != "$cases" ]; then
        echo "FAIL: $t: llc remarked on $(wc -l <"$work/figures") of $cases kernels"; fail=1; continue
    fi
    paste -d ' ' "$work/configs" "$work/figures" >"$work/joined"
    while read -r threads v a s lds wpe i rv ra rs rl occ; do
        set -- --arch "$t" --threads "$threads" --vgprs "$rv" --sgprs "$rs" --lds "$rl"
        [ -n "$ra" ] && [ "$ra" -gt 0 ] && set -- "$@" --agprs "$ra"
        [ "$wpe" != - ] && set -- "$@" --waves-per-eu "$wpe"
        ours=$("$SILK_OCC" calc "$@" --format json 2>&1 |
            sed -n 's/^	"waves_per_simd":	\([0-9]*\),$/\1/p')
        compared=$((compared + 1))
        if [ "$ours" != "$occ" ]; then
            echo "FAIL: $t case $i: llc-19 says $occ waves/SIMD, silk-occ calc $* says '${ours:-error}'"
            "$SILK_OCC" calc "$@" 2>&1 | sed -n '1,12p' | sed 's/^/    /'
            fail=1
        fi
    done <"$work/joined"
done
echo "$compared kernels on $(echo $TARGETS | wc -w) targets compared with $LLC"
[ "$compared" -gt 0 ] || fail=1
exit $fail
