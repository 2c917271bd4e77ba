/*
 * verify_engine.h: libsilkverify, what `silk-occ verify` compares.
 *
 * verify asks a CUDA runtime the occupancy questions the engine answers
 * and compares.  The runtime is behind a small interface (VerifyRuntime)
 * so that the comparison does not care where the answers come from: the
 * real CUDA Runtime API on a device (verify_cuda.c), or a record of a past
 * run on one (verify_record.c), which is how the comparison is tested on
 * machines without a GPU and how a user sends us a card we have never seen.
 *
 *   verify_plan.c     which questions to ask of each kernel
 *   verify_compare.c  device properties against the tables; each answer
 *                     against the engine's
 *   verify_cuda.c     the CUDA Runtime API (or its absence)
 *   verify_record.c   --record / --replay files (JSON)
 *
 * The library prints nothing: errors come back as text in the caller's
 * buffer (or an answer's), for the program to print.  The command itself,
 * its built-in kernels and its reports are the program's (src/verify.h).
 */
#ifndef SILK_VERIFY_ENGINE_H
#define SILK_VERIFY_ENGINE_H

#include "occupancy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a device says about itself: the fields of cudaDeviceProp that the
 * tables hold.  Sizes are bytes. */
typedef struct DeviceProps {
    char name[256];
    int major, minor;
    int sm_count;
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int regs_per_block;
    int64_t smem_per_sm;
    int64_t smem_per_block;
    int64_t smem_per_block_optin;
    int64_t reserved_smem_per_block;
    int max_grid[3];
} DeviceProps;

/* What cudaFuncGetAttributes says about a loaded kernel. */
typedef struct FuncAttrs {
    int num_regs;
    int64_t static_smem;
    int64_t local_bytes;
    int64_t const_bytes;
    int max_threads_per_block;
    int64_t max_dynamic_smem; /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    /* The cluster the kernel was compiled with (requiredClusterWidth,
     * Height, Depth; __cluster_dims__ or .reqnctapercluster); 0: none, the
     * launch chooses. */
    int cluster_dims[3];
} FuncAttrs;

/* The questions, named by the runtime call that answers them. */
typedef enum VerifyQueryKind {
    VQ_ACTIVE_BLOCKS,   /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
    VQ_BLOCK_SIZE,      /* cudaOccupancyMaxPotentialBlockSize */
    VQ_DYNAMIC_SMEM,    /* cudaOccupancyAvailableDynamicSMemPerBlock */
    VQ_ACTIVE_CLUSTERS, /* cudaOccupancyMaxActiveClusters (the whole device) */
    VQ_KINDS
} VerifyQueryKind;

/* One question about one kernel, with the function attributes it is asked
 * under (set with cudaFuncSetAttribute before it is asked). */
typedef struct VerifyQuery {
    VerifyQueryKind kind;
    int carveout;             /* OCC_CARVEOUT_DEFAULT (-1) or 0..100 % */
    int64_t max_dynamic_smem; /* the kernel's dynamic shared-memory limit */
    int block_size;           /* VQ_ACTIVE_BLOCKS, VQ_DYNAMIC_SMEM, VQ_ACTIVE_CLUSTERS */
    int64_t dynamic_smem;     /* VQ_ACTIVE_BLOCKS, VQ_BLOCK_SIZE, VQ_ACTIVE_CLUSTERS */
    int num_blocks;           /* VQ_DYNAMIC_SMEM */
    int cluster_size;         /* VQ_ACTIVE_CLUSTERS: CTAs per cluster */
} VerifyQuery;

/* An answer: CTAs per SM, a block size (with its minimum grid), bytes or
 * resident clusters. */
typedef struct VerifyAnswer {
    bool ok;          /* false: the call failed, `error` says why */
    int64_t value;
    int64_t min_grid; /* VQ_BLOCK_SIZE */
    /* The engine's VQ_ACTIVE_CLUSTERS without the product's GPC layout:
     * `value` is only an upper bound, which the device's answer must not
     * pass. */
    bool bound;
    char error[160];
} VerifyAnswer;

/* A kernel to check: its name, where it came from, what it uses. */
typedef struct VerifyKernel {
    char name[256];
    const char *origin;       /* the file, or "built-in" */
    FuncAttrs attrs;          /* as loaded */
    void *handle;             /* the runtime's */
} VerifyKernel;

/* ---- the runtime -------------------------------------------------------- */

typedef struct VerifyRuntime VerifyRuntime;
struct VerifyRuntime {
    /* Fills *props for the device; false with `error` set when there is no
     * device (the runtime's own words). */
    bool (*open)(VerifyRuntime *rt, int device, DeviceProps *props, char *error, size_t size);
    /* Loads an image (PTX text, NUL-terminated, or a cubin) and appends each
     * kernel in it to *kernels (realloc'ed; *n counts them), with its
     * attributes and handle. */
    bool (*load)(VerifyRuntime *rt, const void *image, const char *origin, VerifyKernel **kernels,
                 int *n, char *error, size_t size);
    /* Asks one question (setting the attributes it needs first). */
    void (*ask)(VerifyRuntime *rt, VerifyKernel *k, const VerifyQuery *q, VerifyAnswer *out);
    void (*close)(VerifyRuntime *rt);
    void *state;
};

/* The CUDA Runtime API; when silk-occ was built without it, open() fails
 * saying so.  verify_cuda.c */
void verify_runtime_cuda(VerifyRuntime *rt);
/* Whether this build links the CUDA Runtime API. */
bool verify_have_cuda(void);

/* ---- records (verify_record.c) ------------------------------------------ */

/* A whole run's inputs and the runtime's answers, in the order asked. */
typedef struct VerifyRecord {
    DeviceProps props;
    int device;
    VerifyKernel *kernels;
    int n_kernels;
    /* Per kernel, its questions and the runtime's answers. */
    VerifyQuery **queries;
    VerifyAnswer **answers;
    int *n_queries;
} VerifyRecord;

/* Reads a record; errors name the file and, for bad JSON, line and column. */
bool verify_record_read(const char *path, VerifyRecord *out, char *error, size_t size);
bool verify_record_write(const char *path, const char *const inputs[], int n_inputs,
                         const VerifyRecord *r, char *error, size_t size);
void verify_record_free(VerifyRecord *r);
/* A kernel's attributes as JSON: records and the program's JSON report
 * share the names. */
struct cJSON;
struct cJSON *verify_attrs_json(const FuncAttrs *f);

/* ---- the plan and the comparison ------------------------------------------ */

/* The questions for kernel `k` on a device: block sizes 32..1024 step 32 up to
 * the kernel's limit, dynamic shared memory from 0 to the opt-in limit, each
 * carveout preference.  Returns a malloc'ed array of *n queries. */
VerifyQuery *verify_plan(const DeviceProps *props, const FuncAttrs *attrs, int *n);

/* The cluster questions for kernel `k` (compute capability 9.0 on; none
 * before, *n = 0): its own cluster if it was compiled with one, else 2, 4,
 * 8 and, where `max_cluster` (the table's non-portable limit) allows, 16
 * CTAs, each at 128 and 256 threads and the kernel's largest block, no
 * dynamic shared memory.  A malloc'ed array of *n queries (tens). */
VerifyQuery *verify_plan_clusters(const DeviceProps *props, const FuncAttrs *attrs,
                                  int max_cluster, int *n);

/* The table row to use for a device: the row of its compute capability with
 * every limit the device reports replaced by the device's value, so that
 * what is compared is the engine's rules on the device's own numbers.
 * NULL when the tables have no row for the capability. */
const ArchLimits *verify_table_row(const ArchTable *table, const DeviceProps *props);
ArchLimits verify_arch_from_props(const ArchLimits *row, const DeviceProps *props);

/* One property compared with a table: the field, the device's value and
 * the table's, which table row. */
typedef struct PropCheck {
    const char *field;
    int64_t device, table;
    char source[OCC_NAME_MAX + 16]; /* "the 9.0 row", "product h200" */
} PropCheck;

/* Compares the device's properties with its compute capability's row and,
 * when the tables know the product by the device's name, the product row.
 * Returns a malloc'ed array of *n checks (all of them; agreement is
 * device == table). */
PropCheck *verify_properties(const ArchTable *table, const DeviceProps *props, int *n);

/* The engine's answer to `q` for a kernel with `attrs` on `arch`. */
void verify_engine_answer(const ArchLimits *arch, int sm_count, const FuncAttrs *attrs,
                          const VerifyQuery *q, VerifyAnswer *out);

/* Where the resident clusters of a device come from: the product the
 * device is (by its name, as verify_properties finds it, or else the one
 * product of its compute capability and SM count whose GPC count is
 * public), or NULL.  *by_name says which rule found it. */
const GpuProduct *verify_cluster_product(const ArchTable *table, const DeviceProps *props,
                                         bool *by_name);

/* The engine's VQ_ACTIVE_CLUSTERS: occ_cluster_resident on `gpcs` GPCs
 * with the engine's CTAs per SM; with gpcs 0 (not public) the upper bound
 * floor(SMs x CTAs per SM / cluster size), marked `bound`.
 * verify_engine_answer asks this with gpcs 0. */
void verify_cluster_answer(const ArchLimits *arch, int sm_count, int gpcs, const FuncAttrs *attrs,
                           const VerifyQuery *q, VerifyAnswer *out);

bool verify_answers_agree(const VerifyQuery *q, const VerifyAnswer *runtime,
                          const VerifyAnswer *engine);

/* "cudaOccupancyMaxActiveBlocksPerMultiprocessor" and the like. */
const char *verify_query_call(VerifyQueryKind kind);
/* "active_blocks", "block_size", "dynamic_smem", "active_clusters": the
 * record's and JSON's names. */
const char *verify_query_name(VerifyQueryKind kind);
bool verify_query_kind(const char *name, VerifyQueryKind *out);

#endif
