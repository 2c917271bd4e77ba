/*
 * cpu.h: the CPU backend: Silk kernels run on the host's cores with the
 * GPU's semantics, where there is no GPU.
 *
 * The backend emits each IR module as C (cpu_emit.c), which the system C
 * compiler ($CC, else cc) builds into a shared object; the executor
 * (cpu_exec.c) loads it and launches a kernel over a grid of CTAs spread
 * over worker threads, one CTA per worker at a time, its threads run
 * from stop to stop (barriers, warp collectives) as cpu_abi.h describes.
 * This is the API silkc exec calls: build or open a module, find a
 * kernel, launch it (cpu_launch.h: synchronously, the launch returns when
 * every CTA has finished), with buffers the caller allocates and passes
 * by address.  The launch needs nothing of the compiler and is in
 * libsilkrt too, for the programs silkc build makes.
 */
#ifndef SILK_CPU_H
#define SILK_CPU_H

#include "cpu_abi.h"
#include "cpu_launch.h"
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
 * compiler ($CC split into words, else cc: jobs_find_cc; its flags fixed: -O2 -fPIC -shared
 * -ffp-contract=off) and loads it.  DIR is the caller's temporary
 * directory (tempdir.h): module.c and module.so are registered with
 * cleanup.h, so that a signal removes them with it.  NULL, with one line
 * in `error` (the compiler's own words after it) and the exit status of
 * the failure in *status (exit_status.h, by build_failure_status's rule:
 * the C refused is a compiler bug, 1; any other failure 3), when it
 * cannot. */
CpuModule *cpu_module_build(const char *c_text, size_t len, const char *dir, char *error,
                            size_t size, int *status);

/* Loads a module built before; NULL with the reason in `error`. */
CpuModule *cpu_module_open(const char *path, char *error, size_t size);
void cpu_module_close(CpuModule *module);

/* The kernel `name` of the module; NULL if it has none. */
const SilkCpuKernel *cpu_module_kernel(const CpuModule *module, const char *name);

/* The kernels, for listing. */
const SilkCpuKernel *cpu_module_kernels(const CpuModule *module, uint32_t *n);

#endif
