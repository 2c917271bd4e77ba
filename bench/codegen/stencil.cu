// stencil.cu: examples/stencil.silk in CUDA C: one Jacobi step of the
// 5-point stencil, one point per thread, CTAs of 32x8 threads.
extern "C" __global__ void __launch_bounds__(256)
stencil(unsigned long long rows, unsigned long long cols, const float *input, float *output)
{
    unsigned long long blocks_x = cols / 32;
    unsigned long long r = (blockIdx.x / blocks_x) * 8 + threadIdx.x / 32;
    unsigned long long c = (blockIdx.x % blocks_x) * 32 + threadIdx.x % 32;
    if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1)
        output[r * cols + c] = input[r * cols + c];
    else
        output[r * cols + c] = 0.25f * (input[(r - 1) * cols + c] + input[(r + 1) * cols + c] +
                                        input[r * cols + c - 1] + input[r * cols + c + 1]);
}
