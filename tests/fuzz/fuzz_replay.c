/*
 * fuzz_replay.c: a libFuzzer target for `silk-occ verify --replay FILE` on
 * a record of arbitrary bytes: the reader (verify/verify_record.c), the
 * comparison of the device's properties and of every recorded answer with
 * the engine's (verify/verify_compare.c), and both reports (text and JSON),
 * by the command's own entry, cmd_verify, as main would call it.  The
 * record lives in a memory file (memfd) named by its /proc/self/fd path, so
 * nothing touches the disk.  Built with `./configure --enable-fuzz
 * CC=clang` as tests/fuzz/fuzz_replay and run by `make fuzz` from
 * tests/fuzz/seeds/replay with tests/fuzz/replay.dict.
 *
 * Any crash, sanitizer report, leak or hang is a bug; so is an exit status
 * other than 0, 1 or 2 (a replay needs no device), a 2 without its
 * "silk-occ verify: error: " line, and a control character other than a
 * line end in the text report or the messages: the record is someone
 * else's file, and its names must not reach the terminal raw.
 */
#define _GNU_SOURCE /* memfd_create */
#include "cli.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int record_fd = -1;
static char record_path[64];

/* One memory file for every run. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    record_fd = memfd_create("fuzz-replay.json", 0);
    if (record_fd < 0)
        abort();
    snprintf(record_path, sizeof record_path, "/proc/self/fd/%d", record_fd);
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

/* What a run printed, each stream into memory: glibc's stdout and stderr
 * are plain variables (the GNU C Library manual, "Standard Streams"), so
 * libFuzzer keeps the stream it saved at start-up and the sanitizers still
 * write to descriptor 2. */
typedef struct Captured {
    char *out, *err;
    size_t out_len, err_len;
} Captured;

static void capture(Captured *c)
{
    *c = (Captured){0};
    stdout = open_memstream(&c->out, &c->out_len);
    stderr = open_memstream(&c->err, &c->err_len);
    if (!stdout || !stderr)
        abort();
}

/* The streams closed, the captured text is complete and NUL-terminated. */
static void end_capture(void)
{
    if (fclose(stdout) != 0 || fclose(stderr) != 0)
        abort();
}

/* Whether `text` holds a control character other than a line end. */
static bool has_control(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if ((ch < 0x20 && ch != '\n') || ch == 0x7f)
            return true;
    }
    return false;
}

static bool has_line(const char *text, const char *prefix)
{
    for (const char *line = text; line; line = strchr(line, '\n'))
        if (strncmp(line + (line != text), prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* On a broken promise, what the command printed goes to descriptor 2
 * (libFuzzer's log) before the abort. */
static void check_outcome(const char *format, int status, const Captured *c)
{
    bool text_report = strcmp(format, "text") == 0;
    if ((status == EXIT_OK || status == EXIT_FINDINGS ||
         (status == EXIT_USAGE && has_line(c->err, "silk-occ verify: error: "))) &&
        !has_control(c->err, c->err_len) && !(text_report && has_control(c->out, c->out_len)))
        return;
    dprintf(2, "--format %s: exit status %d; stdout:\n%s\nstderr:\n%s", format, status, c->out,
            c->err);
    abort();
}

/* Replays the record with --format `format`; returns the exit status. */
static int replay(const char *format)
{
    char command[] = "verify", replay_option[] = "--replay", format_option[] = "--format";
    char format_copy[8];
    snprintf(format_copy, sizeof format_copy, "%s", format);
    char *argv[] = {command, replay_option, record_path, format_option, format_copy, NULL};
    Captured c;
    capture(&c);
    int status = cmd_verify(5, argv);
    end_capture();
    check_outcome(format, status, &c);
    free(c.out);
    free(c.err);
    return status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_record(data, size);
    /* A record the reader refuses fails the same way in both formats. */
    if (replay("text") != EXIT_USAGE)
        replay("json");
    return 0;
}
