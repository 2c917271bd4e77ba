/*
 * fatbin.h: the entries of the CUDA fat binaries nvcc writes (a .fatbin
 * file, and the .nv_fatbin and __nv_relfatbin sections of the host
 * executables, libraries and objects it builds), read from a file
 * descriptor a container and an entry header at a time, and one entry's
 * payload read and decompressed on request.  So a 1 GB library costs the
 * memory of its largest entry, never of its fatbin.
 *
 * No packaged parser of the format exists; fatbin.c says what each field
 * is and how that was checked.  Every size is bounds-checked against the
 * bytes given: a truncated, corrupt or hostile fatbin gives one line of
 * error text (no file name; the caller adds it), never a crash, a read
 * outside the range or an allocation a header merely asks for.  Nothing
 * here prints.
 */
#ifndef SILK_FATBIN_H
#define SILK_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum FatbinKind { FATBIN_PTX = 1, FATBIN_ELF = 2 } FatbinKind;
typedef enum FatbinCompression { FATBIN_PLAIN, FATBIN_LZ4, FATBIN_ZSTD } FatbinCompression;

/* One PTX or cubin entry: where its payload is and what it is for. */
typedef struct FatbinEntry {
    FatbinKind kind;
    int arch;                      /* 80: sm_80 (a cubin) or compute_80 (PTX) */
    int unit;                      /* its container, in file order: a translation unit */
    uint64_t offset;               /* the payload's first byte in the file */
    uint64_t stored;               /* its bytes in the file */
    uint64_t size;                 /* its bytes once decompressed */
    FatbinCompression compression;
} FatbinEntry;

/* The entries of everything listed so far (fatbin_list appends). */
typedef struct FatbinList {
    FatbinEntry *entries;          /* malloc'd */
    int n, cap;
    int n_units;                   /* containers seen */
} FatbinList;

/* Appends the entries of the containers that fill the `size` bytes at
 * `offset` of `fd` (a section, a .fatbin file) to `list`; entries of other
 * kinds than PTX and cubin are passed over.  False with one line in
 * `error` when the bytes are not such containers. */
bool fatbin_list(int fd, uint64_t offset, uint64_t size, FatbinList *list, char *error,
                 size_t error_size);

/* Entry e's payload, decompressed, malloc'd with a NUL after its *len
 * bytes; NULL with one line in `error`. */
char *fatbin_read_entry(int fd, const FatbinEntry *e, size_t *len, char *error, size_t error_size);

void fatbin_free(FatbinList *list);

/* The magic number that starts every container (little-endian). */
enum { FATBIN_MAGIC = 0xBA55ED50u };

#endif
