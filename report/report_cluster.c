/*
 * report_cluster.c: the thread-block cluster of a launch.  A kernel
 * compiled with __cluster_dims__ (PTX .reqnctapercluster) always runs in
 * clusters of that shape, and a <<<>>> launch gives them; a kernel without
 * one runs in clusters only when the launch asks (cudaLaunchKernelEx with
 * cudaLaunchAttributeClusterDimension), which --cluster models.  The rules
 * are the CUDA Programming Guide's (*Thread Block Clusters*): the grid is a
 * whole number of clusters in every dimension, a cluster holds at most 8
 * CTAs portably and more only where the architecture allows it with
 * cudaFuncAttributeNonPortableClusterSizeAllowed, the kernel's
 * .maxclusterrank bounds it, and its CTAs run at once in one GPC.
 */
#include "report_model.h"

#include <stdint.h>

void report_cluster_choose(ReportEntry *e, const ReportSettings *s)
{
    ReportCluster *c = &e->cluster;
    const MeasuredKernel *k = &e->kernel;
    *c = (ReportCluster){.max_rank = k->max_cluster_rank};
    const int *dims = k->cluster[0] > 0 ? k->cluster : s->cluster;
    c->compiled = k->cluster[0] > 0;
    c->option_ignored = c->compiled && s->cluster[0] > 0 &&
                        (s->cluster[0] != k->cluster[0] || s->cluster[1] != k->cluster[1] ||
                         s->cluster[2] != k->cluster[2]);
    if (dims[0] <= 0 || e->target.vendor != OCC_NVIDIA)
        return;
    for (int i = 0; i < 3; i++)
        c->dims[i] = dims[i] > 0 ? dims[i] : 1;
    int64_t size = (int64_t)c->dims[0] * c->dims[1] * c->dims[2];
    c->size = size > 1 << 20 ? 1 << 20 : (int)size;
    c->portable_limit = occ_cluster_limit(e->target.arch, false);
    c->limit = occ_cluster_limit(e->target.arch, true);
    c->nonportable = c->size > c->portable_limit && c->size <= c->limit;
}

uint64_t report_cluster_round(const ReportEntry *e, uint64_t ctas, int dim)
{
    uint64_t d = e->cluster.size ? (uint64_t)e->cluster.dims[dim] : 1;
    return (ctas + d - 1) / d * d;
}

/* Whether the named GPU (when there is one) has CTA slots for a whole
 * cluster at once: more CTAs than SMs x CTAs per SM can never launch.
 * The finer limit, one GPC's slots, is in the resident-cluster estimate. */
static bool fits_any_gpu(const ReportEntry *e, int ctas_per_sm)
{
    int sms = e->target.sm_count > 0 ? e->target.sm_count : 0;
    if (sms == 0)
        return true; /* no product to judge by: the device's query will */
    return (int64_t)sms * ctas_per_sm >= e->cluster.size;
}

void report_cluster_check(ReportEntry *e)
{
    ReportCluster *c = &e->cluster;
    const ReportRow *r = report_selected(e);
    if (c->size == 0)
        return;
    bool two_d = e->have_work && (e->work_rows > 0 || e->grid_y > 0);
    if (c->portable_limit == 0)
        c->problem = CLUSTER_UNSUPPORTED;
    else if (c->size > c->limit)
        c->problem = CLUSTER_TOO_LARGE;
    else if (c->max_rank > 0 && c->size > c->max_rank)
        c->problem = CLUSTER_ABOVE_RANK;
    else if (c->dims[2] > 1 || (c->dims[1] > 1 && e->have_work && !two_d))
        c->problem = CLUSTER_SHAPE;
    else if (r && !fits_any_gpu(e, r->fig.groups))
        c->problem = CLUSTER_NOT_RESIDENT;
    if (c->problem != CLUSTER_OK)
        e->grid_valid = false;
}

int report_cluster_resident(const ReportEntry *e, const ReportGpu *gpu, int ctas_per_sm)
{
    if (e->cluster.size == 0)
        return 0;
    return occ_cluster_resident(gpu->sm_count, gpu->gpcs, ctas_per_sm, e->cluster.size);
}

const char *report_cluster_problem_text(ClusterProblem p)
{
    switch (p) {
    case CLUSTER_OK: return "";
    case CLUSTER_UNSUPPORTED: return "thread-block clusters need compute capability 9.0 or newer";
    case CLUSTER_TOO_LARGE: return "more CTAs per cluster than the architecture allows";
    case CLUSTER_ABOVE_RANK: return "more CTAs per cluster than the kernel's __launch_bounds__ "
                                    "(.maxclusterrank) allows";
    case CLUSTER_SHAPE: return "the cluster has a y or z extent the launch's grid lacks";
    case CLUSTER_NOT_RESIDENT: return "a cluster needs more CTAs at once than the GPU holds";
    }
    return "";
}
