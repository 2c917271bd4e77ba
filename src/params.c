/*
 * params.c: --param NAME=VALUE, the names a command's size expressions
 * may use besides threads and warps (--dyn-smem '(BLOCK_M+BLOCK_N)*64'),
 * and those expressions as calc and report read them.  A name is checked
 * where it is given (an identifier, not a built-in, not given twice), so
 * that an expression's unknown name can only be a slip in the expression,
 * which size_expr reports at its column with the known names.
 */
#include "cli.h"
#include "escape.h"

#include <stdlib.h>
#include <string.h>

bool cli_parse_param(const char *command, const char *text, CliParams *p)
{
    const char *equals = strchr(text, '=');
    if (!equals) {
        cli_error(command, "--param: '%s' is not NAME=VALUE", QUOTED(text));
        return false;
    }
    size_t len = (size_t)(equals - text);
    char name[SIZE_EXPR_MAX_NAME + 2];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name - 1 ? len : sizeof name - 1), text);
    const char *why = len > SIZE_EXPR_MAX_NAME ? "the name is longer than 32 bytes"
                                               : size_expr_check_name(name);
    if (why) {
        cli_error(command, "--param: '%s': %s", QUOTED(text), why);
        return false;
    }
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->names[i], name) == 0) {
            cli_error(command, "--param: '%s' given twice", name);
            return false;
        }
    if (p->n == CLI_MAX_PARAMS) {
        cli_error(command, "--param: more than %d names", CLI_MAX_PARAMS);
        return false;
    }
    char option[SIZE_EXPR_MAX_NAME + 16];
    snprintf(option, sizeof option, "--param %s", name);
    long long value;
    if (!cli_parse_integer(command, option, equals + 1, 0, INT64_MAX, &value))
        return false;
    memcpy(p->names[p->n], name, len + 1);
    p->list[p->n] = p->names[p->n];
    p->values[p->n++] = (uint64_t)value;
    return true;
}

/* Whether text is one size as --smem always took it (12288, 48K, and
 * the signed ones it refuses, +5, -0K): those keep cli_parse_size's
 * messages; anything else is an expression. */
static bool plain_size(const char *text)
{
    if (text[0] == '+' || text[0] == '-')
        text++;
    return text[0] >= '0' && text[0] <= '9' &&
           text[strspn(text, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")] == '\0';
}

/* Whether text is one word and no formula ("lots"): a size mistyped as
 * much as a name unknown, so its error says both. */
static bool bare_word(const char *text)
{
    return text[0] && text[strspn(text, "0123456789abcdefghijklmnopqrstuvwxyz"
                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ_")] == '\0';
}

SizeExpr *cli_parse_size_expr(const char *command, const char *option, const char *text,
                              const CliParams *p)
{
    char error[SIZE_EXPR_ERROR_SIZE];
    SizeNames names = {p->list, p->n};
    SizeExpr *e = size_expr_parse_names(text, &names, error, sizeof error);
    if (!e && bare_word(text))
        cli_error(command, "%s: '%s' is not a size (bytes, or a number with K/KiB or M/MiB); "
                           "as a formula, %s", option, QUOTED(text), error);
    else if (!e)
        cli_error(command, "%s '%s': %s", option, QUOTED(text), error);
    if (!e)
        return NULL;
    size_expr_bind(e, p->values);
    return e;
}

bool cli_eval_size(const char *command, const char *option, const char *text, const CliParams *p,
                   long long threads, long long warps, uint64_t *out, bool *constant)
{
    if (constant)
        *constant = true;
    if (plain_size(text))
        return cli_parse_size(command, option, text, out);
    SizeExpr *e = cli_parse_size_expr(command, option, text, p);
    if (!e)
        return false;
    if (constant)
        *constant = size_expr_is_constant(e);
    char error[SIZE_EXPR_ERROR_SIZE];
    bool ok = size_expr_eval(e, threads, warps, out, error, sizeof error);
    if (!ok)
        cli_error(command, "%s '%s': at %lld threads: %s", option, QUOTED(text), threads, error);
    size_expr_free(e);
    return ok;
}
