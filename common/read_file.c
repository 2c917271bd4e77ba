/*
 * read_file.c: reading a whole input file, bounded (read_file.h).
 *
 * The buffer starts at the file's size when it has one (a regular file)
 * and doubles from there, so a regular file is read in one or two calls;
 * the loop still reads until end of file rather than trusting st_size,
 * because a pipe, a device or a file that grows has no size to trust.  One
 * byte past the limit is asked for, so "exactly at the limit" and "over
 * it" are told apart without reading further.
 */
#include "read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The size of a regular file, 0 for what has none (or an empty file). */
static uintmax_t file_size(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 ? (uintmax_t)st.st_size
                                                                          : 0;
}

/* Makes room for at least one more byte below `cap` (the limit plus the
 * NUL); false with errno ENOMEM. */
static bool grow(char **buf, size_t *capacity, size_t cap)
{
    size_t bigger = *capacity < cap / 2 ? *capacity * 2 : cap;
    char *grown = realloc(*buf, bigger);
    if (!grown)
        return false;
    *buf = grown;
    *capacity = bigger;
    return true;
}

/* Reads fd to its end or to one byte past `limit`; false with errno. */
static bool read_bounded(int fd, size_t limit, char **text, size_t *len)
{
    uintmax_t size = file_size(fd);
    if (size > limit) {
        errno = EFBIG; /* said before a byte is read */
        return false;
    }
    /* Room for the file's own size (or 64 KiB), one byte more to see the
     * end of file in the same read, and the NUL. */
    size_t cap = limit + 2, capacity = (size ? (size_t)size : 1 << 16) + 2, n = 0;
    if (capacity > cap)
        capacity = cap;
    char *buf = malloc(capacity);
    if (!buf)
        return false;
    for (;;) {
        if (n + 1 == capacity && (capacity == cap || !grow(&buf, &capacity, cap)))
            break; /* past the limit, or out of memory (errno set) */
        ssize_t got = read(fd, buf + n, capacity - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got == 0)
                errno = 0;
            break;
        }
        n += (size_t)got;
    }
    if (n > limit)
        errno = EFBIG;
    if (errno) {
        int saved = errno;
        free(buf);
        errno = saved;
        return false;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return true;
}

char *read_file_fd(int fd, unsigned limit_mib, size_t *len)
{
    char *text = NULL;
    return read_bounded(fd, READ_FILE_MIB(limit_mib), &text, len) ? text : NULL;
}

char *read_file(const char *path, unsigned limit_mib, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    char *text = read_file_fd(fd, limit_mib, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return text;
}

const char *read_file_error(int errnum, unsigned limit_mib, char *buf, size_t size)
{
    if (errnum == EFBIG)
        snprintf(buf, size, "larger than the %u MiB limit", limit_mib);
    else
        snprintf(buf, size, "cannot read: %s", strerror(errnum ? errnum : EIO));
    return buf;
}

void read_file_position(const char *text, size_t len, const char *at, long *line, long *col)
{
    if (!at || at < text || at > text + len)
        at = text + len;
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}
