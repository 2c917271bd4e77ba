/*
 * program_exec.c: `silkc run`'s run of the program it built, in the
 * foreground: the program has silkc's standard input, output and error,
 * and its exit status is silkc's (a signal N that ends it: 128 + N, as a
 * shell reports it).  While it runs it is known to cleanup.h, so that a
 * signal which ends silkc (and removes the temporary directory the
 * program is in) stops it first.  A SIGKILL of silkc, which no handler
 * sees, ends it too: the child asks the kernel for SIGKILL when its
 * parent dies (PR_SET_PDEATHSIG), and checks that silkc did not die
 * before it asked.
 */
#include "program.h"

#include "cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child: only async-signal-safe calls between fork and exec.  It dies
 * with `parent` (silkc), or ends now if silkc died before prctl. */
static _Noreturn void start(const char *program, char *const *argv, const sigset_t *saved,
                            pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != parent)
        _exit(128 + SIGKILL);
    cleanup_release(saved);
    execv(program, argv);
    int err = errno;
    static const char msg[] = "silkc: error: cannot start the program: ";
    const char *why = strerror(err);
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)!write(STDERR_FILENO, why, strlen(why));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(127);
}

int program_exec(const char *program, const char *name, const SilkcRequest *r)
{
    char **argv = calloc((size_t)r->n_program_args + 2, sizeof *argv);
    if (!argv) {
        silkc_error(r->diag, "out of memory");
        return EXIT_ENVIRONMENT;
    }
    argv[0] = (char *)name;
    for (int i = 0; i < r->n_program_args; i++)
        argv[i + 1] = (char *)r->program_args[i];
    fflush(stdout);
    fflush(stderr);
    sigset_t saved;
    cleanup_hold(&saved);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0)
        start(program, argv, &saved, parent);
    bool known = pid > 0 && cleanup_add_child(pid);
    cleanup_release(&saved);
    free(argv);
    if (pid < 0) {
        silkc_error(r->diag, "cannot start the program: %s", strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (known)
        cleanup_forget_child(pid);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_ENVIRONMENT;
}
