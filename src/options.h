/*
 * options.h: the one option loop of both programs, silk-occ's subcommands
 * (args.c's cli_getopt) and silkc's commands (silkc.c), so that the two
 * read a command line by the same rules: getopt_long's, with options and
 * operands in any order, `--opt=value` or `--opt value`, `-o FILE` or
 * `-oFILE`, a long option by any unambiguous prefix, `--` ending the
 * options, `-h` and `--help` printing the usage; a valued option given
 * twice is an error unless it is one that adds (-I, --arch-table); and the
 * same three messages for a line it refuses.
 *
 * The loop prints nothing itself: each program says the refusal in its
 * own way (silk-occ on stderr, silkc through its diagnostics, so that the
 * JSON form holds it).
 */
#ifndef SILK_OPTIONS_H
#define SILK_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct option;

/* Why a command line was refused. */
typedef enum OptionsProblem {
    OPTIONS_UNKNOWN,  /* "unknown option '--bogus'" */
    OPTIONS_NO_VALUE, /* "--threads: needs a value" */
    OPTIONS_TWICE,    /* "--threads given twice" */
} OptionsProblem;

typedef struct OptionsParser {
    const char *shorts;   /* short options beside -h, as getopt spells them ("o:I:") */
    const struct option *longs; /* getopt_long's table, {NULL} last */
    const char *repeatable; /* the codes of valued options that add each time */
    void (*usage)(FILE *out); /* -h, --help: printed on stdout */
    /* An option and its value (NULL for a flag): false when the value is
     * bad, which take has said. */
    bool (*take)(int c, char *arg, void *context);
    /* The line is refused: `message` is the words above (the option
     * quoted), for the program to say with its own prefix and hint. */
    void (*refuse)(void *context, OptionsProblem problem, const char *message);
    void *context;
} OptionsParser;

/* Reads argv[1..argc) (argv[0] names the command).  Returns EXIT_OK with
 * *first_operand the index of the first operand (getopt_long moves the
 * operands after the options, in their order), EXIT_USAGE after a refusal
 * or a take that failed, or EXIT_HELP after the usage was printed. */
int options_parse(const OptionsParser *p, int argc, char **argv, int *first_operand);

#endif
