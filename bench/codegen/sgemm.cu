// sgemm.cu: examples/sgemm.silk in CUDA C: a 32x32 block of C per CTA of
// 32x8 threads, 32-wide slabs of A and B through shared tiles, four
// accumulators per thread.  nvcc contracts acc += a * b into an fma, as
// the Silk source asks for with fma().
extern "C" __global__ void __launch_bounds__(256, 2)
sgemm(unsigned long long m, unsigned long long n, unsigned long long k, const float *a,
      const float *b, float *c)
{
    __shared__ float sa[32][32];
    __shared__ float sb[32][32];
    (void)m;
    unsigned long long blocks_x = n / 32;
    unsigned long long row0 = (blockIdx.x / blocks_x) * 32;
    unsigned long long col0 = (blockIdx.x % blocks_x) * 32;
    unsigned x = threadIdx.x % 32, y = threadIdx.x / 32;
    float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
    for (unsigned long long k0 = 0; k0 < k; k0 += 32) {
        for (unsigned j = 0; j < 4; j++) {
            unsigned r = y + j * 8;
            sa[r][x] = a[(row0 + r) * k + k0 + x];
            sb[r][x] = b[(k0 + r) * n + col0 + x];
        }
        __syncthreads();
        for (unsigned kk = 0; kk < 32; kk++) {
            float bv = sb[kk][x];
            acc0 += sa[y][kk] * bv;
            acc1 += sa[y + 8][kk] * bv;
            acc2 += sa[y + 16][kk] * bv;
            acc3 += sa[y + 24][kk] * bv;
        }
        __syncthreads();
    }
    c[(row0 + y) * n + col0 + x] = acc0;
    c[(row0 + y + 8) * n + col0 + x] = acc1;
    c[(row0 + y + 16) * n + col0 + x] = acc2;
    c[(row0 + y + 24) * n + col0 + x] = acc3;
}
