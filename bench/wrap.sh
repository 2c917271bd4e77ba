#!/bin/bash
# wrap.sh: what `silk-occ wrap` adds to a compile.
#
#   bench/wrap.sh [SILK_OCC]        (make bench runs it with ./src/silk-occ)
#
# One translation unit of WRAP_KERNELS (40) generated kernels
# (bench/cuda_gen.awk), compiled with `nvcc -c` for WRAP_ARCHS (sm_80,
# sm_90, sm_120), WRAP_RUNS (5) times alternately:
#   - peer: `nvcc -c -gencode ... -o unit.o unit.cu`;
#   - `silk-occ wrap -- nvcc -c -gencode ... -o unit.o unit.cu`, the
#     command a build's launcher types: the same compile, then the
#     object's kernels analysed and unit.o.silk-occ.json written.
# Best of the rounds for each.  Goal (issue 25): the wrapper's overhead at
# most 5% of the compile.  Its own work (the analysis after nvcc exits)
# is given beside it, labelled.  A missed goal does not fail the
# benchmark; a wrapped compile that fails or writes no JSON does (exit 1).
# Exit 77 without nvcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
silk_occ=${1:-${SILK_OCC:-silk-occ}}
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$(command -v nvcc || echo "$cuda/bin/nvcc")
kernels=${WRAP_KERNELS:-40}
archs=${WRAP_ARCHS:-sm_80,sm_90,sm_120}
runs=${WRAP_RUNS:-5}
. "$here/bench_lib.sh"

[ -x "$nvcc" ] || skip "nvcc not found (install the CUDA toolkit or set CUDA_HOME)"
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not found, for peak memory"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v n="$kernels" -v prefix=w -f "$here/cuda_gen.awk" >"$work/unit.cu"
compile=("$nvcc" -c)
for a in ${archs//,/ }; do compile+=(-gencode "arch=compute_${a#sm_},code=$a"); done
compile+=(-o "$work/unit.o" "$work/unit.cu")

best_peer="" best_peer_kb="" best_wrap="" best_wrap_kb="" best_own="" best_own_kb=""
for ((i = 0; i < runs; i++)); do
    rm -f "$work/unit.o" "$work/unit.o.silk-occ.json"
    timed "$work/peer" "${compile[@]}" || fail "nvcc failed: $(head -3 "$work/peer.err")"
    keep_best peer
    rm -f "$work/unit.o"
    timed "$work/wrap" "$silk_occ" wrap -- "${compile[@]}" || fail "silk-occ wrap failed: $(head -3 "$work/wrap.err")"
    [ -s "$work/unit.o.silk-occ.json" ] || fail "silk-occ wrap wrote no unit.o.silk-occ.json: $(head -3 "$work/wrap.err")"
    [ -s "$work/wrap.err" ] && fail "silk-occ wrap said something: $(head -3 "$work/wrap.err")"
    keep_best wrap
    # Its own work: the same analysis of the object alone.
    timed "$work/own" "$silk_occ" report --format json "$work/unit.o" || fail "silk-occ report failed: $(head -3 "$work/own.err")"
    keep_best own
done

echo "bench/wrap: one unit of $kernels kernels for $archs, wall clock, best of $runs rounds"
printf '%-50s %9s %7s %9s %7s  %s\n' "" seconds ratio "peak MB" ratio goal
print_row "nvcc -c" peer peer ""
print_row "silk-occ wrap -- nvcc -c" wrap peer "time <= 1.05"
print_row "  its own work: silk-occ report --format json OBJ" own peer "(narrower figure)"
report_goals wrap peer 1.05 ""
