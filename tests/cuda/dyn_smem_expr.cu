// corpus-dyn-smem: (threads - 32) * 6 / 4 + (warps + 1) * 64
// corpus: dynamic shared memory that depends on the block size, beside
// static shared memory: per warp a 64-byte slot (and one spare), per
// thread 1.5 bytes past the first warp.  block_scan's bound (144 threads)
// is not a whole number of warps: at 144 threads warps is 5.
__global__ void __launch_bounds__(144) block_scan(const int *in, int *out, int n)
{
    extern __shared__ int scratch[];
    __shared__ int carry[8];
    int warps = (blockDim.x + 31) / 32;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    if (lane == 31)
        scratch[warp * 16] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int run = 0;
        for (int w = 0; w < warps; w++) {
            int t = scratch[w * 16];
            scratch[w * 16] = run;
            run += t;
        }
        carry[blockIdx.x % 8] = run;
    }
    __syncthreads();
    if (i < n)
        out[i] = v + scratch[warp * 16] + carry[(blockIdx.x + 1) % 8] * 0;
}

__global__ void gather_rows(const float *table, const int *rows, float *out, int width)
{
    extern __shared__ float staging[]; // 16 floats per warp
    float *mine = staging + (threadIdx.x / 32) * 16;
    int r = rows[blockIdx.x], lane = threadIdx.x % 32;
    for (int c = threadIdx.x; c < width; c += blockDim.x) {
        if (lane < 16)
            mine[lane] = table[(long)r * width + c];
        __syncwarp();
        out[(long)blockIdx.x * width + c] = mine[15 - lane % 16];
        __syncwarp();
    }
}
