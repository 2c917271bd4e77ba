/*
 * rdc_kernels.cu: kernels for check_cubin's relocatable-code tests, built
 * with nvcc -cubin -rdc=true (and nvcc -ptx -rdc=true, then ptxas).  It
 * refers to a function, a variable and a kernel that no file defines, as
 * a file of a larger program would: a relocatable build needs none of them.
 *
 *   tiled           32 KiB of static shared memory (more than the whole
 *                   cubin: its .nv.shared section ends past the file's
 *                   end) and a call to a function of another file
 *   direct_dynamic  dynamic shared memory, in its own code
 *   callee_dynamic  dynamic shared memory, only through a callee here
 *   static_only     static shared memory only
 *   parent          a device-side launch of a kernel of another file
 */

extern __device__ float blend(float a, float b); /* another file's */
extern __device__ int offsets[16];               /* another file's */
extern __global__ void child(int *data, int n);  /* another file's */

extern __shared__ float pool[]; /* the launch's dynamic shared memory */

__global__ void tiled(float *out, const float *in)
{
    __shared__ float tile[8192];
    unsigned t = threadIdx.x;
    tile[t] = in[t] + offsets[t & 15];
    __syncthreads();
    out[t] = blend(tile[t], tile[(t * 33) & 8191]);
}

__global__ void direct_dynamic(float *out)
{
    pool[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = pool[blockDim.x - 1 - threadIdx.x];
}

__device__ __noinline__ void stash(float v)
{
    pool[threadIdx.x] = v;
}

__global__ void callee_dynamic(float *out)
{
    stash(out[threadIdx.x] * 2.0f);
    __syncthreads();
    out[threadIdx.x] = 1.0f;
}

__global__ void static_only(float *out)
{
    __shared__ float row[64];
    row[threadIdx.x & 63] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = row[(threadIdx.x + 1) & 63];
}

__global__ void parent(int *data, int n)
{
    if (threadIdx.x == 0)
        child<<<(n + 127) / 128, 128>>>(data, n);
}
