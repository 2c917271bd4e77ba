#!/bin/bash
# binary.sh: `silk-occ report` on a built shared library holding thousands
# of kernels, next to `cuobjdump --dump-resource-usage` on the same file.
#
#   bench/binary.sh [SILK_OCC]      (make bench runs it with ./src/silk-occ)
#
# bench/cuda_gen.awk writes BINARY_UNITS (20) CUDA files of
# BINARY_KERNELS (100) kernels each; nvcc compiles each for BINARY_ARCHS
# (sm_80, sm_90, sm_120: SASS only) and links them into one shared
# object, as a library of kernels ships: 2,000 kernels x 3 architectures.
# The library is built once and kept in BENCH_CACHE
# (~/.cache/silk-occ-bench), since building it takes minutes.
#
# Then, in each of BINARY_RUNS (3) rounds, wall clock and peak memory
# (GNU time's maximum resident set):
#   - peer: `cuobjdump --dump-resource-usage LIB` (the registers and
#     shared memory of every kernel, no occupancy);
#   - `silk-occ report LIB`, the command a user types, with its defaults:
#     every kernel on each of the library's own architectures, its
#     occupancy table, limiter, advice and text report.
# Then the same two on a static archive of BINARY_COPIES (30) copies of
# the units' objects, about 1 GB: 180,000 kernel records, which the
# report reads a member and a fatbin entry at a time and joins (the same
# kernel with the same figures is one entry), so its memory stays far
# below the file's size.
# And, where the CUDA toolkit has it, the same two on a library we did
# not build: its libcurand.so (BINARY_REAL), 132 MB, some 280 kernels on
# each of nine architectures.
# Best of the rounds for each.  Goals (issue 25): time at most 1.0 x the
# peer's, memory bounded (at most 1.0 x the peer's peak, and well below
# the archive's size).  A missed goal does not fail the benchmark; a
# report that fails or misses kernels does (exit 1).  Exit 77 without
# nvcc or cuobjdump (PyPI nvidia-cuda-cuobjdump, or $CUOBJDUMP).
set -u
here=$(cd "$(dirname "$0")" && pwd)
silk_occ=${1:-${SILK_OCC:-silk-occ}}
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$(command -v nvcc || echo "$cuda/bin/nvcc")
units=${BINARY_UNITS:-20}
kernels=${BINARY_KERNELS:-100}
archs=${BINARY_ARCHS:-sm_80,sm_90,sm_120}
runs=${BINARY_RUNS:-3}
copies=${BINARY_COPIES:-30}
real=${BINARY_REAL:-$cuda/lib64/libcurand.so.10}
cache=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/silk-occ-bench}
. "$here/bench_lib.sh"

[ -x "$nvcc" ] || skip "nvcc not found (install the CUDA toolkit or set CUDA_HOME)"
cuobjdump=$(find_cuobjdump) || skip "cuobjdump not found (pip install nvidia-cuda-cuobjdump, or set CUOBJDUMP)"
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not found, for peak memory"

gencodes=()
for a in ${archs//,/ }; do gencodes+=(-gencode "arch=compute_${a#sm_},code=$a"); done
lib=$cache/binary-$units-$kernels-${archs//,/-}/libkernels.so

# The library, unless the cache has it: each unit compiled on its own, a
# core each, then linked.
build_library() {
    local dir=${lib%/*} u
    mkdir -p "$dir" || fail "cannot make $dir"
    for ((u = 0; u < units; u++)); do
        printf -v name 'u%02d' "$u"
        awk -v n="$kernels" -v prefix="$name" -v seed="$u" -f "$here/cuda_gen.awk" >"$dir/$name.cu"
        echo "$dir/$name.cu"
    done | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} \
        "$nvcc" -c -Xcompiler -fPIC "${gencodes[@]}" -o {}.o {} ||
        fail "nvcc failed on the generated kernels"
    "$nvcc" -shared -o "$lib.tmp" "$dir"/u*.cu.o || fail "nvcc could not link the library"
    mv "$lib.tmp" "$lib"
}
[ -f "$lib" ] || { echo "bench/binary: building $units x $kernels kernels for $archs (kept in $cache)"; build_library; }

# The archive: each copy's members are links to the units' objects,
# named apart (ar keeps each as it is).
archive=${lib%/*}/copies-$copies.a
build_archive() {
    local dir=${lib%/*}/copies i o
    mkdir -p "$dir" || fail "cannot make $dir"
    for ((i = 1; i <= copies; i++)); do
        for o in "${lib%/*}"/u*.cu.o; do
            o=${o##*/}
            ln -sf "../$o" "$dir/${o%.cu.o}_$i.o"
        done
    done
    (cd "$dir" && ar qcS "$archive.tmp" ./*.o) || fail "ar could not make the archive"
    mv "$archive.tmp" "$archive"
}
[ "$copies" -gt 0 ] && [ ! -f "$archive" ] && build_archive

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
expected=$((units * kernels))
n_archs=$(tr , '\n' <<<"$archs" | wc -l)

# pair PEER REPORT FILE SECTIONS: best_PEER and best_REPORT (and their
# _kb) from `runs` rounds of cuobjdump and the report on FILE; when
# SECTIONS is not empty, the report must have that many kernel x target
# sections of the generated kernels.
pair() {
    local peer=$1 report=$2 file=$3 sections=$4 i n
    printf -v "best_$peer" '%s' "" && printf -v "best_${peer}_kb" '%s' ""
    printf -v "best_$report" '%s' "" && printf -v "best_${report}_kb" '%s' ""
    for ((i = 0; i < runs; i++)); do
        timed "$work/$peer" "$cuobjdump" --dump-resource-usage "$file" ||
            fail "cuobjdump failed on $file: $(head -3 "$work/$peer.err")"
        keep_best "$peer"
        timed "$work/$report" "$silk_occ" report "$file" ||
            fail "silk-occ report failed on $file: $(head -5 "$work/$report.err")"
        n=$(grep -c -E '^u[0-9]+_k[0-9]+ \(.*\) on sm_[0-9]+ ' "$work/$report.out")
        [ -z "$sections" ] || [ "$n" = "$sections" ] ||
            fail "the report of $file has $n kernel x target sections, not $sections"
        keep_best "$report"
    done
}
pair peer report "$lib" $((expected * n_archs))
n=$(grep -c '^ Function ' "$work/peer.out")
[ "$n" = $((expected * n_archs)) ] || fail "cuobjdump lists $n kernel x architecture rows, not $((expected * n_archs))"
[ "$copies" -gt 0 ] && pair apeer areport "$archive" $((expected * n_archs))
[ -f "$real" ] && pair rpeer rreport "$real" ""

size=$(awk -v b="$(wc -c <"$lib")" 'BEGIN { printf "%.1f MB", b / 1e6 }')
echo "bench/binary: ${lib##*/}, $size, $expected kernels x $n_archs architectures ($archs),"
echo "$(nproc 2>/dev/null || echo ?) cores, wall clock and peak resident memory, best of $runs rounds"
printf '%-50s %9s %7s %9s %7s  %s\n' "" seconds ratio "peak MB" ratio goal
print_row "cuobjdump --dump-resource-usage LIB" peer peer ""
print_row "silk-occ report LIB (defaults)" report peer "time <= 1.00, memory <= 1.00"
if [ "$copies" -gt 0 ]; then
    asize=$(awk -v b="$(wc -c <"$archive")" 'BEGIN { printf "%.0f MB", b / 1e6 }')
    echo "the archive: $copies copies of the units, $asize, $((expected * copies)) kernels x $n_archs architectures"
    print_row "cuobjdump --dump-resource-usage ARCHIVE" apeer apeer ""
    print_row "silk-occ report ARCHIVE (defaults)" areport apeer "time <= 1.00, memory <= 1.00"
    # Both pairs count: the goals are missed if either misses.
    (report_goals areport apeer 1.0 1.0) | sed 's/^/archive: /'
fi
if [ -f "$real" ]; then
    echo "a library we did not build: $real, $(awk -v b="$(wc -c <"$real")" 'BEGIN { printf "%.0f MB", b / 1e6 }')"
    print_row "cuobjdump --dump-resource-usage ${real##*/}" rpeer rpeer ""
    print_row "silk-occ report ${real##*/} (defaults)" rreport rpeer "time <= 1.00, memory <= 1.00"
    (report_goals rreport rpeer 1.0 1.0) | sed "s/^/${real##*/}: /"
fi
report_goals report peer 1.0 1.0
