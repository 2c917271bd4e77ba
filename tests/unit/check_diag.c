/*
 * check_diag.c: unit tests of the diagnostics engine (compiler/diag.c).
 *
 * Diagnostics go to an open_memstream FILE and each test asserts the exact
 * text GCC would print: the "file:line:col: error|warning|note: " heading,
 * the source line under a five-column gutter and the ^~~~ underline of the
 * span (mid-line, at column 1, empty, after a tab, after a UTF-8 character,
 * running onto the next line), a warning's [-Wname] and what -W, -Wno-,
 * -Wall, -Werror, -Werror= and -Wno-error= do to it and to its note, the
 * error limit and its stop line, the JSON array read back with cJSON, GCC's
 * colour escapes (and none without colour, or with NO_COLOR on a terminal),
 * and the problems diag_option reports for options it cannot take.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt, for the terminal test */

#include "arena.h"
#include "diag.h"
#include "source.h"

#include <check.h>
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Line 3 starts with a tab; line 4 holds a two-byte character before the
 * "x" a test points at. */
static const char SOURCE[] = "kernel k(O: tensor<i32, 1>) {\n"
                             "    let lanes = ctx.lanes + 1\n"
                             "\tO[0] = i32(ctx.warps)\n"
                             "    /* \xc3\xa9 */ O[1] = x\n"
                             "}\n";

/* ---- fixture and helpers ------------------------------------------------- */

static Arena *arena;
static SourceMap sources;
static uint32_t file;
static FILE *out;
static char *out_text;
static size_t out_len;
static Diag diag;

static void open_diag(void)
{
    arena = arena_new();
    source_map_init(&sources, arena);
    file = source_add_text(&sources, "k.silk", SOURCE, strlen(SOURCE));
    out = open_memstream(&out_text, &out_len);
    ck_assert_ptr_nonnull(out);
    diag_init(&diag, &sources, arena, out);
}

static void close_diag(void)
{
    fclose(out);
    free(out_text);
    arena_free(arena);
}

/* Everything written so far. */
static const char *output(void)
{
    fflush(out);
    return out_text;
}

/* The span of the first occurrence of `needle` in SOURCE. */
static Span span_of(const char *needle)
{
    const char *at = strstr(SOURCE, needle);
    ck_assert_msg(at != NULL, "'%s' is not in the source", needle);
    uint32_t start = (uint32_t)(at - SOURCE);
    return (Span){file, start, start + (uint32_t)strlen(needle)};
}

/* The empty span just after `needle`, where the lexer puts an implicit ';'. */
static Span span_after(const char *needle)
{
    Span s = span_of(needle);
    return (Span){file, s.end, s.end};
}

static void option(const char *arg)
{
    const char *problem = "unset";
    ck_assert_msg(diag_option(&diag, arg, &problem), "%s: %s", arg, problem ? problem : "not ours");
    ck_assert_ptr_null(problem);
}

/* A warning with a note, the pair most tests below give. */
static void partial_warp_with_note(void)
{
    diag_warning(&diag, W_PARTIAL_WARP, span_of("ctx.warps"), "48 threads are not whole warps");
    diag_note(&diag, span_of("kernel"), "in this kernel");
}

static const char PARTIAL_WARP_TEXT[] = "k.silk:3:13: warning: 48 threads are not whole warps "
                                        "[-Wpartial-warp]\n"
                                        "    3 | \tO[0] = i32(ctx.warps)\n"
                                        "      | \t           ^~~~~~~~~\n"
                                        "k.silk:1:1: note: in this kernel\n"
                                        "    1 | kernel k(O: tensor<i32, 1>) {\n"
                                        "      | ^~~~~~\n";

/* ---- the text form ----------------------------------------------------------- */

START_TEST(test_error_mid_line)
{
    diag_error(&diag, span_of("lanes"), "unknown name '%s'", "lanes");
    ck_assert_str_eq(output(), "k.silk:2:9: error: unknown name 'lanes'\n"
                               "    2 |     let lanes = ctx.lanes + 1\n"
                               "      |         ^~~~~\n");
    ck_assert_int_eq(diag.errors, 1);
    ck_assert_int_eq(diag.warnings, 0);
}
END_TEST

START_TEST(test_error_at_column_one)
{
    diag_error(&diag, span_of("kernel"), "bad kernel");
    ck_assert_str_eq(output(), "k.silk:1:1: error: bad kernel\n"
                               "    1 | kernel k(O: tensor<i32, 1>) {\n"
                               "      | ^~~~~~\n");
}
END_TEST

START_TEST(test_empty_span_gets_lone_caret)
{
    diag_error(&diag, span_after("ctx.lanes + 1"), "expected ';'");
    ck_assert_str_eq(output(), "k.silk:2:30: error: expected ';'\n"
                               "    2 |     let lanes = ctx.lanes + 1\n"
                               "      |                              ^\n");
}
END_TEST

START_TEST(test_one_character_span)
{
    diag_error(&diag, span_of("{"), "unexpected '{'");
    ck_assert_str_eq(output(), "k.silk:1:29: error: unexpected '{'\n"
                               "    1 | kernel k(O: tensor<i32, 1>) {\n"
                               "      |                             ^\n");
}
END_TEST

START_TEST(test_tab_copied_into_underline)
{
    diag_error(&diag, span_of("ctx.warps"), "not here");
    ck_assert_str_eq(output(), "k.silk:3:13: error: not here\n"
                               "    3 | \tO[0] = i32(ctx.warps)\n"
                               "      | \t           ^~~~~~~~~\n");
}
END_TEST

START_TEST(test_utf8_takes_one_column)
{
    /* The column is in bytes (21), the underline in characters (20th). */
    Span x = span_of("x\n");
    x.end--;
    diag_error(&diag, x, "unknown name 'x'");
    ck_assert_str_eq(output(), "k.silk:4:21: error: unknown name 'x'\n"
                               "    4 |     /* \xc3\xa9 */ O[1] = x\n"
                               "      |                    ^\n");
}
END_TEST

START_TEST(test_span_over_lines_underlines_first)
{
    Span from = span_of("ctx.lanes"), to = span_of("warps");
    diag_error(&diag, source_span_join(from, to), "too long");
    ck_assert_str_eq(output(), "k.silk:2:17: error: too long\n"
                               "    2 |     let lanes = ctx.lanes + 1\n"
                               "      |                 ^~~~~~~~~~~~~\n");
}
END_TEST

START_TEST(test_warning_and_note)
{
    partial_warp_with_note();
    ck_assert_str_eq(output(), PARTIAL_WARP_TEXT);
    ck_assert_int_eq(diag.warnings, 1);
    ck_assert_int_eq(diag.errors, 0);
}
END_TEST

START_TEST(test_note_after_error)
{
    diag_error(&diag, span_of("lanes"), "unknown name 'lanes'");
    diag_note(&diag, span_of("ctx"), "did you mean '%s'?", "ctx.lanes");
    ck_assert_str_eq(output(), "k.silk:2:9: error: unknown name 'lanes'\n"
                               "    2 |     let lanes = ctx.lanes + 1\n"
                               "      |         ^~~~~\n"
                               "k.silk:2:17: note: did you mean 'ctx.lanes'?\n"
                               "    2 |     let lanes = ctx.lanes + 1\n"
                               "      |                 ^~~\n");
}
END_TEST

START_TEST(test_note_with_nothing_before_is_dropped)
{
    diag_note(&diag, span_of("kernel"), "orphan");
    ck_assert_str_eq(output(), "");
}
END_TEST

START_TEST(test_no_location)
{
    Span nowhere = {.file = 99};
    diag_error(&diag, nowhere, "cannot read '%s'", "missing.silk");
    ck_assert_str_eq(output(), "silkc: error: cannot read 'missing.silk'\n");
}
END_TEST

START_TEST(test_span_past_end_is_clamped)
{
    uint32_t len = (uint32_t)strlen(SOURCE);
    diag_error(&diag, (Span){file, len - 2, len + 40}, "unclosed");
    ck_assert_str_eq(output(), "k.silk:5:1: error: unclosed\n"
                               "    5 | }\n"
                               "      | ^\n");
}
END_TEST

START_TEST(test_gutter_widens_for_long_line_numbers)
{
    enum { LINES = 123456 };
    char *text = malloc(LINES + 2);
    ck_assert_ptr_nonnull(text);
    memset(text, '\n', LINES);
    memcpy(text + LINES - 1, "x\n", 3); /* "x" is line 123456 */
    uint32_t big = source_add_text(&sources, "big.silk", text, LINES + 1);
    free(text);
    diag_error(&diag, (Span){big, LINES - 1, LINES}, "deep");
    ck_assert_str_eq(output(), "big.silk:123456:1: error: deep\n"
                               "123456 | x\n"
                               "       | ^\n");
}
END_TEST

START_TEST(test_finish_quiet_without_errors)
{
    diag_error(&diag, span_of("k("), "one");
    diag_finish(&diag);
    ck_assert_ptr_null(strstr(output(), "too many"));
    ck_assert(!diag_too_many(&diag));
}
END_TEST

/* ---- warning options ----------------------------------------------------------- */

START_TEST(test_wno_silences_warning_and_note)
{
    option("-Wno-partial-warp");
    partial_warp_with_note();
    ck_assert_str_eq(output(), "");
    ck_assert_int_eq(diag.warnings, 0);
    ck_assert_int_eq(diag.errors, 0);
    /* The next error's note is not dropped with it. */
    diag_error(&diag, span_of("kernel"), "bad");
    diag_note(&diag, span_of("kernel"), "here");
    ck_assert_ptr_nonnull(strstr(output(), "note: here"));
}
END_TEST

START_TEST(test_w_enables_default_off_warning)
{
    Span semi = span_of("{");
    diag_warning(&diag, W_EMPTY_STATEMENT, semi, "empty statement");
    ck_assert_str_eq(output(), "");
    option("-Wempty-statement");
    diag_warning(&diag, W_EMPTY_STATEMENT, semi, "empty statement");
    ck_assert_str_eq(output(), "k.silk:1:29: warning: empty statement [-Wempty-statement]\n"
                               "    1 | kernel k(O: tensor<i32, 1>) {\n"
                               "      |                             ^\n");
}
END_TEST

START_TEST(test_wall_enables_every_warning)
{
    option("-Wno-unused-variable");
    option("-Wall");
    for (int w = 0; w < W_COUNT; w++)
        ck_assert_msg(diag.enabled[w], "%s", diag_warning_name((WarningId)w));
    option("-Wno-all");
    for (int w = 0; w < W_COUNT; w++)
        ck_assert(!diag.enabled[w]);
}
END_TEST

START_TEST(test_werror_makes_every_warning_an_error)
{
    option("-Werror");
    partial_warp_with_note();
    ck_assert_str_eq(output(), "k.silk:3:13: error: 48 threads are not whole warps "
                               "[-Werror=partial-warp]\n"
                               "    3 | \tO[0] = i32(ctx.warps)\n"
                               "      | \t           ^~~~~~~~~\n"
                               "k.silk:1:1: note: in this kernel\n"
                               "    1 | kernel k(O: tensor<i32, 1>) {\n"
                               "      | ^~~~~~\n");
    ck_assert_int_eq(diag.errors, 1);
    ck_assert_int_eq(diag.warnings, 0);
}
END_TEST

START_TEST(test_werror_does_not_enable)
{
    option("-Werror");
    diag_warning(&diag, W_EMPTY_STATEMENT, span_of("{"), "empty statement");
    ck_assert_str_eq(output(), "");
    ck_assert_int_eq(diag.errors, 0);
}
END_TEST

START_TEST(test_werror_name_makes_one_an_error)
{
    option("-Werror=partial-warp");
    diag_warning(&diag, W_PARTIAL_WARP, span_of("ctx.warps"), "partial");
    diag_warning(&diag, W_UNUSED_VARIABLE, span_of("lanes"), "unused");
    const char *text = output();
    ck_assert_ptr_nonnull(strstr(text, "k.silk:3:13: error: partial [-Werror=partial-warp]\n"));
    ck_assert_ptr_nonnull(strstr(text, "k.silk:2:9: warning: unused [-Wunused-variable]\n"));
    ck_assert_int_eq(diag.errors, 1);
    ck_assert_int_eq(diag.warnings, 1);
}
END_TEST

START_TEST(test_werror_name_enables)
{
    option("-Werror=empty-statement");
    diag_warning(&diag, W_EMPTY_STATEMENT, span_of("{"), "empty statement");
    ck_assert_ptr_nonnull(strstr(output(), "error: empty statement [-Werror=empty-statement]\n"));
}
END_TEST

START_TEST(test_wno_error_name_undoes_werror)
{
    option("-Werror");
    option("-Wno-error=partial-warp");
    diag_warning(&diag, W_PARTIAL_WARP, span_of("ctx.warps"), "partial");
    diag_warning(&diag, W_UNUSED_VARIABLE, span_of("lanes"), "unused");
    const char *text = output();
    ck_assert_ptr_nonnull(strstr(text, "warning: partial [-Wpartial-warp]\n"));
    ck_assert_ptr_nonnull(strstr(text, "error: unused [-Werror=unused-variable]\n"));
    ck_assert_int_eq(diag.errors, 1);
    ck_assert_int_eq(diag.warnings, 1);
}
END_TEST

START_TEST(test_wno_error_undoes_werror_name)
{
    option("-Werror=partial-warp");
    option("-Wno-error");
    diag_warning(&diag, W_PARTIAL_WARP, span_of("ctx.warps"), "partial");
    ck_assert_ptr_nonnull(strstr(output(), "warning: partial [-Wpartial-warp]\n"));
}
END_TEST

START_TEST(test_disabled_beats_werror)
{
    option("-Werror=partial-warp");
    option("-Wno-partial-warp");
    partial_warp_with_note();
    ck_assert_str_eq(output(), "");
    ck_assert_int_eq(diag.errors, 0);
}
END_TEST

START_TEST(test_warning_names)
{
    ck_assert_str_eq(diag_warning_name(W_PARTIAL_WARP), "partial-warp");
    ck_assert_str_eq(diag_warning_name(W_UNUSED_VARIABLE), "unused-variable");
    ck_assert_str_eq(diag_warning_name(W_UNREACHABLE), "unreachable");
    ck_assert_str_eq(diag_warning_name(W_EMPTY_STATEMENT), "empty-statement");
    ck_assert_ptr_null(diag_warning_name(W_NONE));
}
END_TEST

START_TEST(test_defaults)
{
    ck_assert(diag.enabled[W_PARTIAL_WARP]);
    ck_assert(diag.enabled[W_UNUSED_VARIABLE]);
    ck_assert(diag.enabled[W_UNREACHABLE]);
    ck_assert(!diag.enabled[W_EMPTY_STATEMENT]);
    ck_assert_int_eq(diag.error_limit, 20);
    ck_assert_int_eq(diag.format, DIAG_TEXT);
    ck_assert(!diag.colour); /* a memstream is no terminal */
    ck_assert(!diag.all_warnings_error);
}
END_TEST

/* ---- the error limit ------------------------------------------------------------- */

static void five_errors(void)
{
    static const char *const names[] = {"kernel", "lanes", "ctx.warps", "O[1]", "}"};
    for (int i = 0; i < N(names); i++) {
        diag_error(&diag, span_of(names[i]), "error %d", i + 1);
        diag_note(&diag, span_of(names[i]), "note %d", i + 1);
        ck_assert_int_eq(diag_too_many(&diag), i + 1 > 2);
    }
}

START_TEST(test_error_limit)
{
    option("-ferror-limit=2");
    five_errors();
    diag_warning(&diag, W_PARTIAL_WARP, span_of("ctx"), "hidden too");
    diag_finish(&diag);
    const char *text = output();
    ck_assert_ptr_nonnull(strstr(text, "error: error 1\n"));
    ck_assert_ptr_nonnull(strstr(text, "note: note 1\n"));
    ck_assert_ptr_nonnull(strstr(text, "error: error 2\n"));
    ck_assert_ptr_nonnull(strstr(text, "note: note 2\n"));
    ck_assert_ptr_null(strstr(text, "error 3"));
    ck_assert_ptr_null(strstr(text, "note 3"));
    ck_assert_ptr_null(strstr(text, "hidden"));
    /* The stop line comes once, last; counting stopped at the first error
     * past the limit. */
    const char *stop = "silkc: too many errors (3), stopping\n";
    size_t n = strlen(text), m = strlen(stop);
    ck_assert_uint_ge(n, m);
    ck_assert_ptr_eq(strstr(text, "silkc: too many"), text + n - m);
    ck_assert_str_eq(text + n - m, stop);
    ck_assert_int_eq(diag.errors, 3);
    ck_assert(diag_too_many(&diag));
}
END_TEST

START_TEST(test_error_limit_zero_is_none)
{
    option("-ferror-limit=0");
    for (int i = 0; i < 30; i++)
        diag_error(&diag, span_of("kernel"), "error %d", i);
    diag_finish(&diag);
    ck_assert_ptr_nonnull(strstr(output(), "error: error 29\n"));
    ck_assert_ptr_null(strstr(output(), "too many"));
    ck_assert(!diag_too_many(&diag));
}
END_TEST

START_TEST(test_default_limit_is_twenty)
{
    for (int i = 1; i <= 21; i++)
        diag_error(&diag, span_of("kernel"), "error %d", i);
    diag_finish(&diag);
    ck_assert_ptr_nonnull(strstr(output(), "error: error 20\n"));
    ck_assert_ptr_null(strstr(output(), "error 21"));
    ck_assert_ptr_nonnull(strstr(output(), "silkc: too many errors (21), stopping\n"));
}
END_TEST

START_TEST(test_promoted_warnings_count_against_limit)
{
    option("-Werror");
    option("-ferror-limit=1");
    diag_warning(&diag, W_PARTIAL_WARP, span_of("ctx"), "first");
    diag_warning(&diag, W_UNREACHABLE, span_of("kernel"), "second");
    ck_assert_int_eq(diag.errors, 2);
    ck_assert(diag_too_many(&diag));
    ck_assert_ptr_null(strstr(output(), "second"));
}
END_TEST

/* ---- the JSON form ---------------------------------------------------------------- */

static void use_json(void)
{
    option("-fdiagnostics-format=json");
}

static cJSON *parse_output(void)
{
    diag_finish(&diag);
    cJSON *json = cJSON_Parse(output());
    ck_assert_msg(json != NULL, "not JSON: %s", output());
    ck_assert(cJSON_IsArray(json));
    return json;
}

static const char *string_field(const cJSON *object, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    ck_assert_msg(cJSON_IsString(item), "no string \"%s\"", key);
    return item->valuestring;
}

static void assert_position(const cJSON *location, const char *key, int line, int column)
{
    const cJSON *position = cJSON_GetObjectItemCaseSensitive(location, key);
    ck_assert_msg(cJSON_IsObject(position), "no \"%s\"", key);
    ck_assert_str_eq(string_field(position, "file"), "k.silk");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(position, "line")->valueint, line);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(position, "column")->valueint, column);
}

/* The one location of a record, caret and finish. */
static void assert_location(const cJSON *record, int line, int column, int finish_column)
{
    const cJSON *locations = cJSON_GetObjectItemCaseSensitive(record, "locations");
    ck_assert(cJSON_IsArray(locations));
    ck_assert_int_eq(cJSON_GetArraySize(locations), 1);
    const cJSON *location = cJSON_GetArrayItem(locations, 0);
    assert_position(location, "caret", line, column);
    assert_position(location, "finish", line, finish_column);
}

START_TEST(test_json_records)
{
    use_json();
    partial_warp_with_note();
    diag_error(&diag, span_of("lanes"), "unknown name 'lanes'");
    ck_assert_str_eq(output(), ""); /* nothing before diag_finish */
    cJSON *json = parse_output();
    ck_assert_int_eq(cJSON_GetArraySize(json), 2);

    const cJSON *warning = cJSON_GetArrayItem(json, 0);
    ck_assert_str_eq(string_field(warning, "kind"), "warning");
    ck_assert_str_eq(string_field(warning, "message"), "48 threads are not whole warps");
    ck_assert_str_eq(string_field(warning, "option"), "-Wpartial-warp");
    assert_location(warning, 3, 13, 21);
    const cJSON *children = cJSON_GetObjectItemCaseSensitive(warning, "children");
    ck_assert_int_eq(cJSON_GetArraySize(children), 1);
    const cJSON *note = cJSON_GetArrayItem(children, 0);
    ck_assert_str_eq(string_field(note, "kind"), "note");
    ck_assert_str_eq(string_field(note, "message"), "in this kernel");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(note, "option"));
    assert_location(note, 1, 1, 6);

    const cJSON *error = cJSON_GetArrayItem(json, 1);
    ck_assert_str_eq(string_field(error, "kind"), "error");
    ck_assert_str_eq(string_field(error, "message"), "unknown name 'lanes'");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(error, "option"));
    assert_location(error, 2, 9, 13);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(error, "children")), 0);
    cJSON_Delete(json);
}
END_TEST

START_TEST(test_json_empty_span_and_promoted_warning)
{
    use_json();
    option("-Werror=partial-warp");
    diag_warning(&diag, W_PARTIAL_WARP, span_after("ctx.lanes + 1"), "here");
    cJSON *json = parse_output();
    const cJSON *record = cJSON_GetArrayItem(json, 0);
    ck_assert_str_eq(string_field(record, "kind"), "error");
    ck_assert_str_eq(string_field(record, "option"), "-Werror=partial-warp");
    assert_location(record, 2, 30, 30);
    cJSON_Delete(json);
}
END_TEST

START_TEST(test_json_drops_what_text_drops)
{
    use_json();
    option("-Wno-partial-warp");
    option("-ferror-limit=1");
    partial_warp_with_note();
    diag_error(&diag, span_of("kernel"), "shown");
    diag_error(&diag, span_of("kernel"), "past the limit");
    diag_note(&diag, span_of("kernel"), "with it");
    cJSON *json = parse_output();
    ck_assert_int_eq(cJSON_GetArraySize(json), 1);
    ck_assert_str_eq(string_field(cJSON_GetArrayItem(json, 0), "message"), "shown");
    ck_assert_ptr_null(strstr(output(), "too many")); /* no text in JSON mode */
    cJSON_Delete(json);
}
END_TEST

START_TEST(test_json_without_diagnostics_is_empty_array)
{
    use_json();
    diag_finish(&diag);
    ck_assert_str_eq(output(), "[]\n");
}
END_TEST

START_TEST(test_json_no_location)
{
    use_json();
    diag_error(&diag, (Span){.file = 99}, "cannot read");
    cJSON *json = parse_output();
    const cJSON *locations = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(json, 0), "locations");
    ck_assert(cJSON_IsArray(locations));
    ck_assert_int_eq(cJSON_GetArraySize(locations), 0);
    cJSON_Delete(json);
}
END_TEST

/* ---- colour -------------------------------------------------------------------------- */

#define LOCUS(text) "\33[01m\33[K" text "\33[m\33[K"
#define RED(text) "\33[01;31m\33[K" text "\33[m\33[K"
#define MAGENTA(text) "\33[01;35m\33[K" text "\33[m\33[K"
#define CYAN(text) "\33[01;36m\33[K" text "\33[m\33[K"
#define GREEN(text) "\33[32m\33[K" text "\33[m\33[K"

START_TEST(test_colour_escapes)
{
    option("-fcolor-diagnostics");
    diag_error(&diag, span_of("kernel"), "bad");
    partial_warp_with_note();
    ck_assert_str_eq(output(), LOCUS("k.silk:1:1:") " " RED("error: ") "bad\n"
                               "    1 | kernel k(O: tensor<i32, 1>) {\n"
                               "      | " GREEN("^~~~~~") "\n"
                               LOCUS("k.silk:3:13:") " " MAGENTA("warning: ")
                               "48 threads are not whole warps [" MAGENTA("-Wpartial-warp") "]\n"
                               "    3 | \tO[0] = i32(ctx.warps)\n"
                               "      | \t           " GREEN("^~~~~~~~~") "\n"
                               LOCUS("k.silk:1:1:") " " CYAN("note: ") "in this kernel\n"
                               "    1 | kernel k(O: tensor<i32, 1>) {\n"
                               "      | " GREEN("^~~~~~") "\n");
}
END_TEST

START_TEST(test_colour_promoted_option_is_red)
{
    option("-fcolor-diagnostics");
    option("-Werror");
    diag_warning(&diag, W_UNUSED_VARIABLE, span_of("lanes"), "unused");
    ck_assert_ptr_nonnull(strstr(output(), RED("error: ") "unused [" RED("-Werror=unused-variable") "]\n"));
}
END_TEST

START_TEST(test_no_colour_no_escapes)
{
    option("-fcolor-diagnostics");
    option("-fno-color-diagnostics");
    diag_error(&diag, span_of("kernel"), "bad");
    partial_warp_with_note();
    ck_assert_ptr_null(strchr(output(), '\33'));
}
END_TEST

/* diag_init asks isatty: a pseudo-terminal is one, unless NO_COLOR is set
 * (to anything non-empty) or TERM is dumb.  Where no pty can be had, the
 * test has nothing to check. */
static FILE *open_terminal(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
        return NULL;
    const char *name = ptsname(master);
    int slave = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    return slave >= 0 ? fdopen(slave, "w") : NULL; /* the master stays open to the end */
}

START_TEST(test_colour_on_a_terminal)
{
    FILE *terminal = open_terminal();
    if (!terminal)
        return;
    Diag d;
    unsetenv("NO_COLOR");
    setenv("TERM", "xterm", 1);
    diag_init(&d, &sources, arena, terminal);
    ck_assert(d.colour);
    setenv("NO_COLOR", "", 1); /* empty: not set, says no-color.org */
    diag_init(&d, &sources, arena, terminal);
    ck_assert(d.colour);
    setenv("NO_COLOR", "1", 1);
    diag_init(&d, &sources, arena, terminal);
    ck_assert(!d.colour);
    unsetenv("NO_COLOR");
    setenv("TERM", "dumb", 1);
    diag_init(&d, &sources, arena, terminal);
    ck_assert(!d.colour);
    fclose(terminal);
}
END_TEST

/* ---- diag_option ------------------------------------------------------------------- */

typedef struct BadOption {
    const char *arg;
    const char *problem; /* NULL: not a diagnostics option at all */
} BadOption;

static const BadOption bad_options[] = {
    {"-Wbogus", "unknown warning option '-Wbogus'"},
    {"-Wno-bogus", "unknown warning option '-Wno-bogus'"},
    {"-Wpartial-wrap", "unknown warning option '-Wpartial-wrap'; did you mean '-Wpartial-warp'?"},
    {"-Wno-unused-variabel",
     "unknown warning option '-Wno-unused-variabel'; did you mean '-Wno-unused-variable'?"},
    {"-Wal", "unknown warning option '-Wal'; did you mean '-Wall'?"},
    {"-Werrr", "unknown warning option '-Werrr'; did you mean '-Werror'?"},
    {"-Werror=bogus", "unknown warning option '-Werror=bogus'"},
    {"-Werror=unreachabel",
     "unknown warning option '-Werror=unreachabel'; did you mean '-Werror=unreachable'?"},
    {"-Werror=all", "unknown warning option '-Werror=all'"},
    {"-Wno-error=bogus", "unknown warning option '-Wno-error=bogus'"},
    {"-W", "unknown warning option '-W'"},
    {"-ferror-limit=x",
     "invalid value 'x' in '-ferror-limit=x': expected a number of errors (0 for no limit)"},
    {"-ferror-limit=-1",
     "invalid value '-1' in '-ferror-limit=-1': expected a number of errors (0 for no limit)"},
    {"-ferror-limit=", "invalid value '' in '-ferror-limit=': expected a number of errors (0 for no "
                       "limit)"},
    {"-ferror-limit=99999999999", "invalid value '99999999999' in '-ferror-limit=99999999999': "
                                  "expected a number of errors (0 for no limit)"},
    {"-ferror-limit", "'-ferror-limit' needs a value: '-ferror-limit=...'"},
    {"-fdiagnostics-format=xml",
     "invalid value 'xml' in '-fdiagnostics-format=xml': expected 'text' or 'json'"},
    {"-fdiagnostics-format", "'-fdiagnostics-format' needs a value: '-fdiagnostics-format=...'"},
    {"-O2", NULL},
    {"--dump-ast", NULL},
    {"-ferror-limits=3", NULL},
    {"-fcolor", NULL},
    {"check", NULL},
};

START_TEST(test_bad_option)
{
    const BadOption *c = &bad_options[_i];
    Diag before = diag;
    const char *problem = "unset";
    ck_assert_msg(!diag_option(&diag, c->arg, &problem), "%s accepted", c->arg);
    if (c->problem)
        ck_assert_str_eq(problem ? problem : "(null)", c->problem);
    else
        ck_assert_ptr_null(problem);
    /* A refused option changes nothing. */
    ck_assert_mem_eq(before.enabled, diag.enabled, sizeof diag.enabled);
    ck_assert_mem_eq(before.as_error, diag.as_error, sizeof diag.as_error);
    ck_assert_int_eq(before.all_warnings_error, diag.all_warnings_error);
    ck_assert_int_eq(before.error_limit, diag.error_limit);
    ck_assert_int_eq(before.format, diag.format);
    ck_assert_int_eq(before.colour, diag.colour);
}
END_TEST

/* diag_vplain (the driver's messages): "silkc: error: " and the message as
 * given, uncoloured, one line end; not counted as a source error. */
static void plain(DiagLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void plain(DiagLevel level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(&diag, level, fmt, ap);
    va_end(ap);
}

START_TEST(test_plain_text)
{
    option("-fcolor-diagnostics");
    plain(DIAG_ERROR, "%s: cannot read", "missing.silk");
    plain(DIAG_ERROR, "ptxas rejected it:\n%s", "line 1\n");
    plain(DIAG_NOTE, "see %d", 1);
    ck_assert_str_eq(output(), "silkc: error: missing.silk: cannot read\n"
                               "silkc: error: ptxas rejected it:\nline 1\n"
                               "silkc: note: see 1\n");
    ck_assert_int_eq(diag.errors, 0);
}
END_TEST

START_TEST(test_plain_json)
{
    use_json();
    plain(DIAG_ERROR, "ptxas rejected it:\n%s", "line 1\n");
    plain(DIAG_NOTE, "see %d", 1);
    diag_line(&diag, "k.silk:4:5: kernel k, CTA 0, thread 0: a fault");
    ck_assert_str_eq(output(), "");
    cJSON *json = parse_output();
    ck_assert_int_eq(cJSON_GetArraySize(json), 2);
    const cJSON *error = cJSON_GetArrayItem(json, 0);
    ck_assert_str_eq(string_field(error, "kind"), "error");
    ck_assert_str_eq(string_field(error, "message"), "ptxas rejected it:\nline 1");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(error, "locations")), 0);
    const cJSON *children = cJSON_GetObjectItemCaseSensitive(error, "children");
    ck_assert_int_eq(cJSON_GetArraySize(children), 1);
    ck_assert_str_eq(string_field(cJSON_GetArrayItem(children, 0), "message"), "see 1");
    const cJSON *fault = cJSON_GetArrayItem(json, 1);
    ck_assert_str_eq(string_field(fault, "message"), "k.silk:4:5: kernel k, CTA 0, thread 0: a fault");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(fault, "locations")), 0);
    cJSON_Delete(json);
}
END_TEST

START_TEST(test_good_options)
{
    option("-ferror-limit=7");
    ck_assert_int_eq(diag.error_limit, 7);
    option("-fdiagnostics-format=json");
    ck_assert_int_eq(diag.format, DIAG_JSON);
    option("-fdiagnostics-format=text");
    ck_assert_int_eq(diag.format, DIAG_TEXT);
    option("-fcolor-diagnostics");
    ck_assert(diag.colour);
    option("-fno-color-diagnostics");
    ck_assert(!diag.colour);
    option("-Wno-unreachable");
    ck_assert(!diag.enabled[W_UNREACHABLE]);
    option("-Wunreachable");
    ck_assert(diag.enabled[W_UNREACHABLE]);
    ck_assert(diag_option(&diag, "-Werror", NULL)); /* problem may be NULL */
    ck_assert(diag.all_warnings_error);
    ck_assert(!diag_option(&diag, "-Wbogus", NULL));
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------ */

static void add_tests(Suite *s, const char *name, const TTest *const *tests, int n)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, open_diag, close_diag);
    for (int i = 0; i < n; i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
}

static Suite *diag_suite(void)
{
    const TTest *const text[] = {
        test_error_mid_line, test_error_at_column_one, test_empty_span_gets_lone_caret,
        test_one_character_span, test_tab_copied_into_underline, test_utf8_takes_one_column,
        test_span_over_lines_underlines_first, test_warning_and_note, test_note_after_error,
        test_note_with_nothing_before_is_dropped, test_no_location, test_span_past_end_is_clamped,
        test_gutter_widens_for_long_line_numbers, test_finish_quiet_without_errors,
    };
    const TTest *const warnings[] = {
        test_wno_silences_warning_and_note, test_w_enables_default_off_warning,
        test_wall_enables_every_warning, test_werror_makes_every_warning_an_error,
        test_werror_does_not_enable, test_werror_name_makes_one_an_error,
        test_werror_name_enables, test_wno_error_name_undoes_werror,
        test_wno_error_undoes_werror_name, test_disabled_beats_werror, test_warning_names,
        test_defaults,
    };
    const TTest *const limit[] = {
        test_error_limit, test_error_limit_zero_is_none, test_default_limit_is_twenty,
        test_promoted_warnings_count_against_limit,
    };
    const TTest *const json[] = {
        test_json_records, test_json_empty_span_and_promoted_warning,
        test_json_drops_what_text_drops, test_json_without_diagnostics_is_empty_array,
        test_json_no_location, test_plain_json,
    };
    const TTest *const colour[] = {
        test_colour_escapes, test_colour_promoted_option_is_red, test_no_colour_no_escapes,
        test_colour_on_a_terminal,
    };
    const TTest *const options[] = {test_good_options, test_plain_text};
    /* START_TEST's names are pointer variables, not constants: these
     * tables cannot be static. */
    Suite *s = suite_create("diag");
    add_tests(s, "text", text, N(text));
    add_tests(s, "warnings", warnings, N(warnings));
    add_tests(s, "error_limit", limit, N(limit));
    add_tests(s, "json", json, N(json));
    add_tests(s, "colour", colour, N(colour));
    add_tests(s, "options", options, N(options));
    TCase *tc = tcase_create("bad_options");
    tcase_add_checked_fixture(tc, open_diag, close_diag);
    tcase_add_loop_test(tc, test_bad_option, 0, N(bad_options));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(diag_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
