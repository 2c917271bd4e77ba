/*
 * hip_status.c: the words of each status (hip_status.def) and the one
 * line a HipdrvError makes (hip_driver.h).
 */
#include "hip_driver.h"

#include <stdio.h>

const char *hipdrv_status_words(HipdrvStatus status)
{
    static const char *const words[] = {
#define HIPDRV_STATUS(name, text) [HIPDRV_##name] = text,
#include "hip_status.def"
#undef HIPDRV_STATUS
    };
    if ((size_t)status >= sizeof words / sizeof *words)
        return "unknown status";
    return words[status];
}

/* "WORDS[: CALL: NAME (N)][: DETAIL]" */
const char *hipdrv_message(const HipdrvError *e, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s", hipdrv_status_words(e->status));
    if (e->call && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ": %s: %s (%d)", e->call, e->result_name, e->result);
    if (e->detail[0] && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ": %s", e->detail);
    return buf;
}
