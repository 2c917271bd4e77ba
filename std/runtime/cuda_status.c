/*
 * cuda_status.c: the words of each status (cuda_status.def) and the one
 * line a CudadrvError makes (cuda_driver.h).
 */
#include "cuda_driver.h"

#include <stdio.h>

const char *cudadrv_status_words(CudadrvStatus status)
{
    static const char *const words[] = {
#define CUDADRV_STATUS(name, text) [CUDADRV_##name] = text,
#include "cuda_status.def"
#undef CUDADRV_STATUS
    };
    if ((size_t)status >= sizeof words / sizeof *words)
        return "unknown status";
    return words[status];
}

/* "WORDS[: CALL: NAME (N)][: DETAIL]" */
const char *cudadrv_message(const CudadrvError *e, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s", cudadrv_status_words(e->status));
    if (e->call && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ": %s: %s (%d)", e->call, e->result_name, e->result);
    if (e->detail[0] && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ": %s", e->detail);
    return buf;
}
