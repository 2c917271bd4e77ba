// corpus: __launch_bounds__ in its forms.  A bound that is not one of the
// usual block sizes (384), a bound with a minimum of CTAs per SM (which
// caps registers), a bound below 128 (96, with a minimum), the largest
// bound with a minimum of 1, __maxnreg__ (a register cap without a block
// bound), and no bound at all.
#define BODY                                                                                  \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    float a = i < n ? x[i] : 0.0f, s = 0.0f;                                                  \
    for (int k = 0; k < 24; k++)                                                              \
        s += __expf(-a * k) * __cosf(a + k);                                                  \
    if (i < n)                                                                                \
        y[i] = s;

__global__ void __launch_bounds__(384) bound_384(const float *x, float *y, int n) { BODY }
__global__ void __launch_bounds__(128, 6) bound_128_min6(const float *x, float *y, int n) { BODY }
__global__ void __launch_bounds__(96, 10) bound_96_min10(const float *x, float *y, int n) { BODY }
__global__ void __launch_bounds__(1024, 1) bound_1024_min1(const float *x, float *y, int n) { BODY }
__global__ void __maxnreg__(40) maxnreg_40(const float *x, float *y, int n) { BODY }
__global__ void unbounded(const float *x, float *y, int n) { BODY }
