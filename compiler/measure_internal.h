/*
 * measure_internal.h: what the files of the measuring (measure.h) share:
 * each target's PTX, the loaders of each kind and the messages.
 */
#ifndef SILK_MEASURE_INTERNAL_H
#define SILK_MEASURE_INTERNAL_H

#include "measure.h"
#include "ptx/ptx_scan.h"

#include <stddef.h>

/* One target's PTX of a file: the text ptxas reads and its entries' scan
 * (for the register-cap check); all NULL for a target without PTX. */
struct MeasurePtx {
    const char *path;
    const char *text;
    size_t len;
    PtxEntry *entries;
    int n_entries;
};

/* A message to the caller (MeasureOptions.say). */
__attribute__((format(printf, 2, 3))) void measure_error(const Measure *m, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void measure_warning(const Measure *m, const char *fmt, ...);

/* File f's arrays for n targets. */
void measure_alloc_targets(Measure *m, MeasuredFile *f, int n);

/* Target i of `f` reads the PTX `text` (`len` bytes) at `ptx_path`: its
 * entries scanned, its kernels those entries. */
void measure_use_ptx(Measure *m, MeasuredFile *f, int i, const char *ptx_path, const char *text,
                     size_t len);

/* Target i reads what target j read (the same PTX: a .ptx file's every
 * target, a .cu file's targets of one architecture). */
void measure_share_target(MeasuredFile *f, int i, int j);

/* The file at `path`, NUL-terminated, in the run's arena, read by
 * read_file up to READ_FILE_CODE_LIMIT_MIB; NULL with errno set. */
char *measure_read_file(Measure *m, const char *path, size_t *len);

/* Writes `len` bytes to a new file `stem.ptx` of the run's directory;
 * the path, or NULL after saying why. */
const char *measure_write_temp(Measure *m, const char *stem, const char *text, size_t len);

/* ptxas failed on `path` for `arch` (`run` says how): one message, in
 * ptxas's words when it rejected the PTX (the compiler's own PTX is a
 * compiler bug).  EXIT_ENVIRONMENT for a broken ptxas, EXIT_FINDINGS for
 * Silk, EXIT_USAGE for the user's PTX. */
int measure_ptxas_failed(const Measure *m, const char *path, InputKind kind, const UsageReport *run,
                         const char *arch);

/* The loaders of the kinds one vendor reads, for targets of that vendor. */
int measure_load_cuda(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *f);
int measure_load_cubin(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *f);
int measure_load_hsaco(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *f);

/* A cubin's kernels (cubin_read_details' records) as the measuring gives
 * them, of input `kind`, named as in `file`; in the arena. */
struct CubinKernel;
MeasuredKernel *measure_cubin_kernels(const UsageReport *r, const struct CubinKernel *details,
                                      const char *file, InputKind kind, Arena *arena);

/* Whether machine code for sm_`sm` (80: sm_80) runs on target t: the same
 * major version, at the same or a later minor one, as the driver loads it. */
bool measure_cubin_runs_on(int sm, const Target *t);

/* A PTX entry's kernel (its launch bounds), of input `kind` in `file`. */
MeasuredKernel measure_kernel_from_entry(const PtxEntry *e, const char *file, InputKind kind);

/* A built binary (measure_binary.c): an ELF executable, shared object or
 * relocatable object with a fatbin section, a static archive of such
 * objects, or a .fatbin file, told by its first bytes. */
typedef enum MeasureSniff {
    MEASURE_SNIFF_OTHER,   /* none of the kinds below, or unreadable */
    MEASURE_SNIFF_CUBIN,   /* an ELF for EM_CUDA: a cubin, whatever its name */
    MEASURE_SNIFF_HSACO,   /* an ELF for EM_AMDGPU: an AMD code object */
    MEASURE_SNIFF_BINARY,  /* a host ELF, an archive or a fatbin */
} MeasureSniff;
MeasureSniff measure_sniff(const char *path);
int measure_load_binary(Measure *m, const char *path, const Target *targets, int n,
                        MeasuredFile *f);

/* A built binary's cubin architectures, each once and ascending, as
 * "sm_80,sm_90" (its PTX's, as sm_NN, when it holds no cubin): true with
 * them in `buf`; false when it does not read (the loader says why). */
bool measure_binary_archs(const char *path, char *buf, size_t size);

/* A report's JSON (silk-occ/report/3) read back into its kernels, for
 * every target of the run (measure_report.c): one file appended to
 * m->files per distinct "file" of its entries (the array, of `*room`
 * files, grown in the arena as needed).  EXIT_OK, or EXIT_USAGE after
 * one message naming the file and the entry at fault. */
int measure_load_reports(Measure *m, const char *path, int *room);

/* The architectures of a report's entries, each once ("sm_80,sm_90"),
 * into buf: 1, or -1 after saying why the file does not read. */
int measure_report_archs(const Measure *m, const char *path, char *buf, size_t size);

/* A cubin's architecture ("sm_80"), a code object's target ("gfx942"):
 * 1 with it in `buf`; 0 when the file does not read (the loader says
 * why); -1 (code objects) when it names no row of the table, said. */
bool measure_cubin_arch(const char *path, char *buf, size_t size);
int measure_hsaco_arch(const Measure *m, const char *path, char *buf, size_t size);

/* A figure of an AMD kernel that no wave of target row `t` can have:
 * false after one message naming the metadata field, the limit and row. */
bool measure_amd_kernel_fits(const Measure *m, const char *file, const KernelUsage *ku,
                             const AmdTarget *t);

/* Each kernel's names for people and for host code (C++ demangled),
 * on the n targets of `s`. */
void measure_name_kernels(Measure *m, MeasuredFile *s, int n);

/* A directory of one .cu input's own under the run's, cuN for the first
 * N free (nvcc names its kept files after our copy, alike for every
 * input), known to cleanup.h; false after saying why. */
bool measure_input_dir(Measure *m, char *dir, size_t size);

/* ptxas -v on every (file, target) with PTX, all at once; each target's
 * kernels then carry ptxas's figures (measure_ptxas.c). */
int measure_run_ptxas(Measure *m);

#endif
