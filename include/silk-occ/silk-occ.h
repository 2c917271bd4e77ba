/*
 * silk-occ.h: the installed C API of the silk-occ occupancy engine
 * (libsilk-occ, silk-occ(3)).
 *
 * One face for both vendors: look a GPU target up by name (an NVIDIA
 * architecture or product, an AMD gfx target or product), describe a
 * kernel's resources, and ask how many groups (CTAs per SM, workgroups per
 * CU) stay resident, the occupancy, what limits it, how far the next group
 * is, and which block size to launch.  The answers are the engine's, the
 * same as `silk-occ calc` gives; the architecture tables are compiled into
 * the library, so it reads no files.
 *
 * ABI: the handles are opaque, and the two structs a caller fills or reads
 * start with their size, so that later versions may add fields at the end
 * without breaking programs built against this one.  Set `size` with
 * silk_occ_kernel_init and SILK_OCC_RESULT_INIT (or sizeof); the library
 * reads and writes no byte past it.  Every function is thread-safe: the
 * library keeps no state outside the handles, and a handle is never
 * changed after it is made.
 */
#ifndef SILK_OCC_SILK_OCC_H
#define SILK_OCC_SILK_OCC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API this header declares; silk_occ_api_version() says the library's. */
#define SILK_OCC_API_VERSION 1

typedef enum silk_occ_status {
    SILK_OCC_OK = 0,
    SILK_OCC_ERR_UNKNOWN_TARGET, /* no architecture or product of that name */
    SILK_OCC_ERR_INVALID,        /* a NULL, a size field too small, a value out of range */
    SILK_OCC_ERR_NO_MEMORY,
    SILK_OCC_ERR_UNSUPPORTED     /* the target's table row cannot be used for this */
} silk_occ_status;

typedef enum silk_occ_vendor { SILK_OCC_NVIDIA = 0, SILK_OCC_AMD = 1 } silk_occ_vendor;

/* "0.1.0": the package's version. */
const char *silk_occ_version(void);
/* SILK_OCC_API_VERSION of the library that is loaded. */
int silk_occ_api_version(void);
/* "unknown target" and so on, for a status. */
const char *silk_occ_status_string(silk_occ_status status);

/* ---- targets ------------------------------------------------------------- */

typedef struct silk_occ_target silk_occ_target;

/* Looks `name` up, case-insensitively: an NVIDIA architecture ("sm_90",
 * "9.0", "hopper"), an NVIDIA product ("h100-sxm", "H100"), an AMD target
 * ("gfx942", "cdna3") or an AMD product ("mi300x").  Architectures are
 * tried first.  On SILK_OCC_ERR_UNKNOWN_TARGET, the closest known NVIDIA
 * architecture or product name is written to `suggestion` (when it is not
 * NULL and `size` > 0; "" when nothing is close). */
silk_occ_status silk_occ_target_open(const char *name, silk_occ_target **out, char *suggestion,
                                     size_t size);
void silk_occ_target_close(silk_occ_target *target); /* NULL: nothing */

silk_occ_vendor silk_occ_target_vendor(const silk_occ_target *target);
/* "sm_90" or "gfx942". */
const char *silk_occ_target_arch(const silk_occ_target *target);
/* The product's id ("h100-sxm"), or "" for a bare architecture. */
const char *silk_occ_target_product(const silk_occ_target *target);
/* The product's SMs (NVIDIA) or occupancy units, CUs or WGPs (AMD); 0 for
 * a bare architecture. */
int silk_occ_target_units(const silk_occ_target *target);
/* Threads per warp (NVIDIA) or work-items per wave (AMD). */
int silk_occ_target_warp_size(const silk_occ_target *target);
/* The largest block (workgroup) the target launches, in threads. */
int silk_occ_target_max_threads(const silk_occ_target *target);

/* ---- kernels ------------------------------------------------------------- */

/* What a compiled kernel uses.  The NVIDIA fields are read for an NVIDIA
 * target, the AMD ones for an AMD target. */
typedef struct silk_occ_kernel {
    size_t size;               /* sizeof(silk_occ_kernel), by silk_occ_kernel_init */
    /* NVIDIA */
    int regs;                  /* registers per thread (default 32) */
    uint64_t static_smem;      /* static shared memory per CTA, bytes */
    int barriers;              /* named barriers used (default 1) */
    int smem_optin;            /* 1 (default): opted in to the large per-CTA shared memory */
    int carveout;              /* preferred carveout, percent; -1 (default): none */
    int cluster[3];            /* thread-block cluster dimensions; {0,0,0}: none */
    /* AMD */
    int vgprs, agprs, sgprs;   /* per lane / per wave, as LLVM reports them */
    uint64_t lds;              /* static LDS per workgroup, bytes */
} silk_occ_kernel;

/* Every field at its default: 32 registers, 1 barrier, opted in, no
 * carveout preference, no cluster, 32 VGPRs and 32 SGPRs, nothing else. */
void silk_occ_kernel_init(silk_occ_kernel *kernel);

/* ---- results ------------------------------------------------------------- */

enum { SILK_OCC_MAX_LIMITERS = 8 };

/* The answer for one block size. */
typedef struct silk_occ_result {
    size_t size;         /* sizeof(silk_occ_result): SILK_OCC_RESULT_INIT */
    int groups;          /* resident CTAs per SM, or workgroups per CU (WGP) */
    int active;          /* active warps per SM, or waves per SIMD */
    int max_active;      /* the SM's warp slots, or the SIMD's wave slots */
    double occupancy;    /* active / max_active, 0..1 */
    int n_limiters;      /* limit[0..n_limiters) are meaningful */
    int limit[SILK_OCC_MAX_LIMITERS]; /* what limiter i allows (CTAs per SM, waves
                                       * per SIMD); INT_MAX: no limit */
    unsigned limited_by; /* bit i: limiter i binds */
    int clusters;        /* with a cluster: clusters resident on the product at
                          * once (an estimate), 0 when none can be, -1 unknown
                          * (a bare architecture); 0 without a cluster */
} silk_occ_result;

#define SILK_OCC_RESULT_INIT {sizeof(silk_occ_result), 0, 0, 0, 0.0, 0, {0}, 0u, 0}

/* Limiter i's name on the target's vendor: "warps", "registers",
 * "shared_memory", "blocks", "barriers", "virtual_resources" (NVIDIA);
 * "vgprs", "sgprs", "lds", ... (AMD); NULL when i is out of range. */
const char *silk_occ_limiter_name(const silk_occ_target *target, int i);

/* Resident groups of `threads` threads with `dyn_smem` bytes of dynamic
 * shared memory (LDS) each.  A block the target cannot run at all (too
 * large, too much shared memory) is SILK_OCC_OK with groups 0 and the
 * binding limiter set, as cudaOccMaxActiveBlocksPerMultiprocessor answers. */
silk_occ_status silk_occ_active(const silk_occ_target *target, const silk_occ_kernel *kernel,
                                int threads, uint64_t dyn_smem, silk_occ_result *out);

/* ---- plan once, evaluate many ---------------------------------------------- */

/* The kernel's share of the work, done once: silk_occ_plan_eval then costs
 * a fraction of silk_occ_active for each size.  A plan keeps a pointer to
 * its target: close the target after the plan. */
typedef struct silk_occ_plan silk_occ_plan;

silk_occ_status silk_occ_plan_new(const silk_occ_target *target, const silk_occ_kernel *kernel,
                                  silk_occ_plan **out);
silk_occ_status silk_occ_plan_eval(const silk_occ_plan *plan, int threads, uint64_t dyn_smem,
                                   silk_occ_result *out);
void silk_occ_plan_free(silk_occ_plan *plan); /* NULL: nothing */

/* ---- advice -------------------------------------------------------------- */

/* How far the kernel is from the next step up, and how much it may grow
 * without losing one; -1 in a field: no such change.  The step is one more
 * resident CTA per SM (NVIDIA) or one more wave per SIMD (AMD): the
 * "gained" fields are CTAs per SM or waves per SIMD after the cut, as
 * result.limit counts.  "regs" are registers per thread (NVIDIA) or VGPRs
 * (AMD); "smem" is shared memory per CTA (NVIDIA) or LDS per workgroup
 * (AMD), bytes; the SGPR fields are AMD's (-1 on NVIDIA). */
typedef struct silk_occ_step {
    size_t size;         /* sizeof(silk_occ_step): SILK_OCC_STEP_INIT */
    int regs_to_cut, regs_gained, regs_slack;
    int64_t smem_to_cut;
    int smem_gained;
    int64_t smem_slack;
    int sgprs_to_cut, sgprs_gained;
} silk_occ_step;

#define SILK_OCC_STEP_INIT {sizeof(silk_occ_step), 0, 0, 0, 0, 0, 0, 0, 0}

silk_occ_status silk_occ_next_step(const silk_occ_target *target, const silk_occ_kernel *kernel,
                                   int threads, uint64_t dyn_smem, silk_occ_step *out);

/* The block size `silk-occ calc` advises: the highest occupancy, then 256
 * or 128, then the smaller tail of `work` items on the product's SMs (work
 * 0: no tail weighed).  *threads 0 when no size runs; *groups its resident
 * groups. */
silk_occ_status silk_occ_best_block_size(const silk_occ_target *target,
                                         const silk_occ_kernel *kernel, uint64_t dyn_smem,
                                         uint64_t work, int *threads, int *groups);

#ifdef __cplusplus
}
#endif

#endif
