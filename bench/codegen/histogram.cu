// histogram.cu: examples/histogram.silk in CUDA C: shared-memory atomics
// into a per-CTA histogram, then one global atomic per non-empty bin.
extern "C" __global__ void __launch_bounds__(256)
histogram(unsigned long long n, const unsigned char *data, unsigned *bins)
{
    __shared__ unsigned local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    unsigned long long size = (unsigned long long)gridDim.x * 256;
    for (unsigned long long i = (unsigned long long)blockIdx.x * 256 + threadIdx.x; i < n; i += size)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    unsigned count = local[threadIdx.x];
    if (count > 0)
        atomicAdd(&bins[threadIdx.x], count);
}
