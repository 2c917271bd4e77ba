/*
 * check_next_step.c: occ_next_step against the plain step by step scan.
 *
 * occupancy/advice.c walks its scans in runs over which the CTA count
 * cannot change, instead of one register and one allocation unit at a
 * time.  It must give exactly what the plain scans give, for every input:
 * the reference below is those scans as they were (one occupancy
 * calculation per step), kept here and nowhere else.  The grid covers
 * every architecture of the built-in tables, every register count 0..255
 * (and past the allocation limit), block sizes 32..1024, static shared
 * memory from 0 to past the opt-in limit, dynamic shared memory, opt-in or
 * not, every kind of carveout (default, 0 %, odd percentages, 100 %) and
 * partitioned caching; then rows with 8-byte and 1-byte allocation units,
 * where the scan strides (MAX_SMEM_STEPS), and rows without carveouts.
 */
#include "occupancy.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- the reference: the step by step scans ------------------------------- */

enum { REF_MAX_SMEM_STEPS = 4096 };

static int ref_blocks_with(const ArchLimits *arch, const KernelResources *k, int block_size,
                           uint64_t dynamic_smem)
{
    OccResult r;
    if (occ_active_blocks(arch, k, block_size, dynamic_smem, &r) != OCC_OK)
        return -1;
    return r.active_blocks;
}

static void ref_register_steps(const ArchLimits *arch, const KernelResources *k, int block_size,
                               uint64_t dynamic_smem, int now, OccNextStep *out)
{
    KernelResources trial = *k;
    out->regs_to_cut = -1;
    out->regs_gained_blocks = -1;
    for (int regs = k->regs_per_thread - 1; regs >= 0; regs--) {
        trial.regs_per_thread = regs;
        int blocks = ref_blocks_with(arch, &trial, block_size, dynamic_smem);
        if (blocks > now) {
            out->regs_to_cut = k->regs_per_thread - regs;
            out->regs_gained_blocks = blocks;
            break;
        }
    }
    out->regs_slack = 0;
    for (int regs = k->regs_per_thread + 1; regs <= arch->max_regs_per_thread; regs++) {
        trial.regs_per_thread = regs;
        if (ref_blocks_with(arch, &trial, block_size, dynamic_smem) < now)
            break;
        out->regs_slack = regs - k->regs_per_thread;
    }
}

static int ref_blocks_with_total(const ArchLimits *arch, const KernelResources *k,
                                 int block_size, uint64_t total)
{
    KernelResources trial = *k;
    if (total < trial.static_smem)
        trial.static_smem = total;
    return ref_blocks_with(arch, &trial, block_size, total - trial.static_smem);
}

static void ref_smem_steps(const ArchLimits *arch, const KernelResources *k, int block_size,
                           uint64_t dynamic_smem, int now, OccNextStep *out)
{
    uint64_t unit = (uint64_t)arch->smem_alloc_unit;
    uint64_t reserved = (uint64_t)arch->reserved_smem_per_block;
    uint64_t total = k->static_smem + dynamic_smem;
    uint64_t first_class = (total + reserved + unit - 1) / unit;
    uint64_t ceiling = (uint64_t)arch->smem_per_block_optin + reserved;
    uint64_t stride = (ceiling / unit + REF_MAX_SMEM_STEPS) / REF_MAX_SMEM_STEPS;

    out->smem_to_cut = -1;
    out->smem_gained_blocks = -1;
    for (uint64_t c = first_class; c > 0 && total > 0;) {
        c = c > stride ? c - stride : 0;
        uint64_t candidate = c * unit > reserved ? c * unit - reserved : 0;
        if (candidate >= total)
            continue;
        int blocks = ref_blocks_with_total(arch, k, block_size, candidate);
        if (blocks > now) {
            out->smem_to_cut = (int64_t)(total - candidate);
            out->smem_gained_blocks = blocks;
            break;
        }
        if (candidate == 0)
            break;
    }
    out->smem_slack = 0;
    for (uint64_t c = first_class; c * unit <= ceiling; c += stride) {
        uint64_t candidate = c * unit - reserved;
        if (candidate < total)
            continue;
        if (ref_blocks_with_total(arch, k, block_size, candidate) < now)
            break;
        out->smem_slack = (int64_t)(candidate - total);
    }
}

static OccStatus ref_next_step(const ArchLimits *arch, const KernelResources *k, int block_size,
                               uint64_t dynamic_smem, OccNextStep *out)
{
    OccResult r;
    OccStatus status = occ_active_blocks(arch, k, block_size, dynamic_smem, &r);
    if (status != OCC_OK)
        return status;
    ref_register_steps(arch, k, block_size, dynamic_smem, r.active_blocks, out);
    ref_smem_steps(arch, k, block_size, dynamic_smem, r.active_blocks, out);
    return OCC_OK;
}

/* ---- the comparison -------------------------------------------------------- */

static ArchTable table;
static long compared; /* cases where both gave OCC_OK */

static void load_tables(void)
{
    OccError err;
    ck_assert_msg(arch_table_load_builtin(&table, &err) == 0, "%s", err.message);
}

static void free_tables(void) { arch_table_free(&table); }

static void compare(const ArchLimits *arch, const KernelResources *k, int block_size,
                    uint64_t dyn)
{
    OccNextStep want, got;
    OccStatus want_status = ref_next_step(arch, k, block_size, dyn, &want);
    OccStatus got_status = occ_next_step(arch, k, block_size, dyn, &got);
    ck_assert_int_eq(got_status, want_status);
    if (want_status != OCC_OK)
        return;
    compared++;
    if (got.regs_to_cut == want.regs_to_cut &&
        got.regs_gained_blocks == want.regs_gained_blocks &&
        got.regs_slack == want.regs_slack && got.smem_to_cut == want.smem_to_cut &&
        got.smem_gained_blocks == want.smem_gained_blocks &&
        got.smem_slack == want.smem_slack)
        return;
    ck_abort_msg("cc %d.%d unit %d regs %d static %llu dyn %llu optin %d carveout %d "
                 "gc %d threads %d: want {%d %d %d %lld %d %lld} got {%d %d %d %lld %d %lld}",
                 arch->major, arch->minor, arch->smem_alloc_unit, k->regs_per_thread,
                 (unsigned long long)k->static_smem, (unsigned long long)dyn, k->smem_optin,
                 k->carveout, (int)k->partitioned_gc, block_size, want.regs_to_cut,
                 want.regs_gained_blocks, want.regs_slack, (long long)want.smem_to_cut,
                 want.smem_gained_blocks, (long long)want.smem_slack, got.regs_to_cut,
                 got.regs_gained_blocks, got.regs_slack, (long long)got.smem_to_cut,
                 got.smem_gained_blocks, (long long)got.smem_slack);
}

/* A deterministic generator, so that a failure names a case that recurs. */
static uint64_t lcg(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static const int carveouts[] = {OCC_CARVEOUT_DEFAULT, 0, 1, 13, 25, 50, 67, 99, 100};
static const int block_sizes[] = {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1000, 1024};
enum { N_CARVEOUTS = sizeof carveouts / sizeof carveouts[0] };
enum { N_BLOCK_SIZES = sizeof block_sizes / sizeof block_sizes[0] };

/* Static shared memory at the sizes where the rules turn (0, one byte,
 * the units, the default and opt-in limits and one past them), then
 * random sizes up to past the opt-in limit. */
static uint64_t static_size(const ArchLimits *a, int i, uint64_t *state)
{
    uint64_t unit = (uint64_t)a->smem_alloc_unit, optin = (uint64_t)a->smem_per_block_optin;
    uint64_t edges[] = {0, 1, unit - 1, unit, unit + 1, 4096,
                        (uint64_t)a->smem_per_block - 1, (uint64_t)a->smem_per_block,
                        (uint64_t)a->smem_per_block + 1, optin - unit, optin, optin + 1};
    if (i < (int)(sizeof edges / sizeof edges[0]))
        return edges[i];
    return lcg(state) % (optin + optin / 8 + 1);
}

static uint64_t dynamic_size(const ArchLimits *a, uint64_t static_smem, uint64_t *state)
{
    switch (lcg(state) % 4) {
    case 0:
        return 0;
    case 1:
        return lcg(state) % 4096;
    default: {
        uint64_t room = (uint64_t)a->smem_per_block_optin + 2048;
        return room > static_smem ? lcg(state) % (room - static_smem) : 0;
    }
    }
}

/* One random kernel on `arch`, with a register count chosen by the caller. */
static void compare_random(const ArchLimits *arch, int regs, int i, uint64_t *state)
{
    bool optin = lcg(state) % 2;
    uint64_t static_smem = static_size(arch, i, state);
    KernelResources k = occ_kernel_defaults(arch, regs, static_smem, optin);
    k.carveout = carveouts[lcg(state) % N_CARVEOUTS];
    k.barriers = (int)(lcg(state) % 4);
    if (lcg(state) % 8 == 0)
        k.max_dynamic_smem = lcg(state) % 65536;
    k.partitioned_gc = (OccPartitionedGc)(lcg(state) % 3);
    int threads = block_sizes[lcg(state) % N_BLOCK_SIZES];
    if (lcg(state) % 8 == 0)
        threads = 1 + (int)(lcg(state) % 1024);
    compare(arch, &k, threads, dynamic_size(arch, static_smem, state));
}

/* Every register count 0..255 and a few past the allocation limit, each
 * with random shared memory, carveout and block size, on every
 * architecture of the built-in tables. */
START_TEST(test_builtin_grid)
{
    uint64_t state = 25;
    for (size_t a = 0; a < table.n_archs; a++) {
        const ArchLimits *arch = &table.archs[a];
        for (int regs = 0; regs <= 260; regs++)
            for (int i = 0; i < 30; i++)
                compare_random(arch, regs, i, &state);
    }
    /* Most cases fit: the grid is not spent on refusals. */
    ck_assert_int_gt(compared, 140000);
}
END_TEST

/* The shared-memory scan's edge cases in full on the common rows: every
 * carveout, every static edge and dynamic sizes around the units. */
START_TEST(test_smem_edges)
{
    static const char *const archs[] = {"sm_52", "sm_61", "sm_75", "sm_80", "sm_86",
                                        "sm_90", "sm_100", "sm_120"};
    uint64_t state = 90;
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        const ArchLimits *arch = arch_table_find(&table, archs[a]);
        if (!arch)
            continue;
        for (int c = 0; c < N_CARVEOUTS; c++)
            for (int i = 0; i < 12; i++)
                for (int optin = 0; optin < 2; optin++) {
                    KernelResources k = occ_kernel_defaults(arch, 32, static_size(arch, i, &state),
                                                            optin);
                    k.carveout = carveouts[c];
                    uint64_t unit = (uint64_t)arch->smem_alloc_unit;
                    uint64_t dyns[] = {0, 1, unit - 1, unit, 3 * unit + 5, 20000, 50000, 100000};
                    for (size_t d = 0; d < sizeof dyns / sizeof dyns[0]; d++)
                        compare(arch, &k, 256, dyns[d]);
                }
    }
}
END_TEST

/* Rows a user table may give: small allocation units (the scan strides
 * past MAX_SMEM_STEPS units), no carveouts, no reserved part. */
START_TEST(test_strided_rows)
{
    const ArchLimits *base = arch_table_find(&table, "sm_90");
    ck_assert_ptr_nonnull(base);
    static const int units[] = {1, 8, 32};
    uint64_t state = 4096;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
        for (int variant = 0; variant < 3; variant++) {
            ArchLimits arch = *base;
            arch.smem_alloc_unit = units[u];
            if (variant >= 1)
                arch.reserved_smem_per_block = 0;
            if (variant == 2)
                arch.n_smem_configs = 0;
            for (int regs = 0; regs <= 255; regs += 3)
                for (int i = 0; i < 4; i++)
                    compare_random(&arch, regs, i, &state);
        }
}
END_TEST

static Suite *next_step_suite(void)
{
    Suite *s = suite_create("next_step");
    TCase *tc = tcase_create("against the step by step scan");
    tcase_add_unchecked_fixture(tc, load_tables, free_tables);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_builtin_grid);
    tcase_add_test(tc, test_smem_edges);
    tcase_add_test(tc, test_strided_rows);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(next_step_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("%ld cases compared\n", compared);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
