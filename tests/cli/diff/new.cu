// new.cu: the "after" build of tests/cli/diff.sh: grow holds 36 values (48
// registers on sm_90, 5 CTAs of 256 instead of 8), squeeze under
// __launch_bounds__(1024, 2) is held to 32 registers and spills, retired is
// gone and fresh is new; steady is unchanged.
__global__ void __launch_bounds__(256) grow(float *out, const float *in, int n)
{
    float v[36];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 36; k++)
        v[k] = in[(i + k * 131) % n];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 36; k++)
        s += v[k] * v[(k * 5) % 36] + v[(k * 7 + 3) % 36];
    out[i] = s;
}

__global__ void steady(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void fresh(int *x)
{
    x[threadIdx.x] = 9;
}

__global__ void __launch_bounds__(1024, 2) squeeze(float *out, const float *in, int n)
{
    float acc[40];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 40; k++)
        acc[k] = in[(i + k * 977) % n];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 40; k++)
        s += acc[k] * acc[(k * 7) % 40];
    out[i] = s;
}
