/*
 * check_regest.c: unit tests of the resource estimate from the IR
 * (regest.h), on hand-written IR parsed by ir_parse, so each case states
 * exactly which values are live where.
 *
 * Liveness: straight-line code (a value dies at its last use; a dead
 * result still counts for a moment), widths (i64 two units, i1 none,
 * parameters as their type), a loop whose phis carry values around the
 * back edge (live across the whole loop), a diamond whose phi operands
 * are live only on their own edge, and rematerialized offsets (an index
 * plus a constant keeps its root live, not itself), and the temporaries
 * of divisions ptxas expands.  The rest: the
 * register cap from .maxnreg and from .maxntid with .minnctapersm, the
 * static shared memory of exactly the arrays a kernel addresses with
 * their alignment, the barrier count, and regest_kernel's spills past
 * the cap.
 */
#include "arena.h"
#include "diag.h"
#include "ir.h"
#include "ptx/regest.h"
#include "source.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Arena *arena;

static IrModule *parse(const char *text)
{
    static SourceMap sources; /* the arena owns everything it points at */
    Diag diag;
    source_map_init(&sources, arena);
    diag_init(&diag, &sources, arena, stderr);
    uint32_t file = source_add_text(&sources, "t.ir", text, strlen(text));
    IrModule *m = ir_parse(&sources, file, &diag, arena);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(ir_verify(m, &diag), 0);
    return m;
}

static int live_units(const char *text)
{
    IrModule *m = parse(text);
    return regest_live_units(m->funcs[0], arena);
}

static void setup(void)
{
    arena = arena_new();
}

static void teardown(void)
{
    arena_free(arena);
}

/* Three f32 loads all live at the second add: the address param (2), and
 * the values; %6 and %7 overlap with %3..%5 only partly. */
START_TEST(test_straight_line)
{
    ck_assert_int_eq(live_units("kernel @k(%0: i64 $p) {\n"
                                "@b0:\n"
                                "  %1: f32 = load.global %0\n"
                                "  %2: f32 = load.global %0\n"
                                "  %3: f32 = load.global %0\n"
                                "  %4: f32 = add %1, %2\n"
                                "  %5: f32 = add %4, %3\n"
                                "  store.global %0, %5\n"
                                "  ret\n"
                                "}\n"),
                     5); /* %0 (2) + %1 %2 %3 before the first add */
}
END_TEST

/* i1 takes no general register; an i64 takes two; a dead result counts
 * (unless ptxas would recompute it: not a product of two registers). */
START_TEST(test_widths)
{
    ck_assert_int_eq(live_units("kernel @k(%0: i64 $p, %1: i32 $n) {\n"
                                "@b0:\n"
                                "  %2: i1 = cmp ult %1, 4:i32\n"
                                "  %3: f64 = load.global %0\n"
                                "  %4: i64 = mul %0, %0\n"
                                "  cbr %2, @b1, @b2\n"
                                "@b1:\n"
                                "  store.global %0, %3\n"
                                "  br @b2\n"
                                "@b2:\n"
                                "  ret\n"
                                "}\n"),
                     6); /* %0 (2) %3 (2) and the dead %4 (2); %1 died at the cmp */
}
END_TEST

/* A loop: the accumulator and the index cross the back edge, so they are
 * live in every block of the loop, with the bound and the address. */
START_TEST(test_loop_phis)
{
    ck_assert_int_eq(live_units("kernel @k(%0: i64 $p, %1: i32 $n) {\n"
                                "@b0:\n"
                                "  br @b1\n"
                                "@b1:\n"
                                "  %2: i32 = phi [@b0: 0], [@b2: %5]\n"
                                "  %3: f32 = phi [@b0: 0.0], [@b2: %7]\n"
                                "  %4: i1 = cmp slt %2, %1\n"
                                "  cbr %4, @b2, @b3\n"
                                "@b2:\n"
                                "  %5: i32 = add %2, 1\n"
                                "  %6: f32 = load.global %0\n"
                                "  %7: f32 = add %3, %6\n"
                                "  br @b1\n"
                                "@b3:\n"
                                "  store.global %0, %3\n"
                                "  ret\n"
                                "}\n"),
                     6); /* %0 (2) %1 %2 %3 %6; %5 replaces %2 and is not counted */
}
END_TEST

/* A phi's operands are live only on their own edge: %2 and %3 are never
 * live together. */
START_TEST(test_diamond_edges)
{
    ck_assert_int_eq(live_units("kernel @k(%0: i64 $p, %1: i1 $c) {\n"
                                "@b0:\n"
                                "  cbr %1, @b1, @b2\n"
                                "@b1:\n"
                                "  %2: f32 = load.global %0\n"
                                "  br @b3\n"
                                "@b2:\n"
                                "  %3: f32 = load.global %0\n"
                                "  br @b3\n"
                                "@b3:\n"
                                "  %4: f32 = phi [@b1: %2], [@b2: %3]\n"
                                "  store.global %0, %4\n"
                                "  ret\n"
                                "}\n"),
                     3);
}
END_TEST

/* An offset of one value and constants is recomputed by ptxas where it is
 * used: the load and the far store keep %2 live, not %3 and %4. */
START_TEST(test_rematerialized)
{
    ck_assert_int_eq(live_units("kernel @k(%0: i64 $p, %1: i64 $q) {\n"
                                "@b0:\n"
                                "  %2: i64 = mul %0, 48\n"
                                "  %3: i64 = add %2, 1\n"
                                "  %4: i64 = shl %3, 2\n"
                                "  %5: i64 = add %1, %4\n"
                                "  %6: f32 = load.global %5\n"
                                "  %7: f32 = load.global %1\n"
                                "  %8: f32 = add %6, %7\n"
                                "  %9: i64 = add %0, %4\n"
                                "  store.global %9, %8\n"
                                "  ret\n"
                                "}\n"),
                     6); /* %0 %1 %5 at the first load; %2 %3 %4 are never live */
}
END_TEST

/* IEEE division and integer division need temporaries of their own while
 * their operands are live. */
START_TEST(test_expansions)
{
    static const struct {
        const char *type, *op;
        int units;
    } cases[] = {
        {"f32", "fdiv", 4 + 7}, {"f64", "fdiv", 6 + 14}, {"i32", "udiv", 4 + 4},
        {"i64", "srem", 6 + 10}, {"f32", "add", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "kernel @k(%%0: i64 $p) {\n@b0:\n"
                 "  %%1: %s = load.global %%0\n"
                 "  %%2: %s = load.global %%0\n"
                 "  %%3: %s = %s %%1, %%2\n"
                 "  store.global %%0, %%3\n  ret\n}\n",
                 cases[i].type, cases[i].type, cases[i].type, cases[i].op);
        ck_assert_msg(live_units(text) == cases[i].units, "%s %s: %d, expected %d", cases[i].op,
                      cases[i].type, live_units(text), cases[i].units);
    }
}
END_TEST

START_TEST(test_register_cap)
{
    IrModule *m = parse("kernel @a() reqntid 128 minnctapersm 4 {\n@b0:\n  ret\n}\n"
                        "kernel @b() reqntid 256 minnctapersm 2 maxnreg 32 {\n@b0:\n  ret\n}\n"
                        "kernel @c() reqntid 96 minnctapersm 3 {\n@b0:\n  ret\n}\n"
                        "kernel @d() {\n@b0:\n  ret\n}\n");
    ck_assert_int_eq(regest_register_cap(m->funcs[0]), 128); /* 65536 / 512 */
    ck_assert_int_eq(regest_register_cap(m->funcs[1]), 32);
    ck_assert_int_eq(regest_register_cap(m->funcs[2]), 224); /* 65536 / 288 = 227, to 8s */
    ck_assert_int_eq(regest_register_cap(m->funcs[3]), 255);
}
END_TEST

START_TEST(test_static_smem_and_barriers)
{
    IrModule *m = parse("shared $a: i8[3]\n"
                        "shared $b: f64[4]\n"
                        "shared $c: f32[1000]\n"
                        "\n"
                        "kernel @k() {\n@b0:\n"
                        "  %0: i64 = addr.shared $a\n"
                        "  %1: i64 = addr.shared $b\n"
                        "  store.shared %0, 1:i8\n"
                        "  bar.sync\n"
                        "  store.shared %1, 1.0:f64\n"
                        "  ret\n}\n"
                        "kernel @j() {\n@b0:\n"
                        "  %0: i64 = addr.shared $c\n"
                        "  store.shared %0, 1.0:f32\n"
                        "  ret\n}\n");
    ck_assert_uint_eq(ir_static_smem(m, m->funcs[0]), 40); /* 3, padded to 8, + 32 */
    ck_assert_uint_eq(ir_static_smem(m, m->funcs[1]), 4000);
    KernelUsage k = regest_kernel(m, m->funcs[0], arena);
    ck_assert_str_eq(k.name, "k");
    ck_assert(k.estimated);
    ck_assert_int_eq(k.barriers, 1);
    ck_assert_int_eq(k.static_smem, 40);
    ck_assert_int_eq(regest_kernel(m, m->funcs[1], arena).barriers, 0);
}
END_TEST

/* A sum past 2^64 saturates (the build's limit then rejects it) and the
 * estimate says INT32_MAX. */
START_TEST(test_static_smem_saturates)
{
    IrModule *m = parse("shared $a: i8[3]\n"
                        "shared $b: f64[2305843009213693951]\n"
                        "\n"
                        "kernel @k() {\n@b0:\n"
                        "  %0: i64 = addr.shared $a\n"
                        "  %1: i64 = addr.shared $b\n"
                        "  store.shared %0, 1:i8\n"
                        "  store.shared %1, 1.0:f64\n"
                        "  ret\n}\n");
    ck_assert_uint_eq(ir_static_smem(m, m->funcs[0]), UINT64_MAX);
    ck_assert_int_eq(regest_kernel(m, m->funcs[0], arena).static_smem, INT32_MAX);
}
END_TEST

/* Past .maxnreg the estimate is the cap, and the rest spills. */
START_TEST(test_spills_past_cap)
{
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "kernel @k(%%0: i64 $p) maxnreg 16 {\n@b0:\n");
    for (int i = 1; i <= 30; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  %%%d: f32 = load.global %%0\n", i);
    n += (size_t)snprintf(text + n, sizeof text - n, "  %%31: f32 = add %%1, %%2\n");
    for (int i = 3; i <= 30; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  %%%d: f32 = add %%%d, %%%d\n", 29 + i,
                              28 + i, i);
    snprintf(text + n, sizeof text - n, "  store.global %%0, %%59\n  ret\n}\n");
    IrModule *m = parse(text);
    int live = regest_live_units(m->funcs[0], arena);
    ck_assert_int_eq(live, 32); /* %0 (2) + 30 floats */
    KernelUsage k = regest_kernel(m, m->funcs[0], arena);
    ck_assert_int_eq(k.registers, 16);
    int over = live + REGEST_OVERHEAD - 16;
    ck_assert_int_eq(k.spill_stores, 4 * over);
    ck_assert_int_eq(k.spill_loads, 4 * over);
}
END_TEST

static Suite *regest_suite(void)
{
    Suite *s = suite_create("regest");
    TCase *tc = tcase_create("estimate");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_straight_line);
    tcase_add_test(tc, test_widths);
    tcase_add_test(tc, test_loop_phis);
    tcase_add_test(tc, test_diamond_edges);
    tcase_add_test(tc, test_rematerialized);
    tcase_add_test(tc, test_expansions);
    tcase_add_test(tc, test_register_cap);
    tcase_add_test(tc, test_static_smem_and_barriers);
    tcase_add_test(tc, test_static_smem_saturates);
    tcase_add_test(tc, test_spills_past_cap);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(regest_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
