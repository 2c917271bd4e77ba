#!/bin/sh
# run-programs.sh BUILDDIR [OUTDIR]: on a machine with an NVIDIA GPU, every
# example program, and the test programs whose results do not depend on
# the backend, built by `silkc build` (PTX for sm_75 and for this GPU's
# own target) and run on the GPU (SILK_BACKEND=cuda): each must print what
# it prints on the CPU backend (tests/build/examples/NAME.out,
# tests/build/programs/NAME.out; "the cpu backend" read as "the cuda
# backend") and exit as it does there.  The example programs check their
# own results against the host's; host_device_agree compares every
# operation of a kernel with host code, and tasks makes 16 x 1,000
# dispatches from 16 task workers.  Each program's output, and its
# SILK_VERBOSE=1 lines, go to OUTDIR (default: a temporary directory).
# Exit status: 0 when every program passes, 1 when one fails, 77 without
# a GPU.  By hand, and from tests/gpu/verify.sh.
set -u
build=${1:?usage: tests/gpu/run-programs.sh BUILDDIR [OUTDIR]}
build=$(cd "$build" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
silkc=$build/src/silkc
out=${2:-$(mktemp -d)}
mkdir -p "$out" && out=$(cd "$out" && pwd)
if ! cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1) ||
   [ -z "$cap" ]; then
    echo "SKIP: no NVIDIA GPU (nvidia-smi)"
    exit 77
fi
arch=sm_$(echo "$cap" | tr -d ' .')
archs=sm_75
[ "$arch" = sm_75 ] || archs="sm_75,$arch"
"$silkc" check --arch "$arch" "$src/examples/saxpy.silk" >/dev/null 2>&1 || archs=sm_75
echo "gpu: compute capability $cap; PTX for $archs"
status=0
passed=0
failed=0

# run NAME SOURCE EXPECTED-STEM
run() {
    name=$1 source=$2 expected=$3
    if ! (cd "$(dirname "$source")" && "$silkc" build --arch "$archs" "$(basename "$source")" \
            -o "$out/$name") >"$out/$name.build.txt" 2>&1; then
        echo "FAIL $name: silkc build: $(head -5 "$out/$name.build.txt")"
        failed=$((failed + 1)) status=1
        return
    fi
    SILK_BACKEND=cuda SILK_VERBOSE=1 "$out/$name" >"$out/$name.out" 2>"$out/$name.verbose.txt"
    code=$?
    want=0
    [ -f "$expected.status" ] && want=$(cat "$expected.status")
    sed 's/the cpu backend/the cuda backend/' "$expected.out" >"$out/$name.expected"
    if [ "$code" -ne "$want" ]; then
        echo "FAIL $name: exit status $code, expected $want; $(grep -v '^silkrt: dispatch' "$out/$name.verbose.txt" | head -3)"
        failed=$((failed + 1)) status=1
    elif ! diff -u "$out/$name.expected" "$out/$name.out" >"$out/$name.diff"; then
        echo "FAIL $name: its output differs from the CPU backend's:"
        head -20 "$out/$name.diff"
        failed=$((failed + 1)) status=1
    else
        echo "PASS $name: $(tail -1 "$out/$name.out")"
        passed=$((passed + 1))
    fi
}

for f in "$src"/examples/*.silk; do
    name=$(basename "$f" .silk)
    run "$name" "$f" "$src/tests/build/examples/$name"
done
for name in seed_fill seed_dispatch seed_dispatch_launch_failed seed_classify host_device_agree \
            tasks async_order persistent print_values names; do
    run "$name" "$src/tests/build/programs/$name.silk" "$src/tests/build/programs/$name"
done
grep -h '^silkrt: \(backend\|device\)' "$out"/saxpy.verbose.txt 2>/dev/null
echo "programs on the GPU: $passed passed, $failed failed (outputs in $out)"
exit $status
