/*
 * format_bytes.c: sizes for people (format_bytes.h).
 */
#include "format_bytes.h"

#include <stdbool.h>
#include <stdio.h>

const char *format_bytes(uint64_t bytes, char *buf, size_t size)
{
    if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, size, "%llu KiB", (unsigned long long)(bytes / 1024));
    else if (bytes >= 1024)
        snprintf(buf, size, "%.2f KiB", (double)bytes / 1024);
    else
        snprintf(buf, size, "%llu B", (unsigned long long)bytes);
    return buf;
}

void format_bytes_pair(uint64_t a, char *a_buf, uint64_t b, char *b_buf, size_t size)
{
    format_bytes(a, a_buf, size);
    format_bytes(b, b_buf, size);
    bool a_rounded = a >= 1024 && a % 1024, b_rounded = b >= 1024 && b % 1024;
    if (a_rounded || b_rounded) {
        snprintf(a_buf, size, "%llu B", (unsigned long long)a);
        snprintf(b_buf, size, "%llu B", (unsigned long long)b);
    }
}
