/*
 * source.c: the files of a compilation and their line tables.
 *
 * Every file's text is copied into the arena with a NUL after it (the lexer
 * uses it as a sentinel), and the offset where each line starts is recorded
 * once, in the same pass, so that a diagnostic turns a byte offset into a
 * line and column with one binary search.  A line starts at offset 0 and
 * after every line end that is not the last byte of the file: a final
 * newline ends the last line rather than opening an empty one (as Go's
 * token.File does), so the end-of-file offset of "a\n" is line 1, column 3.
 * A line end is "\n", "\r\n" or a lone "\r" (classic Mac files), as the
 * lexer counts them.
 *
 * Offsets are 32-bit.  A text over SOURCE_MAX_BYTES (1 GiB) is refused,
 * which keeps every offset inside uint32_t, and also the lexer's token
 * count (each token or inserted semicolon owns at least one byte, so there
 * are at most the length plus two) and its doubling array.  A file is read
 * by read_file (common/read_file.h), whose smaller limit for code
 * (READ_FILE_CODE_LIMIT_MIB) applies first and is the one users meet.
 * source_add_file reports a refusal as EFBIG; source_add_text, whose
 * uint32_t result has no error value in source.h, returns UINT32_MAX with
 * errno EFBIG.
 */
#include "source.h"

#include "arena.h"
#include "read_file.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { SOURCE_MAX_BYTES = 1 << 30 };

void source_map_init(SourceMap *map, Arena *arena)
{
    map->arena = arena;
    map->files = NULL;
    map->n_files = 0;
}

/* Room for one more file.  The capacity is implied by the count (the next
 * power of two), since SourceMap has no field for it. */
static SourceFile *append_file(SourceMap *map)
{
    uint32_t n = map->n_files;
    if (n == 0 || (n & (n - 1)) == 0)
        map->files = arena_grow(map->arena, map->files, n, n ? 2 * (size_t)n : 1, sizeof *map->files);
    map->n_files = n + 1;
    return &map->files[n];
}

/* Just past the first line end in [p, end): a '\n', a "\r\n" or a lone
 * '\r'; NULL when there is none. */
static const char *next_line_start(const char *p, const char *end)
{
    for (; p < end; p++) {
        if (*p == '\n')
            return p + 1;
        if (*p == '\r')
            return p + 1 < end && p[1] == '\n' ? p + 2 : p + 1;
    }
    return NULL;
}

/* Offsets of the starts of lines in text[0, len).  One pass of memchr; the
 * table doubles in the arena, which grows it in place while nothing else
 * is allocated. */
static uint32_t *find_line_starts(Arena *arena, const char *text, uint32_t len, uint32_t *n_lines)
{
    size_t capacity = 64 + len / 32;
    uint32_t *starts = arena_alloc(arena, capacity, sizeof *starts);
    uint32_t n = 0;
    starts[n++] = 0;
    const char *p = text, *end = text + len;
    while ((p = next_line_start(p, end)) != NULL && p < end) {
        if (n == capacity) {
            starts = arena_grow(arena, starts, capacity, 2 * capacity, sizeof *starts);
            capacity *= 2;
        }
        starts[n++] = (uint32_t)(p - text);
    }
    *n_lines = n;
    return starts;
}

uint32_t source_add_text(SourceMap *map, const char *path, const char *text, size_t len)
{
    if (len > SOURCE_MAX_BYTES) {
        errno = EFBIG;
        return UINT32_MAX;
    }
    SourceFile *file = append_file(map);
    file->path = arena_strndup(map->arena, path, strlen(path));
    file->text = arena_strndup(map->arena, text, len);
    file->len = (uint32_t)len;
    file->line_starts = find_line_starts(map->arena, file->text, file->len, &file->n_lines);
    return map->n_files - 1;
}

long source_add_file(SourceMap *map, const char *path)
{
    size_t len = 0;
    char *text = read_file(path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!text)
        return -1; /* errno: the reason, EFBIG past the limit */
    uint32_t index = source_add_text(map, path, text, len);
    int saved = errno;
    free(text);
    errno = saved;
    return index == UINT32_MAX ? -1 : (long)index;
}

void source_line_col(const SourceFile *file, uint32_t offset, uint32_t *line, uint32_t *col)
{
    assert(offset <= file->len);
    /* The last line whose start is <= offset; line_starts[0] is 0. */
    uint32_t lo = 0, hi = file->n_lines;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (file->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    *col = offset - file->line_starts[lo] + 1;
}

const char *source_line_text(const SourceFile *file, uint32_t line, uint32_t *len)
{
    if (line == 0 || line > file->n_lines) {
        *len = 0;
        return file->text + file->len; /* an empty line, not a crash */
    }
    uint32_t start = file->line_starts[line - 1];
    uint32_t end = line < file->n_lines ? file->line_starts[line] : file->len;
    if (end > start && file->text[end - 1] == '\n')
        end--;
    if (end > start && file->text[end - 1] == '\r') /* "\r\n", or a lone '\r' */
        end--;
    *len = end - start;
    return file->text + start;
}

Span source_span_join(Span a, Span b)
{
    assert(a.file == b.file);
    Span joined = a;
    if (b.start < joined.start)
        joined.start = b.start;
    if (b.end > joined.end)
        joined.end = b.end;
    return joined;
}
