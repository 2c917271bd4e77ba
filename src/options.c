/*
 * options.c: the option loop both programs share (options.h), over
 * getopt_long: the rules of the command line in one place, the words of
 * a refusal in one place, and the saying of it left to each program.
 */
#include "options.h"

#include "escape.h"
#include "exit_status.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* The option's name in a message: "--threads" for a long option, "-o"
 * for a short one without a long twin; written to buf. */
static const char *option_name(const OptionsParser *p, int c, char buf[64])
{
    for (const struct option *o = p->longs; o && o->name; o++)
        if (o->val == c) {
            snprintf(buf, 64, "--%s", o->name);
            return buf;
        }
    snprintf(buf, 64, "-%c", c);
    return buf;
}

/* Whether option `c` takes a value, by the long table or the short list. */
static bool takes_value(const OptionsParser *p, int c)
{
    for (const struct option *o = p->longs; o && o->name; o++)
        if (o->val == c && o->has_arg == required_argument)
            return true;
    const char *s = c > 0 && c <= UCHAR_MAX && p->shorts ? strchr(p->shorts, c) : NULL;
    return s && s[1] == ':';
}

/* A second --threads is a mistake (which one was meant?), not an
 * override: refused, unless the option is one that adds. */
static bool check_repeat(const OptionsParser *p, int c, bool seen[UCHAR_MAX + 1])
{
    unsigned char u = (unsigned char)c;
    bool repeatable = p->repeatable && strchr(p->repeatable, c);
    if (seen[u] && !repeatable && takes_value(p, c)) {
        char buf[64], message[96];
        snprintf(message, sizeof message, "%s given twice", option_name(p, c, buf));
        p->refuse(p->context, OPTIONS_TWICE, message);
        return false;
    }
    seen[u] = true;
    return true;
}

/* The option getopt just refused, when it had been at argv[at].  Inside a
 * group of short options ("-xy") getopt has not moved past the group, so
 * the word before it is not the one: the unknown letter is named alone. */
static const char *refused_option(char **argv, int at, char letter[3])
{
    if (optind == at && optopt != 0) {
        letter[0] = '-';
        letter[1] = (char)optopt;
        letter[2] = '\0';
        return letter;
    }
    return argv[optind - 1];
}

static void refuse(const OptionsParser *p, int c, const char *word)
{
    char message[ESCAPE_QUOTE_SIZE + 32];
    if (c == ':')
        snprintf(message, sizeof message, "%s: needs a value", word);
    else
        snprintf(message, sizeof message, "unknown option '%s'", QUOTED(word));
    p->refuse(p->context, c == ':' ? OPTIONS_NO_VALUE : OPTIONS_UNKNOWN, message);
}

int options_parse(const OptionsParser *p, int argc, char **argv, int *first_operand)
{
    /* '-': getopt hands each operand back in its place (code 1) instead of
     * moving it, so that the word at fault is known and POSIXLY_CORRECT
     * changes nothing; ':': no message of getopt's, and ':' for a missing
     * value. */
    char optstring[64];
    snprintf(optstring, sizeof optstring, "-:h%s", p->shorts ? p->shorts : "");
    bool seen[UCHAR_MAX + 1] = {false};
    int n_operands = 0;
    opterr = 0;
    optind = 0; /* glibc: start afresh, inside a group of short options too */
    int c;
    for (int at = 1; (c = getopt_long(argc, argv, optstring, p->longs, NULL)) != -1; at = optind) {
        if (c == 1) { /* kept behind the scan, which has passed that slot */
            argv[1 + n_operands++] = optarg;
            continue;
        }
        if (c == 'h') {
            p->usage(stdout);
            return EXIT_HELP;
        }
        if (c == '?' || c == ':') {
            char letter[3];
            refuse(p, c, refused_option(argv, at, letter));
            return EXIT_USAGE;
        }
        if (!check_repeat(p, c, seen) || !p->take(c, optarg, p->context))
            return EXIT_USAGE;
    }
    /* The operands in order, then the words after "--" (from optind on),
     * at the end of argv, as getopt's own permutation leaves them. */
    memmove(argv + optind - n_operands, argv + 1, (size_t)n_operands * sizeof *argv);
    *first_operand = optind - n_operands;
    return EXIT_OK;
}
