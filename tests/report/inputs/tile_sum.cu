// tile_sum.cu: one CUDA kernel for the report's .cu, .ptx and .cubin
// tests (tests/report/cuda.sh builds the .ptx and the .cubin from it).
// Each CTA of at most 256 threads stages 24 x 256 floats in shared memory
// (24 KiB: at 64 threads shared memory limits the CTAs per SM) and sums
// them, the unrolled loops keeping enough registers live that registers
// limit at 256 threads.  __launch_bounds__ bounds the block size and asks
// for two CTAs per SM (so ptxas caps registers at 128); extern "C" keeps
// the name the same in the PTX and the cubin.
#define THREADS 256
#define DEPTH 24

extern "C" __global__ void __launch_bounds__(THREADS, 2)
tile_sum(const float *in, float *out, int n)
{
    __shared__ float tile[DEPTH][THREADS];
    __shared__ float partial[THREADS / 32];
    int base = blockIdx.x * THREADS * DEPTH;
    for (int d = 0; d < DEPTH; d++) {
        int i = base + d * THREADS + threadIdx.x;
        tile[d][threadIdx.x] = i < n ? in[i] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int d = 0; d < DEPTH; d++)
        sum += tile[(d + threadIdx.x) % DEPTH][(threadIdx.x * 7 + d) % THREADS];
    for (int off = 16; off > 0; off /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if ((threadIdx.x & 31) == 0)
        partial[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < THREADS / 32; w++)
            total += partial[w];
        out[blockIdx.x] = total;
    }
}
