/*
 * silkc.c: the Silk compiler driver.  `silkc check FILE...` runs the front
 * end (lex -> parse; name resolution and checking follow) and reports every
 * problem; `--dump-ast` prints the tree for golden tests.
 *
 * Exit status: 0 clean, 1 errors in the source, 2 a usage error.
 */
#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "lex.h"
#include "parse.h"

#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_CLEAN = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

typedef struct Options {
    bool dump_ast;
    const char **files;
    int n_files;
} Options;

static void usage(FILE *out)
{
    fputs("usage: silkc check [options] FILE...\n"
          "\n"
          "Checks Silk source files and reports every problem.\n"
          "\n"
          "  --dump-ast                    print the syntax tree of each file\n"
          "  -W<name>, -Wno-<name>         enable or disable a warning; -Wall: all\n"
          "  -Werror, -Werror=<name>       make warnings (or one) errors\n"
          "  -ferror-limit=N               stop after N errors (default 20; 0: no limit)\n"
          "  -fdiagnostics-format=json     diagnostics as JSON on stderr\n"
          "  --help, --version\n"
          "\n"
          "exit status: 0 clean, 1 errors, 2 usage.  See silkc(1).\n",
          out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("silkc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("; 'silkc --help' shows usage\n", stderr);
    return EXIT_USAGE;
}

/* Reads the options after `check`; diagnostics options go to `diag`. */
static int parse_arguments(int argc, char **argv, Options *o, Diag *diag)
{
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files)
        return usage_error("%s", "out of memory");
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        const char *problem = NULL;
        if (strcmp(arg, "--dump-ast") == 0)
            o->dump_ast = true;
        else if (arg[0] != '-' || strcmp(arg, "-") == 0)
            o->files[o->n_files++] = arg;
        else if (!diag_option(diag, arg, &problem))
            return problem ? usage_error("%s", problem) : usage_error("unknown option '%s'", arg);
    }
    if (o->n_files == 0)
        return usage_error("%s", "no input files");
    return EXIT_CLEAN;
}

/* The front end on one file: lex, parse, and (later) resolve and check. */
static void check_file(SourceMap *sources, uint32_t file, const Options *o, Diag *diag,
                       Arena *arena)
{
    TokenArray tokens = lex_file(sources, file, diag, arena);
    Node *tree = parse_file(&tokens, sources, diag, arena);
    if (o->dump_ast)
        ast_dump(tree, sources, stdout);
}

static int check(int argc, char **argv)
{
    Arena *arena = arena_new();
    SourceMap sources;
    source_map_init(&sources, arena);
    Diag diag;
    diag_init(&diag, &sources, arena, stderr);
    Options o = {0};
    int rc = parse_arguments(argc, argv, &o, &diag);
    for (int i = 0; rc == EXIT_CLEAN && i < o.n_files && !diag_too_many(&diag); i++) {
        long file = source_add_file(&sources, o.files[i]);
        if (file < 0) {
            fprintf(stderr, "silkc: error: %s: cannot read: %s\n", o.files[i], strerror(errno));
            rc = EXIT_USAGE;
            break;
        }
        check_file(&sources, (uint32_t)file, &o, &diag, arena);
    }
    diag_finish(&diag);
    if (rc == EXIT_CLEAN && diag.errors > 0)
        rc = EXIT_ERRORS;
    free(o.files);
    arena_free(arena);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return EXIT_CLEAN;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("silkc %s\n", PACKAGE_VERSION);
        return EXIT_CLEAN;
    }
    if (strcmp(argv[1], "check") == 0)
        return check(argc, argv);
    return usage_error("unknown command '%s' (silkc check FILE...)", argv[1]);
}
