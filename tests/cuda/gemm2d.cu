// corpus: 2-D GEMM-like kernels, C = A B, row-major.  tile_gemm: one
// output per thread in a 16x16 CTA, 16x16 tiles of A and B in shared
// memory.  reg_gemm: a 64x64 tile per 256-thread CTA, 4x4 outputs per
// thread held in registers, tiles double-buffered in shared memory.
__global__ void __launch_bounds__(256)
    tile_gemm(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[16][17], bs[16][17];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < k; t += 16) {
        as[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[row * k + t + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? b[(t + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int j = 0; j < 16; j++)
            sum += as[threadIdx.y][j] * bs[j][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

__global__ void __launch_bounds__(256, 2)
    reg_gemm(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[2][8][64], bs[2][8][64];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
    float acc[4][4] = {};
    int buf = 0;
    for (int t = 0; t < k; t += 8, buf ^= 1) {
        for (int e = threadIdx.x; e < 8 * 64; e += 256) {
            int kk = e / 64, mm = e % 64;
            as[buf][kk][mm] = row0 + mm < m && t + kk < k ? a[(row0 + mm) * k + t + kk] : 0.0f;
            bs[buf][kk][mm] = col0 + mm < n && t + kk < k ? b[(t + kk) * n + col0 + mm] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 8; kk++)
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] += as[buf][kk][ty * 4 + i] * bs[buf][kk][tx * 4 + j];
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (row0 + ty * 4 + i < m && col0 + tx * 4 + j < n)
                c[(row0 + ty * 4 + i) * n + col0 + tx * 4 + j] = acc[i][j];
}
