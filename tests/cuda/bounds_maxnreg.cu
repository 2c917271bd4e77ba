// bounds: a kernel that caps its registers with __maxnreg__(40), the
// cap binding (ptxas uses all 40 and spills nothing, CUDA 13.0 on sm_80,
// sm_90, sm_120), so that registers limit its CTAs per SM (6 of 256
// threads where warps allow 8) and the report advises a lower cap.  nvcc
// takes no __launch_bounds__ beside __maxnreg__, so the advice must be a
// new __maxnreg__ (tests/report/bounds.sh compiles it).  Each thread
// keeps 24 running values live.
#define LIVE 24

__global__ void __maxnreg__(40)
    capped_series(const float *in, const float *coef, float *out, int steps, int stride)
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
            acc[i] = fmaf(acc[i], c, acc[(i + 3) % LIVE] * 0.5f);
    }
#pragma unroll
    for (int i = 0; i < LIVE; i++)
        out[t + i * stride] = acc[i];
}
