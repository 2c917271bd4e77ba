/*
 * nvcc.c: compile a .cu file with nvcc, one cubin per target, and read
 * the cubins; or compile it once for all the targets together, as a
 * build's -gencode list does, keeping each target's PTX (build_argv).
 *
 * The jobs run through jobs.h as ptxas's do: no shell, one per core, each
 * one's output kept for when it fails, every path an operand
 * (jobs_operand).  The cubins are written to a private directory
 * (tempdir.h), one file per target (t0.cubin, t1.cubin, ...: the target
 * names are the user's and never become paths), removed with the
 * directory once read, whatever happened, a signal included.  Flags
 * come after -cubin -arch=ARCH, so a user's own -arch or -o is the one
 * nvcc sees last; they are the user's business.
 *
 * nvcc itself runs its host steps through sh -c with the input's name
 * unquoted (a file named 'a$(touch X).cu' runs touch), and resolves a
 * symbolic link to put the real name there; so it is given only names
 * made here (stage_input): a copy of the file, DIR/in/input.cu, and
 * -I DIR/inc, a link to the file's directory (nvcc passes an -I as it is
 * given), so that #include "x.h" still finds the file's neighbours.  Its
 * messages name the user's file again (relay_names).  Its own temporary
 * files (tmpxft_*) go to DIR too, by its TMPDIR, so that a signal that
 * ends the run removes them with DIR (cleanup_add_scratch_dir).
 */
#include <config.h>

#include "nvcc.h"

#include "cleanup.h"
#include "cubin.h"
#include "jobs.h"
#include "tempdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static const char *const NVCC_CANDIDATES[] = {
#ifdef NVCC_PATH
    NVCC_PATH, /* configure's (--with-cuda, by default /usr/local/cuda) */
#endif
    "nvcc", NULL};

const char *nvcc_find(void)
{
    return jobs_find_tool("SILK_NVCC", NVCC_CANDIDATES);
}

/* ---- splitting flags --------------------------------------------------------- */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copies one word starting at *p into `word` (room for strlen(*p) + 1),
 * advancing *p past it; false with the error set when a quote or a
 * backslash is left open. */
static bool split_word(const char **p, char *word, char *error, size_t size)
{
    const char *s = *p;
    size_t n = 0;
    char quote = 0;
    for (; *s && (quote || !is_blank(*s)); s++) {
        if (!quote && (*s == '\'' || *s == '"')) {
            quote = *s;
        } else if (quote && *s == quote) {
            quote = 0;
        } else if (*s == '\\' && quote != '\'' &&
                   (!quote || s[1] == '"' || s[1] == '\\')) {
            if (!s[1]) {
                snprintf(error, size, "trailing backslash in flags");
                return false;
            }
            word[n++] = *++s;
        } else {
            word[n++] = *s;
        }
    }
    if (quote) {
        snprintf(error, size, "unterminated %c quote in flags", quote);
        return false;
    }
    word[n] = '\0';
    *p = s;
    return true;
}

bool nvcc_split_flags(const char *flags, Arena *arena, char ***words, int *count, char *error,
                      size_t size)
{
    size_t len = flags ? strlen(flags) : 0;
    /* At most one word per two bytes, plus the NULL. */
    char **list = ARENA_ARRAY(arena, char *, len / 2 + 2);
    int n = 0;
    const char *p = flags ? flags : "";
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            break;
        char *word = arena_alloc(arena, strlen(p) + 1, 1);
        if (!split_word(&p, word, error, size))
            return false;
        list[n++] = word;
    }
    list[n] = NULL;
    *words = list;
    *count = n;
    return true;
}

/* ---- the input, under names of our own ------------------------------------------ */

/* The file handed to nvcc and what maps its messages back. */
typedef struct Staged {
    char *in_dir;         /* DIR/in: holds only the copy, so "x.h" is not found beside it */
    char *copy;           /* DIR/in/input.cu */
    char *inc;            /* DIR/inc, a link to the user's file's directory */
    char *inc_flag;       /* -IDIR/inc */
    const char *cu_path;  /* the user's file, as given */
    char *user_dir;       /* its directory, as given ("." for none) */
    char **envp;          /* the environment with TMPDIR=DIR */
} Staged;

static char *join(const char *a, const char *b, Arena *arena)
{
    size_t size = strlen(a) + strlen(b) + 1;
    char *s = arena_alloc(arena, size, 1);
    snprintf(s, size, "%s%s", a, b);
    return s;
}

/* Copies the file at `from` to a new file `to` (mode 0600). */
static bool copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    char buf[65536];
    ssize_t got = out < 0 ? -1 : 0;
    while (out >= 0 && (got = read(in, buf, sizeof buf)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 || write(out, buf, (size_t)got) != got)
            break;
    }
    int err = errno;
    bool ok = got == 0 && out >= 0 && close(out) == 0;
    if (!ok && out >= 0)
        close(out);
    if (in >= 0)
        close(in);
    errno = ok ? 0 : (err ? err : EIO);
    return ok;
}

/* The environment for nvcc: this program's, with TMPDIR=dir. */
static char **child_env(const char *dir, Arena *arena)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **envp = ARENA_ARRAY(arena, char *, n + 2);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "TMPDIR=", 7) != 0)
            envp[k++] = environ[i];
    envp[k++] = join("TMPDIR=", dir, arena);
    envp[k] = NULL;
    return envp;
}

/* The directory of `path` as given: "." when it has no slash. */
static char *directory_of(const char *path, Arena *arena)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return arena_strndup(arena, ".", 1);
    return arena_strndup(arena, path, slash == path ? 1 : (size_t)(slash - path));
}

/* `dir` from the root, as the link's target (relative, it would be read
 * from the link's own directory); NULL with errno when the working
 * directory cannot be named. */
static const char *absolute(const char *dir, Arena *arena)
{
    if (dir[0] == '/')
        return dir;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    return join(join(cwd, "/", arena), dir, arena);
}

/* Makes DIR/in/input.cu (a copy of cu_path) and DIR/inc (a link to its
 * directory), each known to cleanup.h before it exists; false with errno
 * set when one cannot be made (what was made is removed by unstage). */
static bool stage_input(const char *dir, const char *cu_path, Arena *arena, Staged *st)
{
    *st = (Staged){.in_dir = join(dir, "/in", arena), .inc = join(dir, "/inc", arena),
                   .cu_path = cu_path, .user_dir = directory_of(cu_path, arena),
                   .envp = child_env(dir, arena)};
    st->copy = join(st->in_dir, "/input.cu", arena);
    st->inc_flag = join("-I", st->inc, arena);
    if (!cleanup_add_scratch_dir(dir) || !cleanup_add_dir(st->in_dir) ||
        !cleanup_add_file(st->copy) || !cleanup_add_file(st->inc)) {
        errno = ENOMEM;
        return false;
    }
    const char *target = absolute(st->user_dir, arena);
    return target && mkdir(st->in_dir, 0700) == 0 && copy_file(cu_path, st->copy) &&
           symlink(target, st->inc) == 0;
}

static void unstage(const Staged *st)
{
    unlink(st->copy);
    unlink(st->inc);
    rmdir(st->in_dir);
    cleanup_forget(st->copy);
    cleanup_forget(st->inc);
    cleanup_forget(st->in_dir);
}

/* `text` with every `from` replaced by `to`, in the arena. */
static char *replace_all(const char *text, const char *from, const char *to, Arena *arena)
{
    size_t n = 0, from_len = strlen(from), to_len = strlen(to);
    for (const char *p = text; (p = strstr(p, from)); p += from_len)
        n++;
    if (n == 0)
        return (char *)text;
    size_t len = strlen(text);
    char *out = arena_alloc(arena, len - n * from_len + n * to_len + 1, 1), *o = out;
    for (const char *p = text, *hit; (hit = strstr(p, from)); p = hit + from_len) {
        memcpy(o, p, (size_t)(hit - p));
        o += hit - p;
        memcpy(o, to, to_len);
        o += to_len;
        text = hit + from_len;
    }
    strcpy(o, text);
    return out;
}

/* nvcc's messages naming the user's file and its neighbours, not the
 * copy and the link. */
static char *relay_names(const char *text, const Staged *st, Arena *arena)
{
    char *named = replace_all(text, st->copy, st->cu_path, arena);
    char *inc = join(st->inc, "/", arena), *user = join(st->user_dir, "/", arena);
    return replace_all(named, inc, user, arena);
}

/* ---- compiling ----------------------------------------------------------------- */

/* `NVCC KIND -arch=ARCH -IINC FLAGS... -o OUTPUT COPY` (KIND -cubin or
 * -ptx), in the arena. */
static char **nvcc_argv(const char *program, const char *kind, const char *arch,
                        char *const flags[], int n_flags, const char *output, const Staged *st,
                        Arena *arena)
{
    char **argv = ARENA_ARRAY(arena, char *, (size_t)n_flags + 8);
    size_t arch_len = strlen("-arch=") + strlen(arch) + 1;
    char *arch_flag = arena_alloc(arena, arch_len, 1);
    snprintf(arch_flag, arch_len, "-arch=%s", arch);
    int k = 0;
    argv[k++] = (char *)program;
    argv[k++] = (char *)kind;
    argv[k++] = arch_flag;
    argv[k++] = st->inc_flag; /* first, where the file's own directory stood */
    for (int i = 0; i < n_flags; i++)
        argv[k++] = flags[i];
    argv[k++] = "-o";
    argv[k++] = (char *)jobs_operand(output, arena);
    argv[k++] = st->copy; /* absolute: no option */
    argv[k] = NULL;
    return argv;
}

/* DIR/tI.EXT, which nvcc will write: the target names are the user's and
 * never become paths.  Registered with cleanup.h before nvcc runs, so a
 * signal removes it with DIR; NULL when out of memory. */
static char *output_path(const char *dir, int i, const char *ext, Arena *arena)
{
    size_t size = strlen(dir) + strlen(ext) + 32;
    char *path = arena_alloc(arena, size, 1);
    snprintf(path, size, "%s/t%d.%s", dir, i, ext);
    return cleanup_add_file(path) ? path : NULL;
}

/* Fills one target's report from its job and its cubin. */
static void finish_target(const JobRun *run, const char *cubin, const char *arch, Arena *arena,
                          UsageReport *out)
{
    char error[512];
    if (run->status == JOBS_NOT_STARTED) {
        *out = (UsageReport){.exit_status = PTXAS_NOT_STARTED};
    } else if (run->status != 0) {
        *out = (UsageReport){.exit_status = run->status, .signal = run->signal,
                             .errors = run->output};
    } else if (!cubin_read_file(cubin, arena, out, NULL, error, sizeof error)) {
        *out = (UsageReport){.exit_status = PTXAS_BAD_OUTPUT,
                             .errors = arena_strndup(arena, error, strlen(error))};
    }
    /* nvcc's cubin names its SM only; the user's target (sm_90a) is kept. */
    out->arch = arena_strndup(arena, arch, strlen(arch));
}

static int first_failure(const JobRun *runs, const UsageReport *out, int n)
{
    for (int i = 0; i < n; i++) {
        if (out[i].exit_status == PTXAS_NOT_STARTED)
            errno = runs[i].error;
        if (out[i].exit_status != 0)
            return out[i].exit_status;
    }
    return 0;
}

/* Every target not started, with errno `err` (the temporary directory or
 * its file names could not be made). */
static int none_started(const char *archs[], int n, int err, Arena *arena, UsageReport *out)
{
    for (int i = 0; i < n; i++)
        out[i] = (UsageReport){.arch = arena_strndup(arena, archs[i], strlen(archs[i])),
                               .exit_status = PTXAS_NOT_STARTED};
    errno = err;
    return PTXAS_NOT_STARTED;
}

/* The output paths DIR/tI.EXT for n targets; false when out of memory. */
static bool output_paths(const char *dir, int n, const char *ext, Arena *arena,
                         const char *paths[])
{
    for (int i = 0; i < n; i++)
        if (!(paths[i] = output_path(dir, i, ext, arena)))
            return false;
    return true;
}

/* What one call of run_nvcc runs: `kind` once per target (nvcc_argv), or,
 * `together`, one run for all the targets at once (build_argv). */
typedef struct NvccRuns {
    const char *kind;
    const char **archs;
    int n;
    char *const *flags;
    int n_flags;
    const char **outputs;
    bool together;
    const char *keep_dir; /* together: where --keep leaves each target's PTX */
} NvccRuns;

static char **build_argv(const char *program, const NvccRuns *r, const Staged *st, Arena *arena);

/* Runs nvcc as `r` says on a staged copy of cu_path, with its temporary
 * files in `dir`; nvcc's messages name the user's file.  NULL with errno
 * set when the copy could not be made; else one JobRun per run. */
static JobRun *run_nvcc(const char *nvcc, const char *cu_path, const char *dir,
                        const NvccRuns *r, Arena *arena)
{
    Staged st;
    if (!stage_input(dir, cu_path, arena, &st)) {
        int err = errno;
        unstage(&st);
        errno = err;
        return NULL;
    }
    const char *path = jobs_resolve_command(nvcc, arena);
    const char *program = path ? path : nvcc;
    int n_runs = r->together ? 1 : r->n;
    JobRun *runs = ARENA_ARRAY(arena, JobRun, (size_t)n_runs);
    for (int i = 0; i < n_runs; i++)
        runs[i] = (JobRun){.path = path, .envp = st.envp,
                           .argv = r->together ? build_argv(program, r, &st, arena)
                                              : nvcc_argv(program, r->kind, r->archs[i],
                                                          r->flags, r->n_flags, r->outputs[i],
                                                          &st, arena)};
    jobs_run(runs, n_runs, arena);
    unstage(&st);
    for (int i = 0; i < n_runs; i++)
        if (runs[i].output)
            runs[i].output = relay_names(runs[i].output, &st, arena);
    return runs;
}

int nvcc_compile_targets(const char *nvcc, const char *cu_path, char *const flags[], int n_flags,
                         const char *archs[], int n, Arena *arena, UsageReport *out)
{
    if (n == 0)
        return 0;
    if (n < 0 || !nvcc || !cu_path || !archs || n_flags < 0 || (n_flags && !flags)) {
        errno = EINVAL;
        return PTXAS_NOT_STARTED;
    }
    char *dir = tempdir_make("silk-nvcc", NULL);
    const char **cubins = ARENA_ARRAY(arena, const char *, (size_t)n);
    if (!dir || !output_paths(dir, n, "cubin", arena, cubins)) {
        int err = dir ? ENOMEM : errno;
        tempdir_remove(dir, 0);
        return none_started(archs, n, err, arena, out);
    }
    NvccRuns r = {.kind = "-cubin", .archs = archs, .n = n, .flags = flags, .n_flags = n_flags,
                  .outputs = cubins};
    JobRun *runs = run_nvcc(nvcc, cu_path, dir, &r, arena);
    if (!runs) {
        int err = errno;
        tempdir_remove(dir, 0);
        return none_started(archs, n, err, arena, out);
    }
    for (int i = 0; i < n; i++)
        finish_target(&runs[i], cubins[i], archs[i], arena, &out[i]);
    tempdir_remove(dir, 0);
    return first_failure(runs, out, n);
}

/* ---- the whole target list in one compile --------------------------------------- */

/* "sm_90a" → "compute_90a": the virtual architecture nvcc names its
 * kept PTX after.  NULL for a name that is not sm_ and letters and
 * digits: it becomes part of a path and of an nvcc argument. */
static char *virtual_arch(const char *arch, Arena *arena)
{
    if (strncmp(arch, "sm_", 3) != 0 || !arch[3] || strlen(arch) > 32)
        return NULL;
    for (const char *p = arch + 3; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z')))
            return NULL;
    return join("compute_", arch + 3, arena);
}

/* `NVCC -fatbin -gencode arch=compute_A,code=compute_A ... -IINC FLAGS...
 * --keep --keep-dir DIR -o OUTPUT COPY`.  Every target's virtual
 * architecture in one run, as a build's -gencode list: nvcc defines
 * __CUDA_ARCH_LIST__ as the whole (sorted) list in each target's
 * compile, and CUB names its namespace after it (CUB_..._SM_800_900), so
 * only this gives the build's symbols.  code=compute_A embeds PTX only,
 * so ptxas does not run here (measure_ptxas runs it with -v); --keep
 * leaves each target's PTX as DIR/input.compute_A.ptx (kept_ptx_paths;
 * DIR/input.ptx when the list has one architecture).  A user's own
 * -gencode or -arch among FLAGS joins the list, as in their build. */
static char **build_argv(const char *program, const NvccRuns *r, const Staged *st, Arena *arena)
{
    char **argv = ARENA_ARRAY(arena, char *, (size_t)(r->n_flags + 2 * r->n) + 10);
    int k = 0;
    argv[k++] = (char *)program;
    argv[k++] = "-fatbin";
    for (int i = 0; i < r->n; i++) {
        char *v = virtual_arch(r->archs[i], arena);
        argv[k++] = "-gencode";
        argv[k++] = join(join(join("arch=", v, arena), ",code=", arena), v, arena);
    }
    argv[k++] = st->inc_flag;
    for (int i = 0; i < r->n_flags; i++)
        argv[k++] = r->flags[i];
    argv[k++] = "--keep";
    argv[k++] = "--keep-dir";
    argv[k++] = (char *)jobs_operand(r->keep_dir, arena);
    argv[k++] = "-o";
    argv[k++] = (char *)jobs_operand(r->outputs[0], arena);
    argv[k++] = st->copy;
    argv[k] = NULL;
    return argv;
}

/* DIR/input.compute_A.ptx for each target, as nvcc --keep names them,
 * each registered with cleanup.h; false when a name is refused
 * (virtual_arch: errno EINVAL) or memory runs out (ENOMEM). */
static bool kept_ptx_paths(const char *dir, const char *archs[], int n, Arena *arena,
                           const char *paths[])
{
    for (int i = 0; i < n; i++) {
        char *v = virtual_arch(archs[i], arena);
        if (!v) {
            errno = EINVAL;
            return false;
        }
        paths[i] = join(join(dir, "/input.", arena), join(v, ".ptx", arena), arena);
        if (!cleanup_add_file(paths[i])) {
            errno = ENOMEM;
            return false;
        }
    }
    return true;
}

/* nvcc --keep names the PTX input.compute_A.ptx when the compile has
 * several virtual architectures, and input.ptx when it has one, which is
 * then the one asked for (a user's -arch for the same one included): each
 * target whose first name is absent takes the second. */
static void single_arch_ptx(const char *dir, int n, Arena *arena, const char *paths[])
{
    const char *single = join(dir, "/input.ptx", arena);
    for (int i = 0; i < n; i++)
        if (access(paths[i], F_OK) != 0 && access(single, F_OK) == 0)
            paths[i] = single;
}

/* One unit of a batch made ready: its PTX paths named, its input staged,
 * its job's argument vector built.  False with errno set (its results
 * then say not started). */
static bool prepare_unit(NvccUnit *u, const char *archs[], int n, Arena *arena, Staged *st,
                         JobRun *run)
{
    const char *fatbin[1];
    *run = (JobRun){.path = NULL};
    if (!kept_ptx_paths(u->dir, archs, n, arena, u->ptx_paths))
        return false;
    if (!output_paths(u->dir, 1, "fatbin", arena, fatbin) ||
        !cleanup_add_file(join(u->dir, "/input.ptx", arena))) {
        errno = ENOMEM;
        return false;
    }
    if (!stage_input(u->dir, u->cu_path, arena, st)) {
        int err = errno;
        unstage(st);
        errno = err;
        return false;
    }
    NvccRuns r = {.archs = archs, .n = n, .flags = u->flags, .n_flags = u->n_flags,
                  .outputs = fatbin, .together = true, .keep_dir = u->dir};
    const char *path = jobs_resolve_command(u->nvcc, arena);
    *run = (JobRun){.path = path, .envp = st->envp, .dir = u->cwd,
                    .argv = build_argv(path ? path : u->nvcc, &r, st, arena)};
    return true;
}

/* One compile: its result, and its words when it fails, are every target's. */
static void finish_unit(NvccUnit *u, const JobRun *run, const char *archs[], int n, Arena *arena)
{
    for (int i = 0; i < n; i++) {
        u->out[i] = (UsageReport){.arch = arena_strndup(arena, archs[i], strlen(archs[i]))};
        if (run->status == JOBS_NOT_STARTED)
            u->out[i].exit_status = PTXAS_NOT_STARTED;
        else if (run->status != 0)
            u->out[i] = (UsageReport){.arch = u->out[i].arch, .exit_status = run->status,
                                      .signal = run->signal, .errors = run->output};
    }
    u->status = u->out[0].exit_status;
    u->error = u->status == PTXAS_NOT_STARTED ? run->error : 0;
    if (u->status == 0)
        single_arch_ptx(u->dir, n, arena, u->ptx_paths);
}

/* A unit that could not be made ready: every target not started. */
static void unit_not_started(NvccUnit *u, const char *archs[], int n, int err, Arena *arena)
{
    none_started(archs, n, err, arena, u->out);
    u->status = PTXAS_NOT_STARTED;
    u->error = err;
}

void nvcc_ptx_units(NvccUnit units[], int n_units, const char *archs[], int n,
                    const JobsBatch *batch, Arena *arena)
{
    JobRun *runs = ARENA_ARRAY(arena, JobRun, (size_t)n_units + 1);
    Staged *staged = ARENA_ARRAY(arena, Staged, (size_t)n_units + 1);
    bool *ready = ARENA_ARRAY(arena, bool, (size_t)n_units + 1);
    for (int i = 0; i < n_units; i++) {
        ready[i] = prepare_unit(&units[i], archs, n, arena, &staged[i], &runs[i]);
        if (!ready[i])
            unit_not_started(&units[i], archs, n, errno, arena);
    }
    /* A unit not made ready has no program: jobs_run_batch counts it done
     * (ENOENT), and its results above stand. */
    jobs_run_batch(runs, n_units, batch, arena);
    for (int i = 0; i < n_units; i++) {
        if (!ready[i])
            continue;
        unstage(&staged[i]);
        if (runs[i].output)
            runs[i].output = relay_names(runs[i].output, &staged[i], arena);
        finish_unit(&units[i], &runs[i], archs, n, arena);
    }
}

int nvcc_ptx_targets(const char *nvcc, const char *cu_path, char *const flags[], int n_flags,
                     const char *archs[], int n, const char *dir, Arena *arena,
                     const char *ptx_paths[], UsageReport *out)
{
    if (n == 0)
        return 0;
    if (n < 0 || !nvcc || !cu_path || !archs || !dir || n_flags < 0 || (n_flags && !flags)) {
        errno = EINVAL;
        return PTXAS_NOT_STARTED;
    }
    NvccUnit unit = {.nvcc = nvcc, .cu_path = cu_path, .flags = flags, .n_flags = n_flags,
                     .dir = dir, .ptx_paths = ptx_paths, .out = out};
    nvcc_ptx_units(&unit, 1, archs, n, NULL, arena);
    if (unit.status == PTXAS_NOT_STARTED)
        errno = unit.error;
    return unit.status;
}
