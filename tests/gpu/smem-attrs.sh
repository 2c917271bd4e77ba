#!/bin/sh
# smem-attrs.sh: settle on a device what the CUDA runtime takes as a
# kernel's shared memory from sm_90 on (issue 24, item 11).
#
#   tests/gpu/smem-attrs.sh BUILDDIR [OUTDIR]
#
#   BUILDDIR  the configured build tree: BUILDDIR/src/silk-occ is used
#   OUTDIR    where the programs, the cubin and the reports go (default: a
#             temporary directory, removed at the end)
#
# CUDA 13's cubins for sm_90 and newer size a kernel's shared window at
# ptxas's figure + 1 KiB (the driver's per-CTA reservation inside it);
# silk-occ takes ptxas's figure from both the .cu and the .cubin and adds
# the reservation once, as cuda_occupancy.h does (compiler/ptx/cubin.c,
# tests/report/smem_reserved.sh).  Here the device answers: for each
# smem-bound kernel of tests/report/inputs/smem_bound.cu, built for this
# device's sm_XY, cudaFuncAttributes.sharedSizeBytes (printed beside
# ptxas's figure and the window: which of the two the driver reports) and
# cudaOccupancyMaxActiveBlocksPerMultiprocessor at 64 to 1024 threads,
# which must equal silk-occ's CTAs per SM for the .cu and for the cubin.
#
# Exit 0 when every CTA count agrees and sharedSizeBytes is one of the two
# figures, 1 otherwise, 77 (with the reason) without a GPU, a driver or
# nvcc.  Run by tests/gpu/verify.sh; not part of make check.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 BUILDDIR [OUTDIR]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
occ=$1/src/silk-occ
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${SILK_NVCC:-$cuda/bin/nvcc}
[ -x "$occ" ] || { echo "smem-attrs: no $occ (build first: make)" >&2; exit 2; }
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi >/dev/null 2>&1; then
    echo "SKIP: smem-attrs.sh: no NVIDIA GPU or driver (nvidia-smi absent or failing)"
    exit 77
fi
[ -x "$nvcc" ] || { echo "SKIP: smem-attrs.sh: no nvcc ($nvcc; CUDA_HOME or SILK_NVCC names it)"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "SKIP: smem-attrs.sh: no jq"; exit 77; }
if [ $# -eq 2 ]; then
    out=$2
    mkdir -p "$out" || exit 2
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
case $cap in
    [0-9]*) arch=sm_$cap ;;
    *) echo "SKIP: smem-attrs.sh: nvidia-smi gives no compute capability ('$cap')"; exit 77 ;;
esac
cu=$top/tests/report/inputs/smem_bound.cu
failures=0
fail() { echo "FAIL: smem-attrs.sh: $*"; failures=$((failures + 1)); }

"$nvcc" -arch="$arch" -o "$out/smem_attrs" "$here/smem_attrs.cu" 2>"$out/nvcc.txt" ||
    { echo "FAIL: smem-attrs.sh: nvcc of smem_attrs.cu for $arch: $(cat "$out/nvcc.txt")"; exit 1; }
"$nvcc" -cubin -arch="$arch" -Xptxas -v -o "$out/smem_bound.cubin" "$cu" 2>"$out/ptxas-v.txt" ||
    { echo "FAIL: smem-attrs.sh: nvcc -cubin for $arch: $(cat "$out/ptxas-v.txt")"; exit 1; }
"$out/smem_attrs" >"$out/device.txt" 2>"$out/device.err"
rc=$?
if [ $rc -ne 0 ]; then
    echo "SKIP: smem-attrs.sh: the runtime failed ($rc): $(cat "$out/device.err")"
    exit 77
fi
reserved=$(awk '$1 == "device" { print $4 }' "$out/device.txt")
echo "gpu: $(head -1 "$out/device.txt")"

for form in cu cubin; do
    case $form in cu) input=$cu ;; *) input=$out/smem_bound.cubin ;; esac
    "$occ" report "$input" --arch "$arch" --format json >"$out/$form.json" 2>"$out/$form.err" ||
        { fail "silk-occ report of the .$form: $(cat "$out/$form.err")"; continue; }
    # "ctas SYMBOL THREADS N", as smem_attrs prints them
    jq -r '.reports[] | . as $r | .occupancy_table[] | "ctas \($r.symbol) \(.threads) \(.active_blocks_per_sm)"' \
        "$out/$form.json" | sort >"$out/$form.ctas"
done
grep '^ctas ' "$out/device.txt" | sort >"$out/device.ctas"

# sharedSizeBytes beside ptxas's figure (ours) and the window (+ reserved)
while read -r _ sym bytes regs; do
    ours=$(jq -r --arg s "$sym" '.reports[] | select(.symbol == $s) | .resources.static_smem' "$out/cu.json")
    ours_regs=$(jq -r --arg s "$sym" '.reports[] | select(.symbol == $s) | .resources.regs_per_thread' "$out/cu.json")
    if [ "$bytes" = "$ours" ]; then
        what="ptxas's figure: the reservation is not in it"
    elif [ -n "$ours" ] && [ "$bytes" = $((ours + reserved)) ]; then
        what="the cubin's window: ptxas's figure + the $reserved-byte reservation"
    else
        what="neither ptxas's figure nor the window"
        fail "$sym: sharedSizeBytes $bytes, ours $ours, reserved $reserved"
    fi
    echo "$arch $sym: sharedSizeBytes $bytes, silk-occ $ours ($what); numRegs $regs, silk-occ $ours_regs"
done <<EOF_ATTRS
$(grep '^attr ' "$out/device.txt")
EOF_ATTRS

for form in cu cubin; do
    if cmp -s "$out/device.ctas" "$out/$form.ctas"; then
        echo "$arch .$form: CTAs per SM agree with cudaOccupancyMaxActiveBlocksPerMultiprocessor ($(wc -l <"$out/device.ctas") rows)"
    else
        fail "$arch .$form: CTAs per SM differ from the runtime's: $(diff "$out/device.ctas" "$out/$form.ctas" | grep '^[<>]' | tr '\n' ';')"
    fi
done
[ $failures -eq 0 ] || exit 1
echo "PASS: smem-attrs.sh on $arch"
