/*
 * check_occupancy.c: unit tests of the occupancy engine's arithmetic.
 *
 * Every expected value here was worked out by hand from the rules in
 * occupancy/calc.c and the rows of arch-tables/compute-capabilities.csv (the
 * comment beside each case shows the arithmetic), not by running the engine.
 * occ_active_blocks is tested table-driven, one test case per limiter group:
 * the seed guide's examples, architectures where the rules of thumb are
 * wrong, registers, shared memory, barriers, virtual resources, block size,
 * the sm_60 family rule, partitioned global caching and invalid input.  Each
 * case checks the CTA count, all six per-resource limits, the binding set,
 * the occupancy, the allocated registers and shared memory and the carveout.
 * Then occ_best_block_size, occ_available_dynamic_smem, occ_next_step and
 * occ_waves are checked on hand-worked launches, and the advice policy
 * (occ_advise_block_size, occ_advise_register_cap) on hand-made candidates.
 *
 * Notation in the comments: wpb = warps per block, rpw = registers per warp
 * (regs*32 rounded up to 256), wpp = warps one sub-partition's 16384
 * registers hold, alloc = shared memory allocated per CTA.
 */
#include "occupancy.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fixture and helpers ------------------------------------------------- */

static ArchTable table;

static void load_tables(void)
{
    OccError err;
    ck_assert_msg(arch_table_load_builtin(&table, &err) == 0, "%s", err.message);
}

static void free_tables(void) { arch_table_free(&table); }

static const ArchLimits *find_arch(const char *name)
{
    const ArchLimits *arch = arch_table_find(&table, name);
    ck_assert_msg(arch != NULL, "no architecture %s in the built-in tables", name);
    return arch;
}

enum {
    W = 1u << OCC_LIMITER_WARPS,
    R = 1u << OCC_LIMITER_REGISTERS,
    S = 1u << OCC_LIMITER_SHARED_MEMORY,
    B = 1u << OCC_LIMITER_BLOCKS,
    BAR = 1u << OCC_LIMITER_BARRIERS,
    V = 1u << OCC_LIMITER_VIRTUAL_RESOURCES,
};
#define NL INT_MAX          /* "no limit" */
#define CARVE(pct) ((pct) + 1) /* Knobs.carveout: 0 is OCC_CARVEOUT_DEFAULT */

/* What a case changes from occ_kernel_defaults (all zero: no smem, no
 * barriers, no virtual resources, no opt-in, default carveout, GC off). */
typedef struct Knobs {
    uint64_t static_smem, dyn;
    int barriers, vres;
    bool optin;
    uint64_t max_dyn;            /* 0: occ_kernel_defaults' value */
    int carveout;                /* CARVE(pct), or 0 for the default */
    OccPartitionedGc gc;
    OccPartitionedGc gc_result;  /* expected OccResult.partitioned_gc */
} Knobs;

/* The hand-worked answer. limits: warps, registers, shared memory, blocks,
 * barriers, virtual resources (the order of limiters.def). */
typedef struct Expect {
    int blocks;
    int limits[OCC_N_LIMITERS];
    unsigned by;
    double occupancy;
    int alloc_regs;
    uint64_t alloc_smem, smem_per_sm;
} Expect;

typedef struct Case {
    const char *arch;
    int block, regs;
    Knobs k;
    Expect want;
} Case;

static KernelResources kernel_for(const ArchLimits *arch, int regs, const Knobs *kn)
{
    KernelResources k = occ_kernel_defaults(arch, regs, kn->static_smem, kn->optin);
    k.barriers = kn->barriers;
    k.virtual_resources = kn->vres;
    if (kn->max_dyn)
        k.max_dynamic_smem = kn->max_dyn;
    k.carveout = kn->carveout - 1;
    k.partitioned_gc = kn->gc;
    return k;
}

static void check_limits(const Case *c, const OccResult *r)
{
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        ck_assert_msg(r->limit[i] == c->want.limits[i],
                      "%s %d threads %d regs: %s limit is %d, expected %d", c->arch, c->block,
                      c->regs, occ_limiter_name((OccLimiter)i), r->limit[i], c->want.limits[i]);
}

static void check_case(const Case *c)
{
    const ArchLimits *arch = find_arch(c->arch);
    KernelResources k = kernel_for(arch, c->regs, &c->k);
    OccResult r;
    ck_assert_int_eq(occ_active_blocks(arch, &k, c->block, c->k.dyn, &r), OCC_OK);
    ck_assert_msg(r.active_blocks == c->want.blocks, "%s %d threads %d regs: %d CTAs, expected %d",
                  c->arch, c->block, c->regs, r.active_blocks, c->want.blocks);
    check_limits(c, &r);
    ck_assert_msg(r.limited_by == c->want.by, "%s %d threads %d regs: limited_by %#x, expected %#x",
                  c->arch, c->block, c->regs, r.limited_by, c->want.by);
    ck_assert_double_eq_tol(occ_occupancy(&r), c->want.occupancy, 1e-9);
    ck_assert_int_eq(r.active_warps, r.active_blocks * r.warps_per_block);
    ck_assert_int_eq(r.max_warps, arch_max_warps_per_sm(arch));
    ck_assert_int_eq(r.allocated_regs_per_block, c->want.alloc_regs);
    ck_assert_uint_eq(r.allocated_smem_per_block, c->want.alloc_smem);
    ck_assert_uint_eq(r.smem_per_sm, c->want.smem_per_sm);
    ck_assert_int_eq(r.partitioned_gc, c->k.gc_result);
}

#define CASE_LOOP(name, cases)                                 \
    START_TEST(name) { check_case(&(cases)[_i]); }             \
    END_TEST
#define N(cases) ((int)(sizeof(cases) / sizeof *(cases)))

/* ---- the seed guide: 256 threads (wpb 8) on 64 warps and 65536 registers -- */

static const Case seed_cases[] = {
    /* rpw 1024, wpp 16384/1024=16, 4*16/8=8; warps 64/8=8; smem 1 KiB reserved: 167936/1024=164 */
    {"sm_80", 256, 32, {0}, {8, {8, 8, 164, 32, NL, NL}, W | R, 1.0, 8192, 1024, 167936}},
    /* rpw 2048, wpp 8, 32/8=4 -> 32 of 64 warps */
    {"sm_80", 256, 64, {0}, {4, {8, 4, 164, 32, NL, NL}, R, 0.5, 16384, 1024, 167936}},
    /* rpw 4096, wpp 4, 16/8=2 */
    {"sm_80", 256, 128, {0}, {2, {8, 2, 164, 32, NL, NL}, R, 0.25, 32768, 1024, 167936}},
    /* as sm_80; smem 233472/1024=228; one barrier: 64/1=64 */
    {"sm_90", 256, 32, {.barriers = 1}, {8, {8, 8, 228, 32, 64, NL}, W | R, 1.0, 8192, 1024, 233472}},
    {"sm_90", 256, 64, {.barriers = 1}, {4, {8, 4, 228, 32, 64, NL}, R, 0.5, 16384, 1024, 233472}},
    {"sm_90", 256, 128, {.barriers = 1}, {2, {8, 2, 228, 32, 64, NL}, R, 0.25, 32768, 1024, 233472}},
};
CASE_LOOP(test_seed, seed_cases)

/* ---- where the rules of thumb are wrong ------------------------------------ */

static const Case thumb_cases[] = {
    /* sm_75: 32 warps, 16 CTAs, no reserved smem (alloc 0: no limit). warps 32/8=4, regs 64/8=8 */
    {"sm_75", 256, 32, {0}, {4, {4, 8, NL, 16, NL, NL}, W, 1.0, 8192, 0, 65536}},
    /* 1-warp CTAs: warps 32, regs 64/1=64, but 16 CTA slots: 16/32 warps */
    {"sm_75", 32, 32, {0}, {16, {32, 64, NL, 16, NL, NL}, B, 0.5, 1024, 0, 65536}},
    /* 1536 threads = 48 warps: 48/8=6 CTAs fill the SM; smem 102400/1024=100 */
    {"sm_86", 256, 32, {0}, {6, {6, 8, 100, 16, NL, NL}, W, 1.0, 8192, 1024, 102400}},
    /* wpb 32: warps 48/32=1 (regs would allow 64/32=2): 32/48 */
    {"sm_86", 1024, 32, {0}, {1, {1, 2, 100, 16, NL, NL}, W, 32 / 48.0, 32768, 1024, 102400}},
    {"sm_89", 256, 32, {0}, {6, {6, 8, 100, 24, NL, NL}, W, 1.0, 8192, 1024, 102400}},
    {"sm_89", 1024, 32, {0}, {1, {1, 2, 100, 24, NL, NL}, W, 32 / 48.0, 32768, 1024, 102400}},
    /* sm_120: one barrier, 24 per SM: 24 */
    {"sm_120", 256, 32, {.barriers = 1}, {6, {6, 8, 100, 24, 24, NL}, W, 1.0, 8192, 1024, 102400}},
    {"sm_120", 1024, 32, {.barriers = 1}, {1, {1, 2, 100, 24, 24, NL}, W, 32 / 48.0, 32768, 1024, 102400}},
    /* block slots. 16 regs: rpw 512, wpp 32, 128 warps of registers */
    /* sm_86, 1 warp: warps 48, regs 128/1, 16 slots: 16/48 */
    {"sm_86", 32, 16, {0}, {16, {48, 128, 100, 16, NL, NL}, B, 16 / 48.0, 512, 1024, 102400}},
    /* sm_86, 2 warps: warps 24, regs 64, 16 slots: 32/48 */
    {"sm_86", 64, 16, {0}, {16, {24, 64, 100, 16, NL, NL}, B, 32 / 48.0, 1024, 1024, 102400}},
    /* sm_89, 1 warp: 24 slots: 24/48 */
    {"sm_89", 32, 16, {0}, {24, {48, 128, 100, 24, NL, NL}, B, 0.5, 512, 1024, 102400}},
    /* sm_120, 1 warp, 1 barrier: 24 slots and 24/1 barriers tie */
    {"sm_120", 32, 16, {.barriers = 1}, {24, {48, 128, 100, 24, 24, NL}, B | BAR, 0.5, 512, 1024, 102400}},
    /* sm_120, 2 warps, no barrier: warps 48/2=24 and 24 slots tie, full */
    {"sm_120", 64, 16, {0}, {24, {24, 64, 100, 24, NL, NL}, W | B, 1.0, 1024, 1024, 102400}},
    /* sm_90, 1 warp: 32 slots of 64 warps */
    {"sm_90", 32, 16, {.barriers = 1}, {32, {64, 128, 228, 32, 64, NL}, B, 0.5, 512, 1024, 233472}},
    /* sm_90, 2 warps: warps 64/2=32 and 32 slots tie */
    {"sm_90", 64, 16, {.barriers = 1}, {32, {32, 64, 228, 32, 64, NL}, W | B, 1.0, 1024, 1024, 233472}},
};
CASE_LOOP(test_thumb, thumb_cases)

/* ---- registers ----------------------------------------------------------- */

static const Case register_cases[] = {
    /* 33*32=1056 -> 1280 per warp; wpp 16384/1280=12; 48/8=6 */
    {"sm_90", 256, 33, {0}, {6, {8, 6, 228, 32, NL, NL}, R, 48 / 64.0, 10240, 1024, 233472}},
    /* 40*32=1280 exactly: the same footprint as 33 */
    {"sm_90", 256, 40, {0}, {6, {8, 6, 228, 32, NL, NL}, R, 48 / 64.0, 10240, 1024, 233472}},
    /* 41*32=1312 -> 1536; wpp 10; 40/8=5 */
    {"sm_90", 256, 41, {0}, {5, {8, 5, 228, 32, NL, NL}, R, 40 / 64.0, 12288, 1024, 233472}},
    /* 255*32=8160 -> 8192; wpb 2, assumed 8192*4=32768 ok; wpp 2; 8/2=4 */
    {"sm_90", 64, 255, {0}, {4, {32, 4, 228, 32, NL, NL}, R, 8 / 64.0, 16384, 1024, 233472}},
    /* per sub-partition: rpw 5632, wpp 16384/5632=2, 8 warps -> 8 CTAs
     * (the pooled 65536/5632=11 would be wrong) */
    {"sm_90", 32, 176, {0}, {8, {64, 8, 228, 32, NL, NL}, R, 8 / 64.0, 5632, 1024, 233472}},
    /* 256 is sm_90's reg_alloc_limit: rpw 8192, wpp 2, 8 CTAs */
    {"sm_90", 32, 256, {0}, {8, {64, 8, 228, 32, NL, NL}, R, 8 / 64.0, 8192, 1024, 233472}},
    /* 257 > 256: 0; rpw 8224 -> 8448 still reported */
    {"sm_90", 32, 257, {0}, {0, {64, 0, 228, 32, NL, NL}, R, 0.0, 8448, 1024, 233472}},
    /* sm_61's reg_alloc_limit is 255: 256 -> 0; fixed 96 KiB smem, no reserve */
    {"sm_61", 32, 256, {0}, {0, {64, 0, NL, 32, NL, NL}, R, 0.0, 8192, 0, 98304}},
    /* absurd counts are 0 CTAs, not errors: 65537*32 -> 2097408 per warp */
    {"sm_90", 32, 65537, {0}, {0, {64, 0, 228, 32, NL, NL}, R, 0.0, 2097408, 1024, 233472}},
    /* INT_MAX*32 overflows int: the allocation is reported as INT_MAX */
    {"sm_90", 32, INT_MAX, {0}, {0, {64, 0, 228, 32, NL, NL}, R, 0.0, INT_MAX, 1024, 233472}},
    /* 0 registers: no register limit; warps 64/8=8 */
    {"sm_90", 256, 0, {0}, {8, {8, NL, 228, 32, NL, NL}, W, 1.0, 0, 1024, 233472}},
    /* 2048*32=65536 = regs_per_block; wpp 8, 32/32=1 */
    {"sm_90", 1024, 64, {0}, {1, {2, 1, 228, 32, NL, NL}, R, 32 / 64.0, 65536, 1024, 233472}},
    /* 65*32=2080 -> 2304, *32 = 73728 > 65536 per CTA: 0 */
    {"sm_90", 1024, 65, {0}, {0, {2, 0, 228, 32, NL, NL}, R, 0.0, 73728, 1024, 233472}},
    /* 25 warps at 2560: 64000 fits 65536, but the check rounds warps to 28:
     * 2560*28=71680 > 65536 -> 0 */
    {"sm_90", 800, 80, {0}, {0, {2, 0, 228, 32, NL, NL}, R, 0.0, 64000, 1024, 233472}},
};
CASE_LOOP(test_registers, register_cases)

/* ---- shared memory ------------------------------------------------------- */

static const Case smem_cases[] = {
    /* sm_70 unit 256: 6000 -> 6144; 98304/6144=16. regs: rpw 512, 128/1 */
    {"sm_70", 32, 16, {.dyn = 6000}, {16, {64, 128, 16, 32, NL, NL}, S, 16 / 64.0, 512, 6144, 98304}},
    /* sm_80 unit 128 + 1 KiB: 7024 -> 7040; 167936/7040=23 */
    {"sm_80", 32, 16, {.dyn = 6000}, {23, {64, 128, 23, 32, NL, NL}, S, 23 / 64.0, 512, 7040, 167936}},
    /* 4096 static + 1024 reserved = 5120; 102400/5120=20 (25 without it) */
    {"sm_89", 32, 16, {.static_smem = 4096}, {20, {48, 128, 20, 24, NL, NL}, S, 20 / 48.0, 512, 5120, 102400}},
    /* 24 KiB + 1 KiB = 25600; default carveout 164 KiB: 167936/25600=6 */
    {"sm_80", 256, 32, {.dyn = 24576}, {6, {8, 8, 6, 32, NL, NL}, S, 48 / 64.0, 8192, 25600, 167936}},
    /* carveout 0 KiB cannot hold 25600: grows to the 32 KiB carveout, 1 CTA */
    {"sm_80", 256, 32, {.dyn = 24576, .carveout = CARVE(0)},
     {1, {8, 8, 1, 32, NL, NL}, S, 8 / 64.0, 8192, 25600, 32768}},
    /* 50% of 167936 = 83968 -> the 100 KiB carveout: 102400/25600=4 */
    {"sm_80", 256, 32, {.dyn = 24576, .carveout = CARVE(50)},
     {4, {8, 8, 4, 32, NL, NL}, S, 32 / 64.0, 8192, 25600, 102400}},
    /* 20% = 33587 -> 64 KiB: 65536/25600=2 */
    {"sm_80", 256, 32, {.dyn = 24576, .carveout = CARVE(20)},
     {2, {8, 8, 2, 32, NL, NL}, S, 16 / 64.0, 8192, 25600, 65536}},
    /* 100% = 167936 = the default */
    {"sm_80", 256, 32, {.dyn = 24576, .carveout = CARVE(100)},
     {6, {8, 8, 6, 32, NL, NL}, S, 48 / 64.0, 8192, 25600, 167936}},
    /* no opt-in: 50000+1024 -> 51072 > 49152+1024: 0 */
    {"sm_80", 256, 32, {.dyn = 50000}, {0, {8, 8, 0, 32, NL, NL}, S, 0.0, 8192, 51072, 167936}},
    /* opted in: limit 166912+1024; 167936/51072=3 */
    {"sm_80", 256, 32, {.dyn = 50000, .optin = true},
     {3, {8, 8, 3, 32, NL, NL}, S, 24 / 64.0, 8192, 51072, 167936}},
    /* exactly 48 KiB without opt-in: 50176 = the limit; 167936/50176=3 */
    {"sm_80", 256, 32, {.dyn = 49152}, {3, {8, 8, 3, 32, NL, NL}, S, 24 / 64.0, 8192, 50176, 167936}},
    /* one byte more: 50177 -> 50304 > 50176: 0 */
    {"sm_80", 256, 32, {.dyn = 49153}, {0, {8, 8, 0, 32, NL, NL}, S, 0.0, 8192, 50304, 167936}},
    /* opted in, kernel limit 64 KiB: 65536+1024=66560; 233472/66560=3 */
    {"sm_90", 128, 32, {.dyn = 65536, .optin = true, .max_dyn = 65536},
     {3, {16, 16, 3, 32, NL, NL}, S, 12 / 64.0, 4096, 66560, 233472}},
    /* one byte above the kernel's max_dynamic_smem: 0 (alloc 66561 -> 66688) */
    {"sm_90", 128, 32, {.dyn = 65537, .optin = true, .max_dyn = 65536},
     {0, {16, 16, 0, 32, NL, NL}, S, 0.0, 4096, 66688, 233472}},
    /* the whole opt-in limit: 232448+1024 = 233472 = the SM, 1 CTA */
    {"sm_90", 128, 32, {.dyn = 232448, .optin = true},
     {1, {16, 16, 1, 32, NL, NL}, S, 4 / 64.0, 4096, 233472, 233472}},
    /* one byte more than the opt-in limit (the default max_dynamic_smem): 0 */
    {"sm_90", 128, 32, {.dyn = 232449, .optin = true},
     {0, {16, 16, 0, 32, NL, NL}, S, 0.0, 4096, 233600, 233472}},
    /* sm_75 has no 0 carveout: 0% -> 32 KiB; 10000 -> 10240 (unit 256): 3 */
    {"sm_75", 256, 32, {.dyn = 10000, .carveout = CARVE(0)},
     {3, {4, 8, 3, 16, NL, NL}, S, 24 / 32.0, 8192, 10240, 32768}},
    /* sm_61's 96 KiB is fixed: carveout ignored; 20000 -> 20224; 98304/20224=4 */
    {"sm_61", 256, 32, {.static_smem = 20000, .carveout = CARVE(0)},
     {4, {8, 8, 4, 32, NL, NL}, S, 32 / 64.0, 8192, 20224, 98304}},
};
CASE_LOOP(test_shared_memory, smem_cases)

/* ---- barriers and virtual resources ------------------------------------- */

static const Case barrier_cases[] = {
    /* 64 barriers per SM / 3 = 21 */
    {"sm_90", 32, 16, {.barriers = 3}, {21, {64, 128, 228, 32, 21, NL}, BAR, 21 / 64.0, 512, 1024, 233472}},
    /* 64 / 2 = 32 ties the 32 CTA slots */
    {"sm_90", 32, 16, {.barriers = 2}, {32, {64, 128, 228, 32, 32, NL}, B | BAR, 0.5, 512, 1024, 233472}},
    /* sm_120: 24 / 2 = 12 */
    {"sm_120", 32, 16, {.barriers = 2}, {12, {48, 128, 100, 24, 12, NL}, BAR, 12 / 48.0, 512, 1024, 102400}},
    /* sm_80 has no per-SM barrier limit */
    {"sm_80", 32, 16, {.barriers = 16}, {32, {64, 128, 164, 32, NL, NL}, B, 0.5, 512, 1024, 167936}},
};
CASE_LOOP(test_barriers, barrier_cases)

static const Case virtual_cases[] = {
    /* sm_100: 128 / 8 = 16 */
    {"sm_100", 32, 16, {.vres = 8}, {16, {64, 128, 228, 32, NL, 16}, V, 16 / 64.0, 512, 1024, 233472}},
    /* 128 / 5 = 25 */
    {"sm_100", 32, 16, {.vres = 5}, {25, {64, 128, 228, 32, NL, 25}, V, 25 / 64.0, 512, 1024, 233472}},
    /* 128 / 3 = 42 > 32 slots */
    {"sm_100", 32, 16, {.vres = 3}, {32, {64, 128, 228, 32, NL, 42}, B, 0.5, 512, 1024, 233472}},
    /* none used: no limit */
    {"sm_100", 32, 16, {0}, {32, {64, 128, 228, 32, NL, NL}, B, 0.5, 512, 1024, 233472}},
    /* sm_90 has no virtual-resource limit */
    {"sm_90", 32, 16, {.vres = 8}, {32, {64, 128, 228, 32, NL, NL}, B, 0.5, 512, 1024, 233472}},
};
CASE_LOOP(test_virtual_resources, virtual_cases)

/* ---- block size ------------------------------------------------------------ */

static const Case block_size_cases[] = {
    /* 1025 > 1024 threads: warps 0; regs still 64/33=1 */
    {"sm_90", 1025, 32, {0}, {0, {0, 1, 228, 32, NL, NL}, W, 0.0, 33792, 1024, 233472}},
    {"sm_75", 1025, 32, {0}, {0, {0, 1, NL, 16, NL, NL}, W, 0.0, 33792, 0, 65536}},
    /* 100 threads = 4 warps: 64/4=16 and regs 64/4=16 -> full */
    {"sm_90", 100, 32, {0}, {16, {16, 16, 228, 32, NL, NL}, W | R, 1.0, 4096, 1024, 233472}},
    /* 33 threads = 2 warps: warps 24, regs 32, 16 slots -> 32/48 */
    {"sm_86", 33, 32, {0}, {16, {24, 32, 100, 16, NL, NL}, B, 32 / 48.0, 2048, 1024, 102400}},
    /* 1 thread is a whole warp */
    {"sm_90", 1, 0, {0}, {32, {64, NL, 228, 32, NL, NL}, B, 0.5, 0, 1024, 233472}},
};
CASE_LOOP(test_block_size, block_size_cases)

/* ---- the sm_60 family rule --------------------------------------------------- */

static const Case family_cases[] = {
    /* 10 warps at rpw 6144.  sm_60 (2 sub-partitions, granularity 2):
     * assumed 6144*10=61440 ok, wpp 32768/6144=5, 2*5/10=1.  The 4-way
     * sibling: assumed 6144*12=73728 > 65536 -> 0, so 0. */
    {"sm_60", 320, 192, {0}, {0, {6, 0, NL, 32, NL, NL}, R, 0.0, 61440, 0, 65536}},
    /* 8 warps fit both: sm_60 10/8=1; sibling wpp 2, 4*2/8=1 */
    {"sm_60", 256, 192, {0}, {1, {8, 1, NL, 32, NL, NL}, R, 8 / 64.0, 49152, 0, 65536}},
};
CASE_LOOP(test_family, family_cases)

/* ---- partitioned global caching (sm_61) ------------------------------------- */

static const Case gc_cases[] = {
    /* half SM: warps 32/8=4 *2=8; regs wpp 16, 16*2/8=4 *2=8 */
    {"sm_61", 256, 32, {.gc = OCC_GC_ON, .gc_result = OCC_GC_ON},
     {8, {8, 8, NL, 32, NL, NL}, W | R, 1.0, 8192, 0, 98304}},
    /* 12 warps: half SM 32/12=2 *2=4 (off: 64/12=5) */
    {"sm_61", 384, 32, {.gc = OCC_GC_ON, .gc_result = OCC_GC_ON},
     {4, {4, 4, NL, 32, NL, NL}, W | R, 48 / 64.0, 12288, 0, 98304}},
    /* 20 warps: half SM 32/20=1 *2=2 */
    {"sm_61", 640, 32, {.gc = OCC_GC_ON, .gc_result = OCC_GC_ON},
     {2, {2, 2, NL, 32, NL, NL}, W | R, 40 / 64.0, 20480, 0, 98304}},
    /* the same, GC off: 64/20=3 */
    {"sm_61", 640, 32, {0}, {3, {3, 3, NL, 32, NL, NL}, W | R, 60 / 64.0, 20480, 0, 98304}},
    /* 32 warps at rpw 2048: wpp 8, half SM 8*2/32=0 -> falls back to off:
     * regs 8*4/32=1, warps 64/32=2 */
    {"sm_61", 1024, 64, {.gc = OCC_GC_ON, .gc_result = OCC_GC_OFF},
     {1, {2, 1, NL, 32, NL, NL}, R, 32 / 64.0, 65536, 0, 98304}},
    /* strict: no fallback; regs 0, warps half SM 32/32 *2=2 */
    {"sm_61", 1024, 64, {.gc = OCC_GC_ON_STRICT, .gc_result = OCC_GC_ON_STRICT},
     {0, {2, 0, NL, 32, NL, NL}, R, 0.0, 65536, 0, 98304}},
    /* sm_80 has no partitioned caching: ON is ignored */
    {"sm_80", 256, 32, {.gc = OCC_GC_ON, .gc_result = OCC_GC_OFF},
     {8, {8, 8, 164, 32, NL, NL}, W | R, 1.0, 8192, 1024, 167936}},
};
CASE_LOOP(test_partitioned_gc, gc_cases)

/* ---- invalid input ------------------------------------------------------------ */

typedef struct InvalidCase {
    int block, regs;
    Knobs k;
} InvalidCase;

static const InvalidCase invalid_cases[] = {
    {0, 32, {0}},
    {-32, 32, {0}},
    {256, -1, {0}},
    {256, 32, {.carveout = CARVE(101)}},
    {256, 32, {.carveout = CARVE(-2)}},
};

START_TEST(test_invalid)
{
    const InvalidCase *c = &invalid_cases[_i];
    const ArchLimits *arch = find_arch("sm_90");
    KernelResources k = kernel_for(arch, c->regs, &c->k);
    OccResult r;
    ck_assert_int_eq(occ_active_blocks(arch, &k, c->block, 0, &r), OCC_ERR_INVALID_INPUT);
}
END_TEST

START_TEST(test_invalid_arch)
{
    ArchLimits zero;
    memset(&zero, 0, sizeof zero);
    KernelResources k = occ_kernel_defaults(find_arch("sm_90"), 32, 0, false);
    OccResult r;
    ck_assert_int_eq(occ_active_blocks(&zero, &k, 256, 0, &r), OCC_ERR_INVALID_INPUT);
    ck_assert_int_eq(occ_active_blocks(NULL, &k, 256, 0, &r), OCC_ERR_INVALID_INPUT);
    ck_assert_int_eq(occ_active_blocks(find_arch("sm_90"), NULL, 256, 0, &r),
                     OCC_ERR_INVALID_INPUT);
}
END_TEST

/* ---- occ_best_block_size ---------------------------------------------------- */

typedef struct BestCase {
    const char *arch;
    int regs;
    int launch_bound;   /* KernelResources.max_threads_per_block */
    int dyn_per_thread; /* bytes of dynamic smem per thread, through dyn_fn */
    int sm_count;
    OccBlockSizeChoice want;
} BestCase;

static uint64_t smem_per_thread(int block_size, void *context)
{
    return (uint64_t)block_size * (uint64_t)*(const int *)context;
}

static const BestCase best_cases[] = {
    /* 1024 (32 warps): warps 2, regs 64/32=2 -> 2048 threads = the SM: stop */
    {"sm_90", 32, 0, 0, 132, {1024, 2, 264}},
    /* 64 regs hold 32 warps: every size reaches 1024 threads; the largest stays */
    {"sm_90", 64, 0, 0, 132, {1024, 1, 132}},
    /* 40 regs hold 48 warps: 1024..800 -> 1 CTA; 768 (24 warps) -> 2 = 1536,
     * which nothing smaller beats */
    {"sm_90", 40, 0, 0, 132, {768, 2, 264}},
    /* sm_86 (48 warps): 768 -> 2 = 1536 = the SM */
    {"sm_86", 32, 0, 0, 82, {768, 2, 164}},
    /* bound 200: 200 (7 warps) 9 -> 1800; 192: 10 -> 1920; 160: 12 = 1920;
     * 128: 16 -> 2048 */
    {"sm_90", 32, 200, 0, 132, {128, 16, 2112}},
    /* 64 B/thread on sm_80 (no opt-in, limit 50176): > 768 do not fit;
     * 768: alloc 50176, 2 CTAs = 1536; 672: alloc 44032, 3 -> 2016;
     * 512: alloc 33792, 167936/33792=4, warps 4 -> 2048 */
    {"sm_80", 32, 0, 64, 108, {512, 4, 432}},
    /* nothing runs: all zero */
    {"sm_90", 257, 0, 0, 132, {0, 0, 0}},
    /* sm_count 0 counts as 1 */
    {"sm_90", 32, 0, 0, 0, {1024, 2, 2}},
};

START_TEST(test_best_block_size)
{
    const BestCase *c = &best_cases[_i];
    const ArchLimits *arch = find_arch(c->arch);
    KernelResources k = occ_kernel_defaults(arch, c->regs, 0, false);
    k.max_threads_per_block = c->launch_bound;
    int per_thread = c->dyn_per_thread;
    OccBlockSizeChoice got;
    ck_assert_int_eq(occ_best_block_size(arch, &k, per_thread ? smem_per_thread : NULL,
                                         &per_thread, 0, c->sm_count, &got),
                     OCC_OK);
    ck_assert_int_eq(got.block_size, c->want.block_size);
    ck_assert_int_eq(got.blocks_per_sm, c->want.blocks_per_sm);
    ck_assert_int_eq(got.min_grid, c->want.min_grid);
}
END_TEST

/* ---- occ_available_dynamic_smem ----------------------------------------------- */

typedef struct AvailCase {
    const char *arch;
    int block, regs, num_blocks;
    Knobs k;
    OccStatus status;
    uint64_t bytes;
} AvailCase;

static const AvailCase avail_cases[] = {
    /* one CTA: the per-CTA limit 49152+1024, capped by max_dynamic_smem 49152 */
    {"sm_80", 256, 32, 1, {0}, OCC_OK, 49152},
    /* opted in: 166912+1024, capped at 166912 */
    {"sm_80", 256, 32, 1, {.optin = true}, OCC_OK, 166912},
    /* 4 CTAs share 167936: 41984 each.  As cudaOccAvailableDynamicSMemPerBlock,
     * the reserved 1 KiB is not taken off (41984+1024 fits only 3) */
    {"sm_80", 256, 32, 4, {0}, OCC_OK, 41984},
    /* carveout 0 with 2 CTAs: the smallest non-zero carveout 8192 / 2 */
    {"sm_80", 256, 32, 2, {.carveout = CARVE(0)}, OCC_OK, 4096},
    /* sm_75: 65536/3=21845 -> 21760 (unit 256), less 1000 static = 20760 */
    {"sm_75", 256, 32, 3, {.static_smem = 1000}, OCC_OK, 20760},
    /* sm_90 opted in: 233472/2=116736, less 2048 static = 114688 */
    {"sm_90", 256, 32, 2, {.static_smem = 2048, .optin = true}, OCC_OK, 114688},
    /* sm_60 fixed 64 KiB: 65536/2=32768 */
    {"sm_60", 256, 32, 2, {0}, OCC_OK, 32768},
    /* 64 regs allow 4 CTAs of 256: 5 do not fit */
    {"sm_90", 256, 64, 5, {0}, OCC_ERR_DOES_NOT_FIT, 0},
    {"sm_90", 256, 32, 0, {0}, OCC_ERR_INVALID_INPUT, 0},
    {"sm_90", 0, 32, 1, {0}, OCC_ERR_INVALID_INPUT, 0},
};

START_TEST(test_available_dynamic_smem)
{
    const AvailCase *c = &avail_cases[_i];
    const ArchLimits *arch = find_arch(c->arch);
    KernelResources k = kernel_for(arch, c->regs, &c->k);
    uint64_t bytes = 12345;
    ck_assert_int_eq(occ_available_dynamic_smem(arch, &k, c->num_blocks, c->block, &bytes),
                     c->status);
    if (c->status == OCC_OK)
        ck_assert_uint_eq(bytes, c->bytes);
}
END_TEST

/* ---- occ_next_step --------------------------------------------------------- */

typedef struct StepCase {
    int regs;
    uint64_t dyn;
    OccNextStep want;
} StepCase;

/* All on sm_90, 256 threads (8 warps), one barrier.  With r registers:
 * rpw = 256*ceil(r/8), wpp = 64/ceil(r/8), CTAs = wpp/2. */
static const StepCase step_cases[] = {
    /* 64 regs: 4 CTAs. 49..56 -> rpw 1792, wpp 9, still 4; 48 -> wpp 10 -> 5.
     * 65 -> wpp 7 -> 3: no slack.  Shared memory: none to cut; 4 CTAs stay
     * up to 49152 dynamic (alloc 50176, the no-opt-in limit) */
    {64, 0, {16, 5, 0, -1, -1, 49152}},
    /* 60 regs: 4 CTAs; cut to 48 (12) for 5; up to 64 (+4) keeps 4 */
    {60, 0, {12, 5, 4, -1, -1, 49152}},
    /* 32 regs: 8 CTAs, warps-bound: no register cut helps; 33 -> 6.
     * 8 CTAs while alloc <= 233472/8 = 29184: 28160 bytes of slack */
    {32, 0, {-1, -1, 0, -1, -1, 28160}},
    /* 40000 dynamic: alloc 41088, 233472/41088=5 CTAs.  6 need alloc <=
     * 38912: total 37888, cut 2112.  5 hold to alloc 46592 (233472/5=46694):
     * total 45568, slack 5568.  Registers: up to 48 (+16) keep 5 */
    {32, 40000, {-1, -1, 16, 2112, 6, 5568}},
};

START_TEST(test_next_step)
{
    const StepCase *c = &step_cases[_i];
    const ArchLimits *arch = find_arch("sm_90");
    KernelResources k = occ_kernel_defaults(arch, c->regs, 0, false);
    OccNextStep got;
    ck_assert_int_eq(occ_next_step(arch, &k, 256, c->dyn, &got), OCC_OK);
    ck_assert_int_eq(got.regs_to_cut, c->want.regs_to_cut);
    ck_assert_int_eq(got.regs_gained_blocks, c->want.regs_gained_blocks);
    ck_assert_int_eq(got.regs_slack, c->want.regs_slack);
    ck_assert_int_eq(got.smem_to_cut, c->want.smem_to_cut);
    ck_assert_int_eq(got.smem_gained_blocks, c->want.smem_gained_blocks);
    ck_assert_int_eq(got.smem_slack, c->want.smem_slack);
}
END_TEST

START_TEST(test_next_step_invalid)
{
    const ArchLimits *arch = find_arch("sm_90");
    KernelResources k = occ_kernel_defaults(arch, 32, 0, false);
    OccNextStep got;
    ck_assert_int_eq(occ_next_step(arch, &k, 0, 0, &got), OCC_ERR_INVALID_INPUT);
}
END_TEST

/* ---- occ_waves ---------------------------------------------------------------- */

typedef struct WaveCase {
    uint64_t work;
    int block, active, sms;
    OccWaves want;
} WaveCase;

static const WaveCase wave_cases[] = {
    /* 1e6/256 = 3906.25 -> 3907 CTAs, tail 1e6-3906*256 = 64; 4*132 = 528 per
     * wave; 3907 = 7*528 + 211; 8 waves hold 4224 slots, 317 idle */
    {1000000, 256, 4, 132, {3907, 64, 528, 7, 3907 / 528.0, 211 / 528.0, 317 / 4224.0, 528}},
    /* exactly one wave: 528*256 items */
    {135168, 256, 4, 132, {528, 256, 528, 1, 1.0, 1.0, 0.0, 528}},
    /* one item: 1 CTA of 2 slots */
    {1, 1024, 2, 1, {1, 1, 2, 0, 0.5, 0.5, 0.5, 2}},
};

START_TEST(test_waves)
{
    const WaveCase *c = &wave_cases[_i];
    OccWaves got;
    ck_assert(occ_waves(c->work, c->block, c->active, c->sms, &got));
    ck_assert_uint_eq(got.ctas, c->want.ctas);
    ck_assert_uint_eq(got.tail_threads, c->want.tail_threads);
    ck_assert_uint_eq(got.ctas_per_wave, c->want.ctas_per_wave);
    ck_assert_uint_eq(got.full_waves, c->want.full_waves);
    ck_assert_double_eq_tol(got.waves, c->want.waves, 1e-12);
    ck_assert_double_eq_tol(got.last_wave_fill, c->want.last_wave_fill, 1e-12);
    ck_assert_double_eq_tol(got.idle_fraction, c->want.idle_fraction, 1e-12);
    ck_assert_uint_eq(got.persistent_grid, c->want.persistent_grid);
}
END_TEST

/* Without work or a block size nothing is known; without resident CTAs or
 * an SM count the grid still is: 1000 / 256 -> 4 CTAs, the last with 232. */
static const WaveCase zero_wave_cases[] = {
    {0, 256, 4, 132, {0}},
    {1000, 0, 4, 132, {0}},
    {1000, -256, 4, 132, {0}},
    {1000, 256, 0, 132, {.ctas = 4, .tail_threads = 232}},
    {1000, 256, 4, 0, {.ctas = 4, .tail_threads = 232}},
};

START_TEST(test_waves_zero)
{
    const WaveCase *c = &zero_wave_cases[_i];
    OccWaves got;
    memset(&got, 0xff, sizeof got);
    ck_assert(!occ_waves(c->work, c->block, c->active, c->sms, &got));
    ck_assert_mem_eq(&got, &c->want, sizeof got);
}
END_TEST

/* ---- the suite ---------------------------------------------------------------- */

/* ---- the advice policy ------------------------------------------------------ */

typedef struct AdviceCase {
    const char *what;
    OccCandidate c[5];
    size_t n;
    int want; /* index, -1: none */
} AdviceCase;

/* Candidates as {threads, CTAs per SM, active warps, idle fraction}. */
static const AdviceCase advice_cases[] = {
    /* README's example (sm_90, 64 regs): 256, 512 and 1024 all 32 warps */
    {"default over larger", {{256, 4, 32, 0}, {512, 2, 32, 0}, {1024, 1, 32, 0}}, 3, 0},
    {"occupancy first", {{256, 6, 48, 0}, {512, 4, 64, 0}}, 2, 1},
    {"256 before 128 when the tails tie", {{128, 8, 32, 0}, {256, 4, 32, 0}}, 2, 1},
    /* README's example on 132 SMs, work 1000000: 7813 CTAs of 128 in
     * waves of 1056 leave 635 of 8448 slots idle; 3907 of 256 in waves of
     * 528 leave 317 of 4224 (a hair less) */
    {"the smaller tail of 128 and 256", {{128, 8, 32, 635.0 / 8448}, {256, 4, 32, 317.0 / 4224}},
     2, 1},
    {"the smaller tail of 256 and 128", {{128, 8, 32, 0.1}, {256, 4, 32, 0.3}}, 2, 0},
    {"a default beats a smaller tail", {{64, 16, 32, 0}, {256, 4, 32, 0.2}}, 2, 1},
    {"no default: the smaller size", {{64, 16, 32, 0}, {512, 2, 32, 0}}, 2, 0},
    {"no default: the smaller tail", {{64, 16, 32, 0.25}, {96, 10, 30, 0}, {96, 10, 32, 0.125}},
     3, 2},
    {"nothing runs", {{256, 0, 0, 0}, {1024, 0, 0, 0}}, 2, -1},
    {"none", {{0}}, 0, -1},
};

START_TEST(test_advise_block_size)
{
    const AdviceCase *c = &advice_cases[_i];
    ck_assert_msg(occ_advise_block_size(c->c, c->n) == c->want, "%s", c->what);
}
END_TEST

/* With one target the advice across targets is the advice on it. */
START_TEST(test_across_one_target)
{
    const AdviceCase *c = &advice_cases[_i];
    OccTargetCandidates t = {c->c, 64};
    ck_assert_msg(occ_advise_block_size_across(&t, 1, c->n) == c->want, "%s", c->what);
}
END_TEST

typedef struct AcrossCase {
    const char *what;
    OccCandidate a[3], b[3]; /* the same sizes on two targets */
    int max_a, max_b;         /* their warp slots */
    int want;
    double lowest; /* the chosen size's lowest occupancy */
} AcrossCase;

static const AcrossCase across_cases[] = {
    /* 44 KiB of shared memory at 64 threads on sm_80 (3 CTAs of 45 KiB
     * fit) and sm_90 (5 fit): alone sm_80 takes 1024, sm_90 512 */
    {"sm_80 and sm_90: 1024 over all",
     {{64, 3, 6, 0}, {512, 3, 48, 0}, {1024, 2, 64, 0}},
     {{64, 5, 10, 0}, {512, 4, 64, 0}, {1024, 2, 64, 0}}, 64, 64, 2, 1.0},
    /* the fraction, not the warps: 32 of 48 warps (sm_86) is less than
     * 48 of 64 (sm_80) */
    {"occupancy as a fraction of each SM's warps",
     {{128, 12, 48, 0}, {256, 6, 48, 0}, {512, 2, 32, 0}},
     {{128, 8, 32, 0}, {256, 6, 48, 0}, {512, 3, 48, 0}}, 64, 48, 1, 0.75},
    /* equal lowest occupancy: the tie rule (256 before 512) */
    {"the tie rule after the lowest occupancy",
     {{64, 8, 16, 0}, {256, 4, 32, 0}, {512, 2, 32, 0}},
     {{64, 16, 32, 0}, {256, 8, 64, 0}, {512, 4, 64, 0}}, 64, 64, 1, 0.5},
    /* a size that runs on one target only is no advice */
    {"a size must run on every target",
     {{64, 1, 2, 0}, {256, 4, 32, 0}, {1024, 2, 64, 0}},
     {{64, 1, 2, 0}, {256, 2, 16, 0}, {1024, 0, 0, 0}}, 64, 64, 1, 0.25},
};

START_TEST(test_advise_across)
{
    const AcrossCase *c = &across_cases[_i];
    OccTargetCandidates t[2] = {{c->a, c->max_a}, {c->b, c->max_b}};
    ck_assert_msg(occ_advise_block_size_across(t, 2, 3) == c->want, "%s", c->what);
    ck_assert_msg(occ_lowest_occupancy(t, 2, (size_t)c->want) == c->lowest, "%s", c->what);
}
END_TEST

typedef struct CapCase {
    int regs, block, regs_per_sm; /* regs_per_sm 0: the table's */
    bool applies;
    OccCapAdvice want;
} CapCase;

/* On sm_90 (see step_cases for the arithmetic): 64 registers at 256
 * threads give 4 CTAs and a cut to 48 gives 5, 40 of 64 warps. */
static const CapCase cap_cases[] = {
    {64, 256, 0, true, {48, 5, 40.0 / 64}},
    /* 60: 4 CTAs, the same 48 gains the fifth */
    {60, 256, 0, true, {48, 5, 40.0 / 64}},
    /* 32: warps limit (8 CTAs of 8 warps), no cap helps */
    {32, 256, 0, false, {0}},
    /* 255 at 1024 threads: no CTA fits, no advice */
    {255, 1024, 0, false, {0}},
    /* A GPU of 8192 registers per SM (2048 per sub-partition): 24
     * registers at 256 threads: rpw 768, 2 warps per sub-partition, 8
     * warps = 1 CTA; 16 (rpw 512): 4 per sub-partition, 2 CTAs.  16 is
     * still a cap ptxas takes. */
    {24, 256, 8192, true, {16, 2, 16.0 / 64}},
    /* 16 there: the next CTA needs 8 (rpw 256), below .maxnreg's 16 */
    {16, 256, 8192, false, {0}},
};

START_TEST(test_advise_register_cap)
{
    const CapCase *c = &cap_cases[_i];
    ArchLimits arch = *find_arch("sm_90");
    if (c->regs_per_sm) {
        arch.regs_per_sm = c->regs_per_sm;
        arch.regs_per_block = c->regs_per_sm;
    }
    KernelResources k = occ_kernel_defaults(&arch, c->regs, 0, false);
    OccCapAdvice got;
    ck_assert(occ_advise_register_cap(&arch, &k, c->block, 0, &got) == c->applies);
    ck_assert_int_eq(got.cap, c->want.cap);
    ck_assert_int_eq(got.min_blocks, c->want.min_blocks);
    ck_assert_double_eq_tol(got.occupancy, c->want.occupancy, 1e-9);
}
END_TEST

START_TEST(test_cap_is_safe_and_persistent_grid)
{
    ck_assert(occ_cap_is_safe(48, 48, 0, 0));
    ck_assert(occ_cap_is_safe(48, 40, 0, 0));
    ck_assert(!occ_cap_is_safe(48, 56, 0, 0));
    ck_assert(!occ_cap_is_safe(48, 48, 8, 0));
    ck_assert(!occ_cap_is_safe(48, 48, 0, 8));
    ck_assert_uint_eq(occ_persistent_grid(132, 4), 528); /* H100 SXM5 */
    ck_assert_uint_eq(occ_persistent_grid(0, 4), 0);
    ck_assert_uint_eq(occ_persistent_grid(132, 0), 0);
}
END_TEST

/* occ_advise_block_size_all on sm_90, every whole-warp size. */
START_TEST(test_advise_block_size_all)
{
    const ArchLimits *arch = find_arch("sm_90");
    OccBlockSizeChoice got;
    /* 64 registers: 128, 256, 512 and 1024 reach 32 warps (8, 4, 2, 1
     * CTAs); on 132 SMs, 1000000 items leave 7.517% of slots idle at 128
     * and 7.505% at 256 (see the policy cases): 256, grid 4 x 132. */
    KernelResources k = occ_kernel_defaults(arch, 64, 0, false);
    ck_assert_int_eq(occ_advise_block_size_all(arch, &k, 0, 1000000, 132, &got), OCC_OK);
    ck_assert_int_eq(got.block_size, 256);
    ck_assert_int_eq(got.blocks_per_sm, 4);
    ck_assert_int_eq(got.min_grid, 528);
    /* No work: 256 before 128; no SM count: a grid of one SM's CTAs. */
    ck_assert_int_eq(occ_advise_block_size_all(arch, &k, 0, 0, 0, &got), OCC_OK);
    ck_assert_int_eq(got.block_size, 256);
    ck_assert_int_eq(got.min_grid, 4);
    /* 255 registers fit no CTA of 512 and 8 warps otherwise: 256, 1 CTA. */
    k = occ_kernel_defaults(arch, 255, 0, false);
    ck_assert_int_eq(occ_advise_block_size_all(arch, &k, 0, 0, 132, &got), OCC_OK);
    ck_assert_int_eq(got.block_size, 256);
    ck_assert_int_eq(got.blocks_per_sm, 1);
    ck_assert_int_eq(got.min_grid, 132);
}
END_TEST

static void add_loop(Suite *s, const char *name, const TTest *test, int n)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, load_tables, free_tables);
    tcase_add_loop_test(tc, test, 0, n);
    suite_add_tcase(s, tc);
}

/* Thread-block clusters: the architectures' limits from the tables, and
 * the resident clusters GPC by GPC (cluster.c), worked by hand: 132 SMs
 * are 66 TPCs, in 8 GPCs 2 of 9 TPCs (18 SMs) and 6 of 8 (16 SMs). */
static const struct cluster_case {
    int sms, gpcs, ctas_per_sm, size, want;
} cluster_cases[] = {
    {132, 8, 8, 4, 2 * (18 * 8 / 4) + 6 * (16 * 8 / 4)}, /* 264 */
    {132, 8, 1, 16, 8},      /* one 16-CTA cluster per GPC */
    {132, 8, 1, 2, 66},      /* 2 x 9 + 6 x 8 */
    {132, 8, 3, 16, 2 * 3 + 6 * 3}, /* 18 x 3 / 16 = 3, 16 x 3 / 16 = 3 */
    {132, 8, 1, 17, 2},      /* only the 18-SM GPCs hold one */
    {7, 2, 1, 3, 2},         /* 3 TPCs: GPCs of 4 and 2 + the odd SM: 4/3 + 3/3 */
    {132, 0, 8, 4, -1},      /* GPC layout not public */
    {132, 8, 0, 4, 0},       /* no CTA resident: no cluster */
};

START_TEST(test_cluster_resident)
{
    const struct cluster_case *c = &cluster_cases[_i];
    ck_assert_int_eq(occ_cluster_resident(c->sms, c->gpcs, c->ctas_per_sm, c->size), c->want);
}
END_TEST

START_TEST(test_cluster_limit)
{
    ck_assert_int_eq(occ_cluster_limit(find_arch("sm_80"), true), 0);
    ck_assert_int_eq(occ_cluster_limit(find_arch("sm_90"), false), 8);
    ck_assert_int_eq(occ_cluster_limit(find_arch("sm_90"), true), 16);
    ck_assert_int_eq(occ_cluster_limit(find_arch("sm_100"), true), 16);
    ck_assert_int_eq(occ_cluster_limit(find_arch("sm_120"), true), 8);
}
END_TEST

static Suite *occupancy_suite(void)
{
    Suite *s = suite_create("occupancy");
    add_loop(s, "seed", test_seed, N(seed_cases));
    add_loop(s, "rules_of_thumb", test_thumb, N(thumb_cases));
    add_loop(s, "registers", test_registers, N(register_cases));
    add_loop(s, "shared_memory", test_shared_memory, N(smem_cases));
    add_loop(s, "barriers", test_barriers, N(barrier_cases));
    add_loop(s, "virtual_resources", test_virtual_resources, N(virtual_cases));
    add_loop(s, "block_size", test_block_size, N(block_size_cases));
    add_loop(s, "family", test_family, N(family_cases));
    add_loop(s, "partitioned_gc", test_partitioned_gc, N(gc_cases));
    add_loop(s, "invalid", test_invalid, N(invalid_cases));
    add_loop(s, "invalid_arch", test_invalid_arch, 1);
    add_loop(s, "best_block_size", test_best_block_size, N(best_cases));
    add_loop(s, "available_dynamic_smem", test_available_dynamic_smem, N(avail_cases));
    add_loop(s, "next_step", test_next_step, N(step_cases));
    add_loop(s, "next_step_invalid", test_next_step_invalid, 1);
    add_loop(s, "waves", test_waves, N(wave_cases));
    add_loop(s, "waves_zero", test_waves_zero, N(zero_wave_cases));
    add_loop(s, "advise_block_size", test_advise_block_size, N(advice_cases));
    add_loop(s, "across_one_target", test_across_one_target, N(advice_cases));
    add_loop(s, "advise_across", test_advise_across, N(across_cases));
    add_loop(s, "advise_block_size_all", test_advise_block_size_all, 1);
    add_loop(s, "advise_register_cap", test_advise_register_cap, N(cap_cases));
    add_loop(s, "cap_is_safe_and_persistent_grid", test_cap_is_safe_and_persistent_grid, 1);
    add_loop(s, "cluster_resident", test_cluster_resident, N(cluster_cases));
    add_loop(s, "cluster_limit", test_cluster_limit, 1);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(occupancy_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
