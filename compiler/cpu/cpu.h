/*
 * cpu.h: the CPU backend: Silk kernels run on the host's cores with the
 * GPU's semantics, where there is no GPU.
 *
 * The backend emits each IR module as C (cpu_emit.c), which the system C
 * compiler ($CC, else cc) builds into a shared object; the executor
 * (cpu_exec.c) loads it and launches a kernel over a grid of CTAs spread
 * over worker threads, one CTA per worker at a time, its threads run
 * from stop to stop (barriers, warp collectives) as cpu_abi.h describes.
 * This is the API the runtime of host programs calls: build or open a
 * module, find a kernel, launch it (synchronously: the launch returns
 * when every CTA has finished), with buffers the caller allocates and
 * passes by address.
 */
#ifndef SILK_CPU_H
#define SILK_CPU_H

#include "cpu/cpu_abi.h"
#include "diag.h"
#include "ir.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes `m` as one C translation unit for the executor.  `target` is
 * ignored (there is one CPU target).  False, with the reasons reported
 * to `diag`, when the module holds what the backend cannot run yet. */
bool cpu_emit_module(const IrModule *m, const char *target, FILE *out, Diag *diag);

typedef struct CpuModule CpuModule;

/* Builds `len` bytes of the backend's C into DIR/module.so with the C
 * compiler ($CC, else cc; its flags fixed: -O2 -fPIC -shared
 * -ffp-contract=off) and loads it.  DIR is the caller's temporary
 * directory (tempdir.h): module.c and module.so are registered with
 * cleanup.h, so that a signal removes them with it.  NULL, with one line
 * in `error` (the compiler's own words after it), when it cannot. */
CpuModule *cpu_module_build(const char *c_text, size_t len, const char *dir, char *error,
                            size_t size);

/* Loads a module built before; NULL with the reason in `error`. */
CpuModule *cpu_module_open(const char *path, char *error, size_t size);
void cpu_module_close(CpuModule *module);

/* The kernel `name` of the module; NULL if it has none. */
const SilkCpuKernel *cpu_module_kernel(const CpuModule *module, const char *name);

/* The kernels, for listing. */
const SilkCpuKernel *cpu_module_kernels(const CpuModule *module, uint32_t *n);

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

/* Runs every CTA of `launch` to its end.  False, with one line in
 * `error`, when a thread faults (an access outside every buffer, or past
 * the CTA's shared memory) or the threads of a CTA cannot go on together
 * (a barrier or a warp collective that not all of them reach):
 * the kernel, the CTA and thread, the source location and what was
 * wrong.  The other CTAs then stop at their next CTA boundary. */
bool cpu_launch(const SilkCpuKernel *kernel, const CpuLaunch *launch, char *error, size_t size);

#endif
