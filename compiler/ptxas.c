/*
 * ptxas.c: run NVIDIA's PTX assembler and read back what each kernel uses.
 *
 * The parser.  `ptxas -v` has printed the same few lines, with small
 * changes, since CUDA 3:
 *
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_XX'
 *   ptxas info    : Function properties for NAME
 *       F bytes stack frame, S bytes spill stores, L bytes spill loads
 *   ptxas info    : Used R registers[, ITEM]...
 *
 * where an ITEM of the "Used" line is one of "N bytes smem", "N bytes
 * cmem[B]", "N bytes cumulative stack size" (CUDA 9 on), "N textures",
 * "used N barriers" (CUDA 12 and 13; "N barriers" in some builds), and on
 * sm_1x "A+B bytes smem" and "A+B bytes lmem".  CUDA 3 printed no
 * properties block; CUDA 12 and 13 add "Compile time" lines; Visual
 * Studio's build log prefixes each line with "1>  " and ends it with CRLF;
 * sm_90 and newer omit cmem[0].  Names are mangled, except in old versions
 * that printed "walk_tree(node, int*)".  So the parser finds its markers
 * anywhere in a line, reads the items of a line as "NUMBER UNIT" pairs
 * through one table (UNITS), ignores items and lines it does not know, and
 * is strict only about the lines it does: a known line that does not read
 * is an error, as is an entry with no "Used" line (truncated output).
 *
 * Non-entry functions get a properties block (in relocatable mode before
 * any entry, else after them) but no "Used" line: a properties block names
 * the function it describes, and only one naming the entry being compiled
 * is the kernel's.  A "Used" line is the entry's unless another function's
 * block came between the entry's "Compiling" line and its own block.
 *
 * The driver.  Each run is fork + execv of ptxas (never a shell: a path
 * with spaces or quotes must reach ptxas as it is), its stdout and stderr
 * into one pipe, stdin from /dev/null.  An exec failure comes back through
 * a close-on-exec pipe as the child's errno, so "cannot start" is told
 * apart from "ptxas failed" without guessing from exit status 127.
 * ptxas_run_targets (and ptxas_assemble_targets, the same with the cubin
 * kept) keeps at most one child per online core and reads all
 * their pipes with poll, so no child ever blocks on a full pipe; results
 * land in their input slot whatever order the children finish in.
 */
#include <config.h>

#include "ptxas.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- text slices ---------------------------------------------------------- */

/* A piece of the text, not NUL-terminated: ptxas's output is parsed where
 * it lies. */
typedef struct Slice {
    const char *p;
    size_t n;
} Slice;

static Slice slice_from(Slice s, size_t i)
{
    assert(i <= s.n);
    return (Slice){s.p + i, s.n - i};
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static Slice slice_trim(Slice s)
{
    while (s.n && is_blank(s.p[0]))
        s = slice_from(s, 1);
    while (s.n && is_blank(s.p[s.n - 1]))
        s.n--;
    return s;
}

/* The offset of the first (or, `last`, the final) occurrence of `needle`,
 * or SIZE_MAX. */
static size_t slice_find(Slice s, const char *needle, bool last)
{
    size_t k = strlen(needle), found = SIZE_MAX;
    for (size_t i = 0; k <= s.n && i <= s.n - k; i++) {
        if (memcmp(s.p + i, needle, k) == 0) {
            found = i;
            if (!last)
                break;
        }
    }
    return found;
}

static bool slice_is(Slice s, const char *text)
{
    return s.n == strlen(text) && memcmp(s.p, text, s.n) == 0;
}

/* If `s` starts with `prefix`, drop it and return true. */
static bool slice_skip(Slice *s, const char *prefix)
{
    size_t k = strlen(prefix);
    if (s->n < k || memcmp(s->p, prefix, k) != 0)
        return false;
    *s = slice_from(*s, k);
    return true;
}

/* ---- the items of a line ----------------------------------------------------- */

/* Each "NUMBER UNIT" item the parser keeps, and the field it goes to.
 * lmem is sm_1x's per-thread local memory, printed before stack frames were. */
static const struct {
    const char *unit;
    size_t field;
} UNITS[] = {
    {"registers", offsetof(KernelUsage, registers)},
    {"barriers", offsetof(KernelUsage, barriers)},
    {"bytes smem", offsetof(KernelUsage, static_smem)},
    {"bytes cmem[0]", offsetof(KernelUsage, const_bank0)},
    {"bytes stack frame", offsetof(KernelUsage, stack_frame)},
    {"bytes lmem", offsetof(KernelUsage, stack_frame)},
    {"bytes spill stores", offsetof(KernelUsage, spill_stores)},
    {"bytes spill loads", offsetof(KernelUsage, spill_loads)},
};

/* A count: digits, or sm_1x's "A+B" (user and system parts, summed).
 * False if it is neither or does not fit an int. */
static bool parse_count(Slice s, int *value)
{
    long long total = 0, part = 0;
    bool digits = false;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (c >= '0' && c <= '9') {
            part = part * 10 + (c - '0');
            digits = true;
            if (part > INT_MAX)
                return false;
        } else if (c == '+' && digits) {
            total += part;
            part = 0;
            digits = false;
        } else {
            return false;
        }
    }
    total += part;
    if (!digits || total > INT_MAX)
        return false;
    *value = (int)total;
    return true;
}

/* Reads one item into *u.  An unknown unit is skipped (later versions add
 * items); a known unit with a count that does not read is an error.
 * `want` (or NULL) names the unit this item must have. */
static bool parse_item(Slice item, KernelUsage *u, const char *want)
{
    item = slice_trim(item);
    slice_skip(&item, "used ");
    size_t space = slice_find(item, " ", false);
    if (space == SIZE_MAX)
        return want == NULL;
    Slice count = {item.p, space};
    Slice unit = slice_trim(slice_from(item, space + 1));
    if (want && !slice_is(unit, want))
        return false;
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++) {
        if (slice_is(unit, UNITS[i].unit))
            return parse_count(count, (int *)((char *)u + UNITS[i].field));
    }
    return true;
}

/* Reads the comma-separated items of `list` into *u; the first must be
 * `first_unit` when that is not NULL. */
static bool parse_items(Slice list, KernelUsage *u, const char *first_unit)
{
    const char *want = first_unit;
    while (list.n) {
        size_t comma = slice_find(list, ",", false);
        Slice item = {list.p, comma == SIZE_MAX ? list.n : comma};
        if (!parse_item(item, u, want))
            return false;
        want = NULL;
        list = comma == SIZE_MAX ? slice_from(list, list.n) : slice_from(list, comma + 1);
    }
    return want == NULL;
}

/* ---- the lines ----------------------------------------------------------- */

typedef struct Parser {
    Arena *arena;
    KernelUsage *kernels;
    int n_kernels, capacity;
    int current;    /* the entry being compiled; -1 before the first */
    int props;      /* the kernel the next stack-frame line is for; -1: none */
    bool own_block; /* the current kernel's properties block has come */
    bool foreign;   /* another function's block came before it: a "Used" line is that one's */
    const char *arch;
} Parser;

/* What follows "ptxas info    :" in a line, or false if it is not an info line. */
static bool info_body(Slice line, Slice *body)
{
    size_t at = slice_find(line, "ptxas info", false);
    if (at == SIZE_MAX)
        return false;
    Slice rest = slice_trim(slice_from(line, at + strlen("ptxas info")));
    if (!slice_skip(&rest, ":"))
        return false;
    *body = slice_trim(rest);
    return true;
}

static void add_kernel(Parser *ps, Slice name)
{
    if (ps->n_kernels == ps->capacity) {
        int grown = ps->capacity ? 2 * ps->capacity : 4;
        ps->kernels = arena_grow(ps->arena, ps->kernels, (size_t)ps->capacity, (size_t)grown,
                                 sizeof *ps->kernels);
        ps->capacity = grown;
    }
    KernelUsage *u = &ps->kernels[ps->n_kernels];
    *u = (KernelUsage){.name = arena_strndup(ps->arena, name.p, name.n)};
    u->registers = -1; /* until its "Used" line */
    u->barriers = -1;  /* until a version that reports them does */
    ps->current = ps->n_kernels++;
    ps->props = -1;
    ps->own_block = false;
    ps->foreign = false;
}

/* "Compiling entry function 'NAME' for 'ARCH'": the last "' for '" ends the
 * name, which (demangled) may hold quotes and spaces. */
static bool compiling_line(Parser *ps, Slice rest)
{
    size_t sep = slice_find(rest, "' for '", true);
    if (sep == SIZE_MAX || sep < 2 || rest.p[0] != '\'')
        return false;
    Slice name = {rest.p + 1, sep - 1};
    Slice arch = slice_from(rest, sep + strlen("' for '"));
    if (arch.n < 2 || arch.p[arch.n - 1] != '\'')
        return false;
    arch.n--; /* the closing quote */
    if (!ps->arch)
        ps->arch = arena_strndup(ps->arena, arch.p, arch.n);
    add_kernel(ps, name);
    return true;
}

/* "Function properties for NAME": the stack line after it is the current
 * kernel's only if NAME is. */
static void properties_line(Parser *ps, Slice name)
{
    name = slice_trim(name);
    if (name.n && name.p[name.n - 1] == ':')
        name.n--; /* some versions end the header with a colon */
    bool ours = ps->current >= 0 && slice_is(name, ps->kernels[ps->current].name);
    ps->props = ours ? ps->current : -1;
    if (ours)
        ps->own_block = true;
    ps->foreign = !ours && !ps->own_block;
}

/* "Used R registers, ...": the current kernel's, unless it has had its
 * line, or a callee's block came before the kernel's own (then the line, if
 * a version ever printed one there, would be the callee's). */
static bool used_line(Parser *ps, Slice items)
{
    if (ps->current < 0 || ps->foreign)
        return true;
    KernelUsage *u = &ps->kernels[ps->current];
    if (u->registers >= 0)
        return true;
    return parse_items(items, u, "registers");
}

/* Where the item whose unit begins at `unit` begins: back over one space
 * and the count, which skips any prefix such as a build log's "1>". */
static size_t item_start(Slice line, size_t unit)
{
    size_t at = unit;
    if (at && line.p[at - 1] == ' ')
        at--;
    while (at && ((line.p[at - 1] >= '0' && line.p[at - 1] <= '9') || line.p[at - 1] == '+'))
        at--;
    return at;
}

static bool stack_line(Parser *ps, Slice line)
{
    int target = ps->props;
    ps->props = -1;
    if (target < 0)
        return true; /* a device function's */
    return parse_items(line, &ps->kernels[target], "bytes stack frame");
}

static bool parse_line(Parser *ps, Slice line)
{
    Slice body;
    if (!info_body(line, &body)) {
        size_t at = slice_find(line, "bytes stack frame", false);
        return at == SIZE_MAX || stack_line(ps, slice_from(line, item_start(line, at)));
    }
    if (slice_skip(&body, "Compiling entry function "))
        return compiling_line(ps, body);
    if (slice_skip(&body, "Function properties for "))
        properties_line(ps, body);
    else if (slice_skip(&body, "Used "))
        return used_line(ps, body);
    return true;
}

bool ptxas_parse(const char *text, size_t len, Arena *arena, PtxasReport *out)
{
    Parser ps = {.arena = arena, .current = -1, .props = -1};
    Slice rest = {text, len};
    bool ok = true;
    while (ok && rest.n) {
        size_t nl = slice_find(rest, "\n", false);
        size_t end = nl == SIZE_MAX ? rest.n : nl;
        ok = parse_line(&ps, (Slice){rest.p, end});
        rest = slice_from(rest, nl == SIZE_MAX ? rest.n : nl + 1);
    }
    for (int i = 0; ok && i < ps.n_kernels; i++)
        ok = ps.kernels[i].registers >= 0;
    *out = (PtxasReport){.arch = ps.arch};
    if (ok) {
        out->kernels = ps.kernels;
        out->n_kernels = ps.n_kernels;
    }
    return ok;
}

const KernelUsage *ptxas_kernel(const PtxasReport *report, const char *name)
{
    for (int i = 0; i < report->n_kernels; i++) {
        if (strcmp(report->kernels[i].name, name) == 0)
            return &report->kernels[i];
    }
    return NULL;
}

KernelResources ptxas_resources(const KernelUsage *u, const ArchLimits *arch, bool optin)
{
    KernelResources k = occ_kernel_defaults(arch, u->registers, (uint64_t)u->static_smem, optin);
    if (u->barriers >= 0)
        k.barriers = u->barriers; /* 0 lifts the barrier limit, as in cuda_occupancy.h */
    k.max_threads_per_block = u->max_threads;
    return k;
}

/* ---- finding ptxas -------------------------------------------------------- */

static bool is_executable(const char *path)
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
        if (written > 0 && (size_t)written < size && is_executable(buf))
            return true;
        dirs += len + (dirs[len] == ':');
    }
    return false;
}

/* A command name: a path when it has a slash, else a name on $PATH. */
static bool command_exists(const char *name)
{
    char buf[4096];
    return strchr(name, '/') ? is_executable(name) : search_path(name, buf, sizeof buf);
}

const char *ptxas_find(void)
{
    const char *env = getenv("SILK_PTXAS");
    if (env && strcmp(env, "none") == 0)
        return NULL; /* the user's way to say there is none (tests of the estimate) */
    if (env && *env && command_exists(env))
        return env;
#ifdef PTXAS_PATH
    if (is_executable(PTXAS_PATH))
        return PTXAS_PATH;
#endif
    /* The bare name: no buffer to keep, and ptxas_run looks it up again. */
    return command_exists("ptxas") ? "ptxas" : NULL;
}

/* The path to execv: `ptxas` itself when it has a slash, else its place on
 * $PATH (execvp would do this, but falls back to running the file with
 * /bin/sh when the kernel refuses it). */
static const char *resolve_command(const char *ptxas, Arena *arena)
{
    char buf[4096];
    if (strchr(ptxas, '/'))
        return ptxas;
    if (!search_path(ptxas, buf, sizeof buf)) {
        errno = ENOENT;
        return NULL;
    }
    return arena_strndup(arena, buf, strlen(buf));
}

/* ---- running ptxas -------------------------------------------------------- */

/* One ptxas in flight. */
typedef struct Job {
    int index;   /* its pair */
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
 * gets pipes there, and the dup2 calls would overwrite them. */
static _Noreturn void exec_child(const char *path, char *const argv[], int output, int report)
{
    int out = fcntl(output, F_DUPFD, 3);
    int rep = fcntl(report, F_DUPFD_CLOEXEC, 3);
    int null = open("/dev/null", O_RDONLY);
    if (out >= 0 && rep >= 0 && null >= 0 && dup2(null, STDIN_FILENO) >= 0 &&
        dup2(out, STDOUT_FILENO) >= 0 && dup2(out, STDERR_FILENO) >= 0) {
        close(out); /* ptxas holds the pipe only as stdout and stderr */
        if (output > STDERR_FILENO)
            close(output);
        if (null > STDERR_FILENO)
            close(null);
        execv(path, argv);
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

/* Starts ptxas on one pair, writing the cubin to `cubin` (/dev/null:
 * only the -v report is wanted); false with errno when it cannot start. */
static bool start_job(const char *path, const char *ptx, const char *arch, const char *cubin,
                      Job *job)
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
    char *argv[] = {(char *)path, "-v", "--gpu-name", (char *)arch, "-o", (char *)cubin,
                    (char *)ptx, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        close(output[0]);
        close(report[0]);
        exec_child(path, argv, output[1], report[1]);
    }
    int err = pid < 0 ? errno : 0;
    close(output[1]);
    close(report[1]);
    if (pid > 0)
        err = exec_error(report[0]);
    close(report[0]);
    if (err) {
        int status;
        if (pid > 0)
            wait_child(pid, &status);
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

/* Waits for a job's child and fills its report from what it printed. */
static void finish_job(Job *job, const char *arch, Arena *arena, PtxasReport *out)
{
    int status = 0;
    close(job->fd);
    int result = wait_child(job->pid, &status) < 0 ? 255 : exit_status(status);
    /* NUL-terminated: read_job leaves a byte of zeroed arena memory. */
    const char *text = job->text ? job->text : "";
    if (result == 0 && !ptxas_parse(text, job->len, arena, out))
        result = PTXAS_BAD_OUTPUT;
    if (result != 0)
        *out = (PtxasReport){.errors = text};
    out->arch = arena_strndup(arena, arch, strlen(arch));
    out->exit_status = result;
}

static int max_jobs(int n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    return cores < n ? (int)cores : n;
}

/* The running jobs, slots [0, n_running) of `jobs`. */
typedef struct Pool {
    const char *path;
    const char **ptx_paths, **archs;
    const char **cubin_paths; /* NULL: each cubin goes to /dev/null */
    Arena *arena;
    PtxasReport *out;
    int *errors;  /* errno of each pair that could not start */
    Job *jobs;
    struct pollfd *fds;
    int n_running;
} Pool;

static void start_pair(Pool *pool, int i)
{
    Job *job = &pool->jobs[pool->n_running];
    *job = (Job){.index = i};
    const char *cubin = pool->cubin_paths ? pool->cubin_paths[i] : "/dev/null";
    if (pool->path && start_job(pool->path, pool->ptx_paths[i], pool->archs[i], cubin, job)) {
        pool->n_running++;
        return;
    }
    pool->errors[i] = pool->path ? errno : ENOENT;
    pool->out[i] = (PtxasReport){.exit_status = PTXAS_NOT_STARTED};
    pool->out[i].arch = arena_strndup(pool->arena, pool->archs[i], strlen(pool->archs[i]));
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
        finish_job(job, pool->archs[job->index], pool->arena, &pool->out[job->index]);
        pool->jobs[j] = pool->jobs[--pool->n_running];
    }
}

/* The first result (in input order) that is not 0, errno set for a start
 * failure. */
static int first_failure(const Pool *pool, int n)
{
    for (int i = 0; i < n; i++) {
        int result = pool->out[i].exit_status;
        if (result == PTXAS_NOT_STARTED)
            errno = pool->errors[i];
        if (result != 0)
            return result;
    }
    return 0;
}

/* ptxas_run_targets and ptxas_assemble_targets: one pool of jobs. */
static int run_pool(const char *ptxas, const char *ptx_paths[], const char *archs[],
                    const char *cubin_paths[], int n, Arena *arena, PtxasReport *out)
{
    if (n == 0)
        return 0;
    if (n < 0 || !ptxas || !ptx_paths || !archs) {
        errno = EINVAL;
        return PTXAS_NOT_STARTED;
    }
    const char *path = resolve_command(ptxas, arena); /* NULL: no pair can start */
    int slots = max_jobs(n);
    Pool pool = {
        .path = path,
        .ptx_paths = ptx_paths,
        .archs = archs,
        .cubin_paths = cubin_paths,
        .arena = arena,
        .out = out,
        .errors = ARENA_ARRAY(arena, int, (size_t)n),
        .jobs = ARENA_ARRAY(arena, Job, (size_t)slots),
        .fds = ARENA_ARRAY(arena, struct pollfd, (size_t)slots),
    };
    int next = 0;
    while (next < n || pool.n_running > 0) {
        while (next < n && pool.n_running < slots)
            start_pair(&pool, next++);
        if (pool.n_running > 0)
            service_jobs(&pool);
    }
    return first_failure(&pool, n);
}

int ptxas_run_targets(const char *ptxas, const char *ptx_paths[], const char *archs[], int n,
                      Arena *arena, PtxasReport *out)
{
    return run_pool(ptxas, ptx_paths, archs, NULL, n, arena, out);
}

int ptxas_assemble_targets(const char *ptxas, const char *ptx_paths[], const char *archs[],
                           const char *cubin_paths[], int n, Arena *arena, PtxasReport *out)
{
    if (n > 0 && !cubin_paths) {
        errno = EINVAL;
        return PTXAS_NOT_STARTED;
    }
    return run_pool(ptxas, ptx_paths, archs, cubin_paths, n, arena, out);
}

int ptxas_run(const char *ptxas, const char *ptx_path, const char *arch, Arena *arena,
              PtxasReport *out)
{
    return ptxas_run_targets(ptxas, &ptx_path, &arch, 1, arena, out);
}
