/* internal.h: helpers shared by the engine's files, not part of its API. */
#ifndef SILK_OCCUPANCY_INTERNAL_H
#define SILK_OCCUPANCY_INTERNAL_H

#include "occupancy.h"

/* The shared memory per SM the kernel's carveout preference asks for, in
 * bytes: a percentage of the maximum, rounded up to a supported carveout. */
OccStatus occ_preferred_smem_per_sm(const ArchLimits *arch, int carveout, uint64_t *bytes);

/* The smallest supported carveout that holds `bytes`; false when none does. */
bool occ_align_to_carveout(const ArchLimits *arch, uint64_t bytes, uint64_t *carveout);

/* Resident CTAs that shared memory alone allows (*blocks) and the carveout
 * they are placed in (*per_sm), for a kernel occ_active_blocks accepts. */
OccStatus occ_smem_blocks(const ArchLimits *arch, const KernelResources *k,
                          uint64_t dynamic_smem, int *blocks, uint64_t *per_sm);

#endif
