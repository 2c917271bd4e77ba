/*
 * le_bytes.h: little-endian stores for the tests that build ELF files
 * byte by byte (tests/unit/check_cubin.c, tests/report/craft_cubin.c):
 * a cubin is little-endian whatever the machine writing it.
 */
#ifndef SILK_TEST_LE_BYTES_H
#define SILK_TEST_LE_BYTES_H

#include <stdint.h>

static inline void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static inline void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

static inline void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

#endif
