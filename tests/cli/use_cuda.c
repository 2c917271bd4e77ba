/*
 * use_cuda.c: the example in the header `silkc compile --emit=header`
 * writes, for tests/golden/programs/histogram.silk (hist.h), as a real
 * program against the CUDA driver API.  silkc_compile.sh compiles and
 * links it (against the toolkit's stub libcuda) when cuda.h is there, to
 * show the header is usable as it says; it is never run (no GPU needed).
 */
#include <cuda.h>

#include "hist.h"

_Static_assert(sizeof(CUdeviceptr) == sizeof(unsigned long long),
               "the header's CUdeviceptr members are unsigned long long");

/* Loads the module and launches the histogram kernel over n bytes. */
int launch_histogram(CUdeviceptr data, CUdeviceptr bins, uint64_t n);
int launch_histogram(CUdeviceptr data, CUdeviceptr bins, uint64_t n)
{
    CUmodule module;
    CUfunction fn;
    if (cuModuleLoadData(&module, hist_ptx_sm_90) != CUDA_SUCCESS ||
        cuModuleGetFunction(&fn, module, hist_histogram_name) != CUDA_SUCCESS)
        return 1;
    struct hist_histogram_args args = {n, data, bins};
    void *params[] = {&args.n, &args.data, &args.bins};
    unsigned threads = (unsigned)hist_kernels[0].reqntid;
    unsigned blocks = (unsigned)((n + threads - 1) / threads);
    return cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, 0, NULL, params, NULL) != CUDA_SUCCESS;
}

int main(void)
{
    return 0;
}
