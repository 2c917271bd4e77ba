// b.cu: another tile size, and scale<float> as a.cu has it.
#include "tile.h"
#include "kernels.h"

__global__ void tile_b(double *out, const double *in)
{
    __shared__ double tile[TILE];
    int t = threadIdx.x;
    tile[t % TILE] = in[blockIdx.x * TILE + t % TILE];
    __syncthreads();
    out[blockIdx.x * TILE + t % TILE] = tile[(TILE - 1 - t) % TILE];
}

template __global__ void scale<float>(float *, float, int);
