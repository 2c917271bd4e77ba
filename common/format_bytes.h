/*
 * format_bytes.h: sizes for people, as every program and library of the
 * tree words them in its messages and reports.
 */
#ifndef SILK_FORMAT_BYTES_H
#define SILK_FORMAT_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* "48 KiB", "1.5 KiB" or "200 B", written to buf. */
const char *format_bytes(uint64_t bytes, char *buf, size_t size);
/* Two sizes compared in one message: as format_bytes, but both in bytes
 * when either is not a whole number of KiB, whose two decimals could hide
 * the difference ("49153 B ... above the 49152 B limit", not "48.00 KiB
 * ... above the 48 KiB limit"). */
void format_bytes_pair(uint64_t a, char *a_buf, uint64_t b, char *b_buf, size_t size);

#endif
