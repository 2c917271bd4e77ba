// smem_bound.cu: kernels whose CTAs per SM shared memory decides, for the
// test of the cubin's shared memory on sm_90 and newer
// (tests/report/smem_reserved.sh) and its device check
// (tests/gpu/smem-attrs.sh).
//
// tile_31k: 32256 bytes of static shared memory.  With the driver's 1 KiB
// per-CTA reservation counted once (33280 bytes a CTA) 5 CTAs of 64
// threads fit on an sm_80 SM, 7 on sm_90, 3 on sm_120; counted twice
// (34304) 4, 6 and 2: a size that tells the two apart on every target.
// tile_3k: 3072 bytes, where CUDA 13's sm_90 cubin records 4096.
__global__ void tile_31k(float *out)
{
    __shared__ float tile[8064];
    for (int i = threadIdx.x; i < 8064; i += blockDim.x)
        tile[i] = (float)i;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[8063 - threadIdx.x];
}

__global__ void tile_3k(float *out)
{
    __shared__ float tile[768];
    tile[threadIdx.x % 768] = (float)threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[767 - threadIdx.x % 768];
}
