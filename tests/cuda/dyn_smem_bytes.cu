// corpus-dyn-smem: 6144
// corpus: dynamic shared memory of a constant size (extern __shared__),
// launched with 6144 bytes whatever the block size.
extern "C" __global__ void window_max(const float *in, float *out, int n, int window)
{
    extern __shared__ float ring[]; // 1536 floats
    const int slots = 1536;
    int base = blockIdx.x * slots;
    for (int i = threadIdx.x; i < slots; i += blockDim.x)
        ring[i] = base + i < n ? in[base + i] : -1e30f;
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        float m = ring[i];
        for (int k = 1; k < window; k++)
            m = fmaxf(m, ring[(i + k) % slots]);
        if (base + i < n)
            out[base + i] = m;
    }
}
