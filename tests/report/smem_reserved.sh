#!/bin/sh
# smem_reserved.sh: a kernel's shared memory from a cubin on sm_90 and newer
# (issue 24, item 11).  CUDA 13's nvcc -cubin for sm_90 and sm_120 sizes a
# kernel's .nv.shared.NAME window at ptxas -v's "bytes smem" + 1024: from
# sm_90 the assembler places the driver's per-CTA reservation
# (cudaDevAttrReservedSharedMemoryPerBlock, 1 KiB) inside the window (PTX
# ISA: %reserved_smem_offset_begin/end, %aggr_smem_size).  cuda_occupancy.h
# adds reservedSharedMemPerBlock to cudaFuncAttributes.sharedSizeBytes
# itself (staticSmemSize = sharedSizeBytes + reservedSharedMemPerBlock), so
# the figure it takes is ptxas's, and the reservation must count once.
#
# For tests/report/inputs/smem_bound.cu on sm_80, sm_90 and sm_120: the
# cubin of nvcc -cubin -arch=T (its window is ptxas + 1024 from sm_90,
# checked with readelf when there is one), and silk-occ report on the .cu
# and on the cubin: the same static shared memory, ptxas's, and the same
# rows, whose CTAs per SM are cudaOccMaxActiveBlocksPerMultiprocessor's
# (tests/cuda/occ_oracle) on ptxas's figures; tile_31k at 64 threads 5, 7
# and 3 CTAs (4, 6 and 2 if the reservation counted twice).
#
# Skipped (77) without nvcc or the oracle (built when configure finds
# cuda_occupancy.h), naming what is missing.  Run by make check, which sets
# SILK_OCC, SILK_SRCDIR and OCC_ORACLE.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
oracle=${OCC_ORACLE:-$PWD/tests/cuda/occ_oracle}
[ -x "$nvcc" ] || { echo "SKIP: smem_reserved.sh: no nvcc ($nvcc; SILK_NVCC names it)"; exit 77; }
[ -x "$oracle" ] || {
    echo "SKIP: smem_reserved.sh: no oracle program $oracle (built by make check when configure finds cuda_occupancy.h)"
    exit 77
}
command -v jq >/dev/null 2>&1 || { echo "SKIP: smem_reserved.sh: no jq"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: smem_reserved.sh: $*"; failures=$((failures + 1)); }
cu=$SILK_SRCDIR/tests/report/inputs/smem_bound.cu
readelf=$(command -v readelf || true)
[ -n "$readelf" ] || echo "note: smem_reserved.sh: no readelf: the cubin's window size is not checked"

# rows JSON: "SYMBOL REGS SMEM BARRIERS THREADS CTAS" per row, sorted.
rows() {
    jq -r '.reports[] | . as $r | .occupancy_table[] |
           "\($r.symbol) \($r.resources.regs_per_thread) \($r.resources.static_smem) \($r.resources.barriers) \(.threads) \(.active_blocks_per_sm)"' "$1" |
        sort
}

for t in sm_80 sm_90 sm_120; do
    "$nvcc" -cubin -arch="$t" -Xptxas -v -o "$work/$t.cubin" "$cu" 2>"$work/$t.v" ||
        { fail "$t: nvcc -cubin: $(cat "$work/$t.v")"; continue; }
    # ptxas -v: "Compiling entry function 'SYM'" then "... N bytes smem"
    sed -n "s/.*Compiling entry function '\\([^']*\\)'.*/\\1/p" "$work/$t.v" >"$work/$t.syms"
    sed -n 's/.* \([0-9][0-9]*\) bytes smem.*/\1/p' "$work/$t.v" >"$work/$t.smem"
    paste -d' ' "$work/$t.syms" "$work/$t.smem" | sort >"$work/$t.ptxas"
    [ "$(wc -l <"$work/$t.ptxas")" = 2 ] || fail "$t: ptxas -v named not two kernels: $(cat "$work/$t.v")"
    while read -r sym smem; do
        if [ -n "$readelf" ]; then
            # the section's Size column, hex: name, type, address, offset, size
            hex=$("$readelf" -SW "$work/$t.cubin" 2>/dev/null |
                awk -v s=".nv.shared.$sym" '{ for (i = 1; i < NF; i++) if ($i == s) print $(i + 4) }')
            window=$( [ -n "$hex" ] && echo $((0x$hex)) )
            case $t in sm_80) want=$smem ;; *) want=$((smem + 1024)) ;; esac
            [ "$window" = "$want" ] ||
                fail "$t: $sym: the cubin's .nv.shared window is '$window' bytes, ptxas $smem: want $want"
        fi
    done <"$work/$t.ptxas"
    for form in cu cubin; do
        case $form in cu) input=$cu ;; *) input=$work/$t.cubin ;; esac
        "$SILK_OCC" report "$input" --arch "$t" --format json >"$work/$t.$form.json" 2>"$work/err" ||
            { fail "$t: report of the .$form: $(cat "$work/err")"; continue; }
        rows "$work/$t.$form.json" >"$work/$t.$form.rows"
        # the static shared memory is ptxas's, in both forms
        jq -r '.reports[] | "\(.symbol) \(.resources.static_smem)"' "$work/$t.$form.json" | sort |
            cmp -s - "$work/$t.ptxas" ||
            fail "$t: the .$form's static shared memory is not ptxas's: $(jq -c '[.reports[] | [.symbol, .resources.static_smem]]' "$work/$t.$form.json") vs $(tr '\n' ';' <"$work/$t.ptxas")"
    done
    cmp -s "$work/$t.cu.rows" "$work/$t.cubin.rows" ||
        fail "$t: the .cu and the cubin give different rows: $(diff "$work/$t.cu.rows" "$work/$t.cubin.rows" | tr '\n' ';')"
    # every row's CTAs per SM is the header's on ptxas's figures
    awk -v t="$t" '{ print t, $2, $3, $5, 0, $4, 0 }' "$work/$t.cu.rows" | "$oracle" >"$work/$t.oracle" ||
        { fail "$t: the oracle failed"; continue; }
    awk '{ print $6 }' "$work/$t.cu.rows" | cmp -s - "$work/$t.oracle" ||
        fail "$t: CTAs per SM are not cuda_occupancy.h's: ours $(awk '{ print $1 "@" $5 "=" $6 }' "$work/$t.cu.rows" | tr '\n' ' ') header $(tr '\n' ' ' <"$work/$t.oracle")"
done

# tile_31k at 64 threads, exactly: the reservation once
for pair in sm_80:5 sm_90:7 sm_120:3; do
    t=${pair%:*} want=${pair#*:}
    got=$(awk '$1 == "_Z8tile_31kPf" && $5 == 64 { print $6 }' "$work/$t.cubin.rows" 2>/dev/null)
    [ "$got" = "$want" ] || fail "$t: tile_31k's cubin at 64 threads: '$got' CTAs per SM, want $want"
done

[ $failures -eq 0 ] || exit 1
echo "PASS: smem_reserved.sh: sm_80 sm_90 sm_120, .cu and nvcc -cubin alike, the reservation counted once"
