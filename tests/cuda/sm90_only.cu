// corpus: a kernel that exists only on some targets.  scale_rows_sm90 is
// compiled for sm_90 and newer only; the guard keeps it visible to the
// host pass (the launcher below still compiles, and fails at run time on
// an older GPU), so sm_80 and sm_86 list one kernel, sm_90 and sm_120 two.
__global__ void scale_rows(float *m, const float *scale, int rows, int cols)
{
    int r = blockIdx.y;
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += gridDim.x * blockDim.x)
        m[(long)r * cols + c] *= scale[r];
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__global__ void __launch_bounds__(512) scale_rows_sm90(float *m, const float *scale, int rows,
                                                       int cols)
{
    __shared__ float row_scale[8];
    if (threadIdx.x < 8 && blockIdx.y * 8 + threadIdx.x < rows)
        row_scale[threadIdx.x] = scale[blockIdx.y * 8 + threadIdx.x];
    __syncthreads();
    for (int i = 0; i < 8 && blockIdx.y * 8 + i < rows; i++) {
        long row = (long)(blockIdx.y * 8 + i) * cols;
        for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += gridDim.x * blockDim.x)
            m[row + c] *= row_scale[i];
    }
}
#endif

#ifndef __CUDA_ARCH__
void scale(float *m, const float *s, int rows, int cols, bool hopper)
{
    if (hopper)
        scale_rows_sm90<<<dim3(16, (rows + 7) / 8), 512>>>(m, s, rows, cols);
    else
        scale_rows<<<dim3(16, rows), 256>>>(m, s, rows, cols);
}
#endif
