/*
 * check_cli_layer.c: unit tests of what silkc and silk-occ share (issue
 * 12): the exit statuses' numbers (exit_status.h), the colour rule
 * (colour.h) on every combination of NO_COLOR, TERM and terminal, on its
 * own and on real streams (a pseudo-terminal, a file), and the one tool
 * finder (jobs_find_tool, and ptxas_find and nvcc_find through it): the
 * override variable, "none", the configured path, the bare name on $PATH;
 * and that a temporary directory (tempdir.h) is gone after an exit() its
 * owner did not see coming.
 */
#define _XOPEN_SOURCE 700 /* posix_openpt and its kin */

#include <config.h>

#include "cleanup.h"
#include "colour.h"
#include "exit_status.h"
#include "jobs.h"
#include "ptx/nvcc.h"
#include "ptx/ptxas.h"
#include "tempdir.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* ---- the tool finder -------------------------------------------------------- */

static char *tool_dir;

/* DIR/name, made with `mode` ("#!/bin/sh" so it could run). */
static const char *make_tool(const char *name, mode_t mode)
{
    static char paths[4][512];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, sizeof paths[0], "%s/%s", tool_dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#!/bin/sh\nexit 0\n", f);
    fclose(f);
    ck_assert_int_eq(chmod(path, mode), 0);
    return path;
}

static void setup_tools(void)
{
    tool_dir = tempdir_make("check-cli-layer", NULL);
    ck_assert_ptr_nonnull(tool_dir);
    unsetenv("SILK_TEST_TOOL");
}

static void teardown_tools(void)
{
    tempdir_remove(tool_dir, 0);
    tool_dir = NULL;
}

/* The override wins over every candidate, as it is given. */
START_TEST(test_find_override)
{
    const char *chosen = make_tool("chosen", 0755);
    const char *configured = make_tool("configured", 0755);
    const char *const candidates[] = {configured, NULL};
    ck_assert_int_eq(setenv("SILK_TEST_TOOL", chosen, 1), 0);
    ck_assert_str_eq(jobs_find_tool("SILK_TEST_TOOL", candidates), chosen);
}
END_TEST

/* "none" means there is none, however many candidates could run. */
START_TEST(test_find_none)
{
    const char *const candidates[] = {make_tool("configured", 0755), "sh", NULL};
    ck_assert_int_eq(setenv("SILK_TEST_TOOL", "none", 1), 0);
    ck_assert_ptr_null(jobs_find_tool("SILK_TEST_TOOL", candidates));
}
END_TEST

/* An override that cannot run, an empty one or none: the configured path. */
START_TEST(test_find_configured)
{
    const char *configured = make_tool("configured", 0755);
    const char *const candidates[] = {configured, "sh", NULL};
    ck_assert_str_eq(jobs_find_tool("SILK_TEST_TOOL", candidates), configured);
    ck_assert_int_eq(setenv("SILK_TEST_TOOL", make_tool("not-executable", 0644), 1), 0);
    ck_assert_str_eq(jobs_find_tool("SILK_TEST_TOOL", candidates), configured);
    ck_assert_int_eq(setenv("SILK_TEST_TOOL", "", 1), 0);
    ck_assert_str_eq(jobs_find_tool("SILK_TEST_TOOL", candidates), configured);
}
END_TEST

/* A configured path that is gone: the bare name, when $PATH has it. */
START_TEST(test_find_on_path)
{
    make_tool("faketool", 0755);
    const char *const candidates[] = {"/nonexistent/cuda/bin/faketool", "faketool", NULL};
    ck_assert_int_eq(setenv("PATH", "/nonexistent", 1), 0);
    ck_assert_ptr_null(jobs_find_tool("SILK_TEST_TOOL", candidates));
    char path[600];
    snprintf(path, sizeof path, "/nonexistent:%s", tool_dir);
    ck_assert_int_eq(setenv("PATH", path, 1), 0);
    ck_assert_str_eq(jobs_find_tool("SILK_TEST_TOOL", candidates), "faketool");
}
END_TEST

/* ptxas_find and nvcc_find are the rule with their own variables. */
START_TEST(test_find_ptxas_and_nvcc)
{
    const char *ptxas = make_tool("my-ptxas", 0755), *nvcc = make_tool("my-nvcc", 0755);
    ck_assert_int_eq(setenv("SILK_PTXAS", ptxas, 1), 0);
    ck_assert_int_eq(setenv("SILK_NVCC", nvcc, 1), 0);
    ck_assert_str_eq(ptxas_find(), ptxas);
    ck_assert_str_eq(nvcc_find(), nvcc);
    ck_assert_int_eq(setenv("SILK_PTXAS", "none", 1), 0);
    ck_assert_int_eq(setenv("SILK_NVCC", "none", 1), 0);
    ck_assert_ptr_null(ptxas_find());
    ck_assert_ptr_null(nvcc_find());
}
END_TEST

/* ---- temporary directories ---------------------------------------------------- */

/* A child that makes a temporary directory, puts a registered file in it,
 * tells its path through `report` and calls exit(3) without removing
 * either, as the arena does when memory runs out. */
static _Noreturn void make_and_exit(int report)
{
    char *dir = tempdir_make("check-cli-layer-exit", NULL);
    char file[600] = "";
    if (dir)
        snprintf(file, sizeof file, "%s/t0.ptx", dir);
    FILE *f = dir && cleanup_add_file(file) ? fopen(file, "w") : NULL;
    if (f)
        fclose(f);
    /* The list keeps its own copy of the path; freeing this one keeps
     * LeakSanitizer, which runs at exit, from changing the status. */
    free(dir);
    if (write(report, file, strlen(file) + 1) < 0)
        _exit(99);
    exit(3);
}

/* Every exit path removes the directory: exit() from deep inside too. */
START_TEST(test_tempdir_gone_after_exit)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        make_and_exit(fds[1]);
    }
    close(fds[1]);
    char file[600] = "";
    ck_assert_int_gt(read(fds[0], file, sizeof file - 1), 1);
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 3);
    ck_assert_msg(access(file, F_OK) != 0, "%s outlived exit(3)", file);
    *strrchr(file, '/') = '\0';
    ck_assert_msg(access(file, F_OK) != 0, "%s outlived exit(3)", file);
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
    TCase *finder = tcase_create("tool_finder");
    tcase_add_checked_fixture(finder, setup_tools, teardown_tools);
    tcase_add_test(finder, test_find_override);
    tcase_add_test(finder, test_find_none);
    tcase_add_test(finder, test_find_configured);
    tcase_add_test(finder, test_find_on_path);
    tcase_add_test(finder, test_find_ptxas_and_nvcc);
    suite_add_tcase(s, finder);
    TCase *tempdir = tcase_create("tempdir");
    tcase_add_test(tempdir, test_tempdir_gone_after_exit);
    suite_add_tcase(s, tempdir);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
