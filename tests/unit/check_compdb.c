/*
 * check_compdb.c: a compile database's commands into a unit's flags
 * (compiler/compdb.c): the word splitter that reads an entry's "command"
 * as a shell would split it (quotes, backslashes; nothing run, nothing
 * expanded), the flags kept for the device compile and those dropped
 * with the words they take, which entries are CUDA, and a database read
 * from a file: both entry forms, a relative directory, a launcher before
 * nvcc.  No toolkit is needed.
 */
#include <config.h>

#include "arena.h"
#include "compdb.h"
#include "ptx/nvcc.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The words joined by '|', to compare with one string. */
static void joined(char **words, int n, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? "|" : "", words[i]);
}

static const struct {
    const char *command;
    const char *words; /* '|'-joined; NULL: refused with `error` */
    const char *error;
} SPLIT_CASES[] = {
    {"nvcc -c a.cu", "nvcc|-c|a.cu", NULL},
    {"  nvcc\t-DN=4 \n -c  ", "nvcc|-DN=4|-c", NULL},
    {"nvcc -I'my dir' \"-DMSG=\\\"hi\\\"\" x", "nvcc|-Imy dir|-DMSG=\"hi\"|x", NULL},
    /* inside '...' everything is itself, a backslash too */
    {"a 'b\\c' \"d\\e\"", "a|b\\c|d\\e", NULL},
    /* outside quotes a backslash takes the next character */
    {"with\\ space.cu a\\'b", "with space.cu|a'b", NULL},
    /* no expansion of any kind: a hostile command is only words */
    {"nvcc $(touch x) `id` *.cu ~ ;rm", "nvcc|$(touch|x)|`id`|*.cu|~|;rm", NULL},
    {"''", "", NULL},
    {"", "", NULL},
    {"nvcc 'open", NULL, "unterminated ' quote in flags"},
    {"nvcc \"open", NULL, "unterminated \" quote in flags"},
    {"nvcc end\\", NULL, "trailing backslash in flags"},
};

START_TEST(test_split)
{
    Arena *arena = arena_new();
    char **words, error[256] = "", got[512];
    int n = -1;
    bool ok = nvcc_split_flags(SPLIT_CASES[_i].command, arena, &words, &n, error, sizeof error);
    if (SPLIT_CASES[_i].words) {
        ck_assert_msg(ok, "%s: %s", SPLIT_CASES[_i].command, error);
        joined(words, n, got, sizeof got);
        ck_assert_str_eq(got, SPLIT_CASES[_i].words);
        ck_assert_ptr_null(words[n]);
    } else {
        ck_assert(!ok);
        ck_assert_str_eq(error, SPLIT_CASES[_i].error);
    }
    arena_free(arena);
}
END_TEST

static const struct {
    const char *command;
    bool keep_arch;
    const char *kept;
} KEEP_CASES[] = {
    /* the include paths, macros and language stay; -o, -c, -MD, -MF go */
    {"nvcc -Iinc -I inc2 -isystem sys -DTILE=8 -D N=2 -UX -std=c++17 -o a.o -c a.cu -MD -MF a.d",
     false, "-Iinc|-I|inc2|-isystem|sys|-DTILE=8|-D|N=2|-UX|-std=c++17"},
    /* long forms, = or a separate word */
    {"nvcc --include-path=inc --define-macro N=1 --std c++20 --pre-include pre.h x.cu", false,
     "--include-path=inc|--define-macro|N=1|--std|c++20|--pre-include|pre.h"},
    /* device code generation stays */
    {"nvcc -G -lineinfo --use_fast_math -maxrregcount 64 -rdc=true --expt-relaxed-constexpr "
     "--extended-lambda -O3 -ftz=true -Xcompiler -fPIC a.cu", false,
     "-G|-lineinfo|--use_fast_math|-maxrregcount|64|-rdc=true|--expt-relaxed-constexpr|"
     "--extended-lambda|-O3|-ftz=true|-Xcompiler|-fPIC"},
    /* -dc is -rdc=true and -c */
    {"nvcc -dc a.cu -o a.o", false, "-rdc=true"},
    /* architectures: the build's when no --arch was given, else dropped */
    {"nvcc -arch=sm_86 -gencode arch=compute_80,code=sm_80 --generate-code=arch=compute_90,code=sm_90 a.cu",
     true, "-arch=sm_86|-gencode|arch=compute_80,code=sm_80|--generate-code=arch=compute_90,code=sm_90"},
    {"nvcc -arch=sm_86 -gencode arch=compute_80,code=sm_80 -DK a.cu", false, "-DK"},
    /* a dropped option's value goes with it, even one that reads as a flag */
    {"nvcc -Xptxas -O0 -MT -DX -Xlinker -Iz -o -Ibad.o -DKEEP a.cu", false, "-DKEEP"},
    /* what the host compiler or a launcher takes is the build's business */
    {"nvcc -Wall -Werror -fsanitize=address -pipe -v --threads 4 a.cu", false, ""},
    /* -include is not -I, -isystem not -I, -x cu stays */
    {"nvcc -include cfg.h -x cu a.cpp", false, "-include|cfg.h|-x|cu"},
};

START_TEST(test_keep)
{
    Arena *arena = arena_new();
    char **words, **kept, error[256], got[1024];
    int n;
    ck_assert(nvcc_split_flags(KEEP_CASES[_i].command, arena, &words, &n, error, sizeof error));
    int k = compdb_keep_flags(words, n, "a.cu", KEEP_CASES[_i].keep_arch, arena, &kept);
    joined(kept, k, got, sizeof got);
    ck_assert_str_eq(got, KEEP_CASES[_i].kept);
    ck_assert_ptr_null(kept[k]);
    arena_free(arena);
}
END_TEST

START_TEST(test_is_cuda)
{
    char *cu[] = {"nvcc", "-c", "x.cu"}, *x[] = {"nvcc", "-x", "cu", "-c", "k.cpp"};
    char *joined_x[] = {"nvcc", "-xcu", "k.cpp"}, *host[] = {"g++", "-c", "h.cpp"};
    char *x_c[] = {"clang", "-x", "c", "k.cpp"};
    ck_assert(compdb_is_cuda(cu, 3, "x.cu"));
    ck_assert(compdb_is_cuda(x, 5, "k.cpp"));
    ck_assert(compdb_is_cuda(joined_x, 3, "k.cpp"));
    ck_assert(!compdb_is_cuda(host, 3, "h.cpp"));
    ck_assert(!compdb_is_cuda(x_c, 4, "k.cpp"));
    ck_assert(!compdb_is_cuda(host, 3, "x.cuh"));
}
END_TEST

/* A database in a private directory: DIR/db.json, DIR/src. */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_read)
{
    char dir[] = "/tmp/check_compdb-XXXXXX", path[512], src[512], cwd[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(src, sizeof src, "%s/src", dir);
    ck_assert_int_eq(mkdir(src, 0700), 0);
    snprintf(path, sizeof path, "%s/db.json", dir);
    /* A relative directory starts at the database's folder; a launcher
     * before nvcc is passed over; host entries are left out. */
    write_file(path, "[{\"directory\": \"src\", \"file\": \"a.cu\",\n"
                     "  \"arguments\": [\"/usr/bin/ccache\", \"/opt/cuda/bin/nvcc\", \"-DA\", \"-c\", \"a.cu\"]},\n"
                     " {\"directory\": \"src\", \"file\": \"h.cpp\", \"command\": \"g++ -c h.cpp\"},\n"
                     " {\"directory\": \"src\", \"file\": \"b.cu\", \"command\": \"clang++ -DB -c 'b.cu'\"}]\n");
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    Arena *arena = arena_new();
    CompdbUnit *units;
    int n;
    char error[512] = "";
    ck_assert_msg(compdb_read("db.json", false, arena, &units, &n, error, sizeof error), "%s", error);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(units[0].file, "./src/a.cu");
    ck_assert_str_eq(units[0].directory, "./src");
    ck_assert_str_eq(units[0].compiler, "/opt/cuda/bin/nvcc");
    ck_assert_int_eq(units[0].n_flags, 1);
    ck_assert_str_eq(units[0].flags[0], "-DA");
    ck_assert_int_eq(units[0].entry, 0);
    ck_assert_ptr_null(units[1].compiler); /* not nvcc: the report finds one */
    ck_assert_str_eq(units[1].flags[0], "-DB");
    ck_assert_int_eq(units[1].entry, 2);
    /* An entry that is no object, and a "file" that is no string. */
    write_file("db.json", "[7]");
    ck_assert(!compdb_read("db.json", false, arena, &units, &n, error, sizeof error));
    ck_assert_str_eq(error, "db.json: entry 0: not an object");
    write_file("db.json", "[{\"directory\": \"src\", \"file\": 3, \"command\": \"nvcc\"}]");
    ck_assert(!compdb_read("db.json", false, arena, &units, &n, error, sizeof error));
    ck_assert_str_eq(error, "db.json: entry 0: no \"file\" (a string)");
    write_file("db.json", "[{\"directory\": \"src\", \"file\": \"a.cu\", \"arguments\": [\"nvcc\", 1]}]");
    ck_assert(!compdb_read("db.json", false, arena, &units, &n, error, sizeof error));
    ck_assert_str_eq(error, "db.json: entry 0: \"arguments\" holds a value that is not a string");
    write_file("db.json", "[{\"directory\": \"src\", \"file\": \"a.cu\"}]");
    ck_assert(!compdb_read("db.json", false, arena, &units, &n, error, sizeof error));
    ck_assert_str_eq(error, "db.json: entry 0: no \"arguments\" (an array of strings) or "
                            "\"command\" (a string)");
    arena_free(arena);
    ck_assert_int_eq(chdir(cwd), 0);
    unlink(path);
    rmdir(src);
    rmdir(dir);
}
END_TEST

/* The build's targets: every sm_NN of -arch, -gencode and -code, once,
 * in order; PTX-only and other flags name none. */
START_TEST(test_build_archs)
{
    char *a[] = {"-gencode", "arch=compute_80,code=[sm_80,compute_80]", "-DTILE=sm_75", NULL};
    char *b[] = {"-arch=sm_90a", "--generate-code=arch=compute_80,code=sm_80", NULL};
    char *c[] = {"-arch", "compute_90", "-code=sm_120", "-Ism_86", NULL};
    CompdbUnit units[] = {{.flags = a, .n_flags = 3}, {.flags = b, .n_flags = 2},
                          {.flags = c, .n_flags = 4}};
    char buf[64];
    compdb_build_archs(units, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "sm_80,sm_90,sm_120");
    char *none[] = {"-arch=native", "-O3", NULL};
    units[0] = (CompdbUnit){.flags = none, .n_flags = 2};
    compdb_build_archs(units, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compdb");
    TCase *tc = tcase_create("words");
    tcase_add_loop_test(tc, test_split, 0, (int)(sizeof SPLIT_CASES / sizeof *SPLIT_CASES));
    tcase_add_loop_test(tc, test_keep, 0, (int)(sizeof KEEP_CASES / sizeof *KEEP_CASES));
    tcase_add_test(tc, test_is_cuda);
    tcase_add_test(tc, test_build_archs);
    suite_add_tcase(s, tc);
    tc = tcase_create("read");
    tcase_add_test(tc, test_read);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
