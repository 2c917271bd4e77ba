#!/bin/sh
# verify.sh OUTDIR: the GPU check of silk-occ, on a machine with an NVIDIA
# GPU and the CUDA toolkit.  It builds the project (unless $SILK_BUILD_DIR
# already holds a build), runs `silk-occ verify` on the built-in kernels and
# on every example, saves a record of what the device answered, runs the
# GPU tests (tests/gpu/run-kernels.sh: silkc's PTX against nvcc's;
# tests/gpu/smem-attrs.sh: sharedSizeBytes and the runtime's CTAs per SM of
# smem-bound kernels against silk-occ's, in OUTDIR/smem-attrs;
# tests/gpu/compare-cpu.sh: `silkc exec --backend cuda` against the CPU
# backend, its files in OUTDIR/compare-cpu; tests/gpu/run-programs.sh:
# every example program built by silkc build and run on the GPU, its
# results checked, in OUTDIR/run-programs; tests/gpu/launch-rules.sh: the
# report's cluster and large-shared-memory host code run as printed, its
# expected blocks and clusters against the device's), the runtime's launch overhead
# (bench/launch --gpu) and the whole test suite, and
# writes everything under OUTDIR, with the lines that matter in
# OUTDIR/summary.txt.
# Exit status: 0 when verify agrees everywhere and the tests pass, else 1;
# 77 when there is no GPU.  Meant to finish in well under five minutes.
set -u
out=${1:?usage: tests/gpu/verify.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${SILK_BUILD_DIR:-$src/build-gpu}
cuda=${CUDA_HOME:-/usr/local/cuda}
status=0
note() { echo "$*" | tee -a "$out/summary.txt"; }
: > "$out/summary.txt"

if ! nvidia-smi > "$out/nvidia-smi.txt" 2>&1; then
    note "SKIP: no NVIDIA GPU (nvidia-smi: $(head -1 "$out/nvidia-smi.txt"))"
    exit 77
fi
note "gpu: $(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | head -1)"

# ---- build ------------------------------------------------------------------
start=$(date +%s)
if [ ! -x "$build/src/silk-occ" ]; then
    { [ -x "$src/configure" ] || (cd "$src" && autoreconf -fi); } &&
        mkdir -p "$build" && cd "$build" &&
        "$src/configure" --with-cuda="$cuda" && make -j"$(nproc)"
fi > "$out/build.log" 2>&1 || { note "FAIL: build (see build.log)"; exit 1; }
cd "$build" || exit 1
note "build: $(($(date +%s) - start)) s; $(grep -m1 'CUDA runtime linked' "$out/build.log" || echo 'prebuilt')"

# ---- verify -----------------------------------------------------------------
occ=$build/src/silk-occ
"$occ" verify --record "$out/record.json" > "$out/verify.txt" 2>&1 || status=1
"$occ" verify --format json > "$out/verify.json" 2>> "$out/verify.txt" || status=1
note "verify (built-in kernels): $(grep '^properties:' "$out/verify.txt")"
grep '^  property ' "$out/verify.txt" | tee -a "$out/summary.txt"
note "verify (built-in kernels): $(tail -1 "$out/verify.txt")"
for example in "$src"/examples/*.silk; do
    [ -f "$example" ] || continue
    name=$(basename "$example" .silk)
    "$occ" verify "$example" > "$out/verify-$name.txt" 2>&1 || status=1
    note "verify $name: $(tail -1 "$out/verify-$name.txt")"
done
grep -h '^disagree: ' "$out"/verify*.txt | head -20 | tee -a "$out/summary.txt"

# ---- the GPU tests and the suite ---------------------------------------------
if [ -x "$src/tests/gpu/run-kernels.sh" ]; then
    "$src/tests/gpu/run-kernels.sh" "$build" "$out/run-kernels" > "$out/run-kernels.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    note "run-kernels.sh: exit $rc"
    tail -12 "$out/run-kernels.txt" >> "$out/summary.txt"
fi
if [ -x "$src/tests/gpu/compare-cpu.sh" ]; then
    "$src/tests/gpu/compare-cpu.sh" "$build" "$out/compare-cpu" > "$out/compare-cpu.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    note "compare-cpu.sh: exit $rc; $(tail -1 "$out/compare-cpu.txt")"
    grep -E '^(FAIL|note)' "$out/compare-cpu.txt" | head -20 >> "$out/summary.txt"
fi
if [ -x "$src/tests/gpu/launch-rules.sh" ]; then
    SILK_OCC="$build/src/silk-occ" "$src/tests/gpu/launch-rules.sh" "$out/launch-rules" \
        > "$out/launch-rules.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
    note "launch-rules.sh: exit $rc; $(tail -1 "$out/launch-rules.txt")"
    grep '^FAIL' "$out/launch-rules.txt" | head -20 >> "$out/summary.txt"
fi
if [ -x "$src/tests/gpu/run-programs.sh" ]; then
    "$src/tests/gpu/run-programs.sh" "$build" "$out/run-programs" > "$out/run-programs.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    note "run-programs.sh: exit $rc; $(tail -1 "$out/run-programs.txt")"
    grep -E '^(FAIL|gpu:)' "$out/run-programs.txt" | head -20 >> "$out/summary.txt"
fi
# The cubin's shared memory from sm_90 on: cudaFuncAttributes.sharedSizeBytes
# and the runtime's CTAs per SM against silk-occ's (issue 24, item 11).
if [ -x "$src/tests/gpu/smem-attrs.sh" ]; then
    "$src/tests/gpu/smem-attrs.sh" "$build" "$out/smem-attrs" > "$out/smem-attrs.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    note "smem-attrs.sh: exit $rc; $(tail -1 "$out/smem-attrs.txt")"
    grep -E 'sharedSizeBytes|CTAs per SM|^FAIL' "$out/smem-attrs.txt" | head -20 >> "$out/summary.txt"
fi
# The runtime's launch overhead over cuLaunchKernel (bench/launch --gpu; a
# benchmark: its figures are recorded, its goal reported, not a failure).
if make bench/launch > "$out/bench-launch.txt" 2>&1; then
    ./bench/launch --gpu >> "$out/bench-launch.txt" 2>&1
    note "bench/launch --gpu: exit $?; $(grep '^goal:' "$out/bench-launch.txt")"
    grep -E '^(batches|dispatch)' "$out/bench-launch.txt" >> "$out/summary.txt"
else
    note "bench/launch: did not build (see bench-launch.txt)"
fi
make -j"$(nproc)" check > "$out/check.log" 2>&1 || status=1
note "make check: $(grep -E '^# (PASS|FAIL|SKIP|ERROR):' "$out/check.log" | tr '\n' ' ')"
note "total: $(($(date +%s) - start)) s, exit $status"
exit $status
