/*
 * check_cli_layer.c: unit tests of what silkc and silk-occ share (issue
 * 12): the exit statuses' numbers (exit_status.h).
 */
#include <config.h>

#include "exit_status.h"

#include <check.h>
#include <stdlib.h>

/* ---- exit statuses ---------------------------------------------------------- */

/* The numbers both man pages document; scripts rely on them. */
START_TEST(test_exit_status_numbers)
{
    ck_assert_int_eq(EXIT_OK, 0);
    ck_assert_int_eq(EXIT_FINDINGS, 1);
    ck_assert_int_eq(EXIT_USAGE, 2);
    ck_assert_int_eq(EXIT_ENVIRONMENT, 3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_layer");
    TCase *status = tcase_create("exit_status");
    tcase_add_test(status, test_exit_status_numbers);
    suite_add_tcase(s, status);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
