// saxpy.cu: examples/saxpy.silk in CUDA C, for bench/codegen.sh and
// tests/gpu/run-kernels.sh: the same parameters in the same order (a
// tensor is a pointer), the same launch bounds, the same algorithm.
extern "C" __global__ void __launch_bounds__(256)
saxpy(unsigned long long n, const float *a, const float *x, float *y)
{
    unsigned long long i = (unsigned long long)blockIdx.x * 256 + threadIdx.x;
    if (i < n)
        y[i] = a[0] * x[i] + y[i];
}
