// cluster.cu: kernels compiled for thread-block clusters (sm_90 and
// newer), for tests/report/cluster.sh.  Every kernel takes (float *x,
// int n), so that the test compiles the report's host code against them.

// A cluster of 4 CTAs along x, compiled in (PTX .reqnctapercluster 4, 1, 1).
__global__ void __cluster_dims__(4, 1, 1) ring4(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2.0f + 1.0f;
}

// A 2 x 2 cluster: only a grid with rows can hold it.
__global__ void __cluster_dims__(2, 2, 1) tile2x2(float *x, int n)
{
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

// At most 8 CTAs per cluster (__launch_bounds__'s third value,
// .maxclusterrank 8); the launch chooses the cluster.
__global__ void __launch_bounds__(128, 1, 8) ranked(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = -x[i];
}
