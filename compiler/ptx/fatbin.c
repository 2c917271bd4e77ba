/*
 * fatbin.c: reading CUDA fat binaries (fatbin.h).
 *
 * The layout, all little-endian, as measured here on nvcc 13.0's output
 * (nvcc -fatbin, -c and -c -rdc=true, linked executables and shared
 * objects; -gencode for sm_80, sm_90, sm_100 and compute_90;
 * --compress-mode=speed, =size, --no-compress and the default), each
 * field dumped with python's struct from `objcopy -O binary
 * --only-section=.nv_fatbin` (and __nv_relfatbin), checked against what
 * cuobjdump lists for the same files and against one public
 * reverse-engineered description (nvopen-tools' FORMAT_SPECIFICATION.md,
 * which agrees on every field used here):
 *
 *   container header, 16 bytes:
 *     u32 magic 0xBA55ED50, u16 version 1, u16 header size (16),
 *     u64 bytes of entries that follow the header.
 *   A section holds one container per translation unit, back to back;
 *   every size in them is a multiple of 8, so each starts 8-aligned (the
 *   linker's section alignment) and no padding was seen between them; a
 *   run of zero bytes up to MAX_PADDING is passed over all the same.
 *
 *   entry header (64 bytes, longer for some: 80 for PTX, 96 for PTX in
 *   __nv_relfatbin, 112 for sm_100+ cubins; the extra bytes are unused
 *   here), then the payload, then the next entry:
 *     +0  u16 kind: 1 PTX, 2 ELF (a cubin); others are passed over
 *     +2  u16 0x0101
 *     +4  u32 header size
 *     +8  u64 payload bytes, padded to 8: the next entry is at
 *             +header size + this
 *     +16 u32 compressed bytes (0 when not compressed)
 *     +28 u32 architecture: 80 for sm_80 or compute_80, 120 for sm_120
 *     +40 u64 flags: 0x2000 LZ4 (--compress-mode=speed), 0x8000 Zstandard
 *             (=size, and the default for PTX)
 *     +56 u64 bytes once decompressed (0 when not compressed)
 *   An LZ4 payload is one LZ4 block (not a frame: LZ4_decompress_safe
 *   gives exactly the stated size); a Zstandard one a frame.  A PTX
 *   payload ends in NULs up to its padded size.
 *
 * Every entry is bounded by its container and every container by the
 * bytes given; a payload above READ_FILE_CODE_LIMIT_MIB (decompressed or
 * not) is refused when listed, before anything is read or allocated.
 */
#include "fatbin.h"

#include "read_file.h"

#include <errno.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

enum {
    CONTAINER_HEADER = 16,
    ENTRY_HEADER_MIN = 64,
    ENTRY_HEADER_MAX = 4096, /* measured at most 112 */
    MAX_PADDING = 4096,
    FLAG_LZ4 = 0x2000,
    FLAG_ZSTD = 0x8000,
};

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* All n bytes at `offset`, or false (a short file, an error). */
static bool read_at(int fd, void *buf, size_t n, uint64_t offset)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = pread(fd, p, n, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        p += got;
        n -= (size_t)got;
        offset += (uint64_t)got;
    }
    return true;
}

static bool add_entry(FatbinList *list, const FatbinEntry *e, char *error, size_t size)
{
    if (list->n == list->cap) {
        int cap = list->cap ? list->cap * 2 : 16;
        FatbinEntry *grown = cap > list->cap ? realloc(list->entries, (size_t)cap * sizeof *grown)
                                             : NULL;
        if (!grown) {
            snprintf(error, size, "out of memory for %d fatbin entries", list->n);
            return false;
        }
        list->entries = grown;
        list->cap = cap;
    }
    list->entries[list->n++] = *e;
    return true;
}

/* The entry whose header is `h` (ENTRY_HEADER_MIN bytes) at `at`, with
 * `left` bytes of its container from there, into *e; its full header
 * size and padded payload in *step.  False with the reason said. */
static bool parse_entry(const unsigned char *h, uint64_t at, uint64_t left, FatbinEntry *e,
                        uint64_t *step, char *error, size_t size)
{
    uint64_t header = le(h + 4, 4), padded = le(h + 8, 8), stored = le(h + 16, 4);
    uint64_t flags = le(h + 40, 8), unpacked = le(h + 56, 8), limit = READ_FILE_MIB(READ_FILE_CODE_LIMIT_MIB);
    if (header < ENTRY_HEADER_MIN || header > ENTRY_HEADER_MAX || header > left ||
        padded > left - header) {
        snprintf(error, size, "fatbin entry at offset %llu: its header (%llu bytes) and payload "
                              "(%llu bytes) overrun its container (%llu bytes left)",
                 (unsigned long long)at, (unsigned long long)header, (unsigned long long)padded,
                 (unsigned long long)left);
        return false;
    }
    *step = header + padded;
    bool lz4 = flags & FLAG_LZ4, zstd = flags & FLAG_ZSTD;
    *e = (FatbinEntry){.kind = (FatbinKind)le(h, 2), .arch = (int)le(h + 28, 4),
                       .offset = at + header, .stored = lz4 || zstd ? stored : padded,
                       .size = lz4 || zstd ? unpacked : padded,
                       .compression = lz4 ? FATBIN_LZ4 : zstd ? FATBIN_ZSTD : FATBIN_PLAIN};
    const char *bad = lz4 && zstd                    ? "says it is both LZ4 and Zstandard"
                      : e->stored > padded           ? "stores more bytes than its payload holds"
                      : e->size > limit              ? "is larger than the 256 MiB limit"
                      : (lz4 || zstd) && !e->stored  ? "is compressed to nothing"
                                                     : NULL;
    if (bad)
        snprintf(error, size, "fatbin entry at offset %llu %s (%llu bytes stored, %llu "
                              "decompressed)", (unsigned long long)at, bad,
                 (unsigned long long)e->stored, (unsigned long long)e->size);
    return !bad;
}

/* The entries of one container of `size` bytes at `at`. */
static bool list_container(int fd, uint64_t at, uint64_t size, FatbinList *list, char *error,
                           size_t error_size)
{
    int unit = list->n_units++;
    for (uint64_t pos = 0; pos < size;) {
        unsigned char h[ENTRY_HEADER_MIN];
        if (size - pos < sizeof h || !read_at(fd, h, sizeof h, at + pos)) {
            snprintf(error, error_size, "fatbin entry at offset %llu is cut short",
                     (unsigned long long)(at + pos));
            return false;
        }
        FatbinEntry e;
        uint64_t step;
        if (!parse_entry(h, at + pos, size - pos, &e, &step, error, error_size))
            return false;
        e.unit = unit;
        if ((e.kind == FATBIN_PTX || e.kind == FATBIN_ELF) && !add_entry(list, &e, error, error_size))
            return false;
        pos += step;
    }
    return true;
}

bool fatbin_list(int fd, uint64_t offset, uint64_t size, FatbinList *list, char *error,
                 size_t error_size)
{
    uint64_t padding = 0;
    for (uint64_t pos = 0; pos < size;) {
        unsigned char h[CONTAINER_HEADER];
        uint64_t at = offset + pos;
        if (size - pos < sizeof h || !read_at(fd, h, sizeof h, at)) {
            snprintf(error, error_size, "fatbin container at offset %llu is cut short (%llu "
                     "bytes left, a header is %d)", (unsigned long long)at,
                     (unsigned long long)(size - pos), CONTAINER_HEADER);
            return false;
        }
        if (le(h, 8) == 0 && pos > 0 && (padding += 8) <= MAX_PADDING) {
            pos += 8; /* zero padding between two units' containers */
            continue;
        }
        uint64_t magic = le(h, 4), version = le(h + 4, 2), header = le(h + 6, 2), body = le(h + 8, 8);
        if (magic != FATBIN_MAGIC || version != 1 || header < CONTAINER_HEADER) {
            snprintf(error, error_size, "no fatbin container at offset %llu (magic 0x%08llx, "
                     "version %llu, want 0x%08x, 1)", (unsigned long long)at,
                     (unsigned long long)magic, (unsigned long long)version, FATBIN_MAGIC);
            return false;
        }
        if (header > size - pos || body > size - pos - header) {
            snprintf(error, error_size, "fatbin container at offset %llu claims %llu bytes, and "
                     "%llu are left", (unsigned long long)at,
                     (unsigned long long)body, (unsigned long long)(size - pos - sizeof h));
            return false;
        }
        if (!list_container(fd, at + header, body, list, error, error_size))
            return false;
        pos += header + body;
        padding = 0;
    }
    return true;
}

/* The payload decompressed from `in`, into the e->size bytes of `out`. */
static bool decompress(const FatbinEntry *e, const char *in, char *out, char *error, size_t size)
{
    if (e->compression == FATBIN_LZ4) {
        int got = LZ4_decompress_safe(in, out, (int)e->stored, (int)e->size);
        if (got >= 0 && (uint64_t)got == e->size)
            return true;
        snprintf(error, size, "fatbin entry at offset %llu: its LZ4 payload does not decompress "
                 "to the %llu bytes its header states", (unsigned long long)e->offset,
                 (unsigned long long)e->size);
        return false;
    }
    size_t got = ZSTD_decompress(out, e->size, in, e->stored);
    if (!ZSTD_isError(got) && got == e->size)
        return true;
    snprintf(error, size, "fatbin entry at offset %llu: its Zstandard payload does not "
             "decompress to the %llu bytes its header states (%s)", (unsigned long long)e->offset,
             (unsigned long long)e->size, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "size");
    return false;
}

char *fatbin_read_entry(int fd, const FatbinEntry *e, size_t *len, char *error, size_t error_size)
{
    /* Sizes were bounded when listed (parse_entry): both fit an int. */
    char *stored = malloc(e->stored + 1);
    char *out = e->compression == FATBIN_PLAIN ? stored : malloc(e->size + 1);
    bool ok = stored && out;
    if (!ok)
        snprintf(error, error_size, "out of memory for a fatbin entry of %llu bytes",
                 (unsigned long long)e->size);
    else if (!(ok = read_at(fd, stored, e->stored, e->offset)))
        snprintf(error, error_size, "fatbin entry at offset %llu: cannot read its %llu bytes",
                 (unsigned long long)e->offset, (unsigned long long)e->stored);
    else if (out != stored)
        ok = decompress(e, stored, out, error, error_size);
    if (out != stored)
        free(stored);
    if (!ok) {
        free(out);
        return NULL;
    }
    out[e->size] = '\0';
    *len = e->size;
    return out;
}

void fatbin_free(FatbinList *list)
{
    free(list->entries);
    *list = (FatbinList){0};
}
