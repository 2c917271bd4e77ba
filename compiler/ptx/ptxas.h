/*
 * ptxas.h: the driver of NVIDIA's PTX assembler, the source of a compiled
 * kernel's true resource usage.
 *
 * `ptxas -v` prints, on stderr, what each entry function uses: registers,
 * spill stores and loads, stack frame, static shared memory, constant bank
 * 0, named barriers.  ptxas_parse reads that text in every form ptxas has
 * printed it (see ptxas.c); ptxas_run and ptxas_run_targets run ptxas
 * itself, without a shell, several targets at once (ptxas_assemble_targets
 * keeping the cubins), with -c for relocatable PTX (the report may ask
 * ptxas_needs_compile_only too); usage_resources turns one kernel's
 * figures into the occupancy engine's KernelResources.
 *
 * Everything a report holds lives in the Arena it was made in.  Nothing
 * here prints: when ptxas rejects its input, its own words come back in
 * UsageReport.errors for the caller to show (a rejection of our PTX is a
 * compiler bug, and the user needs ptxas's text to report it).
 */
#ifndef SILK_PTXAS_H
#define SILK_PTXAS_H

#include "arena.h"
#include "usage.h"

#include <stdbool.h>
#include <stddef.h>

/* Results of ptxas_run that are not an exit status of ptxas. */
enum {
    PTXAS_NOT_STARTED = -1, /* ptxas could not be started: errno says why */
    PTXAS_BAD_OUTPUT = -2,  /* ptxas succeeded but its -v output did not parse */
    PTXAS_NO_RESULT = -3,   /* it exited 0 without its output file, or without
                             * the figures of an entry of its input (a wrong
                             * SILK_PTXAS, such as /bin/true): errors says which,
                             * as "exited 0 without writing its output file" */
};

/* Parse the output of `ptxas -v` (`len` bytes; no NUL needed).  Lines it
 * does not know are ignored; "ptxas warning :" lines go to the warnings
 * of the kernels they name (of every kernel when they name none).  Returns false when a line it knows is
 * malformed or an entry function has no "Used" line; *out then holds no
 * kernels.  exit_status is 0 and errors NULL either way. */
bool ptxas_parse(const char *text, size_t len, Arena *arena, UsageReport *out);

/* Run `PTXAS [-c] -v --gpu-name ARCH -o /dev/null PTX_PATH` and parse
 * what it prints, -c when the file needs it (ptxas_needs_compile_only:
 * relocatable PTX, whose figures are then each kernel's own).  `ptxas` is a path, or a name looked up on $PATH.  Returns 0;
 * ptxas's nonzero exit status (128 + N when signal N killed it), with its
 * output verbatim in out->errors; PTXAS_BAD_OUTPUT, with the output in
 * out->errors; PTXAS_NO_RESULT when its output names no figures for an
 * .entry the file defines; or PTXAS_NOT_STARTED with errno set.  out->exit_status is
 * the same value. */
int ptxas_run(const char *ptxas, const char *ptx_path, const char *arch, Arena *arena,
              UsageReport *out);

/* ptxas_run for n (ptx_paths[i], archs[i]) pairs, at most one ptxas per
 * online core at a time; out[i] is the result of pair i.  Returns 0 when
 * every run returned 0, else the result of the first pair (in input order)
 * that did not, with errno set when that was PTXAS_NOT_STARTED. */
int ptxas_run_targets(const char *ptxas, const char *ptx_paths[], const char *archs[], int n,
                      Arena *arena, UsageReport *out);

/* ptxas_run_targets, but each pair's cubin is written to cubin_paths[i]
 * (`-o CUBIN` instead of `-o /dev/null`); the reports are the same, and a
 * pair whose ptxas exits 0 but leaves no (or an empty) CUBIN is
 * PTXAS_NO_RESULT.  After a failure the cubin files of any pair may be
 * missing or partial: give paths in a temporary directory, never the
 * user's output (output.h copies a cubin there once it is whole). */
int ptxas_assemble_targets(const char *ptxas, const char *ptx_paths[], const char *archs[],
                           const char *cubin_paths[], int n, Arena *arena, UsageReport *out);

/* Whether ptxas must assemble `ptx` (`len` bytes, no NUL needed) with -c
 * (compile only, relocatable output): true when it declares, and does not
 * define, an .extern .func other than a system call (vprintf, malloc,
 * free, __assertfail, which ptxas resolves itself), an .extern .entry (the
 * child of a device-side launch), or an .extern .global or .const
 * variable; or when it defines a .visible (or .weak) .func, a function
 * other files may call.  That is what nvcc -ptx -rdc=true (or -dc) emits
 * for calls, launches and variables of other files and for its own device
 * functions; whole-program PTX never has them (nvcc and silkc emit
 * device functions .func).
 * Measured with CUDA 13.0: without -c, ptxas stops at the first call
 * ("fatal: Unresolved extern function") and makes a private definition of
 * an extern variable ("Unresolved extern variable ... ignoring extern
 * qualifier"), which a kept cubin must not hold.  .extern .shared is never
 * a reason: an unsized array is dynamic shared memory, and a sized one (a
 * shared variable of another file) is taken as defined here, with a
 * warning, its size counted in the kernel's, as nvlink will.  Comments,
 * strings and bodies are skipped, so "// .extern .func f" is no reason
 * either.  False on NULL. */
bool ptxas_needs_compile_only(const char *ptx, size_t len);

/* The ptxas to run, by jobs_find_tool's rule: $SILK_PTXAS, else the one
 * configure found (PTXAS_PATH), else "ptxas" when $PATH has one; the first
 * that is executable.  NULL when none is, or when $SILK_PTXAS is "none"
 * (to work as if there were none). */
const char *ptxas_find(void);

#endif
