/*
 * source.h: source files and positions.  A location is a byte span in one
 * file; line and column (1-based, columns in bytes) come from the file's
 * line table when a diagnostic is printed.
 */
#ifndef SILK_SOURCE_H
#define SILK_SOURCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct Arena Arena;

typedef struct Span {
    uint32_t file;  /* index in the SourceMap */
    uint32_t start; /* byte offset of the first byte */
    uint32_t end;   /* byte offset just past the last byte */
} Span;

typedef struct SourceFile {
    const char *path;
    const char *text; /* NUL-terminated */
    uint32_t len;
    uint32_t *line_starts; /* byte offset of each line */
    uint32_t n_lines;
} SourceFile;

typedef struct SourceMap {
    Arena *arena;
    SourceFile *files;
    uint32_t n_files;
} SourceMap;

void source_map_init(SourceMap *map, Arena *arena);

/* Adds a file whose text is given (copied); returns its index. */
uint32_t source_add_text(SourceMap *map, const char *path, const char *text, size_t len);

/* Reads a file; returns its index, or -1 with errno set. */
long source_add_file(SourceMap *map, const char *path);

/* 1-based line and column of a byte offset. */
void source_line_col(const SourceFile *file, uint32_t offset, uint32_t *line, uint32_t *col);

/* The text of line `line` (1-based) without its newline. */
const char *source_line_text(const SourceFile *file, uint32_t line, uint32_t *len);

/* The smallest span holding both. */
Span source_span_join(Span a, Span b);

#endif
