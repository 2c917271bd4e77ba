/*
 * jobs.c: the child processes of jobs.h.
 *
 * Each job is fork + execv (never a shell), its stdout and stderr into
 * one pipe, stdin from /dev/null.  An exec failure comes back through a
 * close-on-exec pipe as the child's errno, so "cannot start" is told apart
 * from "the tool failed" without guessing from exit status 127.  jobs_run
 * keeps at most one child per online core and reads all their pipes with
 * poll, so no child ever blocks on a full pipe.  (Moved here from ptxas.c
 * so that nvcc.c runs its jobs the same way.)
 */
#include <config.h>

#include "jobs.h"

#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- finding programs ------------------------------------------------------ */

const char *jobs_operand(const char *path, Arena *arena)
{
    if (path[0] != '-')
        return path;
    size_t size = strlen(path) + 3;
    char *copy = arena_alloc(arena, size, 1);
    snprintf(copy, size, "./%s", path);
    return copy;
}

bool jobs_is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The first executable DIR/name for DIR in $PATH, written to buf.  An empty
 * DIR is the current directory, as in the shell. */
static bool search_path(const char *name, char *buf, size_t size)
{
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/usr/bin:/bin";
    while (*dirs) {
        size_t len = strcspn(dirs, ":");
        int written = len ? snprintf(buf, size, "%.*s/%s", (int)len, dirs, name)
                          : snprintf(buf, size, "./%s", name);
        if (written > 0 && (size_t)written < size && jobs_is_executable(buf))
            return true;
        dirs += len + (dirs[len] == ':');
    }
    return false;
}

bool jobs_command_exists(const char *name)
{
    char buf[4096];
    return strchr(name, '/') ? jobs_is_executable(name) : search_path(name, buf, sizeof buf);
}

const char *jobs_resolve_command(const char *name, Arena *arena)
{
    char buf[4096];
    if (strchr(name, '/'))
        return name;
    if (!search_path(name, buf, sizeof buf)) {
        errno = ENOENT;
        return NULL;
    }
    return arena_strndup(arena, buf, strlen(buf));
}

const char *jobs_find_tool(const char *variable, const char *const candidates[])
{
    const char *chosen = getenv(variable);
    if (chosen && strcmp(chosen, "none") == 0)
        return NULL; /* the user's way to say there is none (tests of the estimate) */
    if (chosen && *chosen && jobs_command_exists(chosen))
        return chosen;
    /* A bare name is returned as it is: no buffer to keep, and the job
     * looks it up again (jobs_resolve_command). */
    for (int i = 0; candidates[i]; i++)
        if (jobs_command_exists(candidates[i]))
            return candidates[i];
    return NULL;
}

/* ---- running jobs ---------------------------------------------------------- */

/* One job in flight. */
typedef struct Job {
    int index;   /* its JobRun */
    pid_t pid;
    int fd;      /* read end of its output pipe */
    char *text;  /* what it has printed */
    size_t len, capacity;
} Job;

static void close_pipe(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

/* Best effort: if it fails, a later child merely holds a pipe end open
 * that nothing writes to. */
static void set_cloexec(int fd)
{
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0)
        (void)fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

/* The child: only async-signal-safe calls between fork and exec.  An exec
 * failure is reported as errno through `report`, which exec closes.  Both
 * pipe ends move above 2 first: a caller that closed its stdin or stdout
 * gets pipes there, and the dup2 calls would overwrite them.  The tool
 * gets the signal mask the program had and the default file-size-limit
 * action (output.h ignores SIGXFSZ in the program). */
static _Noreturn void exec_child(const JobRun *run, int output, int report, const sigset_t *mask)
{
    signal(SIGXFSZ, SIG_DFL);
    cleanup_release(mask);
    int out = fcntl(output, F_DUPFD, 3);
    int rep = fcntl(report, F_DUPFD_CLOEXEC, 3);
    int null = open("/dev/null", O_RDONLY);
    /* A directory that is gone is told as chdir's errno, as exec's would be. */
    if (run->dir && chdir(run->dir) != 0)
        out = -1;
    if (out >= 0 && rep >= 0 && null >= 0 && dup2(null, STDIN_FILENO) >= 0 &&
        dup2(out, STDOUT_FILENO) >= 0 && dup2(out, STDERR_FILENO) >= 0) {
        close(out); /* the tool holds the pipe only as stdout and stderr */
        if (output > STDERR_FILENO)
            close(output);
        if (null > STDERR_FILENO)
            close(null);
        if (run->envp)
            execve(run->path, run->argv, run->envp);
        else
            execv(run->path, run->argv);
    }
    int err = errno;
    (void)!write(rep >= 0 ? rep : report, &err, sizeof err);
    _exit(127);
}

/* What the child wrote to its report pipe before exec: 0 if exec
 * succeeded (the pipe closed empty), else its errno. */
static int exec_error(int report)
{
    int err = 0;
    ssize_t got;
    do
        got = read(report, &err, sizeof err);
    while (got < 0 && errno == EINTR);
    return got == (ssize_t)sizeof err ? err : 0;
}

static pid_t wait_child(pid_t pid, int *status)
{
    pid_t got;
    do
        got = waitpid(pid, status, 0);
    while (got < 0 && errno == EINTR);
    return got;
}

/* Starts one job; false with errno when it cannot start. */
static bool start_job(const JobRun *run, Job *job)
{
    int output[2], report[2];
    if (pipe(output) != 0)
        return false;
    if (pipe(report) != 0) {
        int err = errno;
        close_pipe(output);
        errno = err;
        return false;
    }
    /* Later children must not inherit the read ends, nor exec keep `report`. */
    set_cloexec(output[0]);
    set_cloexec(report[1]);
    /* Forked and registered with the signals held: a signal then finds
     * the child known, to be stopped. */
    sigset_t mask;
    cleanup_hold(&mask);
    pid_t pid = fork();
    if (pid == 0) {
        close(output[0]);
        close(report[0]);
        exec_child(run, output[1], report[1], &mask);
    }
    int err = pid < 0 ? errno : 0;
    if (pid > 0 && !cleanup_add_child(pid))
        err = ENOMEM; /* reaped below, as a child that could not exec */
    cleanup_release(&mask);
    close(output[1]);
    close(report[1]);
    if (pid > 0 && !err)
        err = exec_error(report[0]);
    close(report[0]);
    if (err) {
        int status;
        if (pid > 0) {
            cleanup_forget_child(pid);
            kill(pid, SIGKILL); /* running, when it could not be registered */
            wait_child(pid, &status);
        }
        close(output[0]);
        errno = err;
        return false;
    }
    job->pid = pid;
    job->fd = output[0];
    job->len = 0;
    return true;
}

/* Reads what is ready from a job's pipe; false at end of file. */
static bool read_job(Job *job, Arena *arena)
{
    if (job->capacity - job->len < 4096) {
        size_t grown = job->capacity ? 2 * job->capacity : 8192;
        job->text = arena_grow(arena, job->text, job->len, grown, 1);
        job->capacity = grown;
    }
    ssize_t got = read(job->fd, job->text + job->len, job->capacity - job->len - 1);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN;
    job->len += (size_t)got;
    return got > 0;
}

static int exit_status(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 255;
}


/* Waits for a job's child and records its exit status and output. */
static void finish_job(Job *job, JobRun *run)
{
    int status = 0;
    close(job->fd);
    /* Forgotten first: once reaped, its pid may be another process's. */
    cleanup_forget_child(job->pid);
    run->status = wait_child(job->pid, &status) < 0 ? 255 : exit_status(status);
    run->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    /* NUL-terminated: read_job leaves a byte of zeroed arena memory. */
    run->output = job->text ? job->text : "";
    run->len = job->len;
}

static int max_jobs(int n, int limit)
{
    long cores = limit > 0 ? limit : sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    return cores < n ? (int)cores : n;
}

/* The running jobs, slots [0, n_running) of `jobs`. */
typedef struct Pool {
    JobRun *runs;
    Arena *arena;
    Job *jobs;
    struct pollfd *fds;
    int n_running;
    const JobsBatch *batch;
    int finished;
} Pool;

/* Job i is over (ended, or never started): the batch's caller is told. */
static void job_done(Pool *pool, int i)
{
    pool->finished++;
    if (pool->batch && pool->batch->done)
        pool->batch->done(pool->batch->context, i, pool->finished);
}

static void start_run(Pool *pool, int i)
{
    Job *job = &pool->jobs[pool->n_running];
    JobRun *run = &pool->runs[i];
    *job = (Job){.index = i};
    if (run->path && start_job(run, job)) {
        pool->n_running++;
        return;
    }
    run->error = run->path ? errno : ENOENT;
    run->status = JOBS_NOT_STARTED;
    run->signal = 0;
    run->output = "";
    run->len = 0;
    job_done(pool, i);
}

/* Waits for output from any running job, reads it, and retires the jobs
 * that reached end of file. */
static void service_jobs(Pool *pool)
{
    for (int j = 0; j < pool->n_running; j++)
        pool->fds[j] = (struct pollfd){.fd = pool->jobs[j].fd, .events = POLLIN};
    if (poll(pool->fds, (nfds_t)pool->n_running, -1) < 0) {
        if (errno == EINTR)
            return; /* the caller polls again */
        /* poll itself failed: blocking reads still end, as no child waits
         * on anything but its own pipe. */
        for (int j = 0; j < pool->n_running; j++)
            pool->fds[j].revents = POLLIN;
    }
    /* Downward, so the job moved into a freed slot has been served. */
    for (int j = pool->n_running - 1; j >= 0; j--) {
        if (!pool->fds[j].revents)
            continue;
        Job *job = &pool->jobs[j];
        if (read_job(job, pool->arena))
            continue;
        finish_job(job, &pool->runs[job->index]);
        job_done(pool, job->index);
        pool->jobs[j] = pool->jobs[--pool->n_running];
    }
}

void jobs_run(JobRun runs[], int n, Arena *arena)
{
    jobs_run_batch(runs, n, NULL, arena);
}

void jobs_run_batch(JobRun runs[], int n, const JobsBatch *batch, Arena *arena)
{
    if (n <= 0)
        return;
    int slots = max_jobs(n, batch ? batch->limit : 0);
    Pool pool = {
        .runs = runs,
        .arena = arena,
        .batch = batch,
        .jobs = ARENA_ARRAY(arena, Job, (size_t)slots),
        .fds = ARENA_ARRAY(arena, struct pollfd, (size_t)slots),
    };
    int next = 0;
    while (next < n || pool.n_running > 0) {
        while (next < n && pool.n_running < slots)
            start_run(&pool, next++);
        if (pool.n_running > 0)
            service_jobs(&pool);
    }
}

/* ---- the C compiler ------------------------------------------------------------------ */

/* Why `name` (with a slash, or a bare name for $PATH) cannot run, in
 * error; false then. */
static bool can_run(const char *name, char *error, size_t size)
{
    struct stat st;
    if (!strchr(name, '/')) {
        if (jobs_command_exists(name))
            return true;
        snprintf(error, size, "no %s on $PATH", name);
    } else if (stat(name, &st) != 0 || access(name, X_OK) != 0) {
        snprintf(error, size, "%s", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(error, size, "not a file");
    } else {
        return true;
    }
    return false;
}

int jobs_find_cc(Arena *arena, char **words, int max, char *error, size_t size)
{
    const char *cc = getenv("CC");
    const char *blanks = " \t\n";
    error[0] = '\0';
    if (!cc || cc[strspn(cc, blanks)] == '\0')
        cc = "cc";
    else if (strcmp(cc, "none") == 0)
        return 0; /* the user's way to say there is none, as for every tool */
    char *copy = arena_strndup(arena, cc, strlen(cc)), *save = NULL;
    int n = 0;
    for (char *w = strtok_r(copy, blanks, &save); w; w = strtok_r(NULL, blanks, &save)) {
        if (n == max) {
            snprintf(error, size, "CC=%s: more than %d words", cc, max);
            return 0;
        }
        words[n++] = w;
    }
    words[n] = NULL;
    char why[256];
    if (can_run(words[0], why, sizeof why))
        return n;
    if (strcmp(cc, "cc") != 0) /* $CC's: said, never replaced by cc */
        snprintf(error, size, "CC=%s: cannot run %s: %s", cc, words[0], why);
    return 0;
}

const char *jobs_failure_cause(int status, int signo, char *buf, size_t size)
{
    struct rlimit limit;
    bool limited = getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
    unsigned long long bytes = limited ? (unsigned long long)limit.rlim_cur : 0;
    if (signo == SIGXFSZ && limited)
        snprintf(buf, size, "was stopped by the file-size limit (SIGXFSZ; ulimit -f: %llu bytes)", bytes);
    else if (signo)
        snprintf(buf, size, "was killed by signal %d (%s)", signo, strsignal(signo));
    else if (status != 0 && limited)
        snprintf(buf, size, "failed under a file-size limit of %llu bytes (ulimit -f)", bytes);
    else
        return NULL;
    return buf;
}
