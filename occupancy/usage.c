/*
 * usage.c: looking up a kernel's figures, and handing them to the
 * occupancy engine (usage.h).
 */
#include "usage.h"

#include <string.h>

const KernelUsage *usage_kernel(const UsageReport *report, const char *name)
{
    for (int i = 0; i < report->n_kernels; i++)
        if (strcmp(report->kernels[i].name, name) == 0)
            return &report->kernels[i];
    return NULL;
}

KernelResources usage_resources(const KernelUsage *u, const ArchLimits *arch, bool optin)
{
    KernelResources k = occ_kernel_defaults(arch, u->registers, (uint64_t)u->static_smem, optin);
    if (u->barriers >= 0)
        k.barriers = u->barriers; /* 0 lifts the barrier limit, as in cuda_occupancy.h */
    k.max_threads_per_block = u->max_threads;
    return k;
}

const MeasuredKernel *measured_kernel(const MeasuredFile *f, int t, const char *name)
{
    for (int i = 0; i < f->n_kernels[t]; i++)
        if (strcmp(f->kernels[t][i].name, name) == 0)
            return &f->kernels[t][i];
    return NULL;
}
