/*
 * cubin.h: what each kernel of a compiled cubin uses, read from the ELF
 * file itself (no cuobjdump), in the record ptxas -v fills (ptxas.h).
 *
 * A cubin is an ELF64 little-endian file for machine 190 (EM_CUDA).  Per
 * entry function it holds: the register count and stack frame in the
 * global .nv.info section, the launch attributes (.maxntid, .reqntid,
 * .maxnreg, named barriers) in .nv.info.NAME, static shared memory as the
 * size of .nv.shared.NAME and constant bank 0 as the size of
 * .nv.constant0.NAME.  cubin.c documents each record and how it was
 * checked against ptxas -v (CUDA 13.0, sm_75 to sm_121).
 *
 * What a cubin does not record, and so comes back unknown:
 *   - spill stores and loads (-1 in KernelUsage): ptxas prints them but
 *     keeps no trace of them in the file;
 *   - .minnctapersm (__launch_bounds__'s second argument): ptxas keeps no
 *     record of it, only of the register cap it implies with .maxntid
 *     (64K / (threads x blocks): 64 for .maxntid 256 and .minnctapersm 4),
 *     which comes back as CubinKernel.max_registers;
 *   - the "a"/"f" suffix of the target (sm_90a): e_flags holds the SM
 *     number only, so the report says "sm_90" (the limits are the same).
 *
 * Relocatable cubins (nvcc -cubin -rdc=true, nvcc -dc -cubin, ptxas -c:
 * ET_REL) read as executable ones do, with three differences: their
 * .nv.shared.NAME windows have type SHT_CUDA_SHARED, not NOBITS, with an
 * sh_offset that may lie past the end of the file (no section is checked
 * against the file unless its bytes are read); they name functions and
 * kernels of other files as undefined symbols, which are skipped (a
 * kernel is a defined entry function); and their figures are ptxas -c's,
 * the kernel's own.
 *
 * Every offset and size read is checked against the file: a truncated,
 * corrupt or hostile file gives one line of error text, never a crash or
 * a read outside `data`.  Nothing here prints.
 */
#ifndef SILK_CUBIN_H
#define SILK_CUBIN_H

#include "arena.h"
#include "ptxas.h"

#include <stdbool.h>
#include <stddef.h>

/* What a cubin says of one kernel beyond ptxas -v's figures. */
typedef struct CubinKernel {
    int max_threads_dim[3]; /* .maxntid x, y, z; all 0 when absent */
    int req_threads_dim[3]; /* .reqntid x, y, z; all 0 when absent */
    int max_registers;      /* the register cap ptxas worked under: .maxnreg,
                             * or one derived from .maxntid and .minnctapersm
                             * (or --maxrregcount); 255 when uncapped; 0 when
                             * the file does not say */
} CubinKernel;

/* Read the entry functions of the cubin `data` (`len` bytes) into *out:
 * arch "sm_NN", kernels in symbol-table order (the order ptxas -v prints
 * them), exit_status 0, errors NULL.  Per kernel: registers, stack_frame,
 * static_smem (as ptxas -v counts it), const_bank0, barriers and
 * max_threads (the product of .maxntid, else of .reqntid, else 0);
 * spill_stores and spill_loads -1 (not recorded).  A cubin with no entry
 * functions (a device library) gives no kernels and true.  On failure,
 * returns false with one line (no newline, no file name) in `error`
 * (`size` bytes) and *out holds no kernels.  Names and arrays live in
 * `arena`; `data` need not outlive the call. */
bool cubin_read(const void *data, size_t len, Arena *arena, PtxasReport *out, char *error,
                size_t size);

/* cubin_read, and when `details` is not NULL, *details set to an array
 * parallel to out->kernels (NULL when there are none). */
bool cubin_read_details(const void *data, size_t len, Arena *arena, PtxasReport *out,
                        CubinKernel **details, char *error, size_t size);

/* cubin_read on the whole of the file at `path`.  A file that cannot be
 * read gives "cannot read PATH: REASON"; other errors are cubin_read's,
 * without the path (the caller adds it, as for any input). */
bool cubin_read_file(const char *path, Arena *arena, PtxasReport *out, CubinKernel **details,
                     char *error, size_t size);

#endif
