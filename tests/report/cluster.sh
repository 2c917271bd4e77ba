#!/bin/sh
# cluster.sh: launch rules beyond the block size, on CUDA files written
# for the test (tests/report/inputs/cluster.cu and launch_rules.cu):
# thread-block clusters (a kernel's __cluster_dims__ and --cluster: grids
# of whole clusters, the portable 8 and non-portable 16 of sm_90, the 8 of
# sm_120, none before 9.0, .maxclusterrank, a 2-D cluster on a 1-D grid,
# the same read from a cubin's attributes,
# resident clusters from h100-sxm's 8 GPCs against `silk-occ calc
# --cluster` and against the GPC arithmetic done here), dynamic shared
# memory above 48 KiB (cudaFuncSetAttribute in the launch and the
# verification; above the opt-in limit, no launch), and extern __shared__
# with no --dyn-smem (dyn_smem_bytes, never 0).  Every printed launch and
# verification snippet, on sm_80, sm_90 and sm_120, is then compiled by
# nvcc against the kernels it names.  Skipped (exit 77) without nvcc.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
clusters=tests/report/inputs/cluster.cu
rules=tests/report/inputs/launch_rules.cu

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ] || ! command -v jq >/dev/null; then
    echo "SKIP: cluster.sh: no nvcc ($nvcc) or no jq: the CUDA cases did not run"
    exit 77
fi

# report NAME ARGS...: the JSON report into $work/NAME.json, schema-checked.
report() {
    name=$1
    shift
    "$SILK_OCC" report "$@" --format json >"$work/$name.json" 2>"$work/$name.err" ||
        fail "report $*: exit $? ($(cat "$work/$name.err"))"
    "$CHECK_SCHEMA" "$work/$name.json" >/dev/null ||
        fail "report $*: not valid against docs/report-schema.json"
}
# is NAME FILTER WANT: jq FILTER of $work/NAME.json prints WANT.
is() {
    got=$(jq -r "$2" "$work/$1.json")
    [ "$got" = "$3" ] || fail "$1: $2
  got:  $got
  want: $3"
}
# has NAME FILTER TEXT: the string jq FILTER gives contains TEXT.
has() {
    case $(jq -r "$2" "$work/$1.json") in
    *"$3"*) ;;
    *) fail "$1: $2 lacks: $3" ;;
    esac
}

# ---- a compiled-in cluster --------------------------------------------------
# 1,000,000 items in CTAs of 256: 3907 CTAs, 3908 in whole clusters of 4.
report ring "$clusters" --arch sm_90 --work 1000000 --kernel ring4
r='.reports[0]'
is ring "$r.cluster | [.size, .from, .padding_ctas, .limit, .portable_limit, .problem] | @tsv" \
    "$(printf '4\tcluster_dims\t1\t16\t8\t')"
is ring "$r.tail.ctas" 3908
is ring "$r.host_code.cuda" \
    "ring4<<<3908, 256, 0>>>(...);  // whole clusters of 4 CTAs (the kernel's __cluster_dims__(4, 1, 1))"
is ring "$r.grid_validity.valid" true
# Resident clusters on h100-sxm: 132 SMs, 66 TPCs in 8 GPCs, spread as
# evenly as they go: 2 GPCs of 9 TPCs (18 SMs), 6 of 8 (16 SMs); each GPC
# holds floor(SMs x CTAs per SM / 4) clusters.
b=$(jq -r "$r.selected.active_blocks_per_sm" "$work/ring.json")
regs=$(jq -r "$r.resources.regs_per_thread" "$work/ring.json")
want=$((2 * (18 * b / 4) + 6 * (16 * b / 4)))
is ring "$r.persistent_grid[] | select(.gpu == \"h100-sxm\") | [.clusters, .grid] | @tsv" \
    "$(printf '%s\t%s' "$want" $((want * 4)))"
is ring "$r.persistent_grid[] | select(.gpu == \"h100-pcie\") | .clusters" null
has ring "$r.verification" "cudaOccupancyMaxActiveClusters(&clusters, ring4, &occupancy_config);
// expect clusters == $want on h100-sxm (an estimate from its 8 GPCs)"
calc=$("$SILK_OCC" calc --gpu h100-sxm --threads 256 --regs "$regs" --cluster 4 --format json)
[ "$(echo "$calc" | jq -r .cluster.resident_clusters)" = "$want" ] ||
    fail "calc --cluster 4 on h100-sxm: $(echo "$calc" | jq -c .cluster), want $want clusters"
"$SILK_OCC" report "$clusters" --arch sm_90 --work 1000000 --kernel ring4 >"$work/ring.txt"
grep -qxF "     cluster of 4 CTAs (the kernel's __cluster_dims__(4, 1, 1)): within the portable limit of 8 on sm_90; the grid is whole clusters (1 CTA added); resident clusters: $want on h100-sxm (an estimate: a cluster runs in one GPC, and the GPC layout is public for these only)" \
    "$work/ring.txt" || fail "ring4: the text's cluster line"
# sm_120: no public GPC layout, an upper bound: 170 SMs x 6 CTAs / 4.
report ring120 "$clusters" --arch sm_120 --work 1000000 --kernel ring4
has ring120 "$r.verification" "// expect clusters <= 255 on rtx-5090 (its GPC layout is not public)"

# The same kernels as a cubin: its attributes (EIATTR_CTA_PER_CLUSTER,
# EIATTR_MAX_CLUSTER_RANK) give the same cluster and rank.
"$nvcc" -cubin -arch=sm_90 -o "$work/cluster.cubin" "$clusters" || fail "nvcc -cubin $clusters"
report cubin "$work/cluster.cubin" --work 1000000
is cubin '[.reports[] | [.launch_name, (.cluster.dims // [] | map(tostring) | join("x"))] | @tsv]
    | sort | .[]' "$(printf 'ranked\t\nring4\t4x1x1\ntile2x2\t2x2x1')"
report cubin16 "$work/cluster.cubin" --work 1000000 --kernel ranked --cluster 16
is cubin16 "$r.cluster.problem" above_max_cluster_rank

# A 2 x 2 cluster cannot ride a 1-D grid; a grid of rows holds it, each
# dimension a whole number of clusters.
report tile1d "$clusters" --arch sm_90 --work 1000000 --kernel tile2x2
is tile1d "$r.cluster.problem + \" \" + ($r.grid_validity.valid | tostring)" "shape false"
report tile2d "$clusters" --arch sm_90 --work 4095x4095 --kernel tile2x2
is tile2d "$r.tail.grid | map(. % 2) | @tsv" "$(printf '0\t0')"
is tile2d "$r.grid_validity.valid" true

# .maxclusterrank 8: a 16-CTA cluster is above the kernel's own bound.
report ranked "$clusters" --arch sm_90 --work 100000 --kernel ranked --cluster 16
is ranked "$r.cluster.problem" above_max_cluster_rank

# ---- a launch-time cluster (--cluster) ----------------------------------------
report plain2 "$rules" --arch sm_90 --work 100000 --kernel plain --cluster 2
has plain2 "$r.host_code.cuda" "config_cluster.id = cudaLaunchAttributeClusterDimension;
config_cluster.val.clusterDim.x = 2;"
has plain2 "$r.host_code.cuda" "cudaLaunchKernelEx(&config, plain, ...);"
is plain2 "$r.cluster.from" option
report plain16 "$rules" --arch sm_90 --work 100000 --kernel plain --cluster 16
has plain16 "$r.host_code.cuda" \
    "cudaFuncSetAttribute(plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);  // 16 CTAs per cluster: above the portable 8"
is plain16 "$r.cluster.nonportable" true
report plain32 "$rules" --arch sm_90 --work 100000 --kernel plain --cluster 32
is plain32 "$r.cluster.problem + \" \" + ($r.grid_validity.valid | tostring)" "too_large false"
report plain16s120 "$rules" --arch sm_120 --work 100000 --kernel plain --cluster 16
is plain16s120 "$r.cluster.problem" too_large
report plain80 "$rules" --arch sm_80 --work 100000 --kernel plain --cluster 2
is plain80 "$r.cluster.problem" unsupported
expect 2 "silk-occ report: error: --cluster: at most three extents, X,Y,Z" "$rules" --cluster 1,1,1,1
expect 2 "silk-occ report: error: --cluster: 'a' is not a number" "$rules" --cluster a

# ---- dynamic shared memory --------------------------------------------------
report big "$rules" --arch sm_90 --work 100000 --kernel staged --dyn-smem 64K
has big "$r.host_code.cuda" \
    "cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);  // above the 48 KiB default: opt in
staged<<<"
has big "$r.verification" "cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);"
is big "$r.grid_validity | [.smem_optin_needed, .smem_optin_limit, .smem_over_optin] | @tsv" \
    "$(printf 'true\t232448\tfalse')"
report small "$rules" --arch sm_90 --work 100000 --kernel staged --dyn-smem 48K
is small "$r.grid_validity.smem_optin_needed" false
report huge "$rules" --arch sm_90 --work 100000 --kernel staged --dyn-smem 300K
is huge "$r.grid_validity | [.smem_over_optin, .valid] | @tsv" "$(printf 'true\tfalse')"
"$SILK_OCC" report "$rules" --arch sm_90 --work 100000 --kernel staged --dyn-smem 300K >"$work/huge.txt"
grep -qxF "     300 KiB of shared memory per CTA: above the opt-in limit of 227 KiB on sm_90; no launch can have it" \
    "$work/huge.txt" || fail "staged at 300K: the text's opt-in line"
# Declared and not sized: the launch names the size, never 0.
report unsized "$rules" --arch sm_90 --work 100000 --kernel staged
has unsized "$r.host_code.cuda" "// staged declares extern __shared__: dyn_smem_bytes is its size per CTA (--dyn-smem gives it to the report)
staged<<<391, 256, dyn_smem_bytes>>>(...);"

# ---- every snippet compiles -------------------------------------------------
# Each launch and verification snippet becomes a function of a file that
# includes the kernels it names; (...) and ", ..." become the kernels'
# arguments (every kernel here takes float *x, int n).
compile_snippets() { # ARCH INPUT JSON...
    arch=$1 input=$2
    shift 2
    harness="$work/harness-$arch-$(basename "$input" .cu).cu"
    printf '#include "%s"\n' "$PWD/$input" >"$harness"
    f=0
    for j in "$@"; do
        f=$((f + 1))
        jq -r '.reports[] | (.host_code.cuda, .verification) | @base64' "$j" | {
            i=0
            while read -r code; do
                i=$((i + 1))
                printf 'void snippet_%s_%s(float *x, int n, size_t dyn_smem_bytes)\n{\n' "$f" "$i"
                echo "$code" | base64 -d | sed 's/(\.\.\.)/(x, n)/; s/, \.\.\.);/, x, n);/'
                printf '\n}\n'
            done
        } >>"$harness"
    done
    "$nvcc" -c -arch="$arch" -o "$work/harness.o" "$harness" 2>"$work/nvcc.err" ||
        fail "nvcc -arch=$arch: the report's snippets for $input do not compile: $(head -5 "$work/nvcc.err")"
}
for arch in sm_90 sm_120; do
    report "c-$arch-w" "$clusters" --arch "$arch" --work 1000000
    report "c-$arch-2d" "$clusters" --arch "$arch" --work 4095x4095
    report "c-$arch-n" "$clusters" --arch "$arch"
    report "c-$arch-r" "$clusters" --arch "$arch" --kernel ranked --cluster 2
    compile_snippets "$arch" "$clusters" "$work/c-$arch-w.json" "$work/c-$arch-2d.json" \
        "$work/c-$arch-n.json" "$work/c-$arch-r.json"
done
for arch in sm_80 sm_90 sm_120; do
    report "l-$arch-big" "$rules" --arch "$arch" --work 1000000 --dyn-smem 64K
    report "l-$arch-un" "$rules" --arch "$arch" --work 1000000
    report "l-$arch-n" "$rules" --arch "$arch" --dyn-smem '4*threads'
    set -- "$work/l-$arch-big.json" "$work/l-$arch-un.json" "$work/l-$arch-n.json"
    if [ "$arch" != sm_80 ]; then
        report "l-$arch-c" "$rules" --arch "$arch" --work 1000000 --cluster 2 --dyn-smem 64K
        report "l-$arch-c8" "$rules" --arch "$arch" --cluster 8
        set -- "$@" "$work/l-$arch-c.json" "$work/l-$arch-c8.json"
    fi
    compile_snippets "$arch" "$rules" "$@"
done

[ $failures = 0 ] || exit 1
echo "PASS: cluster.sh"
