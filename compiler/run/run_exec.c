/*
 * run_exec.c: a program that was built, run in the foreground (`silkc
 * run`): the program has the caller's standard input, output and error,
 * and its exit status is the caller's to pass on (a signal N that ends
 * it: 128 + N, as a shell reports it).  While it runs it is known to
 * cleanup.h, so that a signal which ends silkc (and removes the temporary
 * directory the program is in) stops it first.  A SIGKILL of silkc, which
 * no handler sees, ends it too: the child asks the kernel for SIGKILL
 * when its parent dies (PR_SET_PDEATHSIG), and checks that silkc did not
 * die before it asked.
 *
 * A program that cannot start is said here, through the diagnostics, as
 * every library says what went wrong: the child sends exec's errno back
 * through a close-on-exec pipe (as jobs.c does for tools), so that the
 * one message is the parent's, in the text or the JSON form, and the
 * child itself never writes to silkc's streams.
 */
#include "run/run.h"

#include "cleanup.h"
#include "exit_status.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child: only async-signal-safe calls between fork and exec.  It dies
 * with `parent` (silkc), or ends now if silkc died before prctl; exec's
 * failure goes back through `report` as errno. */
static _Noreturn void start(const char *program, char *const *argv, const sigset_t *saved,
                            pid_t parent, int report)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != parent)
        _exit(128 + SIGKILL);
    cleanup_release(saved);
    execv(program, argv);
    int err = errno;
    (void)!write(report, &err, sizeof err);
    _exit(127);
}

/* What the child sent before exec: 0 when exec succeeded (the pipe
 * closed empty), else its errno. */
static int exec_errno(int report)
{
    int err = 0;
    ssize_t got;
    do
        got = read(report, &err, sizeof err);
    while (got < 0 && errno == EINTR);
    return got == (ssize_t)sizeof err ? err : 0;
}

/* "silkc: error: ..." through `d`; EXIT_ENVIRONMENT. */
static int say(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int say(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(d, DIAG_ERROR, fmt, ap);
    va_end(ap);
    return EXIT_ENVIRONMENT;
}

/* The child's exit, by the rule of a shell's $?. */
static int wait_for(pid_t pid, bool known)
{
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (known)
        cleanup_forget_child(pid);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_ENVIRONMENT;
}

int run_exec(Diag *d, const char *program, const char *name, const char *const *args, int n_args)
{
    char **argv = calloc((size_t)n_args + 2, sizeof *argv);
    int report[2];
    if (!argv)
        return say(d, "out of memory");
    if (pipe(report) != 0) {
        int err = errno;
        free(argv);
        return say(d, "cannot start the program: %s", strerror(err));
    }
    /* exec closes the write end; the program inherits neither. */
    (void)fcntl(report[0], F_SETFD, FD_CLOEXEC);
    (void)fcntl(report[1], F_SETFD, FD_CLOEXEC);
    argv[0] = (char *)name;
    for (int i = 0; i < n_args; i++)
        argv[i + 1] = (char *)args[i];
    fflush(stdout);
    fflush(stderr);
    sigset_t saved;
    cleanup_hold(&saved);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0)
        start(program, argv, &saved, parent, report[1]);
    int fork_error = errno;
    bool known = pid > 0 && cleanup_add_child(pid);
    cleanup_release(&saved);
    free(argv);
    close(report[1]);
    int err = pid < 0 ? fork_error : exec_errno(report[0]);
    close(report[0]);
    int rc = pid < 0 ? EXIT_ENVIRONMENT : wait_for(pid, known);
    return err ? say(d, "cannot start the program: %s", strerror(err)) : rc;
}
