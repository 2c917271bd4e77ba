/*
 * output.h: every file the programs write, written so that it is whole or
 * not there: never half-written after a full disk, a file-size limit or a
 * signal, never over one of the program's inputs, and every write error
 * reported.
 *
 * output_open takes the name the user gave.  "-" is standard output.  A
 * regular file (or a name not yet on disk, or a symbolic link to a
 * regular file) is written to a temporary file beside it, ".NAME.XXXXXX"
 * in the same directory, which output_commit renames over it once every
 * byte is flushed and closed without error, and output_abort removes; the
 * temporary is registered with cleanup.h, so a signal removes it too.
 * Anything else (/dev/null, /dev/stdout on a pipe, a FIFO, a terminal) is
 * opened and written in place: it cannot be replaced, and holds nothing to
 * lose.  A target that is the same regular file (device and inode) as one
 * of the inputs is refused before anything is opened.
 *
 * Standard output, which the programs also write directly, is checked once
 * at the end of main by output_finish_stdout, as gnulib's close_stdout
 * does.  Nothing here prints except output_finish_stdout: a failure's one
 * line is in Output.error, for the caller to prefix with its program.
 */
#ifndef SILK_OUTPUT_H
#define SILK_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

typedef enum OutputFailure {
    OUTPUT_OK,
    OUTPUT_IS_INPUT,     /* the target is one of the inputs */
    OUTPUT_CANNOT_CREATE, /* no such directory, no permission, a directory */
    OUTPUT_CANNOT_WRITE, /* a write, flush, close or rename failed */
} OutputFailure;

typedef struct Output {
    FILE *file;          /* write here, between open and commit or abort */
    const char *target;  /* the name given */
    char *final;         /* the path the temporary is renamed to (the file a
                          * link leads to); NULL when written in place */
    char *temp;          /* the temporary beside it; NULL when written in place */
    int write_error;     /* errno of a failed write, kept by output_flush */
    OutputFailure failure;
    char error[512];     /* "NAME: cannot create: No such file or directory" */
} Output;

/* At the start of main: a write past the file-size limit (ulimit -f) then
 * fails with EFBIG and is reported like any write error, instead of
 * SIGXFSZ killing the program with a temporary file left behind. */
void output_init(void);

/* Opens `target` for writing as described above, refusing it when it is
 * the same file as one of the n `inputs` ("-" among them: standard
 * input).  False with failure and error set, and nothing on disk. */
bool output_open(Output *o, const char *target, const char *const inputs[], int n_inputs);

/* Flushes what was written so far, right after writing it, while errno
 * still says why a write failed (stdio keeps only that one did); the
 * failure waits for output_commit.  Call it when done writing when other
 * work comes before the commit. */
void output_flush(Output *o);

/* Flushes and closes the file, checking each step, then renames the
 * temporary over the target.  False with failure and error set; the
 * temporary is then removed and the target as it was.  Standard output
 * is flushed only (output_finish_stdout checks it). */
bool output_commit(Output *o);

/* Closes and removes the temporary; the target stays as it was. */
void output_abort(Output *o);

/* At the end of main, with the exit status it would return: flushes and
 * closes standard output and, when any write to it failed, prints
 * "PROGRAM: write error: REASON" on stderr and returns `failure_status`;
 * else `status`. */
int output_finish_stdout(const char *program, int status, int failure_status);

#endif
