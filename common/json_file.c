/*
 * json_file.c: a whole file read as one JSON value (json_file.h).
 */
#include "json_file.h"

#include "read_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *json_file_parse(const char *path, unsigned limit_mib, JsonFileError *why)
{
    size_t len = 0;
    *why = (JsonFileError){0};
    char *text = read_file(path, limit_mib, &len);
    if (!text) {
        why->errnum = errno ? errno : EIO;
        return NULL;
    }
    const char *stop = memchr(text, '\0', len);
    cJSON *root = stop ? NULL : cJSON_ParseWithLengthOpts(text, len, &stop, false);
    while (root && stop && stop < text + len && strchr(" \t\r\n", *stop))
        stop++; /* what may follow the value */
    if (root && stop && stop < text + len) {
        cJSON_Delete(root); /* something after the value */
        root = NULL;
    }
    if (!root)
        read_file_position(text, len, stop, &why->line, &why->col);
    free(text);
    return root;
}

const char *json_file_error(const JsonFileError *why, unsigned limit_mib, char *buf, size_t size)
{
    char reason[160];
    if (why->errnum)
        snprintf(buf, size, ": %s", read_file_error(why->errnum, limit_mib, reason, sizeof reason));
    else
        snprintf(buf, size, ":%ld:%ld: not valid JSON", why->line, why->col);
    return buf;
}
