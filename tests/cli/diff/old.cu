// old.cu: the "before" build of tests/cli/diff.sh (ptxas -v, sm_90: grow 12
// registers, squeeze 64 with no spill under __launch_bounds__(1024, 1)).
__global__ void __launch_bounds__(256) grow(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f + 1.0f;
}

__global__ void steady(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void retired(int *x)
{
    x[threadIdx.x] = 7;
}

__global__ void __launch_bounds__(1024, 1) squeeze(float *out, const float *in, int n)
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
