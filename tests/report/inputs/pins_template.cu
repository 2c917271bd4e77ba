// pins_template.cu (tests/report/pins.sh): a block size that is a template
// argument.  stage<TPB> indexes by TPB, not blockDim.x, so a launch with
// any other block size skips or repeats elements: its __launch_bounds__
// maximum is TPB, which the report must point out (and pin with
// --fixed-block-size).  Each CTA stages TPB * 4 floats in shared memory.
template <int TPB>
__global__ void __launch_bounds__(TPB) stage(const float *in, float *out, int n)
{
    __shared__ float tile[TPB * 4];
    int base = blockIdx.x * TPB * 4;
    for (int j = 0; j < 4; j++) {
        int i = base + j * TPB + threadIdx.x;
        tile[j * TPB + threadIdx.x] = i < n ? in[i] : 0.0f;
    }
    __syncthreads();
    for (int j = 0; j < 4; j++) {
        int i = base + j * TPB + threadIdx.x;
        if (i < n)
            out[i] = tile[(4 * TPB - 1) - (j * TPB + threadIdx.x)];
    }
}

template __global__ void stage<128>(const float *, float *, int);
template __global__ void stage<512>(const float *, float *, int);
