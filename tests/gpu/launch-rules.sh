#!/bin/sh
# launch-rules.sh OUTDIR: on a machine with an NVIDIA GPU of compute
# capability 9.0 or newer, runs the host code `silk-occ report` prints for
# the kernels of tests/report/inputs/cluster.cu and launch_rules.cu
# (clusters compiled in and given by --cluster, 64 KiB of dynamic shared
# memory, dyn_smem_bytes) and compares what the device answers with what
# the report expects: every launch must succeed, every
# cudaOccupancyMaxActiveBlocksPerMultiprocessor must give the report's
# blocks, every cudaOccupancyMaxActiveClusters its clusters (equal where
# the report estimates from a public GPC count, at most its bound where
# not), on this machine's GPU (the report's default target).
# Results in OUTDIR/launch-rules.tsv.  Run by tests/gpu/verify.sh;
# SILK_OCC names the silk-occ to use.  Exit 77 without a GPU or nvcc.
set -u
out=${1:?usage: tests/gpu/launch-rules.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
occ=${SILK_OCC:-$src/src/silk-occ}
nvcc=${SILK_NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)
if [ -z "$cc" ] || [ ! -x "$nvcc" ] || ! command -v jq >/dev/null; then
    echo "SKIP: launch-rules.sh: no NVIDIA GPU (nvidia-smi), no nvcc ($nvcc) or no jq"
    exit 77
fi
arch=sm_$(echo "$cc" | tr -d .)
if [ "${cc%%.*}" -lt 9 ]; then
    echo "SKIP: launch-rules.sh: $arch has no thread-block clusters"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
harness=$work/harness.cu
cases=$work/cases
: >"$cases"

# One case: a report run; its launch and verification become a function
# that launches, synchronises and prints what the device said.
n=0
add_case() { # INPUT ARGS...
    input=$1
    shift
    n=$((n + 1))
    "$occ" report "$src/$input" --format json "$@" >"$work/$n.json" || return
    jq -r '.reports[] | select(.selected != null) | [.launch_name, (.host_code.cuda | @base64),
        (.verification | @base64)] | @tsv' "$work/$n.json" | while IFS="$(printf '\t')" read -r k launch verify; do
        echo "$n $k $*" >>"$cases"
        id=$(wc -l <"$cases")
        {
            printf 'static void case_%s(float *x, int n, size_t dyn_smem_bytes)\n{\n' "$id"
            echo "$launch" | base64 -d | sed 's/(\.\.\.)/(x, n)/; s/, \.\.\.);/, x, n);/'
            printf '\n    cudaError_t launched = cudaDeviceSynchronize();\n    {\n'
            echo "$verify" | base64 -d
            printf '\n    printf("%s\\t%%s\\t%%d\\t%%d\\n", cudaGetErrorString(launched), blocks, %s);\n' \
                "$id" "$(echo "$verify" | base64 -d | grep -q 'int clusters' && echo clusters || echo -1)"
            printf '    }\n}\n'
        } >>"$harness"
    done
}
printf '#include <cstdio>\n#include "%s"\n#include "%s"\n' \
    "$src/tests/report/inputs/cluster.cu" "$src/tests/report/inputs/launch_rules.cu" >"$harness"
add_case tests/report/inputs/cluster.cu --work 1000000 --kernel ring4
add_case tests/report/inputs/cluster.cu --work 4095x4095 --kernel tile2x2
add_case tests/report/inputs/cluster.cu --work 1000000 --kernel ranked --cluster 8
add_case tests/report/inputs/launch_rules.cu --work 1000000 --kernel plain --cluster 2
add_case tests/report/inputs/launch_rules.cu --work 1000000 --kernel plain --cluster 16
add_case tests/report/inputs/launch_rules.cu --work 1000000 --kernel staged --dyn-smem 64K
add_case tests/report/inputs/launch_rules.cu --work 1000000 --kernel staged --dyn-smem 64K --cluster 2
total=$(wc -l <"$cases")
{
    printf 'int main()\n{\n    float *x;\n    int n = 4095 * 4095;\n'
    printf '    if (cudaMalloc(&x, n * sizeof *x) != cudaSuccess) return 2;\n'
    i=0
    while [ $i -lt "$total" ]; do
        i=$((i + 1))
        printf '    case_%s(x, n, 4096);\n' $i
    done
    printf '    return 0;\n}\n'
} >>"$harness"
cp "$harness" "$out/launch-rules-harness.cu"
"$nvcc" -arch="$arch" -o "$work/harness" "$harness" 2>"$out/launch-rules-nvcc.txt" ||
    { echo "FAIL: launch-rules.sh: the report's host code does not compile (launch-rules-nvcc.txt)"; exit 1; }
"$work/harness" >"$work/got" || { echo "FAIL: launch-rules.sh: the harness exited $?"; exit 1; }

# Compare: the report's "// expect blocks == B" and "clusters == C" (or
# "<= C") with the device's answers.
status=0
printf 'case\tkernel\toptions\tlaunch\tblocks\twant\tclusters\twant\n' >"$out/launch-rules.tsv"
while IFS="$(printf '\t')" read -r id err blocks clusters; do
    set -- $(sed -n "${id}p" "$cases")
    json=$work/$1.json kernel=$2
    shift 2
    verify=$(jq -r --arg k "$kernel" '.reports[] | select(.launch_name == $k) | .verification' "$json")
    want_blocks=$(echo "$verify" | sed -n 's|^// expect blocks == \([0-9]*\).*|\1|p')
    want_clusters=$(echo "$verify" | sed -n 's|^// expect clusters \([=<]*\) \([0-9]*\).*|\1 \2|p')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$kernel" "$*" "$err" "$blocks" "$want_blocks" \
        "$clusters" "${want_clusters:-none}" >>"$out/launch-rules.tsv"
    verdict=ok
    [ "$err" = "no error" ] || verdict="the launch failed: $err"
    [ "$blocks" = "$want_blocks" ] || verdict="blocks $blocks, the report expects $want_blocks"
    case $want_clusters in
    "== "*) [ "$clusters" = "${want_clusters#== }" ] || verdict="clusters $clusters, the report estimates ${want_clusters#== }" ;;
    "<= "*) [ "$clusters" -le "${want_clusters#<= }" ] || verdict="clusters $clusters, above the report's bound ${want_clusters#<= }" ;;
    esac
    if [ "$verdict" != ok ]; then
        echo "FAIL: launch-rules.sh: $kernel $*: $verdict"
        status=1
    fi
done <"$work/got"
[ "$(wc -l <"$work/got")" = "$total" ] || { echo "FAIL: launch-rules.sh: $total cases, $(wc -l <"$work/got") answers"; status=1; }
[ $status = 0 ] && echo "PASS: launch-rules.sh: $total launches on $arch as the report prints them"
exit $status
