/*
 * usage.h: what a compiled kernel uses on one target, whoever measured it,
 * and the occupancy engine's view of it.
 *
 * The figures come from a target's assembler (ptxas -v), from a binary
 * already built (a cubin's ELF), or from the compiler's own estimate when
 * no assembler is installed; UsageReport says which.  Everything past the
 * measuring (the occupancy warnings, the report, --resource-usage) reads
 * only this record, so it works the same for every target.
 */
#ifndef SILK_USAGE_H
#define SILK_USAGE_H

#include "occupancy.h"

#include <stdbool.h>

/* Where a report's figures came from. */
typedef enum UsageSource {
    USAGE_ASSEMBLER, /* the target's assembler measured the code (ptxas -v) */
    USAGE_BINARY,    /* read from a compiled binary (a cubin) */
    USAGE_ESTIMATE,  /* estimated from the IR: no assembler was found */
} UsageSource;

/* One entry function's resources.  Sizes are bytes (per thread for the
 * stack frame and spills, per CTA for shared memory). */
typedef struct KernelUsage {
    const char *name;  /* as the tool prints it: mangled, or demangled by old ptxas */
    int registers;     /* per thread */
    int spill_stores;  /* -1: unknown (a binary records none) */
    int spill_loads;
    int stack_frame;   /* local memory: the frame, or "lmem" before frames were reported */
    int static_smem;
    int const_bank0;   /* cmem[0]: parameters and compiler constants */
    int barriers;      /* named barriers; -1: the tool does not report them */
    int max_threads;   /* .maxntid if recorded, else 0 */
    bool estimated;    /* the figures are the compiler's estimate (USAGE_ESTIMATE) */

    /* AMD GPUs only, from the code object's AMDHSA metadata (all 0 on
     * NVIDIA).  There `registers` is .vgpr_count (architectural VGPRs;
     * on gfx90a and gfx942 the unified file's total, the architectural
     * ones rounded up to 4 plus the AGPRs: 12 for v4 and a3, llc-19),
     * `static_smem` .group_segment_fixed_size (LDS), `stack_frame`
     * .private_segment_fixed_size (scratch) and `max_threads`
     * .max_flat_workgroup_size; spill_stores/spill_loads are -1 (AMD
     * counts spilled registers, not bytes: the two fields below). */
    int wavefront_size; /* .wavefront_size: 32 or 64; 0 on NVIDIA */
    int sgprs;          /* .sgpr_count */
    int agprs;          /* .agpr_count (gfx90a, gfx942; else 0) */
    int vgpr_spills;    /* .vgpr_spill_count */
    int sgpr_spills;    /* .sgpr_spill_count */

    /* The assembler's warnings about this kernel, its own words after
     * "ptxas warning : " (one naming no kernel of its run is every
     * kernel's), in its order; at most USAGE_MAX_WARNINGS, NULL when none.
     * Not escaped: a kernel name in them may hold any byte. */
    const char **warnings;
    int n_warnings;
} KernelUsage;

/* A kernel's warnings kept, and the bytes kept of each: ptxas repeats a
 * warning per call site, and the report needs a few lines, not a log. */
enum { USAGE_MAX_WARNINGS = 8, USAGE_WARNING_MAX_BYTES = 512 };

/* What one measuring of one module for one target gave, kernels in the
 * tool's order. */
typedef struct UsageReport {
    const char *arch;     /* the target ("sm_90"); NULL if a parsed text names none */
    KernelUsage *kernels;
    int n_kernels;
    UsageSource source;
    int exit_status;      /* the tool's, or a negative status of the tool's driver */
    int signal;           /* N when signal N ended the tool (exit_status 128 + N), else 0 */
    const char *errors;   /* the tool's own error text, verbatim, when it rejected
                           * the input (or its output could not be read); else NULL */
} UsageReport;

/* What kind of file a kernel came from: it decides what is known (a
 * cubin records no spills) and the language of the advice (Silk's
 * @launch and launch blocks only for Silk).  INPUT_BINARY: a built
 * executable, shared object, object, static archive or .fatbin, whose
 * kernels come from its embedded cubins (as a .cubin's) or its embedded
 * PTX (MeasuredKernel.from_ptx). */
typedef enum InputKind {
    INPUT_SILK, INPUT_PTX, INPUT_CUDA, INPUT_CUBIN, INPUT_HSACO, INPUT_BINARY
} InputKind;

/* What ptxas made of a kernel compiled again, as a report's JSON records
 * it (launch_bounds_advice, bound_cost): a report read back
 * (silk-occ merge) has no PTX to compile, and takes these instead. */
typedef struct MeasuredChecks {
    int cap;               /* the register cap compiled; 0: none recorded */
    int cap_registers, cap_spill_stores, cap_spill_loads;
    bool unbounded;        /* compiled without the kernel's own bound */
    int registers, spill_stores, spill_loads; /* there */
} MeasuredChecks;

/* A kernel as the input gave it, on one target: its figures (ptxas's,
 * llc's, a binary's or the compiler's estimate), the launch bounds
 * written in the source and the launch work the source knows: what the
 * measuring (compiler/measure.h) gives the report. */
typedef struct MeasuredKernel {
    const char *name;      /* the symbol, as ptxas prints it: mangled for C++ */
    const char *title;     /* for people: demangled with its parameters, or the name */
    const char *cxx_name;  /* for host code: demangled without parameters, or the name */
    const char *file;
    InputKind input;
    KernelUsage usage;     /* usage.estimated: from the IR, not ptxas;
                            * spills -1: unknown (a cubin) */
    int reqntid;           /* .reqntid / @launch: the only block size; 0 none */
    int maxntid;           /* .maxntid: the largest block size; 0 none */
    int minnctapersm;      /* 0: not given; -1: not recorded (a cubin) */
    int maxnreg;           /* 0: not given */
    int cluster[3];        /* .reqnctapercluster (__cluster_dims__): the cluster
                            * it is compiled for, x, y, z; all 0: none */
    bool explicit_cluster; /* .explicitcluster: it runs in clusters only */
    int max_cluster_rank;  /* .maxclusterrank (__launch_bounds__'s third): the
                            * largest cluster it is compiled for; 0: none */
    uint64_t dynamic_smem; /* @smem; 0 for PTX (the launch gives it) */
    bool extern_smem;      /* declares dynamic shared memory (extern __shared__,
                            * an .extern .shared array): the launch sizes it */
    bool extern_smem_unknown; /* the input does not say (an executable cubin) */
    int from_ptx;          /* a built binary's kernel that ptxas assembled from
                            * the binary's PTX for compute_NN (NN here: 90),
                            * no cubin of the binary running on the target;
                            * 0: the binary's own machine code */
    bool calls_out;        /* a relocatable cubin's kernel that calls another
                            * file's function: linking may raise its registers */
    uint64_t launch_work;  /* the constant grid of the first Silk launch
                            * block that targets it; 0: none */
    int launch_line;       /* that block's line */
    const char *absent_on; /* the targets whose compile of the file lacks
                            * this kernel ("sm_80, sm_86"); NULL: none */
    const struct AmdTarget *amd_row; /* a code object's kernel measured on its wave
                            * size's row (gfx1100+wave64); NULL: the target's */
    bool persistent;       /* a Silk @persistent kernel: a launch starts at most
                            * SMs x resident CTAs and passes the logical CTA
                            * count last (__silk_logical_ctas) */
    const MeasuredChecks *checks; /* a report's record of them; NULL: none */
} MeasuredKernel;

/* One input file as the measuring gave it (compiler/measure.h), per
 * target of the run: its kernels, or why it gives that target none. */
struct MeasurePtx;
typedef struct MeasuredFile {
    const char *path;
    InputKind kind;
    /* Per target (arrays of the run's targets): */
    MeasuredKernel **kernels;  /* with their figures */
    int *n_kernels;
    bool *skipped;             /* the file gives that target nothing (another
                                * vendor's code, a cubin of another
                                * architecture); NULL: none skipped */
    bool measured;             /* came measured: Silk's build, a cubin, a code object */
    struct MeasurePtx *ptx;    /* the PTX ptxas reads, per target (measure.c's) */
} MeasuredFile;

/* Whether the kernel's figures are machine code's, read from a binary
 * (a .cubin, or a built binary's cubin): no spills recorded, no PTX to
 * assemble again at a register cap. */
static inline bool measured_from_machine_code(const MeasuredKernel *k)
{
    return k->input == INPUT_CUBIN || (k->input == INPUT_BINARY && !k->from_ptx);
}

/* Whether file f gives target t its kernels. */
static inline bool measured_runs_on(const MeasuredFile *f, int t)
{
    return !f->skipped || !f->skipped[t];
}

/* The kernel of target t named `name` (the symbol); NULL if absent. */
const MeasuredKernel *measured_kernel(const MeasuredFile *f, int t, const char *name);

/* The kernel named `name` in a report; NULL if it has none. */
const KernelUsage *usage_kernel(const UsageReport *report, const char *name);

/* The occupancy engine's record of a kernel: occ_kernel_defaults with its
 * registers and static shared memory, its barrier count when reported
 * (else the engine's default of 1) and its .maxntid when known. */
KernelResources usage_resources(const KernelUsage *u, const ArchLimits *arch, bool optin);

#endif
