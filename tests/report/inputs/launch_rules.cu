// launch_rules.cu: kernels for tests/report/cluster.sh whose launch has
// rules beyond the block size: a plain kernel launched in clusters by
// --cluster, one that declares dynamic shared memory (sized by --dyn-smem
// or not at all).  Every kernel takes (float *x, int n).

__global__ void plain(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 3.0f;
}

// Reverses each CTA's slice through dynamic shared memory, one float per
// thread; --dyn-smem gives the bytes.
__global__ void staged(float *x, int n)
{
    extern __shared__ float slice[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    slice[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        x[i] = slice[blockDim.x - 1 - threadIdx.x];
}
