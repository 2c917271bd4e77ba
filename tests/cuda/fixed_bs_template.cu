// corpus: a template kernel whose block size is its argument: launched
// with BS x BS threads, bounded by __launch_bounds__(BS * BS).  BS = 8,
// 12 (144 threads: not a whole number of warps), 16 and 32 (1024).
template <int BS>
__global__ void __launch_bounds__(BS * BS) transpose_tile(const float *in, float *out, int w, int h)
{
    __shared__ float tile[BS][BS + 1];
    int x = blockIdx.x * BS + threadIdx.x, y = blockIdx.y * BS + threadIdx.y;
    if (x < w && y < h)
        tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * BS + threadIdx.x;
    y = blockIdx.x * BS + threadIdx.y;
    if (x < h && y < w)
        out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

template <int BS> void transpose(const float *in, float *out, int w, int h)
{
    transpose_tile<BS><<<dim3((w + BS - 1) / BS, (h + BS - 1) / BS), dim3(BS, BS)>>>(in, out, w, h);
}

template void transpose<8>(const float *, float *, int, int);
template void transpose<12>(const float *, float *, int, int);
template void transpose<16>(const float *, float *, int, int);
template void transpose<32>(const float *, float *, int, int);
