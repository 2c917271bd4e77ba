// corpus: a fixed block size (.reqntid).  __block_size__ (sm_90 and newer)
// fixes the CTA's shape; below sm_90 the same kernels fall back to a
// __launch_bounds__ of the same size (.maxntid), so the permitted sizes
// differ per target.  Shapes: 128x1x1, 16x8x2 (256) and 10x10x1 (100, not
// a whole number of warps).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define FIXED_SIZE(x, y, z) __block_size__((x, y, z))
#else
#define FIXED_SIZE(x, y, z) __launch_bounds__((x) * (y) * (z))
#endif

__global__ void FIXED_SIZE(128, 1, 1) fixed_128(float *v, int n)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n)
        v[i] = sqrtf(fabsf(v[i]));
}

__global__ void FIXED_SIZE(16, 8, 2) fixed_16x8x2(float *vol, int nx, int ny, int nz)
{
    __shared__ float plane[2][8][17];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y,
        z = blockIdx.z * 2 + threadIdx.z;
    bool in = x < nx && y < ny && z < nz;
    long at = ((long)z * ny + y) * nx + x;
    plane[threadIdx.z][threadIdx.y][threadIdx.x] = in ? vol[at] : 0.0f;
    __syncthreads();
    if (in)
        vol[at] = plane[threadIdx.z ^ 1][threadIdx.y][15 - threadIdx.x];
}

__global__ void FIXED_SIZE(10, 10, 1) fixed_10x10(const float *img, float *out, int w, int h)
{
    int x = blockIdx.x * 10 + threadIdx.x, y = blockIdx.y * 10 + threadIdx.y;
    if (x + 1 < w && y + 1 < h && x > 0 && y > 0)
        out[y * w + x] = 4.0f * img[y * w + x] - img[y * w + x - 1] - img[y * w + x + 1] -
                         img[(y - 1) * w + x] - img[(y + 1) * w + x];
}
