// bin_reduce.cu: the second translation unit of tests/report/binary.sh:
// a block reduction with dynamic shared memory and a templated kernel
// instantiated twice, and the program's main (for the executable).
extern void scale_launch(const float *in, float *out, int n);

__global__ void block_sum(const float *in, float *out, int n)
{
    extern __shared__ float part[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = part[0];
}

template <int W>
__global__ void stencil(const float *in, float *out, int n)
{
    __shared__ float halo[128 + 2 * W];
    int i = blockIdx.x * 128 + threadIdx.x;
    halo[threadIdx.x + W] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < W) {
        halo[threadIdx.x] = i >= W ? in[i - W] : 0.0f;
        halo[threadIdx.x + 128 + W] = i + 128 < n ? in[i + 128] : 0.0f;
    }
    __syncthreads();
    float acc = 0.0f;
    for (int k = -W; k <= W; k++)
        acc += halo[threadIdx.x + W + k];
    if (i < n)
        out[i] = acc;
}

template __global__ void stencil<2>(const float *, float *, int);
template __global__ void stencil<8>(const float *, float *, int);

int main(void)
{
    float *in = 0, *out = 0;
    scale_launch(in, out, 0);
    block_sum<<<1, 128, 128 * sizeof(float)>>>(in, out, 0);
    return 0;
}
