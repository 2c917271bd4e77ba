/*
 * check_cli_layer.c: unit tests of what silkc and silk-occ share (issue
 * 12): the exit statuses' numbers (exit_status.h), the colour rule
 * (colour.h) on every combination of NO_COLOR, TERM and terminal, on its
 * own and on real streams (a pseudo-terminal, a file).
 */
#define _XOPEN_SOURCE 700 /* posix_openpt and its kin */

#include <config.h>

#include "colour.h"
#include "exit_status.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- the colour rule -------------------------------------------------------- */

typedef struct ColourCase {
    const char *no_color, *term;
    bool is_terminal, colour;
} ColourCase;

static const ColourCase COLOUR_CASES[] = {
    {NULL, NULL, true, true},
    {NULL, "xterm-256color", true, true},
    {NULL, NULL, false, false},           /* a file or a pipe */
    {NULL, "xterm", false, false},
    {"1", NULL, true, false},             /* NO_COLOR: any non-empty value */
    {"0", "xterm", true, false},
    {"", NULL, true, true},               /* NO_COLOR empty: as if unset */
    {NULL, "dumb", true, false},          /* a dumb terminal */
    {"", "dumb", true, false},
    {NULL, "dumber", true, true},         /* only "dumb" itself */
    {NULL, "", true, true},
};

START_TEST(test_colour_rule)
{
    const ColourCase *c = &COLOUR_CASES[_i];
    ck_assert_msg(colour_rule(c->no_color, c->term, c->is_terminal) == c->colour,
                  "NO_COLOR=%s TERM=%s terminal=%d: expected colour %d",
                  c->no_color ? c->no_color : "(unset)", c->term ? c->term : "(unset)",
                  c->is_terminal, c->colour);
}
END_TEST

/* A pseudo-terminal's far end as a stream: what a person's terminal is.
 * *master is its near end, for the caller to close (-1: none made). */
static FILE *open_terminal(int *master)
{
    *master = posix_openpt(O_RDWR | O_NOCTTY);
    if (*master < 0 || grantpt(*master) != 0 || unlockpt(*master) != 0)
        return NULL;
    const char *name = ptsname(*master);
    int fd = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    return fd < 0 ? NULL : fdopen(fd, "w");
}

START_TEST(test_colour_wanted_follows_environment)
{
    unsetenv("NO_COLOR");
    ck_assert_int_eq(setenv("TERM", "xterm", 1), 0);
    FILE *file = tmpfile();
    ck_assert_ptr_nonnull(file);
    ck_assert(!colour_wanted(file));
    ck_assert(!colour_wanted(NULL));
    fclose(file);
    int master;
    FILE *terminal = open_terminal(&master);
    if (!terminal) {
        if (master >= 0)
            close(master);
        return; /* no pseudo-terminals here: colour_rule's cases stand */
    }
    ck_assert(colour_wanted(terminal));
    ck_assert_int_eq(setenv("TERM", "dumb", 1), 0);
    ck_assert(!colour_wanted(terminal));
    unsetenv("TERM");
    ck_assert(colour_wanted(terminal));
    ck_assert_int_eq(setenv("NO_COLOR", "yes", 1), 0);
    ck_assert(!colour_wanted(terminal));
    ck_assert_int_eq(setenv("NO_COLOR", "", 1), 0);
    ck_assert(colour_wanted(terminal));
    fclose(terminal);
    close(master);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_layer");
    TCase *status = tcase_create("exit_status");
    tcase_add_test(status, test_exit_status_numbers);
    suite_add_tcase(s, status);
    TCase *colour = tcase_create("colour");
    tcase_add_loop_test(colour, test_colour_rule, 0,
                        (int)(sizeof COLOUR_CASES / sizeof COLOUR_CASES[0]));
    tcase_add_test(colour, test_colour_wanted_follows_environment);
    suite_add_tcase(s, colour);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
