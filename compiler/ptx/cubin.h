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
 *     number only, so the report says "sm_90" (the limits are the same);
 *   - whether a kernel uses dynamic shared memory (extern __shared__ T
 *     s[]), in an executable cubin (see CubinKernel.dynamic_smem).
 *
 * Relocatable cubins (nvcc -cubin -rdc=true, nvcc -dc -cubin, ptxas -c:
 * ET_REL) read as executable ones do, with three differences: their
 * .nv.shared.NAME windows have type SHT_CUDA_SHARED, not NOBITS, with an
 * sh_offset that may lie past the end of the file (no section is checked
 * against the file unless its bytes are read); they name functions and
 * kernels of other files as undefined symbols, which are skipped (a
 * kernel is a defined entry function); and their figures are ptxas -c's,
 * the kernel's own (see CubinKernel.calls_out).
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
    int cluster_dim[3];     /* .reqnctapercluster x, y, z; all 0 when absent */
    bool explicit_cluster;  /* .explicitcluster */
    int max_cluster_rank;   /* .maxclusterrank; 0 when absent */
    int max_registers;      /* the register cap ptxas worked under: .maxnreg,
                             * or one derived from .maxntid and .minnctapersm
                             * (or --maxrregcount); 255 when uncapped; 0 when
                             * the file does not say */
    /* Whether the kernel, or a function it calls, uses dynamic shared
     * memory (extern __shared__ T s[]; PTX .extern .shared s[]), as far as
     * the file tells (dynamic_smem_known).  Checked with readelf -a and
     * cuobjdump -elf on kernels alike but for a dynamic, a static or no
     * shared array, from nvcc -cubin and ptxas, with and without -rdc /
     * -c, sm_75 to sm_121 (CUDA 13.0):
     *   - an executable cubin keeps no record of it: no EIATTR in
     *     .nv.info.NAME (the attribute lists are the same), no symbol, no
     *     relocation; .nv.shared.NAME has the same size (0 before sm_90,
     *     the 1 KiB reservation from sm_90 on) as for a kernel with no
     *     shared memory at all.  So there dynamic_smem is false and
     *     dynamic_smem_known false;
     *   - a relocatable cubin keeps the extern array as an undefined symbol
     *     with STO_CUDA_SHARED (0x40) in st_other and size 0 (a sized
     *     extern __shared__ variable of another file keeps its size), and
     *     each function that addresses it has a relocation against it in
     *     .rel.text.NAME (sm_75 to sm_89) or .rela.text.NAME (sm_90 on).
     *     dynamic_smem is set when the kernel's code, or that of a function
     *     it calls (.nv.callgraph, transitively), has one; it is known
     *     unless the kernel calls a function of another file (calls_out),
     *     which might use it unseen. */
    bool dynamic_smem;
    bool dynamic_smem_known;
    /* A relocatable cubin's kernel that calls a function of another file
     * (.nv.callgraph names an undefined function as callee, directly or
     * through callees here).  Its registers are the kernel's own: nvlink
     * raises them to the largest count over its call graph (measured,
     * sm_90: 24 from ptxas -c, 204 after linking with a callee ptxas -c
     * compiled at 204).  Always false in an executable cubin. */
    bool calls_out;
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
bool cubin_read(const void *data, size_t len, Arena *arena, UsageReport *out, char *error,
                size_t size);

/* cubin_read, and when `details` is not NULL, *details set to an array
 * parallel to out->kernels (NULL when there are none). */
bool cubin_read_details(const void *data, size_t len, Arena *arena, UsageReport *out,
                        CubinKernel **details, char *error, size_t size);

/* cubin_read on the whole of the file at `path`, read by read_file
 * (common/read_file.h) up to READ_FILE_CODE_LIMIT_MIB.  A file that cannot
 * be read gives "cannot read PATH: REASON"; a larger one "larger than the
 * 256 MiB limit", and other errors are cubin_read's, both without the path
 * (the caller adds it, as for any input). */
bool cubin_read_file(const char *path, Arena *arena, UsageReport *out, CubinKernel **details,
                     char *error, size_t size);

#endif
