#!/bin/bash
# project.sh: `silk-occ report --compile-commands` on a project of many
# translation units, next to the same nvcc compiles run by `make -j`.
#
#   bench/project.sh [SILK_OCC]     (make bench runs it with ./src/silk-occ)
#
# bench/cuda_gen.awk writes PROJECT_UNITS (50) CUDA files of
# PROJECT_KERNELS (10) kernels each, with their own -D and -I flags, into
# a project whose compile_commands.json lists each unit's
# `nvcc -c ... -gencode` command for PROJECT_ARCHS (sm_80, sm_90), as
# CMake writes one.  In each of PROJECT_RUNS (2) rounds, wall clock:
#   - peer: `make -j$(nproc)` of a Makefile with exactly those commands
#     (the build the database describes, objects removed first);
#   - `silk-occ report --compile-commands compile_commands.json`, the
#     command a user types, with its defaults (--jobs = the cores).
# Best of the rounds for each.  Goal (issue 25): at most 1.1 x make -j.
# A missed goal does not fail the benchmark; a report that fails or
# misses kernels does (exit 1).  Exit 77 without nvcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
silk_occ=${1:-${SILK_OCC:-silk-occ}}
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$(command -v nvcc || echo "$cuda/bin/nvcc")
units=${PROJECT_UNITS:-50}
kernels=${PROJECT_KERNELS:-10}
archs=${PROJECT_ARCHS:-sm_80,sm_90}
runs=${PROJECT_RUNS:-2}
jobs=$(nproc 2>/dev/null || echo 2)
. "$here/bench_lib.sh"

[ -x "$nvcc" ] || skip "nvcc not found (install the CUDA toolkit or set CUDA_HOME)"
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not found, for peak memory"
command -v make >/dev/null || skip "make not found"
command -v jq >/dev/null || skip "jq not found, to write compile_commands.json"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gencodes=""
for a in ${archs//,/ }; do gencodes="$gencodes -gencode arch=compute_${a#sm_},code=$a"; done

# The project: src/uNN.cu, each with a header of its own in include/uNN
# and a -D, and the database and Makefile of the same commands.
write_project() {
    local u name cmds=()
    mkdir -p "$work/src" "$work/obj"
    for ((u = 0; u < units; u++)); do
        printf -v name 'u%02d' "$u"
        mkdir -p "$work/include/$name"
        echo "#define UNIT_SCALE $u" >"$work/include/$name/unit.h"
        { echo "#include \"unit.h\""; echo "#ifndef UNIT_ID"; echo "#error UNIT_ID not set"; echo "#endif";
          awk -v n="$kernels" -v prefix="$name" -v seed="$u" -f "$here/cuda_gen.awk"; } >"$work/src/$name.cu"
        cmds+=("$nvcc -c -O3 -I../include/$name -DUNIT_ID=$u$gencodes -o ../obj/$name.o ../src/$name.cu")
        printf 'obj/%s.o: src/%s.cu\n\tcd build && %s\n' "$name" "$name" "${cmds[-1]}" >>"$work/Makefile.units"
    done
    mkdir -p "$work/build"
    printf '%s\n' "${cmds[@]}" | jq -R -s --arg dir "$work/build" \
        'split("\n") | map(select(length > 0)) | map({directory: $dir, command: ., file: (split(" ") | last)})' \
        >"$work/build/compile_commands.json" || fail "jq could not write compile_commands.json"
    { printf 'all:'; for ((u = 0; u < units; u++)); do printf ' obj/u%02d.o' "$u"; done; echo;
      cat "$work/Makefile.units"; } >"$work/Makefile"
}
write_project

expected=$((units * kernels))
n_archs=$(tr , '\n' <<<"$archs" | wc -l)
best_peer="" best_peer_kb="" best_report="" best_report_kb=""
for ((i = 0; i < runs; i++)); do
    rm -f "$work"/obj/*.o
    timed "$work/peer" make -C "$work" -s -j"$jobs" || fail "make failed: $(head -3 "$work/peer.err")"
    keep_best peer
    timed "$work/report" "$silk_occ" report --compile-commands "$work/build/compile_commands.json" ||
        fail "silk-occ report failed: $(head -5 "$work/report.err")"
    n=$(grep -c -E '^u[0-9]+_k[0-9]+ \(.*\) on sm_[0-9]+ ' "$work/report.out")
    [ "$n" = $((expected * n_archs)) ] || fail "the report has $n kernel x target sections, not $((expected * n_archs))"
    keep_best report
done

echo "bench/project: $units translation units x $kernels kernels, $archs, $jobs cores,"
echo "wall clock and peak resident memory (of make and of silk-occ with their children's largest), best of $runs rounds"
printf '%-50s %9s %7s %9s %7s  %s\n' "" seconds ratio "peak MB" ratio goal
print_row "make -j$jobs (nvcc -c per unit)" peer peer ""
print_row "silk-occ report --compile-commands (defaults)" report peer "time <= 1.10"
report_goals report peer 1.1 ""
