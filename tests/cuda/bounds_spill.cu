// bounds: a kernel that spills because of its own bound.  Each thread
// keeps 96 running values live; __launch_bounds__(256, 4) holds it to
// 64 registers (65536 / (256 x 4)), so ptxas spills, where without the
// bound it keeps them all in registers (tests/report/bounds.sh compares
// the two and the CTAs per SM each gives).
#define LIVE 96

__global__ void __launch_bounds__(256, 4)
    held_accumulators(const float *in, const float *coef, float *out, int steps, int stride)
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
            acc[i] = fmaf(acc[i], c, acc[(i + 5) % LIVE] * 0.25f);
    }
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        out[t + i * stride] = acc[i];
}
