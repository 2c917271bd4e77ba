// reduce.cu: examples/reduce.silk in CUDA C: a grid-strided partial sum
// per thread, shfl_down within each warp, the warp sums in shared memory,
// shfl_xor over them in the first warp, one global atomic per CTA.
extern "C" __global__ void __launch_bounds__(256)
reduce(unsigned long long n, const float *input, float *total)
{
    __shared__ float warp_sums[8];
    float acc = 0.0f;
    unsigned long long i = (unsigned long long)blockIdx.x * 256 + threadIdx.x;
    unsigned long long size = (unsigned long long)gridDim.x * 256;
    for (; i < n; i += size)
        acc += input[i];
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        float v = lane < 8 ? warp_sums[lane] : 0.0f;
        for (int mask = 4; mask > 0; mask /= 2)
            v += __shfl_xor_sync(0xffffffffu, v, mask);
        if (lane == 0)
            atomicAdd(total, v);
    }
}
