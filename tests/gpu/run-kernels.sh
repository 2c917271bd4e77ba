#!/bin/sh
# run-kernels.sh: the reference kernels on a real GPU, built by silkc and by
# nvcc, checked against the CPU and timed side by side.
#
#   tests/gpu/run-kernels.sh BUILDDIR [OUTDIR]
#
#   BUILDDIR  the configured build tree: BUILDDIR/src/silkc is the compiler
#   OUTDIR    where the host program and the PTX go (default: a temporary
#             directory, removed at the end); kept when given, to inspect
#
# Steps: build tests/gpu/run_kernels.c against the CUDA driver API
# ($CUDA_HOME/include/cuda.h, -lcuda; CUDA_HOME defaults to
# /usr/local/cuda); ask it for the device's target (compute capability ->
# sm_XY); compile each examples/K.silk with `silkc compile --arch sm_XY`
# to OUTDIR/K.silk.ptx and each bench/codegen/K.cu with `nvcc -ptx
# -arch=sm_XY` to OUTDIR/K.nvcc.ptx; run them all (run_kernels OUTDIR),
# which prints: kernel, correct (silk/nvcc), median time of each build,
# and the ratio silk/nvcc.  See run_kernels.c for the inputs, tolerances
# and timing.  Takes well under a minute on a current GPU (the CPU
# reference of the 1024^3 SGEMM is the slowest part).
#
# Exit 0 when every kernel is right in both builds, 1 when one is wrong
# or a build fails, 77 (with the reason) when there is no GPU, no driver
# or no CUDA toolkit.  Not part of make check: run it by hand on a
# machine with a GPU.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 BUILDDIR [OUTDIR]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
silkc="$1/src/silkc"
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc="$cuda/bin/nvcc"
cc=${CC:-cc}
kernels="saxpy reduce transpose stencil histogram sgemm"

[ -x "$silkc" ] || { echo "run-kernels: no $silkc (build first: make)" >&2; exit 2; }
if [ ! -f "$cuda/include/cuda.h" ] || [ ! -x "$nvcc" ]; then
    echo "run-kernels: no CUDA toolkit in $cuda (set CUDA_HOME); skipped"
    exit 77
fi
if [ $# -eq 2 ]; then
    out=$2
    mkdir -p "$out" || exit 2
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi

# The driver's libcuda is found at run time; the toolkit's stub serves to link.
if ! "$cc" -std=c11 -O2 -Wall -Wextra -I"$cuda/include" -o "$out/run_kernels" \
        "$here/run_kernels.c" -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -lm; then
    echo "run-kernels: cannot build run_kernels.c" >&2
    exit 1
fi
arch=$("$out/run_kernels" --arch 2>"$out/arch.err")
case $? in
    0) ;;
    77) echo "run-kernels: $(cat "$out/arch.err"); skipped"; exit 77 ;;
    *) echo "run-kernels: no GPU driver: $(head -n 1 "$out/arch.err"); skipped"; exit 77 ;;
esac
echo "run-kernels: target $arch"

status=0
for k in $kernels; do
    if ! "$silkc" compile "$top/examples/$k.silk" --arch "$arch" -o "$out/$k.silk.ptx"; then
        echo "run-kernels: silkc cannot compile $k for $arch" >&2
        status=1
    fi
    if ! "$nvcc" -ptx -arch="$arch" -o "$out/$k.nvcc.ptx" "$top/bench/codegen/$k.cu"; then
        echo "run-kernels: nvcc cannot compile $k for $arch" >&2
        status=1
    fi
done
"$out/run_kernels" "$out" || status=1
exit $status
