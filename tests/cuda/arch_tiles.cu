// corpus: per-target tuning.  One template kernel whose tile is chosen
// from __CUDA_ARCH__ (as tuned libraries pick a policy per architecture):
// the symbols are the same on every target, the launch bound, registers
// and static shared memory are not (sm_90 and up: 256 threads x 8 items;
// below: 128 threads x 4 items).
template <typename T>
struct ReducePolicy {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    static constexpr int threads = 256;
    static constexpr int items = 8;
#else
    static constexpr int threads = 128;
    static constexpr int items = 4;
#endif
};

template <typename T>
__global__ void __launch_bounds__(ReducePolicy<T>::threads)
    tiled_sum(const T *in, T *out, int n)
{
    constexpr int threads = ReducePolicy<T>::threads;
    constexpr int items = ReducePolicy<T>::items;
    __shared__ T staged[threads * items];
    __shared__ T partial[threads / 32];

    const long base = (long)blockIdx.x * threads * items;
    T v[items];
#pragma unroll
    for (int i = 0; i < items; i++) {
        long at = base + (long)i * threads + threadIdx.x;
        v[i] = at < n ? in[at] : T(0);
    }
#pragma unroll
    for (int i = 0; i < items; i++)
        staged[threadIdx.x * items + (i + threadIdx.x) % items] = v[i] * v[i];
    __syncthreads();
    T sum = T(0);
#pragma unroll
    for (int i = 0; i < items; i++)
        sum += staged[i * threads + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0)
        partial[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        T total = T(0);
        for (int w = 0; w < threads / 32; w++)
            total += partial[w];
        out[blockIdx.x] = total;
    }
}

template __global__ void tiled_sum<float>(const float *, float *, int);
template __global__ void tiled_sum<double>(const double *, double *, int);
