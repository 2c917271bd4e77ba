/*
 * jobs.h: run external tools (ptxas, nvcc) as child processes, several at
 * once, and collect what each printed.
 *
 * Each job is fork + execv of a program with an argument vector, never
 * through a shell (a path with spaces or quotes reaches the tool as it
 * is), with stdin from /dev/null and stdout and stderr into one pipe.  At
 * most one job per online core runs at a time; all their pipes are read
 * with poll, so no child blocks on a full pipe, and results land in their
 * input slot whatever order the children finish in.  A failure to exec
 * comes back as the child's errno, told apart from a tool that ran and
 * failed.  A running child is known to cleanup.h, so a signal that ends
 * the program stops it too.  Nothing here prints.
 *
 * A path handed to a tool must never read as one of its options: every
 * file name in an argument vector goes through jobs_operand.
 */
#ifndef SILK_JOBS_H
#define SILK_JOBS_H

#include "arena.h"

#include <stdbool.h>
#include <stddef.h>

/* A JobRun.status that is not an exit status. */
enum { JOBS_NOT_STARTED = -1 };

/* One job: set path and argv; jobs_run sets the rest. */
typedef struct JobRun {
    const char *path;        /* the program to execv (jobs_resolve_command); NULL:
                              * it was not found, and the job fails with ENOENT */
    char *const *argv;       /* NULL-terminated, argv[0] included */
    char *const *envp;       /* the tool's environment; NULL: the program's own */
    const char *dir;         /* its working directory (a build's unit runs where the
                              * build ran it); NULL: the program's own */
    int status;              /* exit status, 128 + N after signal N, or JOBS_NOT_STARTED */
    int signal;              /* N when signal N ended it, else 0 */
    int error;               /* errno, when not started */
    char *output;            /* stdout and stderr, NUL-terminated; "" when none */
    size_t len;
} JobRun;

/* Run the n jobs, at most one per online core at a time. */
void jobs_run(JobRun runs[], int n, Arena *arena);

/* How jobs_run_batch runs its jobs: at most `limit` at a time (0: one
 * per online core), and `done` (when set) called as each one ends, with
 * its index and how many have ended, in the order they end. */
typedef struct JobsBatch {
    int limit;
    void (*done)(void *context, int index, int finished);
    void *context;
} JobsBatch;

void jobs_run_batch(JobRun runs[], int n, const JobsBatch *batch, Arena *arena);

/* `path` as a tool's argument: "./-v.ptx" for "-v.ptx", which ptxas or
 * nvcc would take for an option; other paths as they are.  In `arena`. */
const char *jobs_operand(const char *path, Arena *arena);

/* Whether `path` is an executable regular file. */
bool jobs_is_executable(const char *path);

/* Whether `name` can be run: a path when it has a slash, else a name
 * found on $PATH. */
bool jobs_command_exists(const char *name);

/* The tool to run (ptxas, nvcc), by one rule for all: the program named by
 * $variable when it can run ("none": there is none, NULL), else the first
 * of `candidates` (NULL-terminated: the path configure found, then the
 * bare name, looked up on $PATH) that can run; NULL when none can.  The
 * answer is $variable's text or one of `candidates`, not a copy. */
const char *jobs_find_tool(const char *variable, const char *const candidates[]);

/* The path to execv for `name`: itself when it has a slash, else its place
 * on $PATH (execvp would do this, but falls back to running the file with
 * /bin/sh when the kernel refuses it); NULL with errno ENOENT when absent. */
const char *jobs_resolve_command(const char *name, Arena *arena);

/* The C compiler, as the first words of an argument vector: $CC split at
 * blanks as make splits it (no shell, so no quotes: CC="ccache gcc" and
 * CC="gcc -m32" are two words each), else cc on $PATH.  $CC unset, empty
 * or blank is cc; "none" says there is none.  Returns how many words (at
 * most `max`, in `arena`, NULL after them); 0 when there is no cc, or,
 * with the reason in `error` (else ""), when $CC's first word cannot run
 * or $CC has more than `max` words: a $CC is never passed over. */
int jobs_find_cc(Arena *arena, char **words, int max, char *error, size_t size);

/* Why a tool's failed run (its exit `status`; `signo` N when signal N ended it)
 * may not be its input's fault, as words after its name ("was killed by
 * signal 9 (Killed)", "was stopped by the file-size limit (SIGXFSZ;
 * ulimit -f: 204800 bytes)", "failed under a file-size limit of 204800
 * bytes (ulimit -f)"), written to buf; NULL when there is no such cause
 * (it exited nonzero with no limit set). */
const char *jobs_failure_cause(int status, int signo, char *buf, size_t size);

#endif
