/*
 * measure_cuda.c: the .cu input.  A .cu file is compiled by nvcc
 * once for every architecture of the targets together, as a build's
 * -gencode list compiles it (nvcc.h), so that __CUDA_ARCH_LIST__ and the
 * symbols that depend on it (CUB's namespace) are the build's; each
 * target's PTX is then read as a .ptx file's: its own kernels (CUDA code
 * that tests __CUDA_ARCH__ compiles a different set per architecture),
 * measured by ptxas -v with spills, its register caps checked like any
 * PTX's.  A file that nvcc rejects is an input error: nvcc's own words,
 * exit status 2; without nvcc the exit status is 3.
 */
#include "measure_internal.h"

#include "escape.h"

#include "cleanup.h"
#include "ptx/nvcc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a failed nvcc_ptx_targets means for the user: a missing nvcc is
 * the environment's fault, a rejected file the input's.  The one compile
 * was for every architecture, so its words name them all. */
static int nvcc_failed(Measure *m, const char *path, const char *nvcc, int status,
                       const UsageReport *out, const char *const *archs, int n)
{
    if (status == PTXAS_NOT_STARTED) {
        measure_error(m, "cannot start %s: %s", nvcc, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    const char *text = out[0].errors ? out[0].errors : "";
    int len = (int)strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    char *words = NULL, *list = NULL; /* nvcc quotes the source: escaped */
    size_t size = 0, list_size = 0;
    FILE *f = open_memstream(&words, &size);
    if (f) {
        escape_fputs_message(text, (size_t)len, f);
        fclose(f);
    }
    FILE *l = open_memstream(&list, &list_size);
    if (l) {
        for (int i = 0; i < n; i++)
            fprintf(l, "%s%s", i ? "," : "", archs[i]);
        fclose(l);
    }
    measure_error(m, "nvcc rejected %s for %s:\n%s", ESCAPED(path), list ? list : "",
                  words ? words : "");
    free(words);
    free(list);
    return EXIT_USAGE;
}

/* A directory of this input's own under `tmpdir`, cuN for the first N
 * free: each .cu of a report has one, since nvcc's kept files are named
 * after our copy (input.compute_80.ptx), the same for every file.  Known
 * to cleanup.h before it exists (tempdir.h), as nvcc's files in it are. */
bool measure_input_dir(Measure *m, char *dir, size_t size)
{
    for (int i = 0;; i++) {
        snprintf(dir, size, "%s/cu%d", m->tmpdir, i);
        if (!cleanup_add_dir(dir)) {
            measure_error(m, "out of memory");
            return false;
        }
        if (mkdir(dir, 0700) == 0)
            return true;
        int err = errno;
        cleanup_forget(dir);
        if (err != EEXIST) {
            measure_error(m, "cannot make %s: %s", dir, strerror(err));
            return false;
        }
    }
}

/* One nvcc run for the distinct architectures of the targets (two
 * products of one architecture compile alike), into a directory of this
 * input's own under `tmpdir`; each target then reads its architecture's
 * PTX. */
static int compile_to_ptx(Measure *m, const char *path, const char *nvcc, char **flags,
                          int n_flags, const Target *targets, int n, MeasuredFile *s)
{
    Arena *arena = m->arena;
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
    if (!measure_input_dir(m, dir, sizeof dir))
        return EXIT_ENVIRONMENT;
    m->ran.nvcc = nvcc;
    int status = nvcc_ptx_targets(nvcc, path, flags, n_flags, archs, n_jobs, dir, arena,
                                  ptx_paths, runs);
    if (status != 0)
        return nvcc_failed(m, path, nvcc, status, runs, archs, n_jobs);
    for (int i = 0; i < n; i++) {
        int first = 0;
        while (job[first] != job[i])
            first++;
        if (first < i) {
            measure_share_target(s, i, first);
            continue;
        }
        size_t len;
        char *text = measure_read_file(m, ptx_paths[job[i]], &len);
        if (!text) {
            measure_error(m, "%s: cannot read nvcc's PTX for %s: %s", ESCAPED(path), archs[job[i]],
                      strerror(errno ? errno : EIO));
            return EXIT_ENVIRONMENT;
        }
        measure_use_ptx(m, s, i, ptx_paths[job[i]], text, len);
    }
    return EXIT_OK;
}

int measure_load_cuda(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *s)
{
    const char *nvcc_flags = m->options->nvcc_flags;
    const char *nvcc = nvcc_find();
    if (!nvcc) {
        measure_error(m, "%s: CUDA input needs nvcc, and none was found (put the CUDA "
                           "toolkit's bin on PATH, or set SILK_NVCC)", path);
        return EXIT_ENVIRONMENT;
    }
    char **flags = NULL, error[256];
    int n_flags = 0;
    if (nvcc_flags && !nvcc_split_flags(nvcc_flags, m->arena, &flags, &n_flags, error, sizeof error)) {
        measure_error(m, "--nvcc-flags: %s", error);
        return EXIT_USAGE;
    }
    struct stat st;
    if (access(path, R_OK) != 0 || stat(path, &st) != 0) {
        measure_error(m, "%s: cannot read: %s", ESCAPED(path), strerror(errno));
        return EXIT_USAGE;
    }
    /* nvcc would read a device or a pipe (a link to /dev/zero) forever. */
    if (!S_ISREG(st.st_mode)) {
        measure_error(m, "%s: not a regular file (nvcc compiles files)", ESCAPED(path));
        return EXIT_USAGE;
    }
    return compile_to_ptx(m, path, nvcc, flags, n_flags, targets, n, s);
}
