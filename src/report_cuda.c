/*
 * report_cuda.c: the report's .cu input.  A .cu file is compiled by nvcc
 * to PTX once per architecture of the targets (nvcc.h), and each target's
 * PTX is then read as a .ptx file's: its own kernels (CUDA code that tests
 * __CUDA_ARCH__ compiles a different set per architecture), measured by
 * ptxas -v with spills, its register caps checked like any PTX's.  A file
 * that nvcc rejects is an input error: nvcc's own words, exit status 2;
 * without nvcc the exit status is 3.
 */
#include "report_input.h"
#include "escape.h"

#include "cleanup.h"
#include "ptx/nvcc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const COMMAND = "report";

/* What a failed nvcc_ptx_targets means for the user: a missing nvcc is
 * the environment's fault, a rejected file the input's. */
static int nvcc_failed(const char *path, const char *nvcc, int status, const UsageReport *out,
                       const char *const *archs, int n)
{
    if (status == PTXAS_NOT_STARTED) {
        cli_error(COMMAND, "cannot start %s: %s", nvcc, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    int i = 0;
    while (i < n - 1 && out[i].exit_status != status)
        i++;
    const char *text = out[i].errors ? out[i].errors : "";
    int len = (int)strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    cli_error(COMMAND, "nvcc rejected %s for %s:", ESCAPED(path), archs[i]);
    escape_fputs_message(text, (size_t)len, stderr); /* nvcc quotes the source */
    fputc('\n', stderr);
    return EXIT_USAGE;
}

/* nvcc -ptx once per distinct architecture of the targets (two products
 * of one architecture compile alike), into a directory of this input's
 * own under `tmpdir`; each target then reads its architecture's PTX. */
static int compile_to_ptx(const char *path, const char *nvcc, char **flags, int n_flags,
                          const Target *targets, int n, const char *tmpdir, Arena *arena,
                          ReportSource *s)
{
    const char **archs = ARENA_ARRAY(arena, const char *, (size_t)n);
    const char **ptx_paths = ARENA_ARRAY(arena, const char *, (size_t)n);
    UsageReport *runs = ARENA_ARRAY(arena, UsageReport, (size_t)n);
    int *job = ARENA_ARRAY(arena, int, (size_t)n), n_jobs = 0;
    for (int i = 0; i < n; i++) {
        job[i] = 0;
        while (job[i] < n_jobs && strcmp(archs[job[i]], targets[i].sm_name) != 0)
            job[i]++;
        if (job[i] == n_jobs)
            archs[n_jobs++] = targets[i].sm_name;
    }
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/cu%p", tmpdir, (void *)s);
    /* Known to cleanup.h before it exists (tempdir.h), as nvcc's files in it are. */
    if (!cleanup_add_dir(dir)) {
        cli_error(COMMAND, "out of memory");
        return EXIT_ENVIRONMENT;
    }
    if (mkdir(dir, 0700) != 0) {
        cli_error(COMMAND, "cannot make %s: %s", dir, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    int status = nvcc_ptx_targets(nvcc, path, flags, n_flags, archs, n_jobs, dir, arena,
                                  ptx_paths, runs);
    if (status != 0)
        return nvcc_failed(path, nvcc, status, runs, archs, n_jobs);
    for (int i = 0; i < n; i++) {
        int first = 0;
        while (job[first] != job[i])
            first++;
        if (first < i) {
            report_share_target(s, i, first);
            continue;
        }
        size_t len;
        char *text = report_read_file(ptx_paths[job[i]], arena, &len);
        if (!text) {
            cli_error(COMMAND, "%s: cannot read nvcc's PTX for %s: %s", ESCAPED(path), archs[job[i]],
                      strerror(errno ? errno : EIO));
            return EXIT_ENVIRONMENT;
        }
        report_use_ptx(s, i, ptx_paths[job[i]], text, len, arena);
    }
    return EXIT_OK;
}

int report_load_cuda(const char *path, const char *nvcc_flags, const Target *targets, int n,
                     const char *tmpdir, Arena *arena, ReportSource *s)
{
    const char *nvcc = nvcc_find();
    if (!nvcc) {
        cli_error(COMMAND, "%s: CUDA input needs nvcc, and none was found (put the CUDA "
                           "toolkit's bin on PATH, or set SILK_NVCC)", path);
        return EXIT_ENVIRONMENT;
    }
    char **flags = NULL, error[256];
    int n_flags = 0;
    if (nvcc_flags && !nvcc_split_flags(nvcc_flags, arena, &flags, &n_flags, error, sizeof error)) {
        cli_error(COMMAND, "--nvcc-flags: %s", error);
        return EXIT_USAGE;
    }
    struct stat st;
    if (access(path, R_OK) != 0 || stat(path, &st) != 0) {
        cli_error(COMMAND, "%s: cannot read: %s", ESCAPED(path), strerror(errno));
        return EXIT_USAGE;
    }
    /* nvcc would read a device or a pipe (a link to /dev/zero) forever. */
    if (!S_ISREG(st.st_mode)) {
        cli_error(COMMAND, "%s: not a regular file (nvcc compiles files)", ESCAPED(path));
        return EXIT_USAGE;
    }
    return compile_to_ptx(path, nvcc, flags, n_flags, targets, n, tmpdir, arena, s);
}
