// pins_cub.cu (tests/report/pins.sh): CUB from the toolkit, whose
// DeviceReduce::Sum emits DeviceReduceKernel and DeviceReduceSingleTileKernel
// with their policy's __launch_bounds__ (the size CUB launches them at)
// and EmptyKernel with none.
#include <cub/device/device_reduce.cuh>

cudaError_t sum(void *scratch, size_t &bytes, const float *in, float *out, int n)
{
    return cub::DeviceReduce::Sum(scratch, bytes, in, out, n);
}
