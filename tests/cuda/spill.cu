// corpus: a kernel that spills.  Each thread keeps 96 running values;
// __launch_bounds__(256, 4) caps it at 64 registers (65536 / (256 x 4)),
// so ptxas spills the rest to local memory (spill stores and loads in
// ptxas -v, unknown in a cubin).
#define LIVE 96

__global__ void __launch_bounds__(256, 4)
    many_accumulators(const float *in, const float *coef, float *out, int steps, int stride)
{
    float acc[LIVE];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        acc[i] = in[t + i * stride];
    for (int s = 0; s < steps; s++) {
        float c = coef[s];
#pragma unroll
        for (int i = 0; i < LIVE; i++)
            acc[i] = fmaf(acc[i], c, acc[(i + 7) % LIVE] * 0.5f);
    }
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        out[t + i * stride] = acc[i];
}

// The same work without the bound: no cap, no spill, many registers.
__global__ void many_accumulators_free(const float *in, const float *coef, float *out, int steps,
                                       int stride)
{
    float acc[LIVE];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        acc[i] = in[t + i * stride];
    for (int s = 0; s < steps; s++) {
        float c = coef[s];
#pragma unroll
        for (int i = 0; i < LIVE; i++)
            acc[i] = fmaf(acc[i], c, acc[(i + 7) % LIVE] * 0.5f);
    }
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        out[t + i * stride] = acc[i];
}
