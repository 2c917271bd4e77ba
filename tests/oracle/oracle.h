/*
 * oracle.h: the bridge between libsilkocc and NVIDIA's cuda_occupancy.h,
 * shared by the oracle test (tests/oracle/check_oracle.c) and the benchmark
 * (bench/engine.c).  It turns a row of our architecture tables and a
 * KernelResources into the header's cudaOccDeviceProp, cudaOccFuncAttributes
 * and cudaOccDeviceState, and reads the header's per-limiter answers back in
 * our limiter order, so that both sides are asked exactly the same question.
 *
 * Everything is guarded by HAVE_CUDA_OCCUPANCY_H (config.h defines it when
 * configure found the header); without it this file declares nothing and the
 * programs that include it skip.  The header is only ever used here, as a
 * test oracle: none of its code goes into the engine.
 */
#ifndef SILK_TESTS_ORACLE_H
#define SILK_TESTS_ORACLE_H

#include <config.h>

#ifdef HAVE_CUDA_OCCUPANCY_H

#include <limits.h>
#include <stdint.h>

#include <cuda_occupancy.h>

#include "occupancy.h"

/* The header's description of an SM of `arch` on a device of `sm_count`. */
static inline cudaOccDeviceProp oracle_device(const ArchLimits *arch, int sm_count)
{
    cudaOccDeviceProp p = {0};
    p.computeMajor = arch->major;
    p.computeMinor = arch->minor;
    p.maxThreadsPerBlock = arch->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = arch->max_threads_per_sm;
    p.regsPerBlock = arch->regs_per_block;
    p.regsPerMultiprocessor = arch->regs_per_sm;
    p.warpSize = arch->warp_size;
    p.sharedMemPerBlock = (size_t)arch->smem_per_block;
    p.sharedMemPerMultiprocessor = (size_t)arch->smem_per_sm;
    p.numSms = sm_count;
    p.sharedMemPerBlockOptin = (size_t)arch->smem_per_block_optin;
    p.reservedSharedMemPerBlock = (size_t)arch->reserved_smem_per_block;
    return p;
}

/* The header's description of a kernel.  Our "no bound" is 0; the header
 * rejects 0 and documents INT_MAX for it. */
static inline cudaOccFuncAttributes oracle_func(const KernelResources *k)
{
    cudaOccFuncAttributes f = {0};
    f.maxThreadsPerBlock = k->max_threads_per_block > 0 ? k->max_threads_per_block : INT_MAX;
    f.numRegs = k->regs_per_thread;
    f.sharedSizeBytes = (size_t)k->static_smem;
    f.partitionedGCConfig = (cudaOccPartitionedGCConfig)k->partitioned_gc;
    f.shmemLimitConfig = k->smem_optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    f.maxDynamicSharedSizeBytes = (size_t)k->max_dynamic_smem;
    f.numBlockBarriers = k->barriers;
    f.virtualResourceCount = k->virtual_resources;
    return f;
}

/* The carveout lives in the device state for the header, in the kernel for
 * us; the legacy cache preference stays neutral so only the carveout acts. */
static inline cudaOccDeviceState oracle_state(const KernelResources *k)
{
    cudaOccDeviceState s = {0};
    s.cacheConfig = CACHE_PREFER_NONE;
    s.carveoutConfig = k->carveout; /* -1 is SHAREDMEM_CARVEOUT_DEFAULT on both sides */
    return s;
}

/* The header's limitingFactors bit for one of our limiters. */
static inline unsigned oracle_limiter_bit(OccLimiter limiter)
{
    switch (limiter) {
    case OCC_LIMITER_WARPS: return OCC_LIMIT_WARPS;
    case OCC_LIMITER_REGISTERS: return OCC_LIMIT_REGISTERS;
    case OCC_LIMITER_SHARED_MEMORY: return OCC_LIMIT_SHARED_MEMORY;
    case OCC_LIMITER_BLOCKS: return OCC_LIMIT_BLOCKS;
    case OCC_LIMITER_BARRIERS: return OCC_LIMIT_BARRIERS;
    case OCC_LIMITER_VIRTUAL_RESOURCES: return OCC_LIMIT_VIRTUAL_RESOURCES;
    default: return 0;
    }
}

/* The header's CTA count for one of our limiters (INT_MAX: no limit). */
static inline int oracle_limit(const cudaOccResult *r, OccLimiter limiter)
{
    switch (limiter) {
    case OCC_LIMITER_WARPS: return r->blockLimitWarps;
    case OCC_LIMITER_REGISTERS: return r->blockLimitRegs;
    case OCC_LIMITER_SHARED_MEMORY: return r->blockLimitSharedMem;
    case OCC_LIMITER_BLOCKS: return r->blockLimitBlocks;
    case OCC_LIMITER_BARRIERS: return r->blockLimitBarriers;
    case OCC_LIMITER_VIRTUAL_RESOURCES: return r->blockLimitVirtual;
    default: return -1;
    }
}

/* The header's limitingFactors translated to our bit set (1u << OccLimiter). */
static inline unsigned oracle_limited_by(const cudaOccResult *r)
{
    unsigned set = 0;
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (r->limitingFactors & oracle_limiter_bit((OccLimiter)i))
            set |= 1u << i;
    return set;
}

/* Our limiters whose header count equals the header's result: the set its
 * limitingFactors documents.  The header sets its flags before applying
 * the barrier limit, so its flags may include limiters above the result. */
static inline unsigned oracle_binding_set(const cudaOccResult *r)
{
    unsigned set = 0;
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (oracle_limit(r, (OccLimiter)i) == r->activeBlocksPerMultiprocessor)
            set |= 1u << i;
    return set;
}

#endif /* HAVE_CUDA_OCCUPANCY_H */
#endif
