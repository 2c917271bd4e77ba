/*
 * nvcc.c: compile a .cu file with nvcc, one cubin per target, and read
 * the cubins.
 *
 * The jobs run through jobs.h as ptxas's do: no shell, one per core, each
 * one's output kept for when it fails, every path an operand
 * (jobs_operand).  The cubins are written to a private directory
 * (tempdir.h), one file per target (t0.cubin, t1.cubin, ...: the target
 * names are the user's and never become paths), removed with the
 * directory once read, whatever happened, a signal included.  Flags come after -cubin -arch=ARCH, so a user's own -arch or
 * -o is the one nvcc sees last; they are the user's business.
 */
#include <config.h>

#include "nvcc.h"

#include "cleanup.h"
#include "cubin.h"
#include "jobs.h"
#include "tempdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- compiling ----------------------------------------------------------------- */

/* `NVCC KIND -arch=ARCH FLAGS... -o OUTPUT CU` (KIND -cubin or -ptx), in
 * the arena. */
static char **nvcc_argv(const char *program, const char *kind, const char *arch,
                        char *const flags[], int n_flags, const char *output, const char *cu_path,
                        Arena *arena)
{
    char **argv = ARENA_ARRAY(arena, char *, (size_t)n_flags + 7);
    size_t arch_len = strlen("-arch=") + strlen(arch) + 1;
    char *arch_flag = arena_alloc(arena, arch_len, 1);
    snprintf(arch_flag, arch_len, "-arch=%s", arch);
    int k = 0;
    argv[k++] = (char *)program;
    argv[k++] = (char *)kind;
    argv[k++] = arch_flag;
    for (int i = 0; i < n_flags; i++)
        argv[k++] = flags[i];
    argv[k++] = "-o";
    argv[k++] = (char *)jobs_operand(output, arena);
    argv[k++] = (char *)jobs_operand(cu_path, arena);
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
        *out = (UsageReport){.exit_status = run->status, .errors = run->output};
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
    const char *path = jobs_resolve_command(nvcc, arena);
    JobRun *runs = ARENA_ARRAY(arena, JobRun, (size_t)n);
    for (int i = 0; i < n; i++)
        runs[i] = (JobRun){.path = path,
                           .argv = nvcc_argv(path ? path : nvcc, "-cubin", archs[i], flags,
                                             n_flags, cubins[i], cu_path, arena)};
    jobs_run(runs, n, arena);
    for (int i = 0; i < n; i++)
        finish_target(&runs[i], cubins[i], archs[i], arena, &out[i]);
    tempdir_remove(dir, 0);
    return first_failure(runs, out, n);
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
    if (!output_paths(dir, n, "ptx", arena, ptx_paths))
        return none_started(archs, n, ENOMEM, arena, out);
    const char *path = jobs_resolve_command(nvcc, arena);
    JobRun *runs = ARENA_ARRAY(arena, JobRun, (size_t)n);
    for (int i = 0; i < n; i++)
        runs[i] = (JobRun){.path = path,
                           .argv = nvcc_argv(path ? path : nvcc, "-ptx", archs[i], flags, n_flags,
                                             ptx_paths[i], cu_path, arena)};
    jobs_run(runs, n, arena);
    for (int i = 0; i < n; i++) {
        out[i] = (UsageReport){.arch = arena_strndup(arena, archs[i], strlen(archs[i]))};
        if (runs[i].status == JOBS_NOT_STARTED)
            out[i].exit_status = PTXAS_NOT_STARTED;
        else if (runs[i].status != 0)
            out[i] = (UsageReport){.arch = out[i].arch, .exit_status = runs[i].status,
                                   .errors = runs[i].output};
    }
    return first_failure(runs, out, n);
}
