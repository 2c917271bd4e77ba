/*
 * fuzz_replay.c: a libFuzzer target for `silk-occ verify --replay FILE` on
 * a record of arbitrary bytes: the reader (src/verify_record.c), the
 * comparison of the device's properties and of every recorded answer with
 * the engine's (src/verify_compare.c), and both reports (text and JSON),
 * by the command's own entry, cmd_verify, as main would call it.  The
 * record lives in a memory file (memfd) named by its /proc/self/fd path, so
 * nothing touches the disk.  Built with `./configure --enable-fuzz
 * CC=clang` as tests/fuzz/fuzz_replay and run by `make fuzz` from
 * tests/fuzz/seeds/replay with tests/fuzz/replay.dict.
 *
 * Any crash, sanitizer report, leak or hang is a bug; so is an exit status
 * that silk-occ(1) does not document.
 */
#define _GNU_SOURCE /* memfd_create */
#include "cli.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int record_fd = -1;
static char record_path[64];

/* One memory file for every run, and the command's output sent nowhere:
 * glibc's stdout and stderr are plain variables (the GNU C Library manual,
 * "Standard Streams"), so libFuzzer keeps the stream it saved at start-up
 * and the sanitizers still write to descriptor 2. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    record_fd = memfd_create("fuzz-replay.json", 0);
    FILE *null = fopen("/dev/null", "w");
    if (record_fd < 0 || !null)
        abort();
    snprintf(record_path, sizeof record_path, "/proc/self/fd/%d", record_fd);
    stdout = null;
    stderr = null;
    return 0;
}

/* The memory file holds exactly this run's bytes. */
static void write_record(const uint8_t *data, size_t size)
{
    if (ftruncate(record_fd, 0) != 0)
        abort();
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(record_fd, data + done, size - done, (off_t)done);
        if (n <= 0)
            abort();
        done += (size_t)n;
    }
}

/* cli_getopt sets optind = 1, which leaves GNU getopt's pointer into the
 * last (freed) argument vector; optind = 0 makes it start afresh. */
static void reset_getopt(void)
{
    char name[] = "fuzz";
    char *argv[] = {name, NULL};
    optind = 0;
    while (getopt(1, argv, "") != -1)
        continue;
}

static void replay(const char *format)
{
    char command[] = "verify", replay_option[] = "--replay", format_option[] = "--format";
    char format_copy[8];
    snprintf(format_copy, sizeof format_copy, "%s", format);
    char *argv[] = {command, replay_option, record_path, format_option, format_copy, NULL};
    int status = cmd_verify(5, argv);
    reset_getopt();
    if (status != EXIT_OK && status != EXIT_FINDINGS && status != EXIT_USAGE)
        abort(); /* a replay needs no device: 3 (environment) is wrong too */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_record(data, size);
    replay("text");
    replay("json");
    return 0;
}
