// kernels.h: template kernels that several units instantiate.  scale<T>
// does not depend on any macro, so every unit compiles it alike; stage<T>
// stages STAGE elements through shared memory, and STAGE is each unit's.
#ifndef STAGE
#define STAGE 64
#endif

template <typename T> __global__ void scale(T *data, T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

template <typename T> __global__ void stage(T *out, const T *in)
{
    __shared__ T buf[STAGE];
    int t = threadIdx.x;
    buf[t % STAGE] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = buf[(t + 1) % STAGE];
}
