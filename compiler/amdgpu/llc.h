/*
 * llc.h: the driver of LLVM's AMDGPU backend, which turns the AMDGPU
 * backend's LLVM IR into code objects: llc compiles each target's module
 * to a relocatable object, ld.lld links it into the shared object HIP
 * loads (the .hsaco), and the object's metadata note says what each
 * kernel uses (hsaco.h).  There is no estimate for AMD: without llc the
 * figures are not guessed, and the build says which tool is missing.
 *
 * Runs are jobs (jobs.h): no shell, several targets at once, each tool's
 * own words kept for the caller when it fails.  Nothing here prints.
 */
#ifndef SILK_AMDGPU_LLC_H
#define SILK_AMDGPU_LLC_H

#include "arena.h"
#include "usage.h"

/* Results that are not a tool's exit status (UsageReport.exit_status). */
enum {
    AMDGPU_TOOL_NOT_STARTED = -1, /* llc or ld.lld could not be started: errno */
    AMDGPU_BAD_CODE_OBJECT = -2,  /* the linked code object's metadata did not read
                                   * (errors says why) or lacks a kernel */
    AMDGPU_NO_OUTPUT = -3,        /* a tool exited 0 without writing its output file
                                   * (a wrong SILK_LLC, such as /bin/true) */
};

/* The llc to run: $SILK_LLC when it can run ("none": there is none), else
 * llc-19, else llc on $PATH (jobs_find_tool's rule); NULL when none can. */
const char *amdgpu_llc_find(void);

/* The linker: $SILK_LLD, else ld.lld-19, else ld.lld; NULL when none. */
const char *amdgpu_lld_find(void);

/* For each of the n targets: `LLC -mtriple=amdgcn-amd-amdhsa -mcpu=ARCH
 * -filetype=obj -o OBJ LL`, then `LLD -shared -o HSACO OBJ`, then the
 * HSACO's usage into out[i] (arch ARCH, source USAGE_ASSEMBLER), which
 * must name each of the n_kernels `kernels`.  On a failure out[i] holds
 * the failing tool's status and its output (errors), and tools[i] names
 * it.  Returns 0 when every target succeeded, else the first failure's
 * status, with errno set for AMDGPU_TOOL_NOT_STARTED. */
int amdgpu_compile_targets(const char *llc, const char *lld, const char *const ll_paths[],
                           const char *const archs[], const char *const obj_paths[],
                           const char *const hsaco_paths[], int n, const char *const kernels[],
                           int n_kernels, Arena *arena, UsageReport *out, const char **tools);

#endif
