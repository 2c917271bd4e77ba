/*
 * measure_units.c: a project's translation units through the door
 * (measure.h's measure_units).  Each unit is a .cu file with its own
 * flags and working directory; all their nvcc compiles go to jobs.h as
 * one batch (at most --jobs at a time), each for every architecture of
 * the targets at once as measure_cuda.c compiles a file, and then every
 * unit's PTX is measured by the one ptxas run of the report.
 *
 * Unlike a file on the command line, a unit that nvcc rejects does not
 * end the run: a project of 600 units with one broken is 599 reports and
 * one line saying why, as a build's `make -k` would say it.
 */
#include "measure_internal.h"

#include "jobs.h"
#include "ptx/nvcc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The run's NVIDIA targets' distinct architectures (two products of one
 * architecture compile alike): archs[0..*n_archs), and for each target
 * its architecture's index, -1 for another vendor's. */
static void target_archs(const Measure *m, const char **archs, int *n_archs, int *arch_of)
{
    *n_archs = 0;
    for (int t = 0; t < m->n_targets; t++) {
        arch_of[t] = -1;
        if (m->targets[t].vendor != OCC_NVIDIA)
            continue;
        int a = 0;
        while (a < *n_archs && strcmp(archs[a], m->targets[t].sm_name) != 0)
            a++;
        if (a == *n_archs)
            archs[(*n_archs)++] = m->targets[t].sm_name;
        arch_of[t] = a;
    }
}

/* What progress shows of the architectures: "sm_80,sm_90". */
static const char *arch_list(Arena *arena, const char **archs, int n)
{
    size_t size = 1;
    for (int i = 0; i < n; i++)
        size += strlen(archs[i]) + 1;
    char *list = arena_alloc(arena, size, 1);
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), size - strlen(list), "%s%s", i ? "," : "", archs[i]);
    return list;
}

/* nvcc's first line that says error, else its first line: the unit's
 * reason in the summary. */
static const char *first_error_line(Arena *arena, const char *text)
{
    const char *line = text ? text : "", *pick = NULL;
    for (const char *p = line; *p; p += strcspn(p, "\n"), p += *p == '\n') {
        size_t len = strcspn(p, "\n");
        if (!pick && len)
            pick = p;
        const char *hit = strstr(p, "error");
        if (hit && hit < p + len) {
            pick = p;
            break;
        }
    }
    if (!pick)
        return "nvcc failed without a message";
    return arena_strndup(arena, pick, strcspn(pick, "\n"));
}

/* Why unit u cannot be compiled before nvcc runs (its file), or NULL. */
static const char *unit_unreadable(Measure *m, const MeasureUnit *u)
{
    struct stat st;
    char line[512];
    if (access(u->path, R_OK) != 0 || stat(u->path, &st) != 0)
        snprintf(line, sizeof line, "cannot read: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode)) /* nvcc would read a FIFO forever */
        snprintf(line, sizeof line, "not a regular file (nvcc compiles files)");
    else
        return NULL;
    return arena_strndup(m->arena, line, strlen(line));
}

/* A path of ours from the root: nvcc runs in the unit's directory. */
static const char *rooted(Arena *arena, const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return path;
    size_t size = strlen(cwd) + strlen(path) + 2;
    char *s = arena_alloc(arena, size, 1);
    snprintf(s, size, "%s/%s", cwd, path);
    return s;
}

/* The batch: what each job says as it ends, passed on as progress. */
typedef struct Progress {
    const MeasureBatch *batch;
    const MeasureUnit *units;
    const int *unit_of;   /* the unit of each job */
    int total;
    const char *archs;
} Progress;

static void job_ended(void *context, int index, int finished)
{
    const Progress *p = context;
    if (p->batch && p->batch->progress)
        p->batch->progress(p->batch->context, finished, p->total, p->archs,
                           p->units[p->unit_of[index]].name);
}

/* The nvcc of unit u: the build's own, unless $SILK_NVCC names one (the
 * one rule of every tool, jobs_find_tool) or the build's cannot run here
 * (a database made on another machine); then the one found. */
static const char *unit_nvcc(const MeasureUnit *u, const char *found)
{
    const char *forced = getenv("SILK_NVCC");
    if ((forced && *forced) || !u->nvcc || !jobs_command_exists(u->nvcc))
        return found;
    return u->nvcc;
}

/* The nvcc job of unit u, in a directory of its own; false after an
 * error of the run's (the temporary directory). */
static bool make_job(Measure *m, const MeasureUnit *u, const char *nvcc, int n_archs,
                     NvccUnit *job)
{
    char dir[4200];
    if (!measure_input_dir(m, dir, sizeof dir))
        return false;
    *job = (NvccUnit){.nvcc = unit_nvcc(u, nvcc), .cu_path = u->path,
                      .flags = u->flags, .n_flags = u->n_flags, .cwd = u->directory,
                      .dir = rooted(m->arena, arena_strndup(m->arena, dir, strlen(dir))),
                      .ptx_paths = ARENA_ARRAY(m->arena, const char *, (size_t)n_archs),
                      .out = ARENA_ARRAY(m->arena, UsageReport, (size_t)n_archs)};
    return true;
}

/* A compiled unit's file: each NVIDIA target reads its architecture's
 * PTX; the others are skipped.  False with the reason in *failure. */
static bool take_unit(Measure *m, const MeasureUnit *u, const NvccUnit *job, const int *arch_of,
                      MeasuredFile *f, const char **failure)
{
    *f = (MeasuredFile){.path = u->name, .kind = INPUT_CUDA};
    measure_alloc_targets(m, f, m->n_targets);
    f->skipped = ARENA_ARRAY(m->arena, bool, (size_t)m->n_targets + 1);
    for (int t = 0; t < m->n_targets; t++) {
        int a = arch_of[t], j = 0;
        f->skipped[t] = a < 0;
        if (a < 0)
            continue;
        while (arch_of[j] != a)
            j++;
        if (j < t) {
            measure_share_target(f, t, j);
            continue;
        }
        size_t len;
        char *text = measure_read_file(m, job->ptx_paths[a], &len);
        if (!text) {
            *failure = "nvcc left no PTX for a target";
            return false;
        }
        measure_use_ptx(m, f, t, job->ptx_paths[a], text, len);
    }
    measure_name_kernels(m, f, m->n_targets);
    return true;
}

/* Unit i after its compile: into the run's files, or its failure said. */
static void finish_unit(Measure *m, const MeasureUnit *u, const NvccUnit *job, const int *arch_of,
                        const char **failure)
{
    if (job->status == PTXAS_NOT_STARTED) {
        char line[512];
        snprintf(line, sizeof line, "cannot start %s: %s", job->nvcc, strerror(job->error));
        *failure = arena_strndup(m->arena, line, strlen(line));
        return;
    }
    if (job->status != 0) {
        const char *line = first_error_line(m->arena, job->out[0].errors);
        size_t len = strlen(u->path);
        /* nvcc names the file as it was given: the report names it shorter. */
        if (strncmp(line, u->path, len) == 0) {
            size_t size = strlen(u->name) + strlen(line + len) + 1;
            char *named = arena_alloc(m->arena, size, 1);
            snprintf(named, size, "%s%s", u->name, line + len);
            line = named;
        }
        *failure = line;
        return;
    }
    if (take_unit(m, u, job, arch_of, &m->files[m->n_files], failure))
        m->n_files++;
}

/* What needs saying before any unit compiles: no NVIDIA target, no
 * nvcc; the AMD targets get no figures from CUDA units. */
static int check_run(Measure *m, const char *nvcc, int n_archs, const MeasureUnit *units, int n)
{
    if (n_archs == 0) {
        measure_error(m, "CUDA units, and --arch names no NVIDIA target (the AMD targets take "
                         ".silk and .hsaco files)");
        return EXIT_USAGE;
    }
    bool all_own = true;
    for (int i = 0; i < n; i++)
        all_own &= unit_nvcc(&units[i], NULL) != NULL;
    if (!nvcc && !all_own) {
        measure_error(m, "CUDA input needs nvcc, and none was found (put the CUDA toolkit's bin "
                         "on PATH, or set SILK_NVCC)");
        return EXIT_ENVIRONMENT;
    }
    if (n_archs < m->n_targets && !m->options->own_targets)
        measure_warning(m, "CUDA units: no figures for the AMD targets (they take .silk and "
                           ".hsaco files)");
    return EXIT_OK;
}

int measure_units(Measure *m, const MeasureUnit *units, int n, const MeasureBatch *batch,
                  const char **failures)
{
    const char **archs = ARENA_ARRAY(m->arena, const char *, (size_t)m->n_targets + 1);
    int *arch_of = ARENA_ARRAY(m->arena, int, (size_t)m->n_targets + 1), n_archs;
    target_archs(m, archs, &n_archs, arch_of);
    const char *nvcc = nvcc_find();
    int rc = check_run(m, nvcc, n_archs, units, n);
    if (rc != EXIT_OK)
        return rc;
    NvccUnit *jobs = ARENA_ARRAY(m->arena, NvccUnit, (size_t)n + 1);
    int *unit_of = ARENA_ARRAY(m->arena, int, (size_t)n + 1), n_jobs = 0;
    for (int i = 0; i < n; i++) {
        failures[i] = unit_unreadable(m, &units[i]);
        if (failures[i])
            continue;
        if (!make_job(m, &units[i], nvcc, n_archs, &jobs[n_jobs]))
            return EXIT_ENVIRONMENT;
        unit_of[n_jobs++] = i;
    }
    Progress p = {batch, units, unit_of, n_jobs, arch_list(m->arena, archs, n_archs)};
    JobsBatch run = {.limit = batch ? batch->jobs : 0, .done = job_ended, .context = &p};
    m->ran.nvcc = n_jobs ? jobs[0].nvcc : nvcc; /* whose version the JSON names */
    nvcc_ptx_units(jobs, n_jobs, archs, n_archs, &run, m->arena);
    m->files = ARENA_ARRAY(m->arena, MeasuredFile, (size_t)n + 1);
    for (int j = 0; j < n_jobs; j++)
        finish_unit(m, &units[unit_of[j]], &jobs[j], arch_of, &failures[unit_of[j]]);
    if (!m->ptxas && m->n_files > 0) {
        measure_error(m, "PTX input needs ptxas for its register counts, and none was found (put "
                         "the CUDA toolkit's bin on PATH, or set SILK_PTXAS)");
        return EXIT_ENVIRONMENT;
    }
    return measure_run_ptxas(m);
}
