// bin_scale.cu: one of the two translation units tests/report/binary.sh
// builds into executables, libraries, objects and fatbins.  Three kernels
// of different figures: a bounded one with static shared memory, a plain
// one, and one with a stack frame (a local array indexed at run time).
#include <cstdio>

__global__ void __launch_bounds__(256, 2) tile_scale(const float *in, float *out, int n)
{
    __shared__ float tile[256 * 3];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    tile[threadIdx.x + 256] = tile[threadIdx.x] * 2.0f;
    __syncthreads();
    if (i < n)
        out[i] = tile[(threadIdx.x + 17) % 256] + tile[256 + (threadIdx.x + 3) % 256];
}

__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void pick(const int *idx, float *out, int n)
{
    float local[32];
    for (int k = 0; k < 32; k++)
        local[k] = k * 0.5f + n;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = local[idx[i] & 31];
}

void scale_launch(const float *in, float *out, int n)
{
    tile_scale<<<(n + 255) / 256, 256>>>(in, out, n);
}
