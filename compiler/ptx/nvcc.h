/*
 * nvcc.h: CUDA C++ kernels' resources, by compiling a .cu file with
 * NVIDIA's nvcc to a cubin per target and reading each cubin (cubin.h).
 *
 * `nvcc -cubin -arch=ARCH -IINC [flags] -o TMP.cubin COPY.cu` runs once
 * per target, on a copy of the file (nvcc's own steps run through a
 * shell with the name unquoted; INC links to the file's directory), its
 * TMPDIR the private directory; without a shell of ours, at most one per
 * online core (jobs.h); the cubins go to a private temporary directory
 * that is removed afterwards.
 * The results come in ptxas's record (ptxas.h); as with cubin.h, spills
 * are unknown (-1).  nvcc_ptx_targets compiles to PTX instead, every
 * target in one run as a build does, for callers that measure with
 * ptxas -v themselves.  Nothing here prints:
 * when nvcc fails, its own words come back in UsageReport.errors.
 */
#ifndef SILK_NVCC_H
#define SILK_NVCC_H

#include "arena.h"
#include "jobs.h"
#include "ptxas.h"

#include <stdbool.h>
#include <stddef.h>

/* The nvcc to run, by jobs_find_tool's rule: $SILK_NVCC, else the one
 * configure found (NVCC_PATH), else "nvcc" when $PATH has one; the first
 * that is executable.  NULL when none is, or when $SILK_NVCC is "none". */
const char *nvcc_find(void);

/* Split a user's flag string ("-O3 -DN=4", from --nvcc-flags) into words
 * at blanks (spaces, tabs, newlines), as a shell would for simple cases:
 * '...' keeps everything inside as it is, "..." too except that \" and \\
 * stand for " and \, and outside quotes \ takes the next character as it
 * is.  No variables, globs or other expansion.  *words (NULL-terminated,
 * in `arena`) and *count are set; false, with one line in `error`, for an
 * unterminated quote or a trailing backslash. */
bool nvcc_split_flags(const char *flags, Arena *arena, char ***words, int *count, char *error,
                      size_t size);

/* Compile `cu_path` for each of the n targets archs[i] ("sm_80"), with the
 * extra `flags` (n_flags words, before -o) and read each cubin into out[i]
 * (arch, kernels; exit_status, errors as ptxas_run's).  Returns 0 when all
 * succeeded, else the result of the first target (in input order) that
 * did not: nvcc's nonzero exit status (128 + N when signal N killed it),
 * its output verbatim in out[i].errors; PTXAS_BAD_OUTPUT when nvcc
 * succeeded but its cubin did not read (cubin_read's line in errors); or
 * PTXAS_NOT_STARTED with errno set (nvcc or the temporary directory). */
int nvcc_compile_targets(const char *nvcc, const char *cu_path, char *const flags[], int n_flags,
                         const char *archs[], int n, Arena *arena, UsageReport *out);

/* Compile `cu_path` to PTX for the n targets archs[i] ("sm_80") in ONE
 * nvcc run with every target's -gencode (code=compute_A: PTX only), as a
 * build compiles for its target list, so that __CUDA_ARCH_LIST__ and
 * the symbols built from it (CUB's CUB_..._SM_800_900 namespace) are the
 * build's in every target's PTX; a -gencode or -arch among `flags` joins
 * the list as it would in the build.  Each target's PTX is kept by
 * --keep in `dir` (ptx_paths[i], in `arena`; the caller owns `dir` and
 * removes the files).  out[i] holds no kernels, only exit_status and
 * errors as nvcc_compile_targets sets them, the same for every target
 * (one compile): 0 when it succeeded, else its failure; EINVAL (not
 * started) for a target name that is not sm_ and letters and digits.
 * This is how the report reads a .cu file: the PTX is then measured by
 * ptxas -v as a .ptx file is, so spills are known and register caps
 * checked. */
int nvcc_ptx_targets(const char *nvcc, const char *cu_path, char *const flags[], int n_flags,
                     const char *archs[], int n, const char *dir, Arena *arena,
                     const char *ptx_paths[], UsageReport *out);

/* One translation unit of a batch (nvcc_ptx_units): its own nvcc, file
 * and flags, the directory nvcc runs in (NULL: ours; `dir` is then from
 * the root, `cu_path` is read here), and its own empty directory `dir` for the
 * kept PTX; ptx_paths and out have room for every target, and are set
 * with `status` (and `error`, an errno, when not started) as
 * nvcc_ptx_targets sets them. */
typedef struct NvccUnit {
    const char *nvcc, *cu_path;
    char *const *flags;
    int n_flags;
    const char *cwd, *dir;
    const char **ptx_paths;
    UsageReport *out;
    int status, error;
} NvccUnit;

/* nvcc_ptx_targets for each of the n_units units, as one batch of jobs
 * (`batch`: how many at a time, who is told as each ends; NULL: one per
 * core), so that a project's units compile in parallel; a unit's failure
 * is its own. */
void nvcc_ptx_units(NvccUnit units[], int n_units, const char *archs[], int n,
                    const JobsBatch *batch, Arena *arena);

#endif
