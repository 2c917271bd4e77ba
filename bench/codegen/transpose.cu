// transpose.cu: examples/transpose.silk in CUDA C: one 32x32 tile per CTA
// of 32x8 threads through a padded 32x33 shared array.
extern "C" __global__ void __launch_bounds__(256)
transpose(unsigned long long rows, unsigned long long cols, const float *input, float *output)
{
    __shared__ float tile[32][33];
    unsigned long long tiles_x = cols / 32;
    unsigned long long row0 = (blockIdx.x / tiles_x) * 32;
    unsigned long long col0 = (blockIdx.x % tiles_x) * 32;
    unsigned x = threadIdx.x % 32, y = threadIdx.x / 32;
    for (unsigned j = 0; j < 4; j++) {
        unsigned r = y + j * 8;
        tile[r][x] = input[(row0 + r) * cols + col0 + x];
    }
    __syncthreads();
    for (unsigned j = 0; j < 4; j++) {
        unsigned r = y + j * 8;
        output[(col0 + r) * rows + row0 + x] = tile[x][r];
    }
}
