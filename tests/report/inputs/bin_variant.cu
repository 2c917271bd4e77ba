// bin_variant.cu: one template instance whose figures depend on a macro,
// for tests/report/binary.sh.  Compiled twice into one shared object,
// -DSTAGE=256 and -DSTAGE=1024, it is two definitions of one symbol
// (as libcurand has): the report keeps both, each named by its unit.
#ifndef STAGE
#define STAGE 256
#endif

template <int N>
__global__ void stage_copy(const float *in, float *out)
{
    __shared__ float stage[STAGE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    stage[threadIdx.x % STAGE] = in[i] * N;
    __syncthreads();
    out[i] = stage[(threadIdx.x + 1) % STAGE];
}

template __global__ void stage_copy<2>(const float *, float *);
