// c.cu: found its headers by relative -I from its own directory; its
// STAGE makes its stage<float> another kernel than a.cu's.
#include "tile.h"
#include "kernels.h"

__global__ void tile_c(int *out)
{
    __shared__ int tile[TILE];
    tile[threadIdx.x % TILE] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % TILE];
}

template __global__ void stage<float>(float *, const float *);
