// tile.cu: a kernel of the wrap test that shared memory limits: TILE
// floats (40 KiB by default) per 128-thread CTA, so 5 CTAs (31.25%) fit
// an sm_90 SM whatever its registers.
#ifndef TILE
#define TILE 10240
#endif
__global__ void __launch_bounds__(128) tile_sum(const float *in, float *out)
{
    __shared__ float tile[TILE];
    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        tile[i] = in[blockIdx.x * TILE + i];
    __syncthreads();
    float s = 0;
    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        s += tile[(i * 7) % TILE];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
