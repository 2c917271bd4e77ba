/*
 * diag.h: the one module that reports problems in Silk source.  Deep
 * modules call diag_error / diag_warning / diag_note and never print.
 *
 * Text form (GCC's):
 *   file:line:col: error: message [-Wname]
 *      12 |   O[0, 0] = i32(ctx.warps)
 *         |             ^~~
 *   file:line:col: note: ...
 * with colour only on a terminal (NO_COLOR turns it off).  JSON form
 * (-fdiagnostics-format=json): one array of records shaped like GCC's,
 * written by diag_finish; nothing else goes to stderr then.
 */
#ifndef SILK_DIAG_H
#define SILK_DIAG_H

#include "source.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum WarningId {
#define WARNING(e, name, on, help) W_##e,
#include "warnings.def"
#undef WARNING
    W_COUNT,
    W_NONE = W_COUNT, /* an error: no warning name */
} WarningId;

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;
typedef enum DiagFormat { DIAG_TEXT, DIAG_JSON } DiagFormat;

typedef struct DiagRecord DiagRecord;

typedef struct Diag {
    const SourceMap *sources;
    FILE *out;                 /* stderr */
    const char *program;       /* "silkc: error: ..." for no place in the source; NULL: silkc */
    DiagFormat format;
    bool colour;
    int error_limit;           /* stop reporting (and compiling) after this many errors; 0: none */
    bool enabled[W_COUNT];
    bool as_error[W_COUNT];
    bool all_warnings_error;   /* -Werror */
    int errors, warnings;
    bool last_shown;           /* whether a note attaches to a shown record */
    DiagRecord *json_head, *json_tail; /* JSON records, written by diag_finish */
    Arena *arena;
} Diag;

void diag_init(Diag *d, const SourceMap *sources, Arena *arena, FILE *out);

/* A command-line option of the diagnostics: -W<name>, -Wno-<name>, -Werror,
 * -Werror=<name>, -Wno-error=<name>, -ferror-limit=N,
 * -fdiagnostics-format=text|json, -fcolor-diagnostics,
 * -fno-color-diagnostics.  Returns false if `arg` is not one of them or is
 * malformed (then *problem says why, for the caller's usage error). */
bool diag_option(Diag *d, const char *arg, const char **problem);

void diag_error(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same with a va_list, for modules with error helpers of their own. */
void diag_verror(Diag *d, Span at, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
void diag_warning(Diag *d, WarningId w, Span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A note attached to the last error or warning (dropped if that was). */
void diag_note(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A message about no place in the source, from the driver (a missing file,
 * an option's value, a tool that failed).  Text: "silkc: error: message",
 * as given (the caller escapes what it quotes), uncoloured, with a line end
 * unless the message has one; JSON: a record with empty "locations".  Not
 * counted in `errors` nor held back by the error limit: the driver's exit
 * status tells.  `d` may be NULL (before there is a Diag): text on stderr. */
void diag_vplain(Diag *d, DiagLevel level, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* Memory ran short (the compilation's arena, arena_on_failure): "silkc:
 * error: out of memory", or in the JSON form the array so far with that
 * record last, written now, since nothing more comes; without the arena. */
void diag_out_of_memory(Diag *d);

/* A line that already says where and what (the CPU backend's fault:
 * "k.silk:4:5: kernel k, CTA 0, thread 0: ..."): text as it is, JSON an
 * error whose message is the line, with empty "locations". */
void diag_line(Diag *d, const char *line);

/* True once the error limit is reached: callers stop early. */
bool diag_too_many(const Diag *d);

/* Writes the JSON array (JSON format) or the "N errors" summary line, when
 * there were errors past the limit. */
void diag_finish(Diag *d);

/* The name of a warning ("partial-warp"), or NULL for W_NONE. */
const char *diag_warning_name(WarningId w);

#endif
