// smem_attrs.cu: what the CUDA runtime says of the smem-bound kernels of
// tests/report/inputs/smem_bound.cu on this device, for
// tests/gpu/smem-attrs.sh to compare with silk-occ's figures (issue 24,
// item 11: does cudaFuncGetAttributes count the 1 KiB per-CTA reservation
// that CUDA 13's sm_90 cubin puts in the shared window, and does the
// runtime's occupancy count it once?).
//
// Prints "device sm_XY reserved R optin O" (cudaDevAttrReservedSharedMemoryPerBlock,
// cudaDevAttrMaxSharedMemoryPerBlockOptin), then per kernel
// "attr SYMBOL sharedSizeBytes REGS" and per block size
// "ctas SYMBOL THREADS N" (cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// no dynamic shared memory).  Exit 3 with the error when the runtime fails.
#include "../report/inputs/smem_bound.cu"

#include <cstdio>
#include <cuda_runtime.h>

static int check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    std::fprintf(stderr, "smem_attrs: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
}

struct Kernel {
    const char *symbol; // the mangled name silk-occ reports
    const void *fn;
};

int main()
{
    static const Kernel kernels[] = {
        {"_Z8tile_31kPf", (const void *)tile_31k},
        {"_Z7tile_3kPf", (const void *)tile_3k},
    };
    static const int sizes[] = {64, 128, 256, 512, 1024};
    int dev = 0, major = 0, minor = 0, reserved = 0, optin = 0;
    if (check(cudaGetDevice(&dev), "cudaGetDevice") ||
        check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "major") ||
        check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), "minor") ||
        check(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev),
              "cudaDevAttrReservedSharedMemoryPerBlock") ||
        check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
              "cudaDevAttrMaxSharedMemoryPerBlockOptin"))
        return 3;
    std::printf("device sm_%d%d reserved %d optin %d\n", major, minor, reserved, optin);
    for (const Kernel &k : kernels) {
        cudaFuncAttributes a;
        if (check(cudaFuncGetAttributes(&a, k.fn), "cudaFuncGetAttributes"))
            return 3;
        std::printf("attr %s %zu %d\n", k.symbol, a.sharedSizeBytes, a.numRegs);
        for (int threads : sizes) {
            int n = 0;
            if (check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k.fn, threads, 0),
                      "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
                return 3;
            std::printf("ctas %s %d %d\n", k.symbol, threads, n);
        }
    }
    return 0;
}
