// corpus-nvcc-flags: -rdc=true
// corpus: separate compilation, the defining side.  rdc_blend and its
// weights are defined here with external linkage (rdc_caller.cu calls
// them); this file's own kernel uses them too, with static shared memory.
__device__ float rdc_weights[16];

__device__ __noinline__ float rdc_blend(float x, int i)
{
    float w = rdc_weights[i & 15];
    return x * w + (1.0f - w) * __sinf(x);
}

__global__ void __launch_bounds__(128) rdc_smooth(float *data, int n)
{
    __shared__ float window[128 + 2];
    int i = blockIdx.x * 128 + threadIdx.x;
    window[threadIdx.x + 1] = i < n ? data[i] : 0.0f;
    if (threadIdx.x == 0)
        window[0] = i > 0 ? data[i - 1] : 0.0f;
    if (threadIdx.x == 127)
        window[129] = i + 1 < n ? data[i + 1] : 0.0f;
    __syncthreads();
    float s = window[threadIdx.x] + window[threadIdx.x + 1] + window[threadIdx.x + 2];
    if (i < n)
        data[i] = rdc_blend(s / 3.0f, i);
}
