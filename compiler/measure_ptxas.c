/*
 * measure_ptxas.c: ptxas on the run's PTX (measure.h).  Every file's PTX
 * for every NVIDIA target is measured by one ptxas_run_targets, which runs
 * them a core each; each target's kernels then carry ptxas's figures.
 * Then, on request, the same PTX with each capped kernel at its advised
 * register cap (ptx_with_register_caps), to say whether it would spill
 * there, or without the bound its source gives it, to say what a bound
 * that makes it spill costs: ptxas on register-limited kernels is the
 * costly part of a report
 * (bench/report: a thousand kernels took 0.9 of ptxas alone with every cap
 * checked, 0.5 without), so a run compiles at most MEASURE_CAP_BUDGET.
 */
#include "measure_internal.h"

#include "ptx/ptxas.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* File f's target t with ptxas's figures: its own copy of the kernels
 * (targets of one .ptx file share theirs). */
static void take_usage(Measure *m, MeasuredFile *f, int t, const UsageReport *report)
{
    int n = f->n_kernels[t];
    MeasuredKernel *kernels = ARENA_ARRAY(m->arena, MeasuredKernel, (size_t)n + 1);
    for (int k = 0; k < n; k++) {
        kernels[k] = f->kernels[t][k];
        const KernelUsage *u = usage_kernel(report, kernels[k].name);
        if (u)
            kernels[k].usage = *u;
    }
    f->kernels[t] = kernels;
}

int measure_run_ptxas(Measure *m)
{
    int n = 0, total = m->n_files * m->n_targets;
    const char **paths = ARENA_ARRAY(m->arena, const char *, (size_t)total + 1);
    const char **archs = ARENA_ARRAY(m->arena, const char *, (size_t)total + 1);
    int *pair = ARENA_ARRAY(m->arena, int, (size_t)total + 1);
    for (int f = 0; f < m->n_files; f++)
        for (int t = 0; t < m->n_targets; t++) {
            const MeasuredFile *file = &m->files[f];
            if (file->measured || !measured_runs_on(file, t) || !file->ptx[t].path)
                continue;
            paths[n] = file->ptx[t].path;
            archs[n] = m->targets[t].sm_name;
            pair[n++] = f * m->n_targets + t;
        }
    if (n == 0 || !m->ptxas)
        return EXIT_OK;
    UsageReport *run = ARENA_ARRAY(m->arena, UsageReport, (size_t)n);
    m->ran.ptxas = m->ptxas;
    int status = ptxas_run_targets(m->ptxas, paths, archs, n, m->arena, run);
    if (status == PTXAS_NOT_STARTED) {
        measure_error(m, "cannot start %s: %s", m->ptxas, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    for (int i = 0; status != 0 && i < n; i++)
        if (run[i].exit_status != 0) {
            const MeasuredFile *f = &m->files[pair[i] / m->n_targets];
            return measure_ptxas_failed(m, f->path, f->kind, &run[i], archs[i]);
        }
    for (int i = 0; i < n; i++)
        take_usage(m, &m->files[pair[i] / m->n_targets], pair[i] % m->n_targets, &run[i]);
    return EXIT_OK;
}

/* The entry of kernel `name` in target t's PTX of file f, or -1. */
static int entry_of(const MeasuredFile *f, int t, const char *name)
{
    for (int e = 0; e < f->ptx[t].n_entries; e++)
        if (strcmp(f->ptx[t].entries[e].name, name) == 0)
            return e;
    return -1;
}

/* Whether a cap can be checked: NVIDIA PTX the run holds. */
static bool checkable(const Measure *m, const MeasureCap *c)
{
    const MeasuredFile *f = &m->files[c->file];
    return m->targets[c->target].vendor == OCC_NVIDIA && f->ptx[c->target].text &&
           entry_of(f, c->target, c->kernel) >= 0;
}

/* File f's PTX for target t with each capped kernel at its cap (or
 * unbounded) and the others left out, written for ptxas; NULL when none
 * is capped. */
static const char *caps_ptx(Measure *m, const MeasureCap *caps, int n_caps, int f, int t)
{
    const struct MeasurePtx *ptx = &m->files[f].ptx[t];
    int *entry_caps = ARENA_ARRAY(m->arena, int, (size_t)ptx->n_entries + 1), any = 0;
    bool unbounded = false;
    for (int e = 0; e < ptx->n_entries; e++)
        entry_caps[e] = PTX_CAP_LEAVE_OUT;
    for (int i = 0; i < n_caps; i++)
        if (caps[i].file == f && caps[i].target == t && checkable(m, &caps[i])) {
            entry_caps[entry_of(&m->files[f], t, caps[i].kernel)] =
                caps[i].unbounded ? PTX_CAP_UNBOUNDED : caps[i].cap;
            unbounded |= caps[i].unbounded;
            any = 1;
        }
    if (!any)
        return NULL;
    size_t len;
    char *text = ptx_with_register_caps(ptx->text, ptx->len, ptx->entries, ptx->n_entries,
                                        entry_caps, m->arena, &len);
    char stem[48];
    /* A report compiles caps, then bounds: each call its own files. */
    snprintf(stem, sizeof stem, "%s%d-%d", unbounded ? "unbounded" : "caps", f, t);
    return measure_write_temp(m, stem, text, len);
}

/* What ptxas did for cap c, from the run of its file and target. */
static void take_cap(Measure *m, MeasureCap *c, const UsageReport *reports, const int *job)
{
    int j = job[c->file * m->n_targets + c->target];
    const KernelUsage *u = j >= 0 && reports[j].exit_status == 0
                               ? usage_kernel(&reports[j], c->kernel)
                               : NULL;
    if (!u)
        return;
    c->checked = true;
    c->registers = u->registers;
    c->spill_stores = u->spill_stores;
    c->spill_loads = u->spill_loads;
}

bool measure_caps(Measure *m, MeasureCap *caps, int n, bool all)
{
    int wanted = 0;
    for (int i = 0; i < n; i++)
        wanted += checkable(m, &caps[i]);
    if (wanted == 0 || !m->ptxas)
        return true;
    if (wanted > MEASURE_CAP_BUDGET && !all)
        return false;
    int slots = m->n_files * m->n_targets, n_jobs = 0;
    const char **paths = ARENA_ARRAY(m->arena, const char *, (size_t)slots + 1);
    const char **archs = ARENA_ARRAY(m->arena, const char *, (size_t)slots + 1);
    int *job = ARENA_ARRAY(m->arena, int, (size_t)slots + 1);
    for (int f = 0; f < m->n_files; f++)
        for (int t = 0; t < m->n_targets; t++) {
            job[f * m->n_targets + t] = -1;
            if ((paths[n_jobs] = caps_ptx(m, caps, n, f, t))) {
                archs[n_jobs] = m->targets[t].sm_name;
                job[f * m->n_targets + t] = n_jobs++;
            }
        }
    UsageReport *reports = ARENA_ARRAY(m->arena, UsageReport, (size_t)n_jobs + 1);
    ptxas_run_targets(m->ptxas, paths, archs, n_jobs, m->arena, reports);
    for (int i = 0; i < n; i++)
        take_cap(m, &caps[i], reports, job);
    return true;
}
