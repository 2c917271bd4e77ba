/*
 * cluster.c: thread-block clusters (compute capability 9.0 on): how large
 * a cluster the architecture launches, and how many clusters a product
 * holds at once.
 *
 * The CTAs of a cluster are co-scheduled on the SMs of one GPC (the CUDA
 * Programming Guide, *Thread Block Clusters*), so the resident clusters
 * are counted GPC by GPC: a GPC of S SMs, each holding B CTAs of the
 * kernel, holds floor(S x B / size) clusters.  The SMs of a GPC are not
 * published per product; they come in TPCs of two SMs, which are taken as
 * evenly spread over the GPCs as the counts allow (H100 SXM5: 66 TPCs in 8
 * GPCs, so 2 GPCs of 9 TPCs and 6 of 8).  The result is an estimate: a
 * device answers cudaOccupancyMaxActiveClusters exactly.
 */
#include "occupancy.h"

int occ_cluster_limit(const ArchLimits *arch, bool nonportable)
{
    int portable = arch->max_cluster_size;
    if (nonportable && arch->max_cluster_size_nonportable > portable)
        return arch->max_cluster_size_nonportable;
    return portable;
}

int occ_cluster_resident(int sm_count, int gpcs, int ctas_per_sm, int cluster_size)
{
    if (gpcs <= 0 || sm_count <= 0 || cluster_size <= 0)
        return -1;
    if (ctas_per_sm <= 0)
        return 0;
    int tpcs = sm_count / 2, spare_sms = sm_count % 2;
    long long clusters = 0;
    for (int g = 0; g < gpcs; g++) {
        long long sms = 2LL * (tpcs / gpcs + (g < tpcs % gpcs));
        if (g == gpcs - 1)
            sms += spare_sms; /* an odd SM count: the last GPC keeps it */
        clusters += sms * ctas_per_sm / cluster_size;
    }
    return clusters > 0x7fffffff ? 0x7fffffff : (int)clusters;
}
