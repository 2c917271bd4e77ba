/*
 * args.c: turning option values into numbers, with one clear message for
 * each way a value can be wrong (not a number, negative, too large, out of
 * range, an unknown suffix), and the messages themselves.
 */
#include "cli.h"
#include "escape.h"
#include "colour.h"
#include "options.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void vmessage(const char *command, const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "silk-occ%s%s: %s: ", command ? " " : "", command ? command : "", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(command, "error", fmt, ap);
    va_end(ap);
}

void cli_warning(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(command, "warning", fmt, ap);
    va_end(ap);
}

/* Reads the leading unsigned decimal of `text`; false when there is none or
 * it overflows.  Sign and garbage are the callers' business. */
static bool read_unsigned(const char *text, unsigned long long *value, const char **end)
{
    if (!isdigit((unsigned char)*text))
        return false;
    errno = 0;
    char *stop;
    *value = strtoull(text, &stop, 10);
    *end = stop;
    return errno != ERANGE;
}

/* A value is digits: "+5" and "-0" are refused as surely as "-5", so
 * that integers and sizes read alike (silk-occ(1), OPTIONS). */
static bool refuse_sign(const char *command, const char *option, const char *text)
{
    cli_error(command, "%s: '%s' has a sign; write it without one", option, QUOTED(text));
    return false;
}

bool cli_parse_integer(const char *command, const char *option, const char *text, long long min,
                   long long max, long long *out)
{
    unsigned long long value;
    const char *end;
    bool negative = text[0] == '-';
    const char *digits = negative || text[0] == '+' ? text + 1 : text;
    if (!*text || (!isdigit((unsigned char)*digits) && *digits)) {
        cli_error(command, "%s: '%s' is not a number", option, QUOTED(text));
        return false;
    }
    if (!read_unsigned(digits, &value, &end)) {
        if (isdigit((unsigned char)*digits))
            cli_error(command, "%s: '%s' is too large (at most %lld)", option, QUOTED(text), max);
        else
            cli_error(command, "%s: '%s' is not a number", option, QUOTED(text));
        return false;
    }
    if (*end) {
        cli_error(command, "%s: '%s' is not a whole number", option, QUOTED(text));
        return false;
    }
    if (negative && value > 0) {
        cli_error(command, "%s: '%s' is negative (at least %lld)", option, QUOTED(text), min);
        return false;
    }
    if (digits != text)
        return refuse_sign(command, option, text);
    if (value > (unsigned long long)max) {
        cli_error(command, "%s: '%s' is too large (at most %lld)", option, QUOTED(text), max);
        return false;
    }
    if ((long long)value < min) {
        cli_error(command, "%s: '%s' is too small (at least %lld)", option, QUOTED(text), min);
        return false;
    }
    *out = (long long)value;
    return true;
}

/* Bytes, or a multiple of 1024 (K, KiB) or 1048576 (M, MiB). */
bool cli_parse_size(const char *command, const char *option, const char *text, uint64_t *out)
{
    unsigned long long value;
    const char *end;
    if (text[0] == '-' && isdigit((unsigned char)text[1 + strspn(text + 1, "0")])) {
        cli_error(command, "%s: '%s' is negative", option, QUOTED(text));
        return false;
    }
    if ((text[0] == '-' || text[0] == '+') && isdigit((unsigned char)text[1]))
        return refuse_sign(command, option, text);
    if (!read_unsigned(text, &value, &end)) {
        if (isdigit((unsigned char)*text))
            cli_error(command, "%s: '%s' is too large", option, QUOTED(text));
        else
            cli_error(command, "%s: '%s' is not a size (bytes, or a number with K/KiB or M/MiB)",
                      option, QUOTED(text));
        return false;
    }
    unsigned long long scale = 1;
    if (strcasecmp(end, "K") == 0 || strcasecmp(end, "KiB") == 0)
        scale = 1024;
    else if (strcasecmp(end, "M") == 0 || strcasecmp(end, "MiB") == 0)
        scale = 1024 * 1024;
    else if (*end && strcasecmp(end, "B") != 0) {
        cli_error(command, "%s: '%s' has an unknown unit '%s' (use K/KiB or M/MiB)", option,
                  QUOTED(text), QUOTED(end));
        return false;
    }
    if (value > UINT64_MAX / scale / 2) {
        cli_error(command, "%s: '%s' is too large", option, QUOTED(text));
        return false;
    }
    *out = value * scale;
    return true;
}

/* The names of --format, indexed by OutputFormat. */
static const char *const format_names[] = {"text", "json", "csv", "markdown"};

bool cli_parse_format_among(const char *command, const char *text, unsigned accepted, OutputFormat *out)
{
    char listed[64] = "";
    for (int f = FORMAT_TEXT; f <= FORMAT_MARKDOWN; f++) {
        if (!(accepted & FORMAT_BIT(f)))
            continue;
        if (strcmp(text, format_names[f]) == 0) {
            *out = (OutputFormat)f;
            return true;
        }
        size_t used = strlen(listed);
        snprintf(listed + used, sizeof listed - used, "%s%s", used ? ", " : "", format_names[f]);
    }
    cli_error(command, "--format: '%s' is not a format (%s)", QUOTED(text), listed);
    return false;
}

/* calc and arch take csv; verify only text and json. */
bool cli_parse_format(const char *command, const char *text, bool allow_csv, OutputFormat *out)
{
    unsigned accepted = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON);
    if (allow_csv)
        accepted |= FORMAT_BIT(FORMAT_CSV);
    return cli_parse_format_among(command, text, accepted, out);
}

bool cli_parse_carveout(const char *command, const char *text, int *out)
{
    static const struct {
        const char *name;
        int percent;
    } names[] = {{"default", OCC_CARVEOUT_DEFAULT}, {"max-shared", 100}, {"max-l1", 0},
                 {"half", 50}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(text, names[i].name) == 0) {
            *out = names[i].percent;
            return true;
        }
    char number[32];
    size_t len = strlen(text);
    if (len > 0 && len < sizeof number && text[len - 1] == '%')
        len--;
    if (len == 0 || len >= sizeof number || !isdigit((unsigned char)text[0])) {
        cli_error(command, "--carveout: '%s' is not default, max-shared, max-l1, half or a percentage 0..100",
                  QUOTED(text));
        return false;
    }
    memcpy(number, text, len);
    number[len] = '\0';
    long long percent;
    if (!cli_parse_integer(command, "--carveout", number, 0, 100, &percent))
        return false;
    *out = (int)percent;
    return true;
}



void cli_json_number_or_null(struct cJSON *o, const char *key, bool known, double value)
{
    if (known)
        cJSON_AddNumberToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

void cli_json_add_count(struct cJSON *o, const char *key, uint64_t value)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    cJSON_AddRawToObject(o, key, digits);
}

int cli_print_json(const char *command, struct cJSON *root, FILE *out)
{
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        cli_error(command, "out of memory writing JSON");
        return EXIT_ENVIRONMENT;
    }
    fprintf(out, "%s\n", text);
    free(text);
    return EXIT_OK;
}

bool cli_split_list(const char *command, const char *option, char *list, CliItemFn *take,
                    void *context)
{
    if (!*list) {
        cli_error(command, "%s: the list is empty", option);
        return false;
    }
    for (char *item = list;;) {
        char *comma = strchr(item, ',');
        if (comma == item || !*item) {
            cli_error(command, "%s: '%s' has an empty element", option, QUOTED(list));
            return false;
        }
        if (comma)
            *comma = '\0';
        bool ok = take(item, context);
        if (comma)
            *comma = ',';
        if (!ok)
            return false;
        if (!comma)
            return true;
        item = comma + 1;
    }
}

/* silk-occ's words for a refused command line: the loop's message with
 * the subcommand's prefix, and for an unknown option where to find them. */
typedef struct Refusal {
    const char *command;
    CliOptionFn *take;
    void *context;
} Refusal;

static void refuse(void *context, OptionsProblem problem, const char *message)
{
    const Refusal *r = context;
    if (problem == OPTIONS_UNKNOWN)
        cli_error(r->command, "%s; 'silk-occ help %s' lists them", message, r->command);
    else
        cli_error(r->command, "%s", message);
}

static bool take(int c, char *arg, void *context)
{
    const Refusal *r = context;
    return r->take(c, arg, r->context);
}

int cli_getopt(const char *command, int argc, char **argv, const char *repeatable,
               const struct option *options, void (*usage)(FILE *), CliOptionFn *take_option,
               void *context, int *first_operand)
{
    Refusal r = {.command = command, .take = take_option, .context = context};
    OptionsParser p = {.longs = options, .repeatable = repeatable, .usage = usage,
                       .take = take, .refuse = refuse, .context = &r};
    return options_parse(&p, argc, argv, first_operand);
}

/* --cluster X[,Y[,Z]]: the CTAs of a thread-block cluster along each
 * dimension, 1 for those left out.  The architecture's limit is the
 * report's to check (it differs by architecture); here each extent is
 * 1..64, the product too. */
typedef struct ClusterParse {
    const char *command;
    int *dims;
    int n;
    long long product;
} ClusterParse;

static bool take_cluster_dim(char *item, void *context)
{
    ClusterParse *p = context;
    long long v;
    if (p->n == 3) {
        cli_error(p->command, "--cluster: at most three extents, X,Y,Z");
        return false;
    }
    if (!cli_parse_integer(p->command, "--cluster", item, 1, 64, &v))
        return false;
    p->dims[p->n++] = (int)v;
    p->product *= v;
    return true;
}

bool cli_parse_cluster(const char *command, const char *text, int dims[3])
{
    ClusterParse p = {command, dims, 0, 1};
    char list[64];
    dims[0] = dims[1] = dims[2] = 1;
    if (strlen(text) >= sizeof list) {
        cli_error(command, "--cluster: '%.20s...' is not X[,Y[,Z]]", QUOTED(text));
        return false;
    }
    strcpy(list, text);
    if (!cli_split_list(command, "--cluster", list, take_cluster_dim, &p))
        return false;
    if (p.product > 64) {
        cli_error(command, "--cluster: %lld CTAs per cluster; at most 64", p.product);
        return false;
    }
    return true;
}
