/*
 * check_ptx_scan.c: unit tests of silk-occ report's PTX scanner
 * (compiler/ptx/ptx_scan.c): each entry's name and performance directives
 * (.maxntid and .reqntid as the product of their dimensions,
 * .minnctapersm, .maxnreg), entries in comments and declarations without
 * a body ignored, and the copy with one entry's .maxnreg set, an old
 * directive blanked; which entries use dynamic shared memory (an
 * .extern .shared array named in the body or in a function it calls).
 */
#include "arena.h"
#include "ptx/ptx_scan.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const char *const PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    "// .visible .entry commented(\n"
    "/* .entry also_commented() { } */\n"
    ".extern .entry declared(.param .u64 p);\n"
    ".visible .entry first(\n\t.param .u64 first_param_0\n)\n.maxntid 16, 8, 2\n.minnctapersm 3\n{\n\tret;\n}\n"
    ".visible .entry second()\n.reqntid 96\n.maxnreg 40\n{\n\tret;\n}\n"
    ".entry third(){ret;}\n";

START_TEST(scans_entries_and_directives)
{
    Arena *arena = arena_new();
    PtxEntry *e;
    int n = ptx_scan_entries(PTX, strlen(PTX), arena, &e);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(e[0].name, "first");
    ck_assert_int_eq(e[0].maxntid, 256);
    ck_assert_int_eq(e[0].reqntid, 0);
    ck_assert_int_eq(e[0].minnctapersm, 3);
    ck_assert_int_eq(e[0].maxnreg, 0);
    ck_assert_str_eq(e[1].name, "second");
    ck_assert_int_eq(e[1].reqntid, 96);
    ck_assert_int_eq(e[1].maxnreg, 40);
    ck_assert_str_eq(e[2].name, "third");
    ck_assert_int_eq(e[2].maxntid + e[2].reqntid + e[2].maxnreg + e[2].minnctapersm, 0);
    ck_assert_int_eq(PTX[e[2].body_at], '{');
    arena_free(arena);
}
END_TEST

/* The cluster directives as nvcc -ptx writes them for __cluster_dims__
 * and __launch_bounds__'s third value (CUDA 13.0, sm_90). */
START_TEST(scans_cluster_directives)
{
    static const char *const CLUSTER_PTX =
        ".version 8.8\n.target sm_90\n.address_size 64\n"
        ".visible .entry ring(\n\t.param .u64 p\n)\n.explicitcluster\n.reqnctapercluster 4, 2, 1\n"
        "{\n\tret;\n}\n"
        ".visible .entry ranked()\n.maxntid 128, 1, 1\n.minnctapersm 1\n.maxclusterrank 8\n"
        "{\n\tret;\n}\n";
    Arena *arena = arena_new();
    PtxEntry *e;
    ck_assert_int_eq(ptx_scan_entries(CLUSTER_PTX, strlen(CLUSTER_PTX), arena, &e), 2);
    ck_assert(e[0].explicit_cluster);
    ck_assert_int_eq(e[0].cluster[0], 4);
    ck_assert_int_eq(e[0].cluster[1], 2);
    ck_assert_int_eq(e[0].cluster[2], 1);
    ck_assert_int_eq(e[0].maxclusterrank, 0);
    ck_assert(!e[1].explicit_cluster);
    ck_assert_int_eq(e[1].cluster[0], 0);
    ck_assert_int_eq(e[1].maxclusterrank, 8);
    ck_assert_int_eq(e[1].maxntid, 128);
    arena_free(arena);
}
END_TEST

/* As nvcc -ptx writes them: module-scope arrays, static and extern; an
 * entry that uses the extern one directly, one through two calls, one
 * that only uses the static array, one that names a longer identifier
 * starting with the extern's name. */
static const char *const DYN_PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".shared .align 4 .b8 fixed[64];\n"
    ".func  (.param .b32 func_retval0) inner(\n\t.param .b32 inner_param_0\n)\n{\n"
    "\tmov.u32 \t%r1, dyn;\n\tst.param.b32 [func_retval0], %r1;\n\tret;\n}\n"
    ".func outer()\n{\n\tcall.uni (retval0), inner, (param0);\n\tret;\n}\n"
    ".visible .entry direct()\n{\n\tld.shared.f64 \t%fd1, [dyn+8];\n\tret;\n}\n"
    ".visible .entry through_calls()\n{\n\tcall.uni outer, ();\n\tret;\n}\n"
    ".visible .entry static_only()\n{\n\tmov.u32 \t%r3, fixed;\n\tret;\n}\n"
    ".visible .entry similar_name()\n{\n\tmov.u32 \t%r3, dynamo;\n\tret;\n}\n";

START_TEST(finds_dynamic_shared_memory)
{
    Arena *arena = arena_new();
    PtxEntry *e;
    ck_assert_int_eq(ptx_scan_entries(DYN_PTX, strlen(DYN_PTX), arena, &e), 4);
    ck_assert_str_eq(e[0].name, "direct");
    ck_assert(e[0].extern_smem);
    ck_assert_str_eq(e[1].name, "through_calls");
    ck_assert(e[1].extern_smem);
    ck_assert_str_eq(e[2].name, "static_only");
    ck_assert(!e[2].extern_smem);
    ck_assert_str_eq(e[3].name, "similar_name");
    ck_assert(!e[3].extern_smem);
    /* Without an extern array no entry uses one. */
    ck_assert_int_eq(ptx_scan_entries(PTX, strlen(PTX), arena, &e), 3);
    ck_assert(!e[0].extern_smem && !e[1].extern_smem && !e[2].extern_smem);
    arena_free(arena);
}
END_TEST

START_TEST(sets_a_register_cap)
{
    Arena *arena = arena_new();
    PtxEntry *e;
    size_t len;
    ck_assert_int_eq(ptx_scan_entries(PTX, strlen(PTX), arena, &e), 3);
    int first_only[3] = {32, 0, 0};
    char *first = ptx_with_register_caps(PTX, strlen(PTX), e, 3, first_only, arena, &len);
    ck_assert_uint_eq(len, strlen(first));
    ck_assert_ptr_nonnull(strstr(first, ".minnctapersm 3\n.maxnreg 32\n{"));
    int second_only[3] = {0, 24, 0};
    char *second = ptx_with_register_caps(PTX, strlen(PTX), e, 3, second_only, arena, &len);
    ck_assert_ptr_null(strstr(second, ".maxnreg 40"));
    ck_assert_ptr_nonnull(strstr(second, ".reqntid 96\n           \n.maxnreg 24\n{"));
    /* The copy scans as the original with the new cap. */
    PtxEntry *again;
    ck_assert_int_eq(ptx_scan_entries(second, len, arena, &again), 3);
    ck_assert_int_eq(again[1].maxnreg, 24);
    ck_assert_int_eq(again[0].maxnreg, 0);
    arena_free(arena);
}
END_TEST

/* One text for one ptxas run: both capped entries at their caps, the
 * uncapped one left out, what is not an entry kept. */
START_TEST(caps_several_and_leaves_out_the_rest)
{
    Arena *arena = arena_new();
    PtxEntry *e;
    size_t len;
    ck_assert_int_eq(ptx_scan_entries(PTX, strlen(PTX), arena, &e), 3);
    ck_assert_uint_lt(e[0].start_at, e[0].body_at);
    ck_assert_int_eq(PTX[e[0].end_at - 1], '}');
    int caps[3] = {16, -1, 20};
    char *text = ptx_with_register_caps(PTX, strlen(PTX), e, 3, caps, arena, &len);
    PtxEntry *left;
    ck_assert_int_eq(ptx_scan_entries(text, len, arena, &left), 2);
    ck_assert_str_eq(left[0].name, e[0].name);
    ck_assert_int_eq(left[0].maxnreg, 16);
    ck_assert_str_eq(left[1].name, e[2].name);
    ck_assert_int_eq(left[1].maxnreg, 20);
    ck_assert_ptr_nonnull(strstr(text, ".version"));
    arena_free(arena);
}
END_TEST

/* Without its bound: an entry's .maxntid, .minnctapersm and .maxnreg
 * blanked (lines and offsets kept), its .reqntid kept, the others as
 * asked. */
START_TEST(drops_the_bounds)
{
    Arena *arena = arena_new();
    PtxEntry *e;
    size_t len;
    ck_assert_int_eq(ptx_scan_entries(PTX, strlen(PTX), arena, &e), 3);
    int caps[3] = {PTX_CAP_UNBOUNDED, PTX_CAP_UNBOUNDED, PTX_CAP_LEAVE_OUT};
    char *text = ptx_with_register_caps(PTX, strlen(PTX), e, 3, caps, arena, &len);
    ck_assert_ptr_nonnull(strstr(text, "first_param_0\n)\n                 \n               \n{"));
    PtxEntry *left;
    ck_assert_int_eq(ptx_scan_entries(text, len, arena, &left), 2);
    ck_assert_int_eq(left[0].maxntid + left[0].minnctapersm + left[0].maxnreg, 0);
    ck_assert_int_eq(left[1].reqntid, 96);
    ck_assert_int_eq(left[1].maxnreg, 0);
    ck_assert_uint_eq(left[1].body_at - left[1].start_at, e[1].body_at - e[1].start_at);
    arena_free(arena);
}
END_TEST

static Suite *ptx_scan_suite(void)
{
    Suite *s = suite_create("ptx_scan");
    TCase *tc = tcase_create("scan");
    tcase_add_test(tc, scans_entries_and_directives);
    tcase_add_test(tc, scans_cluster_directives);
    tcase_add_test(tc, finds_dynamic_shared_memory);
    tcase_add_test(tc, sets_a_register_cap);
    tcase_add_test(tc, caps_several_and_leaves_out_the_rest);
    tcase_add_test(tc, drops_the_bounds);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(ptx_scan_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
