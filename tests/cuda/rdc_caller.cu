// corpus-nvcc-flags: -rdc=true
// corpus: separate compilation, the calling side.  rdc_blend is only
// declared here (defined in rdc_callee.cu): compiled alone with -rdc=true
// the call stays unresolved in the PTX, which ptxas assembles with -c.
// Static shared memory beside the external call.
extern __device__ float rdc_blend(float x, int i);
extern __device__ float rdc_weights[16];

__global__ void __launch_bounds__(256, 2) rdc_tile_blend(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = threadIdx.x % 32, y = threadIdx.x / 32; // 8 rows of 32 per pass
    int base = blockIdx.x * 1024;
    for (int r = y; r < 32; r += 8)
        tile[r][x] = base + r * 32 + x < n ? in[base + r * 32 + x] : 0.0f;
    __syncthreads();
    for (int r = y; r < 32; r += 8)
        if (base + r * 32 + x < n)
            out[base + r * 32 + x] = rdc_blend(tile[x][r], r) + rdc_weights[x & 15];
}
