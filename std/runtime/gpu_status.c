/*
 * gpu_status.c: the words of each driver status (gpu_status.def) and the
 * one line a GpudrvError makes (gpu_driver.h), once for both drivers.
 */
#include "gpu_driver.h"

#include <stdio.h>

const char *gpudrv_status_words(GpudrvVendor vendor, GpudrvStatus status)
{
    static const char *const words[][2] = {
#define GPUDRV_STATUS(name, cuda_words, hip_words) [GPUDRV_##name] = {cuda_words, hip_words},
#include "gpu_status.def"
#undef GPUDRV_STATUS
    };
    if ((size_t)status >= sizeof words / sizeof *words || (unsigned)vendor > GPUDRV_HIP)
        return "unknown status";
    return words[status][vendor];
}

/* "WORDS[: CALL: NAME (N)][: DETAIL]" */
const char *gpudrv_message(GpudrvVendor vendor, const GpudrvError *e, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s", gpudrv_status_words(vendor, e->status));
    if (e->call && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ": %s: %s (%d)", e->call, e->result_name, e->result);
    if (e->detail[0] && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ": %s", e->detail);
    return buf;
}
