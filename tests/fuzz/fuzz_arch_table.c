/*
 * fuzz_arch_table.c: a libFuzzer target for the architecture-table loader
 * (occupancy/arch_load.c) on one table file of arbitrary bytes, read over
 * the built-in tables as `--arch-table FILE` is.  Then each row the file
 * added or changed is looked up by each of its names, a misspelling of one
 * goes to "did you mean", and an architecture row to the engine
 * (occupancy, best block size, next step, available dynamic shared
 * memory), so that a hostile row that the loader accepts is tried where
 * the program would use it.  Built with `./configure --enable-fuzz
 * CC=clang` as tests/fuzz/fuzz_arch_table and run by `make fuzz` from
 * tests/fuzz/seeds/arch_table with tests/fuzz/arch_table.dict.
 *
 * What silk-arch-tables(5) and occupancy.h promise is checked, and a
 * broken promise aborts: a failed load says "fuzz.csv:LINE: ..." and
 * leaves the table as it was; an accepted row holds every number inside
 * its column's range and is found by its own names.  Any crash,
 * sanitizer report, leak or hang is a bug too.
 */
#include "occupancy.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ORIGIN[] = "fuzz.csv";

static void require(bool promise)
{
    if (!promise)
        abort();
}

static void require_same_table(const ArchTable *a, const ArchTable *b)
{
    require(a->n_archs == b->n_archs && a->n_products == b->n_products);
    require(memcmp(a->archs, b->archs, a->n_archs * sizeof *a->archs) == 0);
    require(memcmp(a->products, b->products, a->n_products * sizeof *a->products) == 0);
}

/* Each integer column inside the bounds its .def file gives it (`row` is
 * the name the X-macros below use). */
static void require_in_range(const ArchLimits *row)
{
#define CHECK_INT(field, lo, hi) require(row->field >= (lo) && row->field <= (hi));
#define CHECK_OPT_INT(field, lo, hi) CHECK_INT(field, lo, hi)
#define CHECK_CC(field, lo, hi)
#define CHECK_TEXT(field, lo, hi)
#define CHECK_KIB_LIST(field, lo, hi)
#define CHECK_GRANULARITY(field, lo, hi)
#define ARCH_COLUMN(name, kind, lo, hi, meaning) CHECK_##kind(name, lo, hi)
#include "arch_columns.def"
#undef ARCH_COLUMN
    require(row->n_smem_configs >= 0 && row->n_smem_configs <= OCC_MAX_SMEM_CONFIGS);
}

static void require_product_in_range(const GpuProduct *row)
{
#define PRODUCT_COLUMN(name, kind, lo, hi, meaning) CHECK_##kind(name, lo, hi)
#include "product_columns.def"
#undef PRODUCT_COLUMN
#undef CHECK_INT
#undef CHECK_CC
#undef CHECK_OPT_INT
#undef CHECK_TEXT
#undef CHECK_KIB_LIST
#undef CHECK_GRANULARITY
}

/* Looks up each ';'-separated name of `aliases`. */
static void look_up_aliases(const ArchTable *t, const char *aliases, bool product)
{
    char copy[OCC_ALIASES_MAX];
    snprintf(copy, sizeof copy, "%s", aliases);
    for (char *name = strtok(copy, ";"); name; name = strtok(NULL, ";"))
        (void)(product ? (const void *)arch_table_find_product(t, name)
                       : (const void *)arch_table_find(t, name));
}

/* "Did you mean" for a misspelling of `name`: the edit distance over every
 * name of the table, hostile ones included.  Once per run, as it costs
 * more than the rest together. */
static void suggest_near(const ArchTable *t, const char *name)
{
    char misspelt[OCC_ALIASES_MAX], suggestion[OCC_ALIASES_MAX];
    snprintf(misspelt, sizeof misspelt, "%s", name);
    misspelt[0] ^= 1;
    (void)arch_table_suggest(t, misspelt, OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, suggestion,
                             sizeof suggestion);
}

/* What calc and report ask of a row, for a plain 256-thread kernel. */
static void use_in_engine(const ArchLimits *a)
{
    KernelResources k = occ_kernel_defaults(a, 32, 1024, true);
    OccResult r;
    OccNextStep next;
    OccBlockSizeChoice best;
    uint64_t bytes;
    (void)occ_active_blocks(a, &k, 256, 4096, &r);
    (void)occ_next_step(a, &k, 256, 4096, &next);
    (void)occ_best_block_size(a, &k, NULL, NULL, 4096, 132, &best);
    (void)occ_advise_block_size_all(a, &k, 4096, 1000000, 132, &best);
    OccCapAdvice cap;
    (void)occ_advise_register_cap(a, &k, 256, 4096, &cap);
    (void)occ_available_dynamic_smem(a, &k, 2, 256, &bytes);
    (void)arch_max_warps_per_sm(a);
    (void)arch_barriers_per_sm(a);
}

/* Whether the input added or changed row i of `rows` (n_builtin of them
 * built in): the built-in rows were tried in every run before. */
static bool is_from_input(const void *rows, size_t n_builtin, const void *builtin_rows, size_t i,
                          size_t row_size)
{
    return i >= n_builtin || memcmp((const char *)rows + i * row_size,
                                    (const char *)builtin_rows + i * row_size, row_size) != 0;
}

static void use_arch_row(const ArchTable *t, const ArchLimits *a)
{
    char name[16];
    require_in_range(a);
    require(arch_table_find(t, arch_sm_name(a, name, sizeof name)) != NULL);
    snprintf(name, sizeof name, "%d.%d", a->major, a->minor);
    require(arch_table_find(t, name) != NULL);
    look_up_aliases(t, a->aliases, false);
    use_in_engine(a);
}

static void use_product_row(const ArchTable *t, const GpuProduct *g)
{
    require_product_in_range(g);
    require(arch_table_find_product(t, g->id) != NULL);
    look_up_aliases(t, g->aliases, true);
    (void)arch_table_product_arch(t, g);
}

/* Each row the input added or changed, where the program would use it. */
static void use_rows_from_input(const ArchTable *t, const ArchTable *builtin)
{
    const char *last_name = NULL;
    for (size_t i = 0; i < t->n_archs; i++)
        if (is_from_input(t->archs, builtin->n_archs, builtin->archs, i, sizeof *t->archs)) {
            use_arch_row(t, &t->archs[i]);
            last_name = t->archs[i].aliases;
        }
    for (size_t i = 0; i < t->n_products; i++)
        if (is_from_input(t->products, builtin->n_products, builtin->products, i,
                          sizeof *t->products)) {
            use_product_row(t, &t->products[i]);
            last_name = t->products[i].id;
        }
    if (last_name)
        suggest_near(t, last_name);
}

/* The built-in tables, loaded once: every run starts from a copy. */
static ArchTable builtin;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    OccError err;
    require(arch_table_load_builtin(&builtin, &err) == 0);
    return 0;
}

static void copy_builtin(ArchTable *t)
{
    *t = builtin;
    t->archs = malloc(builtin.n_archs * sizeof *t->archs);
    t->products = malloc(builtin.n_products * sizeof *t->products);
    require(t->archs && t->products);
    memcpy(t->archs, builtin.archs, builtin.n_archs * sizeof *t->archs);
    memcpy(t->products, builtin.products, builtin.n_products * sizeof *t->products);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ArchTable table;
    OccError err;
    copy_builtin(&table);
    err.message[0] = '\0';
    if (arch_table_load_text(&table, (const char *)data, size, ORIGIN, &err) != 0) {
        require(strncmp(err.message, ORIGIN, strlen(ORIGIN)) == 0 && err.message[strlen(ORIGIN)] == ':');
        /* What the file said is quoted escaped (item 12 of issue 11). */
        for (const char *c = err.message; *c; c++)
            require((unsigned char)*c >= 0x20 && *c != 0x7f);
        require_same_table(&table, &builtin);
    }
    use_rows_from_input(&table, &builtin);
    arch_table_free(&table);
    return 0;
}
