/*
 * occ_oracle.c: NVIDIA's cuda_occupancy.h answering for tests/cuda/corpus.sh.
 *
 * Reads lines "ARCH REGS STATIC_SMEM THREADS DYN_SMEM BARRIERS MAXNTID"
 * (MAXNTID 0: no bound) on stdin and prints, per line, the CTAs per SM
 * cudaOccMaxActiveBlocksPerMultiprocessor gives, or "error N" with the
 * header's status.  The SM's limits are the project's tables (as
 * check_oracle takes them); the kernel's side is built here from the
 * figures alone, as the CUDA runtime sees a kernel nobody configured:
 * the default shared-memory limit (no opt-in), the default carveout,
 * no partitioned caching, ptxas's barrier count.  Nothing of the engine's
 * calculation is used.
 *
 * Built only when configure found cuda_occupancy.h.
 */
#include "../oracle/oracle.h" /* config.h first */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HAVE_CUDA_OCCUPANCY_H

int main(void)
{
    fputs("occ_oracle: cuda_occupancy.h was not found at configure time\n", stderr);
    return 77;
}

#else

int main(void)
{
    ArchTable table;
    OccError err;
    if (arch_table_load_builtin(&table, &err) != 0) {
        fprintf(stderr, "occ_oracle: %s\n", err.message);
        return 2;
    }
    char line[512], arch_name[64];
    long line_no = 0;
    int status = 0;
    while (fgets(line, sizeof line, stdin)) {
        line_no++;
        int regs, threads, barriers, maxntid;
        unsigned long long static_smem, dyn_smem;
        if (sscanf(line, "%63s %d %llu %d %llu %d %d", arch_name, &regs, &static_smem, &threads,
                   &dyn_smem, &barriers, &maxntid) != 7) {
            fprintf(stderr, "occ_oracle: line %ld: want ARCH REGS STATIC_SMEM THREADS DYN_SMEM "
                            "BARRIERS MAXNTID: %s", line_no, line);
            status = 2;
            break;
        }
        const ArchLimits *arch = arch_table_find(&table, arch_name);
        if (!arch) {
            fprintf(stderr, "occ_oracle: line %ld: unknown architecture %s\n", line_no, arch_name);
            status = 2;
            break;
        }
        cudaOccDeviceProp prop = oracle_device(arch, 1);
        cudaOccFuncAttributes func;
        memset(&func, 0, sizeof func);
        func.maxThreadsPerBlock = maxntid > 0 ? maxntid : INT_MAX;
        func.numRegs = regs;
        func.sharedSizeBytes = (size_t)static_smem;
        func.partitionedGCConfig = PARTITIONED_GC_OFF;
        func.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
        func.maxDynamicSharedSizeBytes = 0; /* read only with an opt-in */
        func.numBlockBarriers = barriers;
        func.virtualResourceCount = 0;
        cudaOccDeviceState state;
        memset(&state, 0, sizeof state);
        state.cacheConfig = CACHE_PREFER_NONE;
        state.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
        cudaOccResult result;
        memset(&result, 0, sizeof result);
        cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &func, &state,
                                                                 threads, (size_t)dyn_smem);
        if (e == CUDA_OCC_SUCCESS)
            printf("%d\n", result.activeBlocksPerMultiprocessor);
        else
            printf("error %d\n", (int)e);
    }
    arch_table_free(&table);
    return status;
}

#endif
