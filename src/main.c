/*
 * main.c: silk-occ, the program.  A table of subcommands; everything else
 * lives in the subcommand's own file.
 */
#include "cli.h"
#include "escape.h"

#include "output.h"

#include <config.h>
#include <string.h>

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*usage)(FILE *out);
    const char *summary;
} Command;

static const Command commands[] = {
    {"calc", cmd_calc, cmd_calc_usage, "occupancy of one kernel configuration on one GPU"},
    {"arch", cmd_arch, cmd_arch_usage, "list and show the architecture and GPU tables"},
    {"verify", cmd_verify, cmd_verify_usage, "check the engine and tables against a CUDA device"},
    {"report", cmd_report, cmd_report_usage,
     "launch configuration of the kernels of .silk, .ptx, .cu and .cubin files"},
    {"diff", cmd_diff, cmd_diff_usage, "compare two reports: a gate for CI"},
    {"wrap", cmd_wrap, cmd_wrap_usage, "run a compile and write its unit's report beside the object"},
    {"merge", cmd_merge, cmd_merge_usage, "join units' report JSON into one report"},
    {"prune", cmd_prune, cmd_prune_usage, "the configurations of a tuning space that can run, and why not"},
};
enum { N_COMMANDS = sizeof commands / sizeof *commands };

static const Command *find_command(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void usage(FILE *out)
{
    fputs("usage: silk-occ COMMAND [OPTIONS]\n"
          "\n"
          "Occupancy and launch-configuration analysis for GPU kernels.\n"
          "\n"
          "commands:\n",
          out);
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("  help     help COMMAND: the options of a command\n"
          "\n"
          "options: --help, --version\n"
          "exit status: 0 ok, 1 findings, 2 usage or input error, 3 environment missing\n"
          "  (or an output that could not be written)\n"
          "See silk-occ(1).\n",
          out);
}

static int help(int argc, char **argv)
{
    if (argc < 3) {
        usage(stdout);
        return EXIT_OK;
    }
    const Command *c = find_command(argv[2]);
    if (!c) {
        cli_error(NULL, "help: unknown command '%s'", QUOTED(argv[2]));
        return EXIT_USAGE;
    }
    c->usage(stdout);
    return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("silk-occ %s\n", PACKAGE_VERSION);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0)
        return help(argc, argv);
    const Command *c = find_command(name);
    if (!c) {
        cli_error(NULL, "unknown command '%s'; 'silk-occ --help' lists the commands", QUOTED(name));
        return EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}

/* Every command's standard output is checked at the end: a full disk or
 * /dev/full is an error (exit 3), not a silent loss. */
int main(int argc, char **argv)
{
    output_init();
    return output_finish_stdout("silk-occ", dispatch(argc, argv), EXIT_ENVIRONMENT);
}
