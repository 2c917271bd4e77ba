// saxpy.cu: a light kernel of the wrap test, bounded at 256 threads, so
// its occupancy is full and its block size the bound.
__global__ void __launch_bounds__(256) saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
