/*
 * check_ptxas.c: unit tests of the ptxas driver (compiler/ptxas.c).
 *
 * Parsing: the outputs in tests/data/ptxas, recorded from CUDA 13.0's
 * ptxas on the PTX files beside them (a trivial kernel, one with .shared
 * memory and bar.sync, one that spills under .maxnreg 32, two mangled
 * entries and a device function, whole-program and relocatable) and
 * written by hand in the forms of CUDA 3 (sm_1x "A+B bytes"), 5
 * (demangled names), 9 (a Visual Studio log: "1>  " prefixes and CRLF), 10,
 * 11 and 12 and the short ", N barriers" form, each read to the exact
 * figures; malformed outputs rejected; odd texts from memory.  The engine
 * record usage_resources makes.  Which small PTX modules need ptxas -c
 * (ptxas_needs_compile_only), and every prefix of each read safely.
 *
 * Running: a fake ptxas (a sh script in a directory whose name has a space,
 * so a shell between us and ptxas would show) checks its arguments, sleeps
 * so that the jobs finish out of order, and prints what its input file
 * asks; the results come back in input order, exit statuses and error
 * text verbatim, a kill as 128 + signal, and failures to start as
 * PTXAS_NOT_STARTED with errno; -c passed for exactly the inputs that
 * declare an extern function.
 *
 * Live: the real ptxas (ptxas_find) on the PTX files for sm_75, sm_80 and
 * sm_90 in one ptxas_run_targets call, a PTX it rejects, and a module
 * calling a function of another file (extern.ptx) against the same with
 * the function defined (extern-resolved.ptx).  Without a
 * ptxas those tests are left out and, if the rest pass, the program exits
 * 77 saying so.
 */
#include <config.h>

#include "arena.h"
#include "occupancy.h"
#include "ptx/ptxas.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- fixture and helpers ------------------------------------------------- */

static Arena *arena;

static void open_arena(void)
{
    arena = arena_new();
}

static void close_arena(void)
{
    arena_free(arena);
}

/* tests/data: $SILK_TEST_DATA under make check, else the source tree's. */
static const char *data_dir(void)
{
    const char *dir = getenv("SILK_TEST_DATA");
    return dir && *dir ? dir : SILK_TEST_DATA_DIR;
}

/* tests/data/ptxas/NAME, in the arena. */
static const char *data_path(const char *name)
{
    char buf[4096];
    int len = snprintf(buf, sizeof buf, "%s/ptxas/%s", data_dir(), name);
    ck_assert_int_lt(len, (int)sizeof buf);
    return arena_strndup(arena, buf, (size_t)len);
}

/* The whole of a file, in the arena. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    ck_assert_int_ge(size, 0);
    rewind(f);
    char *text = arena_alloc(arena, (size_t)size + 1, 1);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return text;
}

static bool parse_data(const char *name, UsageReport *report)
{
    size_t len;
    char *text = read_file(data_path(name), &len);
    return ptxas_parse(text, len, arena, report);
}

static bool parse_text(const char *text, UsageReport *report)
{
    return ptxas_parse(text, strlen(text), arena, report);
}

/* ---- parsing recorded and hand-written outputs ------------------------------ */

typedef struct Want {
    const char *name;
    int registers, spill_stores, spill_loads, stack_frame, static_smem, const_bank0, barriers;
} Want;

typedef struct ParseCase {
    const char *file;
    const char *arch;
    int n_kernels;
    Want kernels[2];
} ParseCase;

static const ParseCase parse_cases[] = {
    /* recorded: CUDA 13.0 */
    {"cuda13.0-trivial-sm_75.txt", "sm_75", 1, {{"trivial", 8, 0, 0, 0, 0, 360, 0}}},
    {"cuda13.0-trivial-sm_90.txt", "sm_90", 1, {{"trivial", 8, 0, 0, 0, 0, 0, 0}}},
    {"cuda13.0-shared-sm_80.txt", "sm_80", 1, {{"shared_sum", 8, 0, 0, 0, 1024, 360, 1}}},
    {"cuda13.0-spill-sm_90.txt", "sm_90", 1, {{"spill_regs", 32, 84, 84, 88, 0, 0, 0}}},
    {"cuda13.0-func-sm_80.txt", "sm_80", 2,
     {{"_Z6secondv", 4, 0, 0, 0, 0, 352, 0}, {"_Z5firstPi", 8, 0, 0, 0, 0, 360, 0}}},
    {"cuda13.0-func-relocatable-sm_80.txt", "sm_80", 2,
     {{"_Z6secondv", 4, 0, 0, 0, 0, 352, 0}, {"_Z5firstPi", 24, 0, 0, 0, 0, 360, 0}}},
    {"cuda13.0-reject-sm_90.txt", NULL, 0, {{0}}},
    /* hand-written in older forms */
    {"cuda12-sm_90a.txt", "sm_90a", 2,
     {{"_Z4gemmILi128EEvPK6__halfS2_Pfiii", 168, 0, 0, 16, 49152, 568, 1},
      {"_Z4fillPfif", 10, 0, 0, 0, 0, 372, 0}}},
    {"barriers-short-sm_90.txt", "sm_90", 1, {{"tile_transpose", 16, 0, 0, 0, 4224, 368, 2}}},
    {"cuda11-sm_80.txt", "sm_80", 2,
     {{"_Z11mix_roundsILi2EEvPjjj", 64, 428, 432, 176, 0, 368, -1},
      {"_Z10tex_gatherPfy", 12, 0, 0, 0, 4096, 372, -1}}},
    {"cuda10-sm_70.txt", "sm_70", 2,
     {{"_Z5scalePfS_i", 8, 0, 0, 0, 0, 352, -1},
      {"_Z9block_sumPKfPfi", 32, 0, 0, 0, 1024, 352, -1}}},
    {"cuda9-msvc-sm_52.txt", "sm_52", 2,
     {{"_Z8sieve_32ILj9EEvPj", 45, 0, 0, 2048, 64, 328, -1},
      {"_Z7collectILj9ELj512EEvPj", 69, 0, 0, 208, 31372, 324, -1}}},
    {"cuda5-demangled-sm_20.txt", "sm_20", 1,
     {{"walk_tree(node, int*, double, int)", 46, 0, 0, 72, 0, 176, -1}}},
    {"cuda3-sm_13.txt", "sm_13", 2,
     {{"_Z6kernelPfi", 6, 0, 0, 8, 40, 0, -1}, {"_Z4copyPKfPf", 3, 0, 0, 0, 24, 0, -1}}},
};

static void check_kernel(const KernelUsage *got, const Want *want)
{
    ck_assert_str_eq(got->name, want->name);
    ck_assert_int_eq(got->registers, want->registers);
    ck_assert_int_eq(got->spill_stores, want->spill_stores);
    ck_assert_int_eq(got->spill_loads, want->spill_loads);
    ck_assert_int_eq(got->stack_frame, want->stack_frame);
    ck_assert_int_eq(got->static_smem, want->static_smem);
    ck_assert_int_eq(got->const_bank0, want->const_bank0);
    ck_assert_int_eq(got->barriers, want->barriers);
    ck_assert_int_eq(got->max_threads, 0);
    ck_assert(!got->estimated);
}

START_TEST(test_parse_file)
{
    const ParseCase *c = &parse_cases[_i];
    UsageReport r;
    ck_assert_msg(parse_data(c->file, &r), "%s did not parse", c->file);
    if (c->arch)
        ck_assert_str_eq(r.arch, c->arch);
    else
        ck_assert_ptr_null(r.arch);
    ck_assert_int_eq(r.n_kernels, c->n_kernels);
    ck_assert_int_eq(r.exit_status, 0);
    ck_assert_ptr_null(r.errors);
    for (int k = 0; k < c->n_kernels; k++) {
        check_kernel(&r.kernels[k], &c->kernels[k]);
        ck_assert_ptr_eq(usage_kernel(&r, c->kernels[k].name), &r.kernels[k]);
    }
}
END_TEST

static const char *const malformed_files[] = {
    "malformed-no-used.txt",    /* an entry, then the output stops */
    "malformed-registers.txt",  /* "Used many registers" */
    "malformed-name.txt",       /* unclosed quotes */
    "malformed-overflow.txt",   /* registers past INT_MAX */
    "malformed-spills.txt",     /* "some bytes spill stores" */
};

START_TEST(test_parse_malformed_file)
{
    UsageReport r;
    ck_assert_msg(!parse_data(malformed_files[_i], &r), "%s parsed", malformed_files[_i]);
    ck_assert_int_eq(r.n_kernels, 0);
    ck_assert_ptr_null(r.kernels);
}
END_TEST

/* Texts from memory: ok, kernel count and the first kernel's registers. */
static const struct {
    const char *text;
    bool ok;
    int n_kernels;
    int registers;
} text_cases[] = {
    {"", true, 0, 0},
    {"hello\nworld", true, 0, 0},
    {"ptxas info    : Used 8 registers\n", true, 0, 0}, /* no entry to belong to */
    /* no newline at the end */
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Used 9 registers",
     true, 1, 9},
    /* extra spaces, and unknown items and lines */
    {"ptxas info:Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Something new, 3 widgets\n"
     "ptxas info  :  Used 12 registers, 7 widgets,, 1 textures\n",
     true, 1, 12},
    /* a second Used line for a kernel that had one is not its */
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Used 5 registers\nptxas info    : Used 50 registers\n",
     true, 1, 5},
    /* a callee's block before the kernel's own: the Used line after it is the callee's */
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Function properties for helper\n"
     "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
     "ptxas info    : Used 40 registers\n"
     "ptxas info    : Function properties for k\n"
     "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
     "ptxas info    : Used 6 registers\n",
     true, 1, 6},
    /* a callee's block after the kernel's own changes nothing */
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Function properties for k:\n"
     "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
     "ptxas info    : Function properties for helper\n"
     "    bad bytes stack frame\n"
     "ptxas info    : Used 7 registers\n",
     true, 1, 7},
    {"ptxas info    : Compiling entry function '' for 'sm_80'\n", false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for ''\n", false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for '\n", false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for 'sm_80\n", false, 0, 0},
    {"ptxas info    : Compiling entry function k for sm_80\n", false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Used registers\n",
     false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Used 8 bytes smem, 8 registers\n",
     false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Used 8 registers, 1+ bytes smem\n",
     false, 0, 0},
    {"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
     "ptxas info    : Used 8 registers, 2147483647+1 bytes smem\n",
     false, 0, 0},
};

START_TEST(test_parse_text)
{
    UsageReport r;
    ck_assert_int_eq(parse_text(text_cases[_i].text, &r), text_cases[_i].ok);
    ck_assert_int_eq(r.n_kernels, text_cases[_i].n_kernels);
    if (r.n_kernels)
        ck_assert_int_eq(r.kernels[0].registers, text_cases[_i].registers);
}
END_TEST

/* Bytes after the given length are not read: a NUL is not needed. */
START_TEST(test_parse_length)
{
    const char text[] = "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
                        "ptxas info    : Used 8 registers, 64 bytes smem";
    UsageReport r;
    ck_assert(ptxas_parse(text, strlen(text) - strlen(", 64 bytes smem"), arena, &r));
    ck_assert_int_eq(r.kernels[0].registers, 8);
    ck_assert_int_eq(r.kernels[0].static_smem, 0);
    ck_assert(ptxas_parse(text, strlen(text), arena, &r));
    ck_assert_int_eq(r.kernels[0].static_smem, 64);
    /* cut inside the first unit: "8 reg" is not a register count */
    ck_assert(!ptxas_parse(text, strlen("ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
                                        "ptxas info    : Used 8 reg"), arena, &r));
}
END_TEST

/* Warnings go to the kernel they name as a whole word (ptxas prints
 * CUDA 13.0's for sm_120 before the entry's "Compiling" line; "_Z1kv" is
 * no mention of "_Z1k"), a module-wide one to every kernel, each once,
 * CRLF and a build log's prefix dropped. */
START_TEST(test_parse_warnings)
{
    const char text[] =
        "ptxas warning : Value of threads per SM for entry _Z1kv is out of range. "
        ".minnctapersm will be ignored\r\n"
        "ptxas info    : Compiling entry function '_Z1k' for 'sm_120'\n"
        "ptxas info    : Used 8 registers\n"
        "ptxas info    : Compiling entry function '_Z1kv' for 'sm_120'\n"
        "ptxas info    : Used 38 registers\n"
        "1>  ptxas warning : Something of the whole module\n"
        "ptxas warning : Something of the whole module\n";
    UsageReport r;
    ck_assert(ptxas_parse(text, strlen(text), arena, &r));
    ck_assert_int_eq(r.n_kernels, 2);
    ck_assert_int_eq(r.kernels[0].n_warnings, 1);
    ck_assert_str_eq(r.kernels[0].warnings[0], "Something of the whole module");
    ck_assert_int_eq(r.kernels[1].n_warnings, 2);
    ck_assert_str_eq(r.kernels[1].warnings[0], "Value of threads per SM for entry _Z1kv is out of "
                                               "range. .minnctapersm will be ignored");
    ck_assert_str_eq(r.kernels[1].warnings[1], "Something of the whole module");
}
END_TEST

/* Many kernels: the array grows. */
START_TEST(test_parse_many_kernels)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (int i = 0; i < 100; i++)
        fprintf(f,
                "ptxas info    : Compiling entry function 'k%d' for 'sm_80'\n"
                "ptxas info    : Used %d registers, %d bytes smem\n",
                i, i + 1, 4 * i);
    fclose(f);
    UsageReport r;
    ck_assert(ptxas_parse(text, len, arena, &r));
    free(text);
    ck_assert_int_eq(r.n_kernels, 100);
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        ck_assert_str_eq(r.kernels[i].name, name);
        ck_assert_int_eq(r.kernels[i].registers, i + 1);
        ck_assert_int_eq(r.kernels[i].static_smem, 4 * i);
    }
    ck_assert_ptr_null(usage_kernel(&r, "k100"));
}
END_TEST

/* ---- relocatable PTX ------------------------------------------------------------ */

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Small modules and whether ptxas must assemble them with -c: the forms
 * nvcc -ptx writes with and without -rdc=true, and texts that only look
 * like an extern. */
static const struct {
    const char *text;
    bool needs;
} compile_only_cases[] = {
    /* whole-program: printf, malloc, free and assert are system calls */
    {PTX_HEAD ".extern .func (.param .b64 func_retval0) malloc\n(\n.param .b64 malloc_param_0\n)\n;\n"
              ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 p0,\n.param .b64 p1\n);\n"
              ".extern .func free\n(\n.param .b64 free_param_0\n)\n;\n"
              ".extern .func __assertfail\n(\n.param .b64 a\n)\n;\n"
              ".visible .entry k()\n{\nret;\n}\n",
     false},
    /* -rdc: a function, a variable, a constant, a kernel of another file */
    {PTX_HEAD ".extern .func (.param .b32 func_retval0) _Z5blendff\n(\n.param .b32 a,\n"
              ".param .b32 b\n)\n;\n.visible .entry k()\n{\nret;\n}\n",
     true},
    {PTX_HEAD ".extern .global .align 4 .b8 offsets[64];\n", true},
    {PTX_HEAD ".extern .const .align 4 .b8 weights[32];\n", true},
    {PTX_HEAD ".extern .entry _Z5childPii(\n.param .u64 a,\n.param .u32 b\n)\n;\n", true},
    /* shared memory: dynamic (unsized) or another file's (sized) */
    {PTX_HEAD ".extern .shared .align 16 .b8 pool[];\n", false},
    {PTX_HEAD ".extern .shared .align 4 .u32 counter;\n", false},
    /* declared, then defined here (internal, as whole-program PTX has it) */
    {PTX_HEAD ".extern .func (.param .b32 r) f(.param .b32 x);\n"
              ".func (.param .b32 r) f(.param .b32 x)\n{\nret;\n}\n"
              ".extern .global .align 4 .u32 g;\n.visible .global .align 4 .u32 g = 7;\n",
     false},
    /* -rdc: a function other files may call, and nothing extern */
    {PTX_HEAD ".visible .func (.param .b32 r) f(.param .b32 x)\n{\nret;\n}\n"
              ".visible .entry k()\n{\nret;\n}\n",
     true},
    {PTX_HEAD ".weak .func g()\n{\nret;\n}\n", true},
    /* whole-program: an internal function (nvcc's __noinline__, silkc's) */
    {PTX_HEAD ".func (.param .b32 r) f(.param .b32 x)\n{\nret;\n}\n"
              ".visible .entry k()\n{\nret;\n}\n",
     false},
    /* not declarations: comments, a string, a body, an initializer */
    {PTX_HEAD "// .extern .func f();\n/* .extern .global .u32 g;\n*/\n", false},
    {".version 8.0\n.target sm_80\n.address_size 64\n.file 1 \"a;{.extern .func f();\"\n", false},
    {PTX_HEAD ".visible .entry k()\n{\n{ .reg .b32 x; }\n// .extern .func f();\nret;\n}\n", false},
    {PTX_HEAD ".global .align 1 .b8 s[3] = {104, 105, 0};\n.extern .func g();\n", true},
    {PTX_HEAD, false},
    {"", false},
    /* truncated in a declaration, a comment, a string, a body */
    {PTX_HEAD ".extern .func (.param .b32 r", false},
    {PTX_HEAD ".extern .global .u32 g;\n/* never closed", true},
    {PTX_HEAD ".file 1 \"never closed\n.extern .global .u32 g;\n", false},
    {PTX_HEAD ".visible .entry k()\n{\n.extern .global .u32 g;\n", false},
};

START_TEST(test_needs_compile_only)
{
    const char *text = compile_only_cases[_i].text;
    ck_assert_msg(ptxas_needs_compile_only(text, strlen(text)) == compile_only_cases[_i].needs,
                  "case %d:\n%s", _i, text);
    /* every prefix: an answer, no read past the end (ASan builds check) */
    for (size_t len = 0; len < strlen(text); len++) {
        char *copy = malloc(len ? len : 1);
        memcpy(copy, text, len);
        ptxas_needs_compile_only(copy, len);
        free(copy);
    }
}
END_TEST

START_TEST(test_needs_compile_only_null)
{
    ck_assert(!ptxas_needs_compile_only(NULL, 0));
    ck_assert(!ptxas_needs_compile_only(NULL, 100));
}
END_TEST

/* ---- the engine's record ------------------------------------------------------- */

static ArchTable table;

static void load_table(void)
{
    open_arena();
    OccError err;
    ck_assert_msg(arch_table_load_builtin(&table, &err) == 0, "%s", err.message);
}

static void free_table(void)
{
    arch_table_free(&table);
    close_arena();
}

START_TEST(test_resources_reported_barriers)
{
    const ArchLimits *sm90 = arch_table_find(&table, "sm_90");
    ck_assert_ptr_nonnull(sm90);
    KernelUsage u = {.name = "k", .registers = 32, .static_smem = 1024, .barriers = 0,
                     .max_threads = 128};
    KernelResources got = usage_resources(&u, sm90, false);
    KernelResources want = occ_kernel_defaults(sm90, 32, 1024, false);
    ck_assert_int_eq(got.regs_per_thread, 32);
    ck_assert_uint_eq(got.static_smem, 1024);
    ck_assert_int_eq(got.barriers, 0);
    ck_assert_int_eq(got.max_threads_per_block, 128);
    ck_assert_uint_eq(got.max_dynamic_smem, want.max_dynamic_smem);
    ck_assert_int_eq(got.carveout, want.carveout);
    ck_assert(!got.smem_optin);

    u.barriers = 2;
    ck_assert_int_eq(usage_resources(&u, sm90, true).barriers, 2);
    ck_assert(usage_resources(&u, sm90, true).smem_optin);
    ck_assert_uint_eq(usage_resources(&u, sm90, true).max_dynamic_smem,
                      occ_kernel_defaults(sm90, 32, 1024, true).max_dynamic_smem);
}
END_TEST

/* A ptxas that does not report barriers leaves the engine's default (1). */
START_TEST(test_resources_unreported_barriers)
{
    const ArchLimits *sm80 = arch_table_find(&table, "sm_80");
    UsageReport r;
    ck_assert(parse_data("cuda11-sm_80.txt", &r));
    KernelResources k = usage_resources(&r.kernels[1], sm80, false);
    ck_assert_int_eq(k.regs_per_thread, 12);
    ck_assert_uint_eq(k.static_smem, 4096);
    ck_assert_int_eq(k.barriers, occ_kernel_defaults(sm80, 12, 4096, false).barriers);
    ck_assert_int_eq(k.max_threads_per_block, 0);
    OccResult res;
    ck_assert_int_eq(occ_active_blocks(sm80, &k, 256, 0, &res), OCC_OK);
    ck_assert_int_gt(res.active_blocks, 0);
}
END_TEST

/* ---- running a fake ptxas -------------------------------------------------------- */

/* Checks its arguments (a leading -c is taken off, and named in the
 * kernel's name: "k_c"), then does what the first line of its input says:
 * "DELAY REGISTERS ok" prints one kernel; "DELAY STATUS fail" prints an
 * error (a tab, a CRLF, no final newline) and exits STATUS; "0 0 bad"
 * prints an entry without a "Used" line and succeeds; "0 0 kill" kills
 * itself. */
static const char FAKE_PTXAS[] =
    "#!/bin/sh\n"
    "c=; if [ \"$1\" = -c ]; then c=_c; shift; fi\n"
    "if [ $# -ne 6 ] || [ \"$1\" != -v ] || [ \"$2\" != --gpu-name ] || [ \"$4\" != -o ] ||\n"
    "   [ \"$5\" != /dev/null ]; then echo \"bad arguments: $*\" >&2; exit 9; fi\n"
    "read -r delay value what < \"$6\" || exit 8\n"
    "sleep \"$delay\"\n"
    "case \"$what\" in\n"
    "ok) printf \"ptxas info    : Compiling entry function 'k%s' for '%s'\\n\" \"$c\" \"$3\" >&2\n"
    "    printf 'ptxas info    : Used %s registers, used 0 barriers\\n' \"$value\" >&2 ;;\n"
    "fail) printf 'ptxas %s, line 1; error   : \\tno\\r\\nptxas fatal   : for %s' \"$6\" \"$3\" >&2\n"
    "    exit \"$value\" ;;\n"
    "bad) echo \"ptxas info    : Compiling entry function 'k' for '$3'\" ;;\n"
    "kill) kill -9 $$ ;;\n"
    "esac\n";

static char fake_dir[64];

/* Writes `text` to fake_dir/NAME; returns the path, in the arena. */
static const char *fake_file(const char *name, const char *text, mode_t mode)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", fake_dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_int_eq(chmod(path, mode), 0);
    return arena_strndup(arena, path, strlen(path));
}

static const char *fake_ptxas(void)
{
    return fake_file("fake ptxas", FAKE_PTXAS, 0755);
}

static void make_fake_dir(void)
{
    open_arena();
    const char *tmp = getenv("TMPDIR");
    snprintf(fake_dir, sizeof fake_dir, "%s/silk ptxas.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(fake_dir));
}

static void remove_fake_dir(void)
{
    DIR *dir = opendir(fake_dir);
    if (dir) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(dir)) != NULL) {
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", fake_dir, e->d_name);
                unlink(path);
            }
        }
        closedir(dir);
    }
    rmdir(fake_dir);
    close_arena();
}

/* How many file descriptors are open: a run must leave none behind. */
static int open_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 1024; fd++)
        n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* Six pairs, more than most machines have cores; the first finishes last. */
START_TEST(test_run_targets_in_order)
{
    int fds = open_fds();
    const char *ptxas = fake_ptxas();
    enum { PAIRS = 6 };
    const char *paths[PAIRS], *archs[PAIRS] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_120"};
    for (int i = 0; i < PAIRS; i++) {
        char name[32], line[32];
        snprintf(name, sizeof name, "in put %d.ptx", i);
        snprintf(line, sizeof line, "0.%d %d ok\n", PAIRS - 1 - i, 10 + i);
        paths[i] = fake_file(name, line, 0644);
    }
    UsageReport out[PAIRS];
    ck_assert_int_eq(ptxas_run_targets(ptxas, paths, archs, PAIRS, arena, out), 0);
    for (int i = 0; i < PAIRS; i++) {
        ck_assert_int_eq(out[i].exit_status, 0);
        ck_assert_ptr_null(out[i].errors);
        ck_assert_str_eq(out[i].arch, archs[i]);
        ck_assert_int_eq(out[i].n_kernels, 1);
        ck_assert_str_eq(out[i].kernels[0].name, "k");
        ck_assert_int_eq(out[i].kernels[0].registers, 10 + i);
        ck_assert_int_eq(out[i].kernels[0].barriers, 0);
    }
    ck_assert_int_eq(open_fds(), fds);
}
END_TEST

START_TEST(test_run_rejection_verbatim)
{
    const char *ptxas = fake_ptxas();
    const char *bad = fake_file("bad.ptx", "0 3 fail\n", 0644);
    UsageReport r;
    ck_assert_int_eq(ptxas_run(ptxas, bad, "sm_90", arena, &r), 3);
    ck_assert_int_eq(r.exit_status, 3);
    ck_assert_int_eq(r.n_kernels, 0);
    ck_assert_str_eq(r.arch, "sm_90");
    char want[256];
    snprintf(want, sizeof want, "ptxas %s, line 1; error   : \tno\r\nptxas fatal   : for sm_90", bad);
    ck_assert_str_eq(r.errors, want);
}
END_TEST

/* The first failure in input order decides the result; every pair has its own. */
START_TEST(test_run_targets_first_failure)
{
    const char *ptxas = fake_ptxas();
    const char *paths[] = {fake_file("a.ptx", "0 8 ok\n", 0644), fake_file("b.ptx", "0.3 4 fail\n", 0644),
                           fake_file("c.ptx", "0 5 fail\n", 0644), fake_file("d.ptx", "0 0 kill\n", 0644)};
    const char *archs[] = {"sm_80", "sm_80", "sm_90", "sm_90"};
    UsageReport out[4];
    int fds = open_fds();
    ck_assert_int_eq(ptxas_run_targets(ptxas, paths, archs, 4, arena, out), 4);
    ck_assert_int_eq(out[0].exit_status, 0);
    ck_assert_int_eq(out[0].kernels[0].registers, 8);
    ck_assert_int_eq(out[1].exit_status, 4);
    ck_assert_int_eq(out[2].exit_status, 5);
    ck_assert_ptr_nonnull(strstr(out[2].errors, "for sm_90"));
    ck_assert_int_eq(out[3].exit_status, 128 + 9);
    ck_assert_str_eq(out[3].errors, "");
    ck_assert_int_eq(open_fds(), fds);
}
END_TEST

START_TEST(test_run_bad_output)
{
    const char *ptxas = fake_ptxas();
    UsageReport r;
    const char *ptx = fake_file("x.ptx", "0 0 bad\n", 0644);
    ck_assert_int_eq(ptxas_run(ptxas, ptx, "sm_80", arena, &r), PTXAS_BAD_OUTPUT);
    ck_assert_int_eq(r.exit_status, PTXAS_BAD_OUTPUT);
    ck_assert_str_eq(r.errors, "ptxas info    : Compiling entry function 'k' for 'sm_80'\n");
}
END_TEST

START_TEST(test_run_not_started)
{
    const char *ptx = fake_file("x.ptx", "0 8 ok\n", 0644);
    UsageReport r;
    errno = 0;
    ck_assert_int_eq(ptxas_run("/nonexistent/ptxas", ptx, "sm_80", arena, &r), PTXAS_NOT_STARTED);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_int_eq(r.exit_status, PTXAS_NOT_STARTED);
    ck_assert_str_eq(r.arch, "sm_80");
    ck_assert_ptr_null(r.errors);

    errno = 0; /* not executable */
    ck_assert_int_eq(ptxas_run(ptx, ptx, "sm_80", arena, &r), PTXAS_NOT_STARTED);
    ck_assert_int_eq(errno, EACCES);

    ck_assert_int_eq(setenv("PATH", fake_dir, 1), 0);
    errno = 0; /* a bare name not on $PATH */
    ck_assert_int_eq(ptxas_run("silk-no-such-ptxas", ptx, "sm_80", arena, &r), PTXAS_NOT_STARTED);
    ck_assert_int_eq(errno, ENOENT);

    const char *paths[] = {ptx, ptx};
    const char *archs[] = {"sm_80", "sm_90"};
    UsageReport out[2];
    ck_assert_int_eq(ptxas_run_targets("/nonexistent/ptxas", paths, archs, 2, arena, out),
                     PTXAS_NOT_STARTED);
    ck_assert_int_eq(out[1].exit_status, PTXAS_NOT_STARTED);
    ck_assert_str_eq(out[1].arch, "sm_90");
    ck_assert_int_eq(ptxas_run_targets("/nonexistent/ptxas", paths, archs, 0, arena, out), 0);
    errno = 0;
    ck_assert_int_eq(ptxas_run_targets(NULL, paths, archs, 2, arena, out), PTXAS_NOT_STARTED);
    ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* A bare name is looked up on $PATH, by ptxas_run and by ptxas_find. */
START_TEST(test_run_on_path)
{
    fake_file("ptxas", FAKE_PTXAS, 0755);
    const char *ptx = fake_file("x.ptx", "0 21 ok\n", 0644);
    char path[256];
    snprintf(path, sizeof path, "/nonexistent:%s:/usr/bin:/bin", fake_dir);
    ck_assert_int_eq(setenv("PATH", path, 1), 0);
    UsageReport r;
    ck_assert_int_eq(ptxas_run("ptxas", ptx, "sm_80", arena, &r), 0);
    ck_assert_int_eq(r.kernels[0].registers, 21);
#ifndef PTXAS_PATH
    unsetenv("SILK_PTXAS");
    ck_assert_str_eq(ptxas_find(), "ptxas");
#endif
}
END_TEST

START_TEST(test_find_env)
{
    const char *ptxas = fake_ptxas();
    ck_assert_int_eq(setenv("SILK_PTXAS", ptxas, 1), 0);
    ck_assert_str_eq(ptxas_find(), ptxas);
    /* one that cannot run is passed over */
    const char *text = fake_file("not-executable", "", 0644);
    ck_assert_int_eq(setenv("SILK_PTXAS", text, 1), 0);
    const char *found = ptxas_find();
    ck_assert(found == NULL || strcmp(found, text) != 0);
    ck_assert_int_eq(setenv("PATH", fake_dir, 1), 0);
#ifdef PTXAS_PATH
    ck_assert_str_eq(ptxas_find(), PTXAS_PATH);
#else
    ck_assert_ptr_null(ptxas_find());
#endif
}
END_TEST

/* -c exactly for the pairs whose PTX needs it, read once per run of the
 * same file: the rest run as before. */
START_TEST(test_run_compile_only)
{
    const char *ptxas = fake_ptxas();
    const char *linked = fake_file("linked.ptx", "0 10 ok\n.extern .func f();\n", 0644);
    const char *whole = fake_file("whole.ptx", "0 11 ok\n// .extern .func f();\n", 0644);
    const char *paths[] = {linked, linked, whole, linked};
    const char *archs[] = {"sm_80", "sm_90", "sm_90", "sm_120"};
    static const char *const names[] = {"k_c", "k_c", "k", "k_c"};
    UsageReport out[4];
    ck_assert_int_eq(ptxas_run_targets(ptxas, paths, archs, 4, arena, out), 0);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(out[i].n_kernels, 1);
        ck_assert_str_eq(out[i].kernels[0].name, names[i]);
    }
    UsageReport r;
    ck_assert_int_eq(ptxas_run(ptxas, whole, "sm_80", arena, &r), 0);
    ck_assert_str_eq(r.kernels[0].name, "k");
    ck_assert_int_eq(ptxas_run(ptxas, linked, "sm_80", arena, &r), 0);
    ck_assert_str_eq(r.kernels[0].name, "k_c");
}
END_TEST

/* ---- the real ptxas -------------------------------------------------------------- */

enum { LIVE_FILES = 4, LIVE_ARCHS = 3, LIVE_PAIRS = LIVE_FILES * LIVE_ARCHS };
static const char *const live_files[LIVE_FILES] = {"trivial.ptx", "shared.ptx", "spill.ptx",
                                                   "func.ptx"};
static const char *const live_archs[LIVE_ARCHS] = {"sm_75", "sm_80", "sm_90"};

static void check_live(const char *file, const UsageReport *r)
{
    ck_assert_msg(r->exit_status == 0, "%s for %s: %d\n%s", file, r->arch, r->exit_status,
                  r->errors ? r->errors : "");
    const KernelUsage *k = &r->kernels[0];
    if (strcmp(file, "trivial.ptx") == 0) {
        ck_assert_int_eq(r->n_kernels, 1);
        ck_assert_str_eq(k->name, "trivial");
        ck_assert_int_gt(k->registers, 0);
        ck_assert_int_le(k->registers, 16);
        ck_assert_int_eq(k->static_smem, 0);
        ck_assert_int_eq(k->spill_stores + k->spill_loads, 0);
    } else if (strcmp(file, "shared.ptx") == 0) {
        ck_assert_int_eq(r->n_kernels, 1);
        ck_assert_str_eq(k->name, "shared_sum");
        ck_assert_int_eq(k->static_smem, 1024);
        ck_assert(k->barriers == 1 || k->barriers == -1);
        ck_assert_int_eq(k->spill_stores + k->spill_loads, 0);
    } else if (strcmp(file, "spill.ptx") == 0) {
        ck_assert_str_eq(k->name, "spill_regs");
        ck_assert_int_le(k->registers, 32); /* .maxnreg 32 is honoured ... */
        ck_assert_int_gt(k->spill_stores, 0); /* ... by spilling 48 live values */
        ck_assert_int_gt(k->spill_loads, 0);
        ck_assert_int_ge(k->stack_frame, k->spill_stores);
    } else {
        ck_assert_int_eq(r->n_kernels, 2);
        ck_assert_ptr_nonnull(usage_kernel(r, "_Z5firstPi"));
        ck_assert_ptr_nonnull(usage_kernel(r, "_Z6secondv"));
    }
}

START_TEST(test_live_targets)
{
    const char *ptxas = ptxas_find();
    const char *paths[LIVE_PAIRS], *archs[LIVE_PAIRS];
    for (int i = 0; i < LIVE_PAIRS; i++) {
        paths[i] = data_path(live_files[i / LIVE_ARCHS]);
        archs[i] = live_archs[i % LIVE_ARCHS];
    }
    UsageReport out[LIVE_PAIRS];
    int result = ptxas_run_targets(ptxas, paths, archs, LIVE_PAIRS, arena, out);
    for (int i = 0; i < LIVE_PAIRS; i++) {
        ck_assert_str_eq(out[i].arch, archs[i]);
        check_live(live_files[i / LIVE_ARCHS], &out[i]);
    }
    ck_assert_int_eq(result, 0);
}
END_TEST

/* A rejection: ptxas's text, each line its own ("ptxas FILE, line N; error"). */
START_TEST(test_live_rejection)
{
    const char *ptx = data_path("reject.ptx");
    UsageReport r;
    int status = ptxas_run(ptxas_find(), ptx, "sm_90", arena, &r);
    ck_assert_int_gt(status, 0);
    ck_assert_int_eq(r.exit_status, status);
    ck_assert_int_eq(r.n_kernels, 0);
    ck_assert_ptr_nonnull(r.errors);
    char head[512];
    snprintf(head, sizeof head, "ptxas %s, line 8; error   : ", ptx);
    ck_assert_msg(strncmp(r.errors, head, strlen(head)) == 0, "got:\n%s", r.errors);
    ck_assert_ptr_nonnull(strstr(r.errors, "'%r1'"));
    size_t len = strlen(r.errors);
    ck_assert(len > 0 && r.errors[len - 1] == '\n');
    for (const char *line = r.errors; *line; line = strchr(line, '\n') + 1)
        ck_assert_msg(strncmp(line, "ptxas ", 6) == 0, "not ptxas's: %s", line);
}
END_TEST

/* A module that calls a function of another file assembles (with -c),
 * and what does not depend on the callee is what ptxas gives with the
 * callee defined in the module (extern-resolved.ptx).  The calling
 * kernel's registers differ, and neither count is the one it runs with:
 * with the callee in the module, ptxas allocates across the call (10
 * registers on sm_75 to sm_120, CUDA 13.0); with -c it keeps the call's
 * ABI (24); nvlink then raises the kernel to the largest count in its call
 * graph (cubin.h, CubinKernel.calls_out). */
START_TEST(test_live_extern)
{
    const char *arch = _i ? "sm_90" : "sm_75";
    const char *ptx = data_path("extern.ptx"), *resolved = data_path("extern-resolved.ptx");
    size_t len;
    char *text = read_file(ptx, &len);
    ck_assert(ptxas_needs_compile_only(text, len));
    text = read_file(resolved, &len);
    ck_assert(!ptxas_needs_compile_only(text, len));
    UsageReport got, want;
    ck_assert_int_eq(ptxas_run(ptxas_find(), ptx, arch, arena, &got), 0);
    ck_assert_int_eq(ptxas_run(ptxas_find(), resolved, arch, arena, &want), 0);
    ck_assert_int_eq(got.n_kernels, 2);
    const KernelUsage *alone = usage_kernel(&got, "alone"), *alone2 = usage_kernel(&want, "alone");
    ck_assert_int_eq(alone->registers, alone2->registers);
    ck_assert_int_eq(alone->static_smem, 0);
    ck_assert_int_eq(alone->barriers, alone2->barriers);
    ck_assert_int_eq(alone->stack_frame, alone2->stack_frame);
    const KernelUsage *mix = usage_kernel(&got, "mix"), *mix2 = usage_kernel(&want, "mix");
    ck_assert_int_eq(mix->static_smem, 512);
    ck_assert_int_eq(mix2->static_smem, 512);
    ck_assert_int_eq(mix->barriers, mix2->barriers);
    ck_assert_int_gt(mix->registers, mix2->registers);
}
END_TEST

/* ---- suites ------------------------------------------------------------------- */

static Suite *ptxas_suite(void)
{
    Suite *s = suite_create("ptxas");
    TCase *tc = tcase_create("parse");
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_add_loop_test(tc, test_parse_file, 0, N(parse_cases));
    tcase_add_loop_test(tc, test_parse_malformed_file, 0, N(malformed_files));
    tcase_add_loop_test(tc, test_parse_text, 0, N(text_cases));
    tcase_add_test(tc, test_parse_length);
    tcase_add_test(tc, test_parse_many_kernels);
    tcase_add_test(tc, test_parse_warnings);
    tcase_add_loop_test(tc, test_needs_compile_only, 0, N(compile_only_cases));
    tcase_add_test(tc, test_needs_compile_only_null);
    suite_add_tcase(s, tc);

    tc = tcase_create("resources");
    tcase_add_checked_fixture(tc, load_table, free_table);
    tcase_add_test(tc, test_resources_reported_barriers);
    tcase_add_test(tc, test_resources_unreported_barriers);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_add_checked_fixture(tc, make_fake_dir, remove_fake_dir);
    tcase_add_test(tc, test_run_targets_in_order);
    tcase_add_test(tc, test_run_rejection_verbatim);
    tcase_add_test(tc, test_run_targets_first_failure);
    tcase_add_test(tc, test_run_bad_output);
    tcase_add_test(tc, test_run_not_started);
    tcase_add_test(tc, test_run_on_path);
    tcase_add_test(tc, test_find_env);
    tcase_add_test(tc, test_run_compile_only);
    suite_add_tcase(s, tc);
    return s;
}

static Suite *live_suite(void)
{
    Suite *s = suite_create("ptxas live");
    TCase *tc = tcase_create("live");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_add_test(tc, test_live_targets);
    tcase_add_test(tc, test_live_rejection);
    tcase_add_loop_test(tc, test_live_extern, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *ptxas = ptxas_find();
    SRunner *sr = srunner_create(ptxas_suite());
    if (ptxas)
        srunner_add_suite(sr, live_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    if (!ptxas) {
        puts("SKIP: live ptxas tests: no ptxas (set SILK_PTXAS or configure --with-cuda=DIR)");
        return 77;
    }
    return EXIT_SUCCESS;
}
