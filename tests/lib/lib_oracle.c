/*
 * lib_oracle.c: the installed libsilk-occ against NVIDIA's cuda_occupancy.h
 * on random configurations, through the public API only: each answer is
 * silk_occ_active's and silk_occ_plan_eval's, compared with
 * cudaOccMaxActiveBlocksPerMultiprocessor's (status, resident CTAs, every
 * limiter's count).  tests/lib/pkgconfig.sh builds it with the flags
 * pkg-config gives for the installed copy, linked shared and static.
 *
 * The header must be told the device, which the public API does not
 * describe in the header's terms; the engine's own tables (arch_table_*,
 * from the build tree) give those rows, through tests/oracle/oracle.h as
 * the engine's oracle test does.  They serve only to ask the header:
 * every answer compared is the installed library's.
 *
 * Usage: lib_oracle [CONFIGS] (default 20000); prints one summary line.
 */
#include "oracle.h" /* config.h first */

#include <silk-occ/silk-occ.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A small fixed PRNG (xorshift64*), so that every run draws the same
 * configurations and a failure can be replayed. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static int pick(uint64_t *s, int lo, int hi) { return lo + (int)(next(s) % (uint64_t)(hi - lo + 1)); }

typedef struct Config {
    silk_occ_kernel k;
    int threads;
    uint64_t dyn_smem;
} Config;

static Config draw(uint64_t *s, const ArchLimits *a)
{
    Config c;
    silk_occ_kernel_init(&c.k);
    int optin_max = a->smem_per_block_optin > 0 ? a->smem_per_block_optin : a->smem_per_block;
    c.k.regs = pick(s, 0, 3) == 0 ? pick(s, 0, 255) : pick(s, 1, 96);
    c.k.static_smem = pick(s, 0, 2) == 0 ? 0 : (uint64_t)pick(s, 0, optin_max);
    c.k.barriers = pick(s, 0, 2) == 0 ? pick(s, 0, 16) : 1;
    c.k.smem_optin = pick(s, 0, 1);
    c.k.carveout = pick(s, 0, 1) ? -1 : pick(s, 0, 100);
    c.threads = pick(s, 0, 3) == 0 ? pick(s, 1, a->max_threads_per_block + 64)
                                   : 32 * pick(s, 1, a->max_threads_per_block / 32);
    c.dyn_smem = pick(s, 0, 1) ? 0 : (uint64_t)pick(s, 0, optin_max);
    return c;
}

/* The same kernel as the engine sees it, for the header. */
static KernelResources resources(const ArchLimits *a, const silk_occ_kernel *k)
{
    KernelResources r = occ_kernel_defaults(a, k->regs, k->static_smem, k->smem_optin != 0);
    r.barriers = k->barriers;
    r.carveout = k->carveout;
    return r;
}

/* Whether the library's answer is the header's; prints the case if not. */
static bool agrees(const char *path, const char *arch, const Config *c, int theirs_status,
                   const cudaOccResult *t, silk_occ_status ours_status, const silk_occ_result *o)
{
    bool ok = (theirs_status != CUDA_OCC_SUCCESS) == (ours_status != SILK_OCC_OK);
    if (ok && theirs_status == CUDA_OCC_SUCCESS) {
        ok = t->activeBlocksPerMultiprocessor == o->groups;
        for (int i = 0; ok && i < OCC_N_LIMITERS; i++)
            ok = oracle_limit(t, (OccLimiter)i) == o->limit[i];
    }
    if (!ok)
        fprintf(stderr,
                "FAIL (%s): %s threads=%d regs=%d static=%" PRIu64 " dyn=%" PRIu64
                " barriers=%d optin=%d carveout=%d: header status %d active %d, library"
                " status %d groups %d\n",
                path, arch, c->threads, c->k.regs, c->k.static_smem, c->dyn_smem, c->k.barriers,
                c->k.smem_optin, c->k.carveout, theirs_status, t->activeBlocksPerMultiprocessor,
                (int)ours_status, o->groups);
    return ok;
}

/* One configuration on one architecture, by both paths. */
static bool check(const ArchLimits *a, const silk_occ_target *target, const Config *c)
{
    KernelResources r = resources(a, &c->k);
    cudaOccDeviceProp prop = oracle_device(a, 132);
    cudaOccFuncAttributes func = oracle_func(&r);
    cudaOccDeviceState state = oracle_state(&r);
    cudaOccResult theirs = {0};
    int status = cudaOccMaxActiveBlocksPerMultiprocessor(&theirs, &prop, &func, &state,
                                                          c->threads, (size_t)c->dyn_smem);
    silk_occ_result single = SILK_OCC_RESULT_INIT, planned = SILK_OCC_RESULT_INIT;
    silk_occ_status s1 = silk_occ_active(target, &c->k, c->threads, c->dyn_smem, &single);
    silk_occ_plan *plan = NULL;
    silk_occ_status s2 = silk_occ_plan_new(target, &c->k, &plan);
    if (s2 == SILK_OCC_OK)
        s2 = silk_occ_plan_eval(plan, c->threads, c->dyn_smem, &planned);
    silk_occ_plan_free(plan);
    const char *name = silk_occ_target_arch(target);
    return agrees("single call", name, c, status, &theirs, s1, &single) &&
           agrees("plan", name, c, status, &theirs, s2, &planned);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    ArchTable table;
    OccError err;
    if (n <= 0 || arch_table_load_builtin(&table, &err) != 0) {
        fprintf(stderr, "lib_oracle: bad count or tables\n");
        return 2;
    }
    silk_occ_target **targets = calloc(table.n_archs, sizeof *targets);
    for (size_t i = 0; targets && i < table.n_archs; i++) {
        char name[16];
        if (silk_occ_target_open(arch_sm_name(&table.archs[i], name, sizeof name), &targets[i],
                                 NULL, 0) != SILK_OCC_OK) {
            fprintf(stderr, "lib_oracle: the library does not know %s\n", name);
            return 1;
        }
    }
    uint64_t seed = 0x5111c0cc2026ull;
    long agreed = 0, resident = 0;
    for (long i = 0; targets && i < n; i++) {
        size_t row = (size_t)pick(&seed, 0, (int)table.n_archs - 1);
        Config c = draw(&seed, &table.archs[row]);
        if (!check(&table.archs[row], targets[row], &c))
            return 1;
        silk_occ_result r = SILK_OCC_RESULT_INIT;
        if (silk_occ_active(targets[row], &c.k, c.threads, c.dyn_smem, &r) == SILK_OCC_OK &&
            r.groups > 0)
            resident++;
        agreed++;
    }
    for (size_t i = 0; targets && i < table.n_archs; i++)
        silk_occ_target_close(targets[i]);
    printf("%ld of %ld configurations on %zu architectures agree with cuda_occupancy.h"
           " (single call and plan; %ld with a CTA resident)\n",
           agreed, n, table.n_archs, resident);
    free(targets);
    arch_table_free(&table);
    return 0;
}
