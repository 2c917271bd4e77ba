/*
 * fuzz_options.c: a libFuzzer target for the command lines of `silk-occ
 * calc` and `silk-occ arch`.  The input, split at NUL bytes, is the
 * argument vector after "silk-occ": its first word names the command
 * ("calc\0--arch\0sm_90\0--threads\0256\0--regs\032"), the rest are its
 * arguments, and the command's entry (cmd_calc, cmd_arch) runs on them as
 * main would call it, its output and messages discarded.  Built with
 * `./configure --enable-fuzz CC=clang` as tests/fuzz/fuzz_options and run
 * by `make fuzz` from tests/fuzz/seeds/options with tests/fuzz/options.dict.
 *
 * Any crash, sanitizer report, leak or hang is a bug; so is an exit status
 * that silk-occ(1) does not document.
 */
#include "cli.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A command line longer than this is no more interesting, only slower. */
enum { MAX_WORDS = 64 };

/* The commands' output goes nowhere.  glibc's stdout and stderr are plain
 * variables (the GNU C Library manual, "Standard Streams"), so pointing
 * them at /dev/null silences the commands while libFuzzer keeps the
 * stream it saved at start-up and the sanitizers write to descriptor 2. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    stdout = null;
    stderr = null;
    return 0;
}

/* GNU getopt keeps a pointer into the last argument vector between calls
 * (the rest of a word of short options such as "-xy"); cli_getopt's
 * optind = 1 does not clear it, and this run's vector is freed before the
 * next.  optind = 0 makes glibc start afresh: nothing stale survives. */
static void reset_getopt(void)
{
    char name[] = "fuzz";
    char *argv[] = {name, NULL};
    optind = 0;
    while (getopt(1, argv, "") != -1)
        continue;
}

/* "--arch-table FILE" would read any file of this machine (a FIFO, a
 * device) by the fuzzer's choice; the table loader has its own target
 * (fuzz_arch_table.c).  getopt_long takes any unambiguous prefix, and
 * "--arch-" is the shortest that can only mean --arch-table. */
static bool names_a_file(char *const words[], int n)
{
    for (int i = 0; i < n; i++)
        if (strncmp(words[i], "--arch-", 7) == 0)
            return true;
    return false;
}

/* Splits a copy of the input at NUL bytes into words[]; *n counts them.
 * A trailing NUL ends the last word, as in /proc/PID/cmdline. */
static char *split_words(const uint8_t *data, size_t size, char **words, int *n)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    *n = 0;
    for (size_t start = 0; start < size && *n < MAX_WORDS; start += strlen(text + start) + 1)
        words[(*n)++] = text + start;
    words[*n] = NULL;
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *words[MAX_WORDS + 1];
    int n;
    char *text = split_words(data, size, words, &n);
    int (*command)(int, char **) = NULL;
    if (n > 0 && strcmp(words[0], "calc") == 0)
        command = cmd_calc;
    else if (n > 0 && strcmp(words[0], "arch") == 0)
        command = cmd_arch;
    if (!command || names_a_file(words, n)) {
        free(text);
        return -1; /* not a command line of interest: keep it out of the corpus */
    }
    int status = command(n, words);
    reset_getopt();
    free(text);
    if (status != EXIT_OK && status != EXIT_FINDINGS && status != EXIT_USAGE &&
        status != EXIT_ENVIRONMENT)
        abort(); /* silk-occ(1) documents 0 to 3 only */
    return 0;
}
