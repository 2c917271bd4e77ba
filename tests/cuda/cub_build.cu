// corpus: CUB from the toolkit, as a build compiles it.  CUB puts its
// kernels in a namespace named after the compile's whole target list
// (__CUDA_ARCH_LIST__: cub::CUB_300001_SM_800_900 for sm_80 and sm_90), so
// a file compiled for several targets has the same symbols on each, and
// only a compile with every target at once has the build's.  Two kinds of
// kernel: one of ours built on cub::BlockReduce (a template instance per
// block size), and CUB's own, which a cub::DeviceReduce call in host code
// makes nvcc emit (two DeviceReduceSingleTileKernel instances among them,
// which differ only in their iterator types).
#include <cub/cub.cuh>

// Each CTA sums its BlockSize inputs: the block size is the template's.
template <int BlockSize>
__global__ void __launch_bounds__(BlockSize) block_sums(const float *in, float *sums, int n)
{
    using Reduce = cub::BlockReduce<float, BlockSize>;
    __shared__ typename Reduce::TempStorage scratch;
    int i = blockIdx.x * BlockSize + threadIdx.x;
    float total = Reduce(scratch).Sum(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = total;
}

template __global__ void block_sums<128>(const float *, float *, int);
template __global__ void block_sums<512>(const float *, float *, int);

// The whole array's sum through CUB's device-wide reduction: the first
// call asks for the scratch size, the second reduces.
cudaError_t total_sum(const float *in, float *out, int n, void *scratch, size_t *bytes)
{
    return cub::DeviceReduce::Sum(scratch, *bytes, in, out, n);
}
