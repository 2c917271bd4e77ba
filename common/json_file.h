/*
 * json_file.h: a whole file read as one JSON value, as every reader of a
 * user's JSON wants it (diff's reports, merge's reports, verify's
 * records, a compile database): through read_file's limit, refused when
 * it holds a NUL byte (JSON spells one \u0000, and cJSON would stop there
 * as at the end) or anything but white space after the value.  Nothing
 * here prints: a failure comes back as what each caller words its way,
 * with its own path escaping.
 */
#ifndef SILK_JSON_FILE_H
#define SILK_JSON_FILE_H

#include <cjson/cJSON.h>

/* Why json_file_parse failed: the file did not read (errnum, as
 * read_file_error words it), or it is not one JSON value (errnum 0, and
 * the 1-based line and column where the parser stopped). */
typedef struct JsonFileError {
    int errnum;
    long line, col;
} JsonFileError;

/* The value in the file at `path`, at most `limit_mib` MiB (free with
 * cJSON_Delete); NULL with *why filled. */
cJSON *json_file_parse(const char *path, unsigned limit_mib, JsonFileError *why);

/* What follows the path in the message for *why, its separator first:
 * ": cannot read: REASON", ": larger than the N MiB limit" or
 * ":L:C: not valid JSON", into buf (so "PATH%s" is the message). */
const char *json_file_error(const JsonFileError *why, unsigned limit_mib, char *buf, size_t size);

#endif
