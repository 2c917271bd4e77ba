// pins_namespace.cu (tests/report/pins.sh): a library of the user's own,
// namespace tiles, whose kernels its host code launches at the size of
// their bound (a --fixed-namespace tiles run keeps it), and one kernel
// whose size the library picks at run time (no bound: rows for
// information).  The kernel outside the namespace is chosen for as ever.
namespace tiles {
__global__ void __launch_bounds__(512) blur(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i + 1 < n)
        out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

__global__ void fill(float *out, float value, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = value;
}
} // namespace tiles

__global__ void __launch_bounds__(512) sharpen(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i + 1 < n)
        out[i] = 2.0f * in[i] - 0.5f * (in[i - 1] + in[i + 1]);
}
