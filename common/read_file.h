/*
 * read_file.h: the one way silkc and silk-occ read an input file: all of
 * it, into memory, and never more than a stated limit.
 *
 * Every reader of a user's file goes through read_file: Silk sources,
 * .ptx and .cubin files, verify records (--replay) and architecture tables
 * (--arch-table).  The limit is checked while reading, not only against
 * the file's size, so that a link to /dev/zero, a FIFO or a growing file
 * stops at the limit with one clear error instead of reading until memory
 * runs out.  The limits are stated in silkc(1), silk-occ(1) and
 * silk-arch-tables(5).
 */
#ifndef SILK_READ_FILE_H
#define SILK_READ_FILE_H

#include <stddef.h>

/* Programs and compiled code: .silk, .ptx and .cubin files. */
enum { READ_FILE_CODE_LIMIT_MIB = 256 };
/* Data: architecture tables and verify records. */
enum { READ_FILE_DATA_LIMIT_MIB = 64 };

/* MiB in bytes. */
#define READ_FILE_MIB(mib) ((size_t)(mib) << 20)

/* The whole of the file at `path`, malloc'd, with a NUL after its `*len`
 * bytes (the text may hold NULs of its own).  NULL with errno set when it
 * cannot be opened or read, and EFBIG when it holds more than `limit_mib`
 * MiB. */
char *read_file(const char *path, unsigned limit_mib, size_t *len);

/* The same for what is left to read on an open descriptor (standard
 * input), which stays open. */
char *read_file_fd(int fd, unsigned limit_mib, size_t *len);

/* Why read_file failed with `errnum`, after the path: "larger than the
 * 256 MiB limit" for EFBIG, else "cannot read: " and strerror's text.
 * Written to buf. */
const char *read_file_error(int errnum, unsigned limit_mib, char *buf, size_t size);

/* The 1-based line and column (in bytes) of `at` in the `len` bytes read
 * at `text`, as a parser's error names it; an `at` outside the text (or
 * NULL) is taken as its end. */
void read_file_position(const char *text, size_t len, const char *at, long *line, long *col);

#endif
