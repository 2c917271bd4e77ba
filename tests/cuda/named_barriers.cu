// corpus: named barriers.  A producer warp group and a consumer warp
// group hand a buffer over through barriers 1 and 2 (bar.sync / bar.arrive
// with a thread count) besides __syncthreads' barrier 0: ptxas counts 3,
// which on sm_90 limits the CTAs per SM at small block sizes.
extern "C" __global__ void __launch_bounds__(128) handoff(const float *in, float *out, int rounds)
{
    __shared__ float buffer[64];
    const bool producer = threadIdx.x < 64;
    const int lane = threadIdx.x % 64;
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        if (producer) {
            buffer[lane] = in[(blockIdx.x * rounds + r) * 64 + lane];
            asm volatile("bar.arrive 1, 128;" ::: "memory");
            asm volatile("bar.sync 2, 128;" ::: "memory");
        } else {
            asm volatile("bar.sync 1, 128;" ::: "memory");
            out[(blockIdx.x * rounds + r) * 64 + lane] = buffer[63 - lane] * 2.0f;
            asm volatile("bar.arrive 2, 128;" ::: "memory");
        }
    }
}
