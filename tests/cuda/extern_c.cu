// corpus: plain extern "C" kernels (unmangled symbols, the same name in
// every form), no bounds, no shared memory.
extern "C" {

__global__ void axpby(int n, float alpha, const float *x, float beta, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = alpha * x[i] + beta * y[i];
}

__global__ void count_nonzero(const double *v, int n, unsigned long long *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(0xffffffffu, i < n && v[i] != 0.0);
    if (threadIdx.x % 32 == 0 && ballot)
        atomicAdd(count, (unsigned long long)__popc(ballot));
}

} // extern "C"
