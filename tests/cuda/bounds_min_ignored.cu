// bounds: __launch_bounds__(1024, 2) asks for 2 CTAs of 1024 threads on
// an SM: sm_80 and sm_90 hold 2048 threads and meet it (ptxas caps the
// registers at 32), sm_120 holds 1536 and cannot, so ptxas warns that it
// ignores the minimum and allocates freely (tests/report/bounds.sh).
__global__ void __launch_bounds__(1024, 2) wide_pairs(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = i < n ? x[i] : 0.0f, s = 0.0f, p = 1.0f;
    for (int k = 0; k < 24; k++) {
        s += __expf(-a * (float)k) * __cosf(a + (float)k);
        p *= 1.0f + __sinf(s + (float)k) * 0.01f;
    }
    if (i < n)
        y[i] = s * p;
}
