/*
 * fuzz_options.c: a libFuzzer target for the command lines of `silk-occ
 * calc` and `silk-occ arch`.  The input, split at NUL bytes, is the
 * argument vector after "silk-occ": its first word names the command
 * ("calc\0--arch\0sm_90\0--threads\0256\0--regs\032"), the rest are its
 * arguments, and the command's entry (cmd_calc, cmd_arch) runs on them as
 * main would call it, its output discarded and its messages kept.  Built
 * with `./configure --enable-fuzz CC=clang` as tests/fuzz/fuzz_options and
 * run by `make fuzz` from tests/fuzz/seeds/options with
 * tests/fuzz/options.dict.
 *
 * Any crash, sanitizer report, leak or hang is a bug; so is an exit status
 * that silk-occ(1) does not document, a usage error (2) without its
 * "silk-occ COMMAND: error: " line, and an "unknown option 'WORD'" whose
 * WORD is not on the command line (a word, or one letter of a group of
 * short options).
 */
#include "cli.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A command line longer than this is no more interesting, only slower. */
enum { MAX_WORDS = 64 };

/* glibc's stdout and stderr are plain variables (the GNU C Library manual,
 * "Standard Streams"): the commands' output goes to /dev/null, and their
 * messages to a memory stream per run, while libFuzzer keeps the stream it
 * saved at start-up and the sanitizers write to descriptor 2. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    stdout = fopen("/dev/null", "w");
    if (!stdout)
        abort();
    return 0;
}

static void require(bool promise)
{
    if (!promise)
        abort();
}

/* Whether `text` has a line that starts with `prefix`. */
static bool has_line(const char *text, const char *prefix)
{
    for (const char *line = text; line; line = strchr(line, '\n'))
        if (strncmp(line + (line != text), prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* Whether `word` (len bytes) is a word the user typed after the command,
 * or "-L" for a letter L of a typed group of short options ("-xy"). */
static bool was_typed(const char *word, size_t len, char *const words[], int n)
{
    for (int i = 1; i < n; i++) {
        if (strlen(words[i]) == len && strncmp(words[i], word, len) == 0)
            return true;
        bool short_group = words[i][0] == '-' && words[i][1] != '-';
        if (short_group && len == 2 && word[0] == '-' && strchr(words[i] + 1, word[1]))
            return true;
    }
    return false;
}

/* Whether the message "silk-occ CMD: error: unknown option 'WORD'; 'silk-occ
 * help CMD' lists them", when that is what was printed, quotes what the
 * user typed.  Option parsing stops at the first bad option, so its
 * message is all there is; WORD may hold quotes and line ends of its own,
 * so it is what lies between the two fixed ends. */
static bool names_a_typed_word(const char *messages, char *const words[], int n)
{
    char head[64], tail[64];
    snprintf(head, sizeof head, "silk-occ %s: error: unknown option '", words[0]);
    snprintf(tail, sizeof tail, "'; 'silk-occ help %s' lists them\n", words[0]);
    size_t len = strlen(messages), head_len = strlen(head), tail_len = strlen(tail);
    if (len < head_len + tail_len || strncmp(messages, head, head_len) != 0 ||
        strcmp(messages + len - tail_len, tail) != 0)
        return true;
    return was_typed(messages + head_len, len - head_len - tail_len, words, n);
}

/* What silk-occ(1) says of exit statuses and messages; on a broken
 * promise the messages go to descriptor 2 (libFuzzer's log) first. */
static void check_outcome(int status, const char *messages, char *const words[], int n)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "silk-occ %s: error: ", words[0]);
    bool documented = status == EXIT_OK || status == EXIT_FINDINGS || status == EXIT_USAGE ||
                      status == EXIT_ENVIRONMENT;
    if (documented && (status != EXIT_USAGE || has_line(messages, prefix)) &&
        names_a_typed_word(messages, words, n))
        return;
    dprintf(2, "exit status %d; the messages:\n%s", status, messages);
    abort();
}

/* "--arch-table FILE" would read any file of this machine (a FIFO, a
 * device) by the fuzzer's choice; the table loader has its own target
 * (fuzz_arch_table.c).  getopt_long takes any unambiguous prefix of a long
 * option, with or without "=VALUE": in arch, "--a" already means
 * --arch-table; in calc, which has --arch too, only what goes past
 * "--arch" does. */
static bool opens_a_file(const char *command, const char *word)
{
    static const char option[] = "--arch-table";
    size_t len = strcspn(word, "=");
    if (len < 3 || len > strlen(option) || strncmp(word, option, len) != 0)
        return false;
    return strcmp(command, "arch") == 0 || len > strlen("--arch");
}

static bool names_a_file(char *const words[], int n)
{
    for (int i = 1; i < n; i++)
        if (opens_a_file(words[0], words[i]))
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
    char *messages = NULL;
    size_t messages_len = 0;
    stderr = open_memstream(&messages, &messages_len);
    require(stderr != NULL);
    int status = command(n, words);
    require(fclose(stderr) == 0);
    check_outcome(status, messages, words, n);
    free(messages);
    free(text);
    return 0;
}
