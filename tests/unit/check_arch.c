/*
 * check_arch.c: unit tests of the architecture-table loader and lookup.
 *
 * The built-in tables must load and hold every compute capability and the
 * named products with their compute capability and SM count; rows are found
 * by every spelling ("9.0", "sm_90", "SM_90", "sm_90a", "compute_90",
 * "hopper"); "did you mean" offers a close name and nothing for nonsense.
 * arch_table_load_text and arch_table_load_file override or add rows, and
 * each kind of bad input is rejected with its exact "ORIGIN:LINE: field
 * 'NAME': ..." message (texts from occupancy/arch_load.c), the line counted
 * over comments and blank lines, and the table left exactly as it was.
 */
#include "occupancy.h"
#include "common/emulated_device.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- fixture and helpers ------------------------------------------------- */

static ArchTable table;    /* what a test changes */
static ArchTable pristine; /* the built-in tables, untouched */

static void load_tables(void)
{
    OccError err;
    ck_assert_msg(arch_table_load_builtin(&table, &err) == 0, "%s", err.message);
    ck_assert_msg(arch_table_load_builtin(&pristine, &err) == 0, "%s", err.message);
}

static void free_tables(void)
{
    arch_table_free(&table);
    arch_table_free(&pristine);
}

static const ArchLimits *find_arch(const ArchTable *t, const char *name)
{
    const ArchLimits *arch = arch_table_find(t, name);
    ck_assert_msg(arch != NULL, "no architecture %s", name);
    return arch;
}

static const GpuProduct *find_product(const ArchTable *t, const char *name)
{
    const GpuProduct *gpu = arch_table_find_product(t, name);
    ck_assert_msg(gpu != NULL, "no product %s", name);
    return gpu;
}

static int load(const char *text, OccError *err)
{
    return arch_table_load_text(&table, text, strlen(text), "t.csv", err);
}

static void assert_loads(const char *text)
{
    OccError err;
    ck_assert_msg(load(text, &err) == 0, "%s", err.message);
}

static void assert_table_unchanged(void)
{
    ck_assert_uint_eq(table.n_archs, pristine.n_archs);
    ck_assert_uint_eq(table.n_products, pristine.n_products);
    ck_assert_mem_eq(table.archs, pristine.archs, table.n_archs * sizeof *table.archs);
    ck_assert_mem_eq(table.products, pristine.products,
                     table.n_products * sizeof *table.products);
}

/* ---- the built-in tables -------------------------------------------------------- */

static const char *const compute_capabilities[] = {
    "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0",
    "8.6", "8.7", "8.9", "9.0", "10.0", "10.3", "11.0", "12.0", "12.1",
};

START_TEST(test_builtin_has_cc)
{
    const char *cc = compute_capabilities[_i];
    const ArchLimits *arch = find_arch(&table, cc);
    char text[16], sm[16];
    snprintf(text, sizeof text, "%d.%d", arch->major, arch->minor);
    ck_assert_str_eq(text, cc);
    /* its sm_ name finds the same row */
    ck_assert_ptr_eq(find_arch(&table, arch_sm_name(arch, sm, sizeof sm)), arch);
    ck_assert_int_eq(arch->warp_size, 32);
}
END_TEST

START_TEST(test_builtin_sm_names)
{
    char buf[16];
    ck_assert_str_eq(arch_sm_name(find_arch(&table, "9.0"), buf, sizeof buf), "sm_90");
    ck_assert_str_eq(arch_sm_name(find_arch(&table, "10.0"), buf, sizeof buf), "sm_100");
    ck_assert_str_eq(arch_sm_name(find_arch(&table, "12.1"), buf, sizeof buf), "sm_121");
}
END_TEST

/* A few limits of the rows the engine's rules hinge on. */
START_TEST(test_builtin_values)
{
    const ArchLimits *h = find_arch(&table, "9.0");
    ck_assert_int_eq(arch_max_warps_per_sm(h), 64);
    ck_assert_int_eq(h->max_blocks_per_sm, 32);
    ck_assert_int_eq(h->smem_per_sm, 233472);
    ck_assert_int_eq(h->n_smem_configs, 10);
    ck_assert_int_eq(h->smem_configs[0], 0);
    ck_assert_int_eq(h->smem_configs[9], 228 * 1024);
    ck_assert_int_eq(h->barriers_per_cta_slot, 2);
    ck_assert_int_eq(arch_barriers_per_sm(h), 64);
    ck_assert_int_eq(arch_max_warps_per_sm(find_arch(&table, "7.5")), 32);
    ck_assert_int_eq(find_arch(&table, "7.5")->smem_configs[1], 65536);
    ck_assert_int_eq(arch_max_warps_per_sm(find_arch(&table, "8.6")), 48);
    ck_assert_int_eq(find_arch(&table, "8.9")->max_blocks_per_sm, 24);
    ck_assert_int_eq(find_arch(&table, "6.0")->compat_sub_partitions, 4);
    ck_assert_int_eq(find_arch(&table, "6.1")->partitioned_gc, 1);
    ck_assert_int_eq(find_arch(&table, "5.0")->n_smem_configs, 0);
    ck_assert_int_eq(find_arch(&table, "10.0")->virtual_resources_per_sm, 128);
    ck_assert_int_eq(find_arch(&table, "12.0")->barriers_per_cta_slot, 1);
    ck_assert_int_eq(arch_barriers_per_sm(find_arch(&table, "12.0")), 24);
}
END_TEST

typedef struct ProductCase {
    const char *id;
    int major, minor, sm_count;
} ProductCase;

static const ProductCase products[] = {
    {"v100", 7, 0, 80},       {"t4", 7, 5, 40},          {"a100-40gb", 8, 0, 108},
    {"a100-80gb", 8, 0, 108}, {"a10", 8, 6, 72},         {"a30", 8, 0, 56},
    {"rtx-3090", 8, 6, 82},   {"rtx-4090", 8, 9, 128},   {"l4", 8, 9, 58},
    {"l40s", 8, 9, 142},      {"h100-sxm", 9, 0, 132},   {"h100-pcie", 9, 0, 114},
    {"h200", 9, 0, 132},      {"gh200", 9, 0, 132},      {"b200", 10, 0, 148},
    {"rtx-5090", 12, 0, 170}, {"jetson-agx-orin", 8, 7, 16},
};

START_TEST(test_builtin_has_product)
{
    const ProductCase *c = &products[_i];
    const GpuProduct *gpu = find_product(&table, c->id);
    ck_assert_str_eq(gpu->id, c->id);
    ck_assert_int_eq(gpu->major, c->major);
    ck_assert_int_eq(gpu->minor, c->minor);
    ck_assert_int_eq(gpu->sm_count, c->sm_count);
    const ArchLimits *arch = arch_table_product_arch(&table, gpu);
    ck_assert_ptr_nonnull(arch);
    ck_assert_int_eq(arch->major, c->major);
    ck_assert_int_eq(arch->minor, c->minor);
}
END_TEST

START_TEST(test_product_aliases)
{
    ck_assert_str_eq(find_product(&table, "h100")->id, "h100-sxm");
    ck_assert_str_eq(find_product(&table, "H100")->id, "h100-sxm");
    ck_assert_str_eq(find_product(&table, "H100-SXM")->id, "h100-sxm");
    ck_assert_str_eq(find_product(&table, "a100")->id, "a100-40gb");
    ck_assert_str_eq(find_product(&table, "4090")->id, "rtx-4090");
    ck_assert_ptr_null(arch_table_find_product(&table, "h300"));
    ck_assert_ptr_null(arch_table_find_product(&table, ""));
}
END_TEST

/* The constants the runtime and silkc take for the device the CPU backend
 * emulates are the products table's row, as the compiler reads it. */
START_TEST(test_emulated_device)
{
    const GpuProduct *gpu = find_product(&table, SILK_EMULATED_PRODUCT);
    ck_assert_int_eq(gpu->sm_count, SILK_EMULATED_SMS);
    char text[16];
    snprintf(text, sizeof text, "%d", gpu->sm_count);
    ck_assert_str_eq(text, SILK_EMULATED_SMS_TEXT);
    ck_assert_ptr_eq(arch_table_product_arch(&table, gpu), find_arch(&table, SILK_EMULATED_ARCH));
    ck_assert_int_eq(SILK_EMULATED_SMS, 132); /* h100-sxm: an H100 SXM5 has 132 SMs */
}
END_TEST

/* ---- lookup by name ----------------------------------------------------------- */

static const char *const hopper_names[] = {
    "9.0", "sm_90", "SM_90", "sm_90a", "compute_90", "hopper", "HOPPER", "Compute_90",
};

START_TEST(test_find_hopper)
{
    const ArchLimits *arch = arch_table_find(&table, hopper_names[_i]);
    ck_assert_msg(arch != NULL, "'%s' not found", hopper_names[_i]);
    ck_assert_int_eq(arch->major, 9);
    ck_assert_int_eq(arch->minor, 0);
    ck_assert_ptr_eq(arch, find_arch(&table, "9.0"));
}
END_TEST

START_TEST(test_find_other_names)
{
    ck_assert_int_eq(find_arch(&table, "sm_100a")->major, 10);
    ck_assert_int_eq(find_arch(&table, "thor")->major, 11);
    ck_assert_int_eq(find_arch(&table, "ada")->minor, 9);
    ck_assert_int_eq(find_arch(&table, "orin")->minor, 7);
    ck_assert_int_eq(find_arch(&table, "compute_121")->minor, 1);
}
END_TEST

static const char *const unknown_names[] = {
    "sm_91", "9.1", "sm_9", "90", "", "sm_90 ", "sm_90ab", "hopp", "compute-90",
};

START_TEST(test_find_unknown)
{
    ck_assert_msg(arch_table_find(&table, unknown_names[_i]) == NULL, "'%s' was found",
                  unknown_names[_i]);
}
END_TEST

/* ---- did you mean -------------------------------------------------------------- */

typedef struct SuggestCase {
    const char *typed;
    int kinds;
    const char *suggested; /* NULL: nothing close */
} SuggestCase;

static const SuggestCase suggest_cases[] = {
    {"sm_91", OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, "sm_90"}, /* 1 from sm_90 and sm_61; sm_90 shares more */
    {"h10", OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, "h100"},    /* 1 from h100 and a10; h100 shares "h10" */
    {"hoper", OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, "hopper"},
    {"a100-40", OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, "a100-40gb"}, /* 2, allowed max(7/3, 1) */
    {"qqqqqqqq", OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, NULL},
    {"xyzzy", OCC_SUGGEST_ARCHS | OCC_SUGGEST_PRODUCTS, NULL},
    /* only the kinds asked for */
    {"hoper", OCC_SUGGEST_PRODUCTS, NULL},
    {"sm_91", OCC_SUGGEST_PRODUCTS, NULL},
    {"h10", OCC_SUGGEST_PRODUCTS, "h100"},
    {"h10", OCC_SUGGEST_ARCHS, NULL}, /* not '5.0': two of three characters differ */
};

START_TEST(test_suggest)
{
    const SuggestCase *c = &suggest_cases[_i];
    char buf[OCC_ALIASES_MAX];
    const char *got = arch_table_suggest(&table, c->typed, c->kinds, buf, sizeof buf);
    if (!c->suggested) {
        ck_assert_msg(got == NULL, "'%s' suggested '%s'", c->typed, got);
        return;
    }
    ck_assert_msg(got != NULL, "nothing suggested for '%s'", c->typed);
    ck_assert_ptr_eq(got, buf);
    ck_assert_str_eq(got, c->suggested);
}
END_TEST

/* ---- loading text: rows that load ---------------------------------------------- */

START_TEST(test_override_keeps_other_fields)
{
    ArchLimits before = *find_arch(&table, "9.0");
    assert_loads("cc,max_blocks_per_sm\n9.0,16\n");
    ArchLimits after = *find_arch(&table, "9.0");
    ck_assert_int_eq(after.max_blocks_per_sm, 16);
    after.max_blocks_per_sm = before.max_blocks_per_sm;
    ck_assert_mem_eq(&after, &before, sizeof before);
    ck_assert_uint_eq(table.n_archs, pristine.n_archs);
}
END_TEST

START_TEST(test_override_any_order_empty_cells)
{
    /* columns in any order; an empty cell keeps the old value */
    assert_loads("max_blocks_per_sm,cc,warp_size\n8,8.6,\n");
    const ArchLimits *a = find_arch(&table, "8.6");
    ck_assert_int_eq(a->max_blocks_per_sm, 8);
    ck_assert_int_eq(a->warp_size, 32);
    ck_assert_int_eq(a->max_threads_per_sm, 1536);
}
END_TEST

START_TEST(test_comments_and_blank_lines)
{
    assert_loads("# a comment, with a comma\n\ncc,max_blocks_per_sm\n  # indented\n\n"
                 "# the \"cc\" column, quoted\n9.0,20\n");
    ck_assert_int_eq(find_arch(&table, "9.0")->max_blocks_per_sm, 20);
}
END_TEST

static const char full_header[] =
    "cc,family,aliases,warp_size,max_threads_per_block,max_threads_per_sm,max_blocks_per_sm,"
    "regs_per_sm,regs_per_block,max_regs_per_thread,reg_alloc_limit_per_thread,reg_alloc_unit,"
    "reg_alloc_granularity,warp_alloc_granularity,sub_partitions,compat_sub_partitions,"
    "smem_per_sm,smem_per_block,smem_per_block_optin,reserved_smem_per_block,smem_alloc_unit,"
    "smem_configs_kib,barriers_per_cta_slot,virtual_resources_per_sm,partitioned_gc,max_grid_x,"
    "max_grid_y,max_grid_z\n";

START_TEST(test_new_arch_row)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s", full_header,
             "13.0,Future,sm_130a;future,32,1024,2048,32,65536,65536,255,256,256,warp,4,4,0,"
             "233472,49152,232448,1024,128,0;8;16;32;64;100;132;164;196;228,2,128,0,"
             "2147483647,65535,65535\n");
    assert_loads(text);
    ck_assert_uint_eq(table.n_archs, pristine.n_archs + 1);
    const ArchLimits *a = find_arch(&table, "13.0");
    ck_assert_ptr_eq(find_arch(&table, "sm_130"), a);
    ck_assert_ptr_eq(find_arch(&table, "sm_130a"), a);
    ck_assert_ptr_eq(find_arch(&table, "future"), a);
    ck_assert_str_eq(a->family, "Future");
    ck_assert_int_eq(a->n_smem_configs, 10);
    ck_assert_int_eq(a->virtual_resources_per_sm, 128);
    /* and the engine can use it: 256 threads at 32 regs fill 64 warps */
    KernelResources k = occ_kernel_defaults(a, 32, 0, false);
    OccResult r;
    ck_assert_int_eq(occ_active_blocks(a, &k, 256, 0, &r), OCC_OK);
    ck_assert_int_eq(r.active_blocks, 8);
}
END_TEST

START_TEST(test_new_product_row)
{
    assert_loads("id,name,aliases,cc,sm_count,memory_gib\nmy-gpu,My GPU,mine;my,9.0,100,80\n");
    ck_assert_uint_eq(table.n_products, pristine.n_products + 1);
    const GpuProduct *gpu = find_product(&table, "mine");
    ck_assert_str_eq(gpu->id, "my-gpu");
    ck_assert_str_eq(gpu->name, "My GPU");
    ck_assert_int_eq(gpu->sm_count, 100);
    ck_assert_int_eq(gpu->memory_gib, 80);
    ck_assert_ptr_eq(arch_table_product_arch(&table, gpu), find_arch(&table, "9.0"));
}
END_TEST

START_TEST(test_product_override)
{
    assert_loads("id,sm_count\nh100-sxm,130\n");
    const GpuProduct *gpu = find_product(&table, "h100-sxm");
    ck_assert_int_eq(gpu->sm_count, 130);
    ck_assert_str_eq(gpu->name, "H100 SXM5 80GB");
    ck_assert_int_eq(gpu->major, 9);
    ck_assert_uint_eq(table.n_products, pristine.n_products);
}
END_TEST

/* ---- loading text: rows that are rejected -------------------------------------- */

typedef struct BadCase {
    const char *text;
    const char *message;
} BadCase;

static const BadCase bad_cases[] = {
    /* a new row: columns in .def order, family and aliases (text) may be omitted */
    {"cc,warp_size\n13.0,32\n",
     "t.csv:2: field 'max_threads_per_block': missing (a new row must give every column)"},
    {"id,cc\nnew-gpu,9.0\n",
     "t.csv:2: field 'sm_count': missing (a new row must give every column)"},
    {"cc,warp_size\n9.0,abc\n", "t.csv:2: field 'warp_size': 'abc' is not an integer"},
    {"cc,warp_size\n9.0,32x\n", "t.csv:2: field 'warp_size': '32x' is not an integer"},
    {"cc,warp_size\n9.0,0\n", "t.csv:2: field 'warp_size': 0 is outside 1..1024"},
    {"cc,partitioned_gc\n9.0,2\n", "t.csv:2: field 'partitioned_gc': 2 is outside 0..1"},
    {"cc,warp_size\n9.x,32\n", "t.csv:2: field 'cc': '9.x' is not a compute capability (MAJOR.MINOR)"},
    {"cc,warp_size\n10.10,32\n", "t.csv:2: field 'cc': '10.10' is not a compute capability (MAJOR.MINOR)"},
    {"id,cc\nh100-sxm,9\n", "t.csv:2: field 'cc': '9' is not a compute capability (MAJOR.MINOR)"},
    {"cc,warp_size\n09.0,32\n", "t.csv:2: field 'cc': '09.0' is not a compute capability (MAJOR.MINOR)"},
    {"cc,warp_size\n9.00,32\n", "t.csv:2: field 'cc': '9.00' is not a compute capability (MAJOR.MINOR)"},
    {"cc,warp_size\n9.-0,32\n", "t.csv:2: field 'cc': '9.-0' is not a compute capability (MAJOR.MINOR)"},
    {"cc,warp_size\n,32\n", "t.csv:2: field 'cc': empty (every row needs one)"},
    {"id,sm_count\n,32\n", "t.csv:2: field 'id': empty (every row needs one)"},
    {"cc,warp_size,bogus\n9.0,32,1\n",
     "t.csv:1: field 'bogus': not a column of the compute-capability table"},
    {"id,sm_count,clock_mhz\n", "t.csv:1: field 'clock_mhz': not a column of the product table"},
    {"cc,warp_size,warp_size\n9.0,32,32\n", "t.csv:1: field 'warp_size': named twice in the header"},
    {"warp_size\n32\n", "t.csv:1: field 'cc': the header has no 'cc' column"},
    {"cc,warp_size\n9.0,32,5\n", "t.csv:2: field 'warp_size': the row has 3 fields, the header 2"},
    {"cc,warp_size,max_blocks_per_sm\n9.0,32\n",
     "t.csv:2: field 'max_blocks_per_sm': the row has 2 fields, the header 3"},
    {"cc,warp_size\n9.0,\"32\n",
     "t.csv:2: field 'warp_size': malformed CSV: a quoted field that never closes"},
    {"cc,warp_size\n9.0,3\"2\n",
     "t.csv:2: field 'warp_size': malformed CSV: a quote inside a field, or text after a closing quote"},
    /* the line the row began on, however many lines the open quote swallows */
    {"cc,family\n9.0,\"Hopper\n8.0,Ampere\n8.6,Ampere\n",
     "t.csv:2: field 'family': malformed CSV: a quoted field that never closes"},
    {"cc,\"family\n",
     "t.csv:1: field 2: malformed CSV: a quoted field that never closes"},
    {"", "t.csv:1: the file has no header row"},
    {"# only a comment\n\n", "t.csv:2: the file has no header row"},
    {"id,name,aliases,cc,sm_count,memory_gib\nx1,X One,,13.0,10,8\n",
     "t.csv:2: field 'cc': 13.0 is not in the compute-capability table"},
    /* comments and blank lines still count as lines */
    {"# a comment, with a comma\n\ncc,warp_size\n# another\n\n9.0,abc\n",
     "t.csv:6: field 'warp_size': 'abc' is not an integer"},
    {"cc,warp_size\r\n9.0,abc\r\n", "t.csv:2: field 'warp_size': 'abc' is not an integer"},
    {"cc,warp_size\n9.0,abc", "t.csv:2: field 'warp_size': 'abc' is not an integer"},
    /* the first row is good, the second is not: nothing is kept */
    {"cc,max_blocks_per_sm\n9.0,16\n8.0,abc\n",
     "t.csv:3: field 'max_blocks_per_sm': 'abc' is not an integer"},
    /* a key twice in one file is a mistake, not an override */
    {"cc,max_blocks_per_sm\n9.0,16\n# x\n9.0,8\n",
     "t.csv:4: field 'cc': '9.0' is given twice in the file (lines 2 and 4)"},
    {"id,cc,sm_count,memory_gib\nx1,9.0,100,8\nx1,9.0,90,8\n",
     "t.csv:3: field 'id': 'x1' is given twice in the file (lines 2 and 3)"},
    /* a space, a sign alone or a control character in a cell (a NUL:
     * tests/cli/hostile_occ.sh, as this table's texts end at one) */
    {"cc,max_blocks_per_sm\n9.0,\" 16\"\n",
     "t.csv:2: field 'max_blocks_per_sm': ' 16' is not an integer"},
    {"cc,max_blocks_per_sm\n9.0,+\n", "t.csv:2: field 'max_blocks_per_sm': '+' is not an integer"},
    {"cc,family\n9.0,\"a\nb\"\n", "t.csv:2: field 'family': holds a control character"},
    /* checks across fields */
    {"cc,max_threads_per_block\n9.0,4096\n",
     "t.csv:2: field 'max_threads_per_block': 4096 exceeds max_threads_per_sm (2048)"},
    {"cc,smem_per_block_optin\n9.0,1000\n",
     "t.csv:2: field 'smem_per_block_optin': 1000 is below smem_per_block (49152)"},
    {"cc,smem_configs_kib\n9.0,8;4\n",
     "t.csv:2: field 'smem_configs_kib': carveouts must be in ascending order"},
    {"cc,smem_configs_kib\n9.0,8;x\n",
     "t.csv:2: field 'smem_configs_kib': '8;x' is not a ';'-separated list of KiB sizes"},
    {"cc,smem_configs_kib\n9.0,0;8\n",
     "t.csv:2: field 'smem_configs_kib': the largest carveout is below smem_per_sm (233472)"},
    {"cc,reg_alloc_granularity\n9.0,thread\n",
     "t.csv:2: field 'reg_alloc_granularity': 'thread' is not supported "
     "(registers are allocated per warp)"},
    {"cc,family\n9.0,0123456789012345678901234567890123456789012345678901234567890123\n",
     "t.csv:2: field 'family': longer than 63 characters"},
};

START_TEST(test_bad_text)
{
    const BadCase *c = &bad_cases[_i];
    OccError err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(load(c->text, &err), -1);
    ck_assert_str_eq(err.message, c->message);
    assert_table_unchanged();
}
END_TEST

/* A byte-order mark (as spreadsheets save CSV) is no part of the first
 * column's name; a second text (a second file) overrides what the first
 * gave, as one file may not. */
START_TEST(test_bom_and_second_file)
{
    assert_loads("\xef\xbb\xbf" "cc,max_blocks_per_sm\n9.0,16\n");
    ck_assert_int_eq(arch_table_find(&table, "sm_90")->max_blocks_per_sm, 16);
    assert_loads("cc,max_blocks_per_sm\n9.0,8\n");
    ck_assert_int_eq(arch_table_find(&table, "sm_90")->max_blocks_per_sm, 8);
}
END_TEST

/* ---- loading files --------------------------------------------------------------- */

/* Writes `text` to a new temporary file; its path goes to `path`. */
static void write_temp(char *path, size_t size, const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/check_arch_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(text, f), 0);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_load_file)
{
    char path[4096];
    OccError err;
    write_temp(path, sizeof path, "# override\ncc,max_blocks_per_sm\n9.0,12\n");
    int rc = arch_table_load_file(&table, path, &err);
    unlink(path);
    ck_assert_msg(rc == 0, "%s", err.message);
    ck_assert_int_eq(find_arch(&table, "sm_90")->max_blocks_per_sm, 12);
}
END_TEST

START_TEST(test_load_file_error_names_path)
{
    char path[4096], want[4200];
    OccError err;
    write_temp(path, sizeof path, "cc,warp_size\n\n9.0,abc\n");
    int rc = arch_table_load_file(&table, path, &err);
    unlink(path);
    ck_assert_int_eq(rc, -1);
    snprintf(want, sizeof want, "%s:3: field 'warp_size': 'abc' is not an integer", path);
    ck_assert_str_eq(err.message, want);
    assert_table_unchanged();
}
END_TEST

START_TEST(test_load_file_missing)
{
    OccError err;
    const char *path = "/nonexistent-silk-occ-dir/tables.csv";
    ck_assert_int_eq(arch_table_load_file(&table, path, &err), -1);
    ck_assert_str_eq(err.message,
                     "/nonexistent-silk-occ-dir/tables.csv: cannot open: No such file or directory");
    assert_table_unchanged();
}
END_TEST

/* ---- the suite -------------------------------------------------------------------- */

#define N(cases) ((int)(sizeof(cases) / sizeof *(cases)))

static TCase *new_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, load_tables, free_tables);
    suite_add_tcase(s, tc);
    return tc;
}

static Suite *arch_suite(void)
{
    Suite *s = suite_create("arch");
    TCase *tc = new_tcase(s, "builtin");
    tcase_add_loop_test(tc, test_builtin_has_cc, 0, N(compute_capabilities));
    tcase_add_test(tc, test_builtin_sm_names);
    tcase_add_test(tc, test_builtin_values);
    tcase_add_loop_test(tc, test_builtin_has_product, 0, N(products));
    tcase_add_test(tc, test_product_aliases);
    tcase_add_test(tc, test_emulated_device);

    tc = new_tcase(s, "lookup");
    tcase_add_loop_test(tc, test_find_hopper, 0, N(hopper_names));
    tcase_add_test(tc, test_find_other_names);
    tcase_add_loop_test(tc, test_find_unknown, 0, N(unknown_names));
    tcase_add_loop_test(tc, test_suggest, 0, N(suggest_cases));

    tc = new_tcase(s, "load");
    tcase_add_test(tc, test_override_keeps_other_fields);
    tcase_add_test(tc, test_override_any_order_empty_cells);
    tcase_add_test(tc, test_comments_and_blank_lines);
    tcase_add_test(tc, test_new_arch_row);
    tcase_add_test(tc, test_new_product_row);
    tcase_add_test(tc, test_product_override);
    tcase_add_loop_test(tc, test_bad_text, 0, N(bad_cases));
    tcase_add_test(tc, test_bom_and_second_file);

    tc = new_tcase(s, "load_file");
    tcase_add_test(tc, test_load_file);
    tcase_add_test(tc, test_load_file_error_names_path);
    tcase_add_test(tc, test_load_file_missing);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(arch_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
