/*
 * check_measure_version.c: which tools made a report's figures
 * (compiler/measure_version.c): the version read from each --version text
 * the toolkits print, nothing taken from a text that has none or from a
 * hostile one, and the tools a run ran asked once each, as jobs, with a
 * tool that does not run or answers nonsense left null.  The fake tools
 * are shell scripts in a private directory: no toolkit is needed.
 */
#include <config.h>

#include "arena.h"
#include "measure.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *text;
    const char *version; /* NULL: none found */
} PARSE_CASES[] = {
    /* ptxas --version and nvcc --version, CUDA 13.0 */
    {"ptxas: NVIDIA (R) Ptx optimizing assembler\nCopyright (c) 2005-2025 NVIDIA Corporation\n"
     "Built on Wed_Aug_20_01:55:48_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\n"
     "Build cuda_13.0.r13.0/compiler.36424714_0\n", "13.0.88"},
    {"nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.4, V12.4.131\n",
     "12.4.131"},
    /* a release line without the V word */
    {"Cuda compilation tools, release 11.8\n", "11.8"},
    /* llc --version, Debian's and upstream's */
    {"Debian LLVM version 19.1.7\n  Optimized build.\n", "19.1.7"},
    {"LLVM (http://llvm.org/):\n  LLVM version 19.1.0-rc3\n", "19.1.0-rc3"},
    /* nothing version-shaped: null, never the text */
    {"usage: ptxas [options] file\n", NULL},
    {"Cuda compilation tools, release \"; rm -rf /\n", NULL},
    {"", NULL},
    /* a hostile word is cut at the first character a version has not */
    {"LLVM version 19\"},\"x\":{\n", "19"},
};

START_TEST(test_parse)
{
    char buf[64] = "untouched";
    const char *text = PARSE_CASES[_i].text, *want = PARSE_CASES[_i].version;
    bool got = measure_parse_version(text, strlen(text), buf, sizeof buf);
    ck_assert_msg(got == (want != NULL), "case %d: found %d", _i, got);
    if (want)
        ck_assert_str_eq(buf, want);
}
END_TEST

/* The length bounds the text: a version past it is not read. */
START_TEST(test_parse_length)
{
    const char *text = "Cuda compilation tools, release 13.0, V13.0.88";
    char buf[64];
    ck_assert(!measure_parse_version(text, 20, buf, sizeof buf));
    ck_assert(measure_parse_version(text, strlen(text), buf, sizeof buf));
    ck_assert_str_eq(buf, "13.0.88");
    ck_assert(measure_parse_version(text, strlen(text), buf, 5)); /* cut to the buffer */
    ck_assert_str_eq(buf, "13.0");
}
END_TEST

static char dir[] = "/tmp/check_measure_version.XXXXXX";

/* An executable script `name` in the private directory printing `out`. */
static const char *fake_tool(const char *name, const char *out)
{
    static char paths[4][256];
    static int n;
    char *path = paths[n++ % 4];
    snprintf(path, sizeof paths[0], "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\n[ \"$1\" = --version ] || exit 9\nprintf '%%s\\n' '%s'\n", out);
    fclose(f);
    ck_assert_int_eq(chmod(path, 0700), 0);
    return path;
}

START_TEST(test_versions_of_the_tools_run)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    Arena *arena = arena_new();
    Measure m = {.arena = arena};
    m.ran.ptxas = fake_tool("ptxas", "Cuda compilation tools, release 13.0, V13.0.88");
    m.ran.llc = fake_tool("llc", "Ubuntu LLVM version 19.1.1");
    MeasureTools v;
    measure_tool_versions(&m, &v);
    ck_assert_str_eq(v.ptxas, "13.0.88");
    ck_assert_ptr_null(v.nvcc); /* not run */
    ck_assert_str_eq(v.llc, "19.1.1");

    /* One that answers nonsense, one that cannot start: null, no error. */
    m.ran.ptxas = fake_tool("ptxas2", "hello");
    m.ran.nvcc = "/nonexistent/nvcc";
    m.ran.llc = NULL;
    measure_tool_versions(&m, &v);
    ck_assert_ptr_null(v.ptxas);
    ck_assert_ptr_null(v.nvcc);
    ck_assert_ptr_null(v.llc);

    /* None run: none asked. */
    m.ran = (MeasureTools){0};
    measure_tool_versions(&m, &v);
    ck_assert(!v.ptxas && !v.nvcc && !v.llc);
    arena_free(arena);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("measure_version");
    TCase *tc = tcase_create("parse");
    tcase_add_loop_test(tc, test_parse, 0, (int)(sizeof PARSE_CASES / sizeof *PARSE_CASES));
    tcase_add_test(tc, test_parse_length);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_add_test(tc, test_versions_of_the_tools_run);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
