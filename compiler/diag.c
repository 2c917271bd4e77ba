/*
 * diag.c: the diagnostics engine.  Every problem the compiler finds comes
 * here as a span and a message and leaves in one of two forms: GCC's text
 * (the location, the message, the source line under a numbered gutter and a
 * ^~~~ underline of the span, coloured on a terminal), or GCC's JSON, one
 * array of records that diag_finish writes at the end.  Here too are the
 * command-line options that decide which warnings are given, which of them
 * are errors, how many errors are shown and in which form.
 *
 * Everything lives in the caller's Diag; JSON records are kept in its arena
 * until diag_finish.  A note belongs to the error or warning before it and
 * shares its fate: when that one was not shown (a disabled warning, or an
 * error past -ferror-limit), neither is the note.
 */
#include "edit_distance.h"
#include "escape.h"
#include "diag.h"

#include "arena.h"
#include "colour.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_ERROR_LIMIT = 20 };

/* One diagnostic kept for the JSON array.  A note is a child of the error
 * or warning it belongs to, as in GCC's output. */
struct DiagRecord {
    DiagLevel level;    /* as shown: a warning made an error is DIAG_ERROR */
    const char *message;
    const char *option; /* "-Wname", "-Werror=name", "-Werror" or NULL */
    Span at;
    DiagRecord *children, *last_child;
    DiagRecord *next;
};

/* ---- the warnings ---------------------------------------------------------- */

typedef struct WarningInfo {
    const char *name;
    bool on_by_default;
} WarningInfo;

static const WarningInfo warning_table[W_COUNT] = {
#define WARNING(e, name, on, help) [W_##e] = {name, on},
#include "warnings.def"
#undef WARNING
};

static bool is_named(WarningId w)
{
    return (unsigned)w < (unsigned)W_COUNT;
}

const char *diag_warning_name(WarningId w)
{
    return is_named(w) ? warning_table[w].name : NULL;
}

static WarningId find_warning(const char *name)
{
    for (int w = 0; w < W_COUNT; w++)
        if (strcmp(warning_table[w].name, name) == 0)
            return (WarningId)w;
    return W_NONE;
}

/* ---- did you mean ------------------------------------------------------------ */

enum { MAX_NAME = 64 };


static void consider(const char *wanted, const char *candidate, const char **best, int *distance)
{
    int d = edit_distance(wanted, candidate, false);
    if (d < *distance) {
        *distance = d;
        *best = candidate;
    }
}

/* The warning name closest to `wanted`, or NULL when none is close: a third
 * of the name may be wrong, and at least one character, so that "bogus" is
 * not offered "all".  `with_groups` adds the names that are not warnings
 * but are spelled like one after -W (all, error). */
static const char *closest_warning(const char *wanted, bool with_groups)
{
    const char *best = NULL;
    int distance = MAX_NAME;
    for (int w = 0; w < W_COUNT; w++)
        consider(wanted, warning_table[w].name, &best, &distance);
    if (with_groups) {
        consider(wanted, "all", &best, &distance);
        consider(wanted, "error", &best, &distance);
    }
    int allowed = (int)strlen(wanted) / 3;
    return distance <= (allowed > 1 ? allowed : 1) ? best : NULL;
}

/* ---- small helpers ----------------------------------------------------------- */

static char *format_in_arena(Arena *arena, const char *fmt, va_list ap)
{
    va_list measure;
    va_copy(measure, ap);
    int n = vsnprintf(NULL, 0, fmt, measure);
    va_end(measure);
    if (n < 0)
        n = 0; /* an encoding error: an empty message beats none */
    char *text = arena_alloc(arena, (size_t)n + 1, 1);
    if (n > 0)
        vsnprintf(text, (size_t)n + 1, fmt, ap);
    return text;
}

static char *arena_printf(Arena *arena, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *arena_printf(Arena *arena, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = format_in_arena(arena, fmt, ap);
    va_end(ap);
    return text;
}

static bool has_prefix(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* The file a span is in, or NULL for a diagnostic about no place in the
 * source (a span whose file index is out of range). */
static const SourceFile *span_file(const Diag *d, Span at)
{
    if (!d->sources || at.file >= d->sources->n_files)
        return NULL;
    return &d->sources->files[at.file];
}

/* The span kept inside its file, so a caller's off-by-one past the end of
 * the text still points somewhere printable. */
static Span clamp_span(const SourceFile *file, Span at)
{
    if (at.start > file->len)
        at.start = file->len;
    if (at.end > file->len)
        at.end = file->len;
    if (at.end < at.start)
        at.end = at.start;
    return at;
}

/* ---- setup and options ------------------------------------------------------- */

void diag_init(Diag *d, const SourceMap *sources, Arena *arena, FILE *out)
{
    *d = (Diag){
        .sources = sources,
        .out = out,
        .format = DIAG_TEXT,
        .colour = colour_wanted(out), /* both programs' rule; -f[no-]color-diagnostics wins */
        .error_limit = DEFAULT_ERROR_LIMIT,
        .arena = arena,
    };
    for (int w = 0; w < W_COUNT; w++)
        d->enabled[w] = warning_table[w].on_by_default;
}

static void set_problem(const char **problem, const char *text)
{
    if (problem)
        *problem = text;
}

static void enable_all(Diag *d, bool on)
{
    for (int w = 0; w < W_COUNT; w++)
        d->enabled[w] = on;
}

/* -Werror and -Wno-error set every warning, so that a later -Wno-error=name
 * or -Werror=name changes just that one: for each warning the last option
 * that names it (or all) wins. */
static void make_all_errors(Diag *d, bool on)
{
    d->all_warnings_error = on;
    for (int w = 0; w < W_COUNT; w++)
        d->as_error[w] = on;
}

/* -Werror=name also enables the warning, as in GCC; -Wno-error=name leaves
 * it enabled or not, and takes it out of a -Werror given before. */
static void make_one_error(Diag *d, WarningId w, bool on)
{
    d->as_error[w] = on;
    if (on)
        d->enabled[w] = true;
    else
        d->all_warnings_error = false;
}

static bool unknown_warning(Diag *d, const char *arg, const char *name, bool with_groups,
                            const char **problem)
{
    const char *suggestion = closest_warning(name, with_groups);
    int prefix = (int)(name - arg); /* "-W", "-Wno-", "-Werror=" ... */
    if (suggestion)
        set_problem(problem, arena_printf(d->arena,
                                          "unknown warning option '%s'; did you mean '%.*s%s'?",
                                          QUOTED(arg), prefix, arg, suggestion));
    else
        set_problem(problem, arena_printf(d->arena, "unknown warning option '%s'", QUOTED(arg)));
    return false;
}

/* -W<name>, -Wno-<name>, -Wall, -Wno-all, -Werror, -Wno-error,
 * -Werror=<name>, -Wno-error=<name>. */
static bool warning_option(Diag *d, const char *arg, const char **problem)
{
    const char *name = arg + 2;
    bool on = !has_prefix(name, "no-");
    if (!on)
        name += 3;
    if (strcmp(name, "all") == 0) {
        enable_all(d, on);
        return true;
    }
    if (strcmp(name, "error") == 0) {
        make_all_errors(d, on);
        return true;
    }
    bool error_form = has_prefix(name, "error=");
    if (error_form)
        name += strlen("error=");
    WarningId w = find_warning(name);
    if (w == W_NONE)
        return unknown_warning(d, arg, name, !error_form, problem);
    if (error_form)
        make_one_error(d, w, on);
    else
        d->enabled[w] = on;
    return true;
}

/* A non-negative decimal int, digits only. */
static bool parse_count(const char *text, int *value)
{
    long n = 0;
    if (*text == '\0')
        return false;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        n = n * 10 + (*p - '0');
        if (n > INT_MAX)
            return false;
    }
    *value = (int)n;
    return true;
}

/* `arg` starts with `name`: "-ferror-limit=20".  Returns the value after
 * '=', or NULL: with *problem set when the value is missing, and left NULL
 * when the option is another one that merely starts the same
 * ("-ferror-limits"). */
static const char *option_value(Diag *d, const char *arg, const char *name, const char **problem)
{
    const char *rest = arg + strlen(name);
    if (*rest == '\0')
        set_problem(problem, arena_printf(d->arena, "'%s' needs a value: '%s=...'", QUOTED(arg),
                                          QUOTED(arg)));
    return *rest == '=' ? rest + 1 : NULL;
}

static bool error_limit_option(Diag *d, const char *arg, const char **problem)
{
    const char *value = option_value(d, arg, "-ferror-limit", problem);
    if (!value)
        return false;
    if (!parse_count(value, &d->error_limit)) {
        set_problem(problem, arena_printf(d->arena,
                                          "invalid value '%s' in '%s': expected a number of "
                                          "errors (0 for no limit)",
                                          QUOTED(value), QUOTED(arg)));
        return false;
    }
    return true;
}

static bool format_option(Diag *d, const char *arg, const char **problem)
{
    const char *value = option_value(d, arg, "-fdiagnostics-format", problem);
    if (!value)
        return false;
    if (strcmp(value, "text") == 0)
        d->format = DIAG_TEXT;
    else if (strcmp(value, "json") == 0)
        d->format = DIAG_JSON;
    else {
        set_problem(problem, arena_printf(d->arena,
                                          "invalid value '%s' in '%s': expected 'text' or 'json'",
                                          QUOTED(value), QUOTED(arg)));
        return false;
    }
    return true;
}

bool diag_option(Diag *d, const char *arg, const char **problem)
{
    set_problem(problem, NULL);
    if (has_prefix(arg, "-W"))
        return warning_option(d, arg, problem);
    if (has_prefix(arg, "-ferror-limit"))
        return error_limit_option(d, arg, problem);
    if (has_prefix(arg, "-fdiagnostics-format"))
        return format_option(d, arg, problem);
    if (strcmp(arg, "-fcolor-diagnostics") == 0 || strcmp(arg, "-fno-color-diagnostics") == 0) {
        d->colour = strcmp(arg, "-fcolor-diagnostics") == 0;
        return true;
    }
    return false;
}

/* ---- the text form ----------------------------------------------------------- */

/* GCC's default GCC_COLORS: error=01;31:warning=01;35:note=01;36:range1=32:
 * locus=01, each started with SGR and erase-to-end-of-line as GCC does. */
#define SGR(code) "\33[" code "m\33[K"
static const char SGR_END[] = "\33[m\33[K";
static const char SGR_LOCUS[] = SGR("01");
static const char SGR_CARET[] = SGR("32");
static const char *const level_colour[] = {
    [DIAG_ERROR] = SGR("01;31"),
    [DIAG_WARNING] = SGR("01;35"),
    [DIAG_NOTE] = SGR("01;36"),
};
static const char *const level_text[] = {
    [DIAG_ERROR] = "error",
    [DIAG_WARNING] = "warning",
    [DIAG_NOTE] = "note",
};

static void begin_colour(const Diag *d, const char *sgr)
{
    if (d->colour)
        fputs(sgr, d->out);
}

static void end_colour(const Diag *d)
{
    if (d->colour)
        fputs(SGR_END, d->out);
}

/* "t.silk:3:5: error: ", or "silkc: error: " (d->program's) for no place
 * in the source. */
static void print_heading(const Diag *d, DiagLevel level, const SourceFile *file, Span at)
{
    begin_colour(d, SGR_LOCUS);
    if (file) {
        uint32_t line, col;
        source_line_col(file, at.start, &line, &col);
        escape_fputs(file->path, d->out); /* a path may hold any byte but NUL */
        fprintf(d->out, ":%u:%u:", line, col);
    } else {
        fprintf(d->out, "%s:", d->program ? d->program : "silkc");
    }
    end_colour(d);
    fputc(' ', d->out);
    begin_colour(d, level_colour[level]);
    fprintf(d->out, "%s: ", level_text[level]);
    end_colour(d);
}

/* A UTF-8 continuation byte: a cut line's window never starts or ends in
 * the middle of a character. */
static bool is_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* The columns the character at text[i] takes in the quoted line: the
 * width of its escape for a control character or a bad byte
 * (escape_source_at: "<U+001B>"), else 1, however many bytes its UTF-8
 * has (a caret after "é" stays under the right character).  *used is its
 * bytes, never past `end`. */
static uint32_t source_columns(const char *text, uint32_t i, uint32_t end, uint32_t *used)
{
    char form[16];
    size_t bytes, n = escape_source_at(text + i, form, &bytes);
    *used = bytes <= end - i ? (uint32_t)bytes : end - i;
    return n ? (uint32_t)n : 1;
}

/* Spaces up to byte `caret` of the line, with the line's own tabs copied so
 * that the caret lines up whatever the terminal's tab width; then '^' and
 * a '~' for each further column up to byte `stop`. */
static void print_underline(const Diag *d, const char *text, uint32_t caret, uint32_t stop)
{
    uint32_t used;
    for (uint32_t i = 0; i < caret; i += used) {
        uint32_t columns = source_columns(text, i, caret, &used);
        if (text[i] == '\t')
            fputc('\t', d->out);
        else
            fprintf(d->out, "%*s", (int)columns, "");
    }
    begin_colour(d, SGR_CARET);
    fputc('^', d->out);
    uint32_t columns = 0;
    for (uint32_t i = caret; i < stop; i += used)
        columns += source_columns(text, i, stop, &used);
    for (uint32_t i = 1; i < columns; i++)
        fputc('~', d->out);
    end_colour(d);
}

/* The quoted line's bytes [0, len), with control characters and bad bytes
 * shown as clang shows them (escape_source_at), so that a line of the
 * source never moves the cursor or recolours the terminal. */
static void print_source(const Diag *d, const char *text, uint32_t len)
{
    for (uint32_t i = 0; i < len;) {
        char form[16];
        size_t used, n = escape_source_at(text + i, form, &used);
        used = used <= len - i ? used : len - i;
        if (n)
            fputs(form, d->out);
        else
            fwrite(text + i, 1, used, d->out);
        i += (uint32_t)used;
    }
}

/* GCC's gutter: the line number right-aligned in five columns (wider for
 * longer numbers), then " | ". */
static int gutter_width(uint32_t line)
{
    int digits = 1;
    for (; line >= 10; line /= 10)
        digits++;
    return digits > 5 ? digits : 5;
}

/* A longer source line is shown as a window of this many bytes around the
 * caret, with "..." where it is cut: one error on a 10 MB line printed
 * 20 MB (the line and the spaces under it). */
enum { SNIPPET_MAX_BYTES = 256 };

/* The part of a line of `len` bytes shown with the caret at byte `caret`:
 * [*from, *to), both on the start of a UTF-8 character. */
static void snippet_window(const char *text, uint32_t len, uint32_t caret, uint32_t *from, uint32_t *to)
{
    *from = 0;
    *to = len;
    if (len <= SNIPPET_MAX_BYTES)
        return;
    *from = caret > SNIPPET_MAX_BYTES / 2 ? caret - SNIPPET_MAX_BYTES / 2 : 0;
    if (*from > len - SNIPPET_MAX_BYTES)
        *from = len - SNIPPET_MAX_BYTES;
    *to = *from + SNIPPET_MAX_BYTES;
    while (*from < caret && is_continuation(text[*from]))
        (*from)++;
    while (*to < len && *to > caret && is_continuation(text[*to]))
        (*to)--;
}

/* The span's first line under a gutter, and the underline.  A span running
 * onto later lines is underlined to the end of its first; a long line is
 * cut to a window around the caret. */
static void print_snippet(const Diag *d, const SourceFile *file, Span at)
{
    uint32_t line, col, len, from, to;
    source_line_col(file, at.start, &line, &col);
    const char *text = source_line_text(file, line, &len); /* without its line end */
    uint32_t caret = col - 1 < len ? col - 1 : len;
    uint32_t stop = at.end - at.start < len - caret ? caret + (at.end - at.start) : len;
    snippet_window(text, len, caret, &from, &to);
    if (stop > to)
        stop = to;
    const char *before = from > 0 ? "..." : "", *after = to < len ? "..." : "";
    int width = gutter_width(line);
    fprintf(d->out, "%*u | %s", width, line, before);
    print_source(d, text + from, to - from);
    fprintf(d->out, "%s\n", after);
    fprintf(d->out, "%*s | %*s", width, "", (int)strlen(before), "");
    print_underline(d, text + from, caret - from, stop - from);
    fputc('\n', d->out);
}

static void print_text(Diag *d, DiagLevel level, const char *option, Span at, const char *fmt,
                       va_list ap)
{
    const SourceFile *file = span_file(d, at);
    if (file)
        at = clamp_span(file, at);
    print_heading(d, level, file, at);
    /* A message may quote the source ("cannot read './a\x1b[2J.silk'"):
     * its control characters escaped, its backslashes ('\q') kept. */
    escape_fputs_lines(format_in_arena(d->arena, fmt, ap), "", d->out);
    if (option) {
        fputs(" [", d->out);
        begin_colour(d, level_colour[level]);
        fputs(option, d->out);
        end_colour(d);
        fputc(']', d->out);
    }
    fputc('\n', d->out);
    if (file)
        print_snippet(d, file, at);
}

/* ---- the JSON form ------------------------------------------------------------- */

/* A note goes to the record before it; anything else ends the array. */
static void add_record(Diag *d, DiagLevel level, const char *option, Span at, const char *message)
{
    DiagRecord *r = ARENA_NEW(d->arena, DiagRecord);
    r->level = level;
    r->message = message;
    r->option = option ? arena_strndup(d->arena, option, strlen(option)) : NULL;
    r->at = at;
    DiagRecord *parent = level == DIAG_NOTE ? d->json_tail : NULL;
    if (parent) {
        if (parent->last_child)
            parent->last_child->next = r;
        else
            parent->children = r;
        parent->last_child = r;
        return;
    }
    if (d->json_tail)
        d->json_tail->next = r;
    else
        d->json_head = r;
    d->json_tail = r;
}

static void record(Diag *d, DiagLevel level, const char *option, Span at, const char *fmt,
                   va_list ap)
{
    add_record(d, level, option, at, format_in_arena(d->arena, fmt, ap));
}

/* cJSON tells of running out of memory only by NULL; the compiler has
 * nothing useful to do then, as arena_alloc says. */
static void *need(void *made)
{
    if (!made)
        arena_out_of_memory();
    return made;
}

static void add_item(cJSON *object, const char *key, cJSON *item)
{
    if (!(key ? cJSON_AddItemToObject(object, key, item) : cJSON_AddItemToArray(object, item)))
        need(NULL);
}

static cJSON *json_position(const SourceFile *file, uint32_t offset)
{
    uint32_t line, col;
    source_line_col(file, offset, &line, &col);
    cJSON *position = need(cJSON_CreateObject());
    need(cJSON_AddStringToObject(position, "file", file->path));
    need(cJSON_AddNumberToObject(position, "line", line));
    need(cJSON_AddNumberToObject(position, "column", col));
    return position;
}

/* GCC's locations: the caret at the span's first byte, the finish at its
 * last (not one past it); an empty span finishes where it starts. */
static cJSON *json_locations(const Diag *d, Span at)
{
    cJSON *locations = need(cJSON_CreateArray());
    const SourceFile *file = span_file(d, at);
    if (!file)
        return locations;
    at = clamp_span(file, at);
    cJSON *location = need(cJSON_CreateObject());
    add_item(location, "caret", json_position(file, at.start));
    add_item(location, "finish", json_position(file, at.end > at.start ? at.end - 1 : at.start));
    add_item(locations, NULL, location);
    return locations;
}

/* Notes have no "children" of their own, as in GCC. */
static cJSON *json_record(const Diag *d, const DiagRecord *r)
{
    cJSON *object = need(cJSON_CreateObject());
    need(cJSON_AddStringToObject(object, "kind", level_text[r->level]));
    need(cJSON_AddStringToObject(object, "message", r->message));
    if (r->option)
        need(cJSON_AddStringToObject(object, "option", r->option));
    add_item(object, "locations", json_locations(d, r->at));
    if (r->level != DIAG_NOTE) {
        cJSON *children = need(cJSON_CreateArray());
        for (const DiagRecord *note = r->children; note; note = note->next)
            add_item(children, NULL, json_record(d, note));
        add_item(object, "children", children);
    }
    return object;
}

static void write_json(Diag *d)
{
    cJSON *array = need(cJSON_CreateArray());
    for (const DiagRecord *r = d->json_head; r; r = r->next)
        add_item(array, NULL, json_record(d, r));
    char *text = need(cJSON_PrintUnformatted(array));
    fputs(text, d->out);
    fputc('\n', d->out);
    cJSON_free(text);
    cJSON_Delete(array);
    d->json_head = d->json_tail = NULL; /* a second diag_finish writes "[]", not the same again */
}

/* ---- reporting ------------------------------------------------------------------ */

static void report(Diag *d, DiagLevel level, const char *option, Span at, const char *fmt,
                   va_list ap)
{
    if (d->format == DIAG_JSON)
        record(d, level, option, at, fmt, ap);
    else
        print_text(d, level, option, at, fmt, ap);
}

bool diag_too_many(const Diag *d)
{
    return d->error_limit > 0 && d->errors > d->error_limit;
}

/* Counting stops at the first error past the limit: the compilation stops
 * there, and "too many errors (N)" says where. */
void diag_verror(Diag *d, Span at, const char *fmt, va_list ap)
{
    if (!diag_too_many(d))
        d->errors++;
    d->last_shown = !diag_too_many(d);
    if (d->last_shown)
        report(d, DIAG_ERROR, NULL, at, fmt, ap);
}

void diag_error(Diag *d, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(d, at, fmt, ap);
    va_end(ap);
}

/* What ends a warning's message: "-Wname", "-Werror=name" when it was made
 * an error, "-Werror" for an unnamed one so made, or nothing. */
static const char *warning_option_text(WarningId w, bool as_error, char *buf, size_t size)
{
    if (!is_named(w))
        return as_error ? "-Werror" : NULL;
    snprintf(buf, size, "%s%s", as_error ? "-Werror=" : "-W", warning_table[w].name);
    return buf;
}

void diag_warning(Diag *d, WarningId w, Span at, const char *fmt, ...)
{
    d->last_shown = false;
    if (is_named(w) && !d->enabled[w])
        return;
    bool as_error = d->all_warnings_error || (is_named(w) && d->as_error[w]);
    if (as_error && !diag_too_many(d))
        d->errors++;
    else
        d->warnings++;
    if (diag_too_many(d))
        return; /* past the error limit nothing more is shown, warnings included */
    d->last_shown = true;
    char buf[MAX_NAME + 16];
    const char *option = warning_option_text(w, as_error, buf, sizeof buf);
    va_list ap;
    va_start(ap, fmt);
    report(d, as_error ? DIAG_ERROR : DIAG_WARNING, option, at, fmt, ap);
    va_end(ap);
}

void diag_note(Diag *d, Span at, const char *fmt, ...)
{
    if (!d->last_shown)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_NOTE, NULL, at, fmt, ap);
    va_end(ap);
}

/* diag_vplain's message, formatted on the heap (there may be no arena). */
static char *format_plain(const char *fmt, va_list ap)
{
    va_list measure;
    va_copy(measure, ap);
    int n = vsnprintf(NULL, 0, fmt, measure);
    va_end(measure);
    char *text = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (!text)
        arena_out_of_memory();
    text[0] = '\0';
    if (n > 0)
        vsnprintf(text, (size_t)n + 1, fmt, ap);
    return text;
}

void diag_vplain(Diag *d, DiagLevel level, const char *fmt, va_list ap)
{
    char *text = format_plain(fmt, ap);
    size_t len = strlen(text);
    bool ends_line = len > 0 && text[len - 1] == '\n';
    if (d && d->format == DIAG_JSON) {
        while (len > 0 && text[len - 1] == '\n')
            len--;
        add_record(d, level, NULL, (Span){.file = UINT32_MAX}, arena_strndup(d->arena, text, len));
    } else {
        FILE *out = d ? d->out : stderr;
        fprintf(out, "%s: %s: %s%s", d && d->program ? d->program : "silkc", level_text[level],
                text, ends_line ? "" : "\n");
    }
    free(text);
}

void diag_out_of_memory(Diag *d)
{
    DiagRecord *r = d->format == DIAG_JSON ? calloc(1, sizeof *r) : NULL; /* not the arena's */
    if (r) {
        *r = (DiagRecord){.level = DIAG_ERROR, .message = "out of memory",
                          .at = (Span){.file = UINT32_MAX}};
        if (d->json_tail)
            d->json_tail->next = r;
        else
            d->json_head = r;
        d->json_tail = r;
        write_json(d); /* what was said before, then this */
    } else {
        fprintf(d->out, "%s: error: out of memory\n", d->program ? d->program : "silkc");
    }
    fflush(d->out);
}

void diag_line(Diag *d, const char *line)
{
    if (d->format == DIAG_JSON)
        add_record(d, DIAG_ERROR, NULL, (Span){.file = UINT32_MAX},
                   arena_strndup(d->arena, line, strlen(line)));
    else
        fprintf(d->out, "%s\n", line);
}

void diag_finish(Diag *d)
{
    if (d->format == DIAG_JSON)
        write_json(d);
    else if (diag_too_many(d))
        fprintf(d->out, "silkc: too many errors (%d), stopping\n", d->errors);
    fflush(d->out);
}
