/*
 * check_size_expr.c: unit tests of common/size_expr.c: values at several
 * block sizes, precedence, parentheses, truncating division, the units,
 * each parse error with its exact message and column, and each way an
 * evaluation fails (below zero, past 64 bits, division by zero), and the
 * limits on nesting and length; the caller's names (--param, a tuning
 * space's parameters): values, binding, unknown names with the list and
 * a did-you-mean, and which names a caller may give.
 */
#include <config.h>

#include "size_expr.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* text evaluated at threads (warps = threads / 32) is expected. */
static void assert_value(const char *text, long long threads, uint64_t expected)
{
    char error[SIZE_EXPR_ERROR_SIZE] = "";
    SizeExpr *e = size_expr_parse(text, error, sizeof error);
    ck_assert_msg(e != NULL, "'%s': %s", text, error);
    uint64_t value = 0;
    ck_assert_msg(size_expr_eval(e, threads, (threads + 31) / 32, &value, error, sizeof error),
                  "'%s': %s", text, error);
    ck_assert_msg(value == expected, "'%s' at %lld threads: %llu, expected %llu", text, threads,
                  (unsigned long long)value, (unsigned long long)expected);
    size_expr_free(e);
}

static void assert_parse_error(const char *text, const char *expected)
{
    char error[SIZE_EXPR_ERROR_SIZE] = "";
    ck_assert_ptr_null(size_expr_parse(text, error, sizeof error));
    ck_assert_str_eq(error, expected);
}

static void assert_eval_error(const char *text, long long threads, long long warps,
                              const char *expected)
{
    char error[SIZE_EXPR_ERROR_SIZE] = "";
    SizeExpr *e = size_expr_parse(text, error, sizeof error);
    ck_assert_msg(e != NULL, "'%s': %s", text, error);
    uint64_t value = 12345;
    ck_assert(!size_expr_eval(e, threads, warps, &value, error, sizeof error));
    ck_assert_str_eq(error, expected);
    ck_assert_uint_eq(value, 12345);
    size_expr_free(e);
}

static bool is_constant(const char *text)
{
    char error[SIZE_EXPR_ERROR_SIZE];
    SizeExpr *e = size_expr_parse(text, error, sizeof error);
    ck_assert_ptr_nonnull(e);
    bool constant = size_expr_is_constant(e);
    size_expr_free(e);
    return constant;
}

START_TEST(test_values_at_several_block_sizes)
{
    static const long long sizes[] = {32, 64, 128, 256, 1000, 1024};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        long long t = sizes[i], w = (t + 31) / 32;
        assert_value("4*threads+256", t, (uint64_t)(4 * t + 256));
        assert_value("warps * 1K", t, (uint64_t)(w * 1024));
        assert_value("threads*threads/32", t, (uint64_t)(t * t / 32));
        assert_value("\t( threads + warps )*8 ", t, (uint64_t)((t + w) * 8));
    }
}
END_TEST

START_TEST(test_precedence_and_parentheses)
{
    assert_value("2+3*4", 0, 14);
    assert_value("(2+3)*4", 0, 20);
    assert_value("2*3+4*5", 0, 26);
    assert_value("100-10-1", 0, 89); /* left to right */
    assert_value("100-(10-1)", 0, 91);
    assert_value("64/4/2", 0, 8);
    assert_value("64/(4/2)", 0, 32);
    assert_value("((((7))))", 0, 7);
    assert_value("2*(threads+(warps*(1+1)))", 128, 2 * (128 + 4 * 2));
}
END_TEST

START_TEST(test_division_truncates)
{
    assert_value("7/2", 0, 3);
    assert_value("threads/3", 100, 33);
    assert_value("1/2*1000", 0, 0);
    assert_value("1000*1/2", 0, 500);
}
END_TEST

START_TEST(test_units)
{
    assert_value("12K", 0, 12288);
    assert_value("12k", 0, 12288);
    assert_value("1KiB+1kib", 0, 2048);
    assert_value("2M", 0, 2097152);
    assert_value("1MiB-1K", 0, 1047552);
    assert_value("100B", 0, 100);
    assert_value("threads*2K", 64, 131072);
    assert_value("16777215M", 0, 16777215ULL * 1048576);
}
END_TEST

START_TEST(test_constant)
{
    ck_assert(is_constant("12K + 4*(1+2)"));
    ck_assert(!is_constant("4*threads"));
    ck_assert(!is_constant("1+(2*warps)"));
}
END_TEST

START_TEST(test_parse_errors)
{
    assert_parse_error("", "1:1: empty expression");
    assert_parse_error(" \t ", "1:1: empty expression");
    assert_parse_error("4*", "1:3: expected a number, 'threads', 'warps' or '(' after '*'");
    assert_parse_error("4 * ", "1:5: expected a number, 'threads', 'warps' or '(' after '*'");
    assert_parse_error("4*/2", "1:3: expected a number, 'threads', 'warps' or '(' after '*'");
    assert_parse_error("+4", "1:1: expected a number, 'threads', 'warps' or '(' at the start");
    assert_parse_error("()", "1:2: expected a number, 'threads', 'warps' or '(' after '('");
    assert_parse_error("-4", "1:1: unary minus is not allowed (a size is never negative)");
    assert_parse_error("threads*-2", "1:9: unary minus is not allowed (a size is never negative)");
    assert_parse_error("4 threads", "1:3: expected '+', '-', '*', '/' or the end after '4'");
    assert_parse_error("4%2", "1:2: expected '+', '-', '*', '/' or the end after '4'");
    assert_parse_error("12K)", "1:4: ')' without a matching '('");
    assert_parse_error("(4", "1:3: missing ')' to close the '(' at 1:1");
    assert_parse_error("2*(4 warps)", "1:6: expected '+', '-', '*', '/' or ')' after '4'");
    assert_parse_error("4*thread", "1:3: unknown name 'thread' (the names are 'threads' and "
                                   "'warps'; did you mean 'threads'?)");
    assert_parse_error("Threads", "1:1: unknown name 'Threads' (the names are 'threads' and "
                                  "'warps'; did you mean 'threads'?)");
    assert_parse_error("4*lanes", "1:3: unknown name 'lanes' (the names are 'threads' and 'warps')");
    assert_parse_error("4threads", "1:2: unknown unit 'threads' after '4' (use K/KiB or M/MiB)");
    assert_parse_error("12G", "1:3: unknown unit 'G' after '12' (use K/KiB or M/MiB)");
    assert_parse_error("18446744073709551616", "1:1: '18446744073709551616' is too large");
    assert_parse_error("1+17592186044416M", "1:3: '17592186044416M' is too large");
    assert_parse_error("0x10", "1:2: unknown unit 'x' after '0' (use K/KiB or M/MiB)");
}
END_TEST

START_TEST(test_long_tokens_are_quoted_short)
{
    char text[200], expected[SIZE_EXPR_ERROR_SIZE];
    memset(text, 'a', 100);
    strcpy(text + 100, "+1");
    snprintf(expected, sizeof expected,
             "1:1: unknown name '%.40s' (the names are 'threads' and 'warps')", text);
    assert_parse_error(text, expected);
}
END_TEST

START_TEST(test_overflow)
{
    assert_eval_error("18446744073709551615+1", 0, 0,
                      "1:21: 18446744073709551615 + 1 overflows 64 bits");
    assert_eval_error("threads*16777216M", 1048576, 0,
                      "1:8: 1048576 * 17592186044416 overflows 64 bits");
    assert_value("threads*16777216M", 1048575, 1048575ULL * 17592186044416ULL);
    assert_value("18446744073709551615+0", 0, UINT64_MAX);
}
END_TEST

START_TEST(test_negative)
{
    assert_eval_error("4*threads-1K", 128, 4, "1:10: 512 - 1024 is negative");
    assert_value("4*threads-1K", 256, 0);
    /* Below zero on the way is wrong even if the end is not. */
    assert_eval_error("1-2+5", 0, 0, "1:2: 1 - 2 is negative");
    assert_eval_error("threads", -1, 0, "threads is negative (-1)");
    assert_eval_error("warps", 32, -2, "warps is negative (-2)");
}
END_TEST

START_TEST(test_division_by_zero)
{
    assert_eval_error("1K/(threads-32)", 32, 1, "1:3: division by zero (1024 / 0)");
    assert_value("1K/(threads-32)", 64, 32);
    assert_eval_error("4/0", 0, 0, "1:2: division by zero (4 / 0)");
}
END_TEST

START_TEST(test_deep_nesting_rejected)
{
    char text[2 * SIZE_EXPR_MAX_DEPTH + 8];
    /* SIZE_EXPR_MAX_DEPTH levels are fine... */
    memset(text, '(', SIZE_EXPR_MAX_DEPTH);
    text[SIZE_EXPR_MAX_DEPTH] = '1';
    memset(text + SIZE_EXPR_MAX_DEPTH + 1, ')', SIZE_EXPR_MAX_DEPTH);
    text[2 * SIZE_EXPR_MAX_DEPTH + 1] = '\0';
    assert_value(text, 0, 1);
    /* ...one more is not, and a hostile input stops at the first. */
    memset(text, '(', SIZE_EXPR_MAX_DEPTH + 1);
    strcpy(text + SIZE_EXPR_MAX_DEPTH + 1, "1");
    assert_parse_error(text, "1:65: parentheses nested more than 64 deep");
    size_t n = 1000000;
    char *hostile = malloc(n + 1);
    memset(hostile, '(', n);
    hostile[n] = '\0';
    assert_parse_error(hostile, "1:65: parentheses nested more than 64 deep");
    free(hostile);
}
END_TEST

START_TEST(test_length_limit)
{
    /* 128 ones and 127 pluses are 255 nodes; one term more is too many. */
    char text[4 * SIZE_EXPR_MAX_NODES];
    strcpy(text, "1");
    for (int i = 1; i < 128; i++)
        strcat(text, "+1");
    assert_value(text, 0, 128);
    strcat(text, "+1");
    assert_parse_error(text, "1:256: expression too long (more than 256 numbers, names and "
                             "operators)");
}
END_TEST

static const char *const TILE_NAMES[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "STAGES"};
static const SizeNames TILE = {TILE_NAMES, 4};

/* text with the tile names at values, at 128 threads. */
static uint64_t named_value(const char *text, const uint64_t values[4])
{
    char error[SIZE_EXPR_ERROR_SIZE] = "";
    SizeExpr *e = size_expr_parse_names(text, &TILE, error, sizeof error);
    ck_assert_msg(e != NULL, "'%s': %s", text, error);
    uint64_t value = 0;
    ck_assert_msg(size_expr_eval_names(e, 128, 4, values, &value, error, sizeof error), "'%s': %s",
                  text, error);
    size_expr_free(e);
    return value;
}

START_TEST(test_names_take_their_values)
{
    const uint64_t a[4] = {128, 128, 32, 3}, b[4] = {64, 256, 64, 2};
    const char *smem = "(BLOCK_M+BLOCK_N)*BLOCK_K*2*STAGES";
    ck_assert_uint_eq(named_value(smem, a), 49152);
    ck_assert_uint_eq(named_value(smem, b), 81920);
    ck_assert_uint_eq(named_value("BLOCK_M*threads + warps", a), 128 * 128 + 4);
    ck_assert_uint_eq(named_value("STAGES*1K", b), 2048);
}
END_TEST

START_TEST(test_bind_fixes_the_values)
{
    char error[SIZE_EXPR_ERROR_SIZE] = "";
    SizeExpr *e = size_expr_parse_names("BLOCK_K*4*threads", &TILE, error, sizeof error);
    ck_assert_ptr_nonnull(e);
    uint64_t value = 0;
    /* Unbound, a name has no value: the caller's slip is an error, not 0. */
    ck_assert(!size_expr_eval(e, 64, 2, &value, error, sizeof error));
    ck_assert_str_eq(error, "1:1: a name without a value");
    size_expr_bind(e, (const uint64_t[4]){1, 2, 32, 4});
    ck_assert(size_expr_eval(e, 64, 2, &value, error, sizeof error));
    ck_assert_uint_eq(value, 32 * 4 * 64);
    ck_assert(!size_expr_is_constant(e));
    size_expr_free(e);
}
END_TEST

static void assert_named_error(const char *text, const SizeNames *names, const char *expected)
{
    char error[SIZE_EXPR_ERROR_SIZE] = "";
    ck_assert_ptr_null(size_expr_parse_names(text, names, error, sizeof error));
    ck_assert_str_eq(error, expected);
}

START_TEST(test_unknown_names)
{
    assert_named_error("(BLOCK_M+BLOCK_Q)*2", &TILE,
                       "1:10: unknown name 'BLOCK_Q' (known: threads, warps, BLOCK_M, BLOCK_N, "
                       "BLOCK_K, STAGES); did you mean 'BLOCK_M'?");
    assert_named_error("4*TILES", &TILE,
                       "1:3: unknown name 'TILES' (known: threads, warps, BLOCK_M, BLOCK_N, "
                       "BLOCK_K, STAGES)");
    assert_named_error("block_m", &TILE,
                       "1:1: unknown name 'block_m' (known: threads, warps, BLOCK_M, BLOCK_N, "
                       "BLOCK_K, STAGES); did you mean 'BLOCK_M'?");
    /* Many names: the list stops at eight and says how many there are. */
    static const char *const many[] = {"A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9"};
    assert_named_error("Z", &(SizeNames){many, 10},
                       "1:1: unknown name 'Z' (known: threads, warps, A0, A1, A2, A3, A4, A5, A6, "
                       "A7, ... (12 in all))");
}
END_TEST

START_TEST(test_which_names_a_caller_may_give)
{
    ck_assert_ptr_null(size_expr_check_name("BLOCK_M"));
    ck_assert_ptr_null(size_expr_check_name("_k2"));
    ck_assert_str_eq(size_expr_check_name("threads"),
                     "the name is built in (the block's threads and warps)");
    ck_assert_str_eq(size_expr_check_name("warps"),
                     "the name is built in (the block's threads and warps)");
    ck_assert_str_eq(size_expr_check_name("2x"), "a name starts with a letter or '_'");
    ck_assert_str_eq(size_expr_check_name("a-b"), "a name has only letters, digits and '_'");
    ck_assert_str_eq(size_expr_check_name(""), "the name is empty");
    ck_assert_str_eq(size_expr_check_name("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456"),
                     "the name is longer than 32 bytes");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("size_expr");
    TCase *tc = tcase_create("size_expr");
    tcase_add_test(tc, test_values_at_several_block_sizes);
    tcase_add_test(tc, test_precedence_and_parentheses);
    tcase_add_test(tc, test_division_truncates);
    tcase_add_test(tc, test_units);
    tcase_add_test(tc, test_constant);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_long_tokens_are_quoted_short);
    tcase_add_test(tc, test_overflow);
    tcase_add_test(tc, test_negative);
    tcase_add_test(tc, test_division_by_zero);
    tcase_add_test(tc, test_deep_nesting_rejected);
    tcase_add_test(tc, test_length_limit);
    tcase_add_test(tc, test_names_take_their_values);
    tcase_add_test(tc, test_bind_fixes_the_values);
    tcase_add_test(tc, test_unknown_names);
    tcase_add_test(tc, test_which_names_a_caller_may_give);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
