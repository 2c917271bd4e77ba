/*
 * cpu_launch.h: the CPU backend's executor, the part that runs a launch
 * (cpu_launch.c).  It needs nothing of the compiler, only the generated
 * module's table (cpu_abi.h), so that libsilkrt carries it into every
 * program silkc builds; cpu.h, the compiler's side, includes this file.
 */
#ifndef SILK_CPU_LAUNCH_H
#define SILK_CPU_LAUNCH_H

#include "cpu_abi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One launch. */
typedef struct CpuLaunch {
    uint64_t ctas;            /* CTAs in the grid (ctaid.x below it) */
    uint32_t threads;         /* per CTA, 1 to 1024 */
    uint32_t sms;             /* ctx.sms: the SM count of the device emulated */
    uint64_t dynamic_shared;  /* bytes after the static shared arrays */
    const uint64_t *params;   /* one 64-bit slot per kernel parameter */
    const uint64_t (*buffers)[2]; /* the buffers global accesses may touch (address,
                               * bytes), each access checked; NULL: unchecked */
    uint32_t n_buffers;
    int workers;              /* worker threads; 0: one per online core */
} CpuLaunch;

/* How a launch ended. */
typedef enum CpuLaunchStatus {
    CPU_LAUNCH_OK,
    CPU_LAUNCH_FAULT,         /* a thread faulted, or a CTA's threads could not go on */
    CPU_LAUNCH_GEOMETRY,      /* no CTA, more than 2^32 - 1, or a CTA size not 1 to 1024 */
    CPU_LAUNCH_NO_MEMORY,     /* the workers' memory could not be allocated */
} CpuLaunchStatus;

/* Runs every CTA of `launch` to its end.  Anything but OK comes with one
 * line in `error`; a fault's names the kernel, the CTA and thread, the
 * source location and what was wrong: an access outside every buffer, or
 * past the CTA's shared memory, or a barrier or a warp collective that
 * not all of a CTA's threads reach.  The other CTAs then stop at their
 * next CTA boundary. */
CpuLaunchStatus cpu_launch_run(const SilkCpuKernel *kernel, const CpuLaunch *launch, char *error,
                               size_t size);

/* The same, true when it ran to its end (CPU_LAUNCH_OK). */
bool cpu_launch(const SilkCpuKernel *kernel, const CpuLaunch *launch, char *error, size_t size);

#endif
