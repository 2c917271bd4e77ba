/*
 * check_c_code_objects.c: the code objects a program carries for the HIP
 * runtime (compiler/c/c_table.c, SilkrtProgram ABI 2), on a program
 * written here.  Its CProgram is given a code object by hand (the bytes
 * of the test double's form, tests/runtime/fake_hip.c), as silkc build
 * gives it each AMD target's .hsaco: the C holds the bytes and the table
 * names them; compiled against libsilkrt and run with SILK_BACKEND=hip on
 * the double, the launch reaches hipModuleLaunchKernel with the kernel's
 * grid and block, from the code object of the device's target, and a
 * device of another target gets none.  A real code object too, linked
 * here by llc-19 and ld.lld-19 from LLVM IR written here, as the AMDGPU
 * backend would link one (when both are installed).  The runs need a C
 * compiler and the double: without them they are left out, with a note.
 */
#define _GNU_SOURCE
#include "build.h"
#include "c/c.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char PROGRAM[] = "import { Buffer, backend } from \"std/gpu\"\n"
                              "@launch(64)\n"
                              "kernel fill(n: u64, out: tensor<u64>[n]) {\n"
                              "  let i = ctx.gid\n"
                              "  if i < n {\n"
                              "    out[i] = i\n"
                              "  }\n"
                              "}\n"
                              "fn main() -> i32 {\n"
                              "  let n: u64 = 256\n"
                              "  let b = Buffer.alloc(n * 8)\n"
                              "  let r = gpu (grid=n, workspace=64) {\n"
                              "    fill(n, b.address);\n"
                              "  }\n"
                              "  println(backend(), r.is_ok())\n"
                              "  b.release()\n"
                              "  return 0\n"
                              "}\n";

/* The double's form of a code object for gfx942 holding fill. */
static const char GFX942[] = "silk fake code object for gfx942\n.kernel fill 2\n.end\n";
static const CCodeObject FAKE_OBJECT = {"gfx942", (const unsigned char *)GFX942, sizeof GFX942 - 1};

/* fill as an AMDGPU kernel, for llc-19. */
static const char FILL_IR[] =
    "target triple = \"amdgcn-amd-amdhsa\"\n"
    "define amdgpu_kernel void @fill(i64 %n, ptr addrspace(1) %out) "
    "\"amdgpu-flat-work-group-size\"=\"64,64\" {\n"
    "  %i = call i32 @llvm.amdgcn.workitem.id.x()\n"
    "  %e = zext i32 %i to i64\n"
    "  %p = getelementptr i64, ptr addrspace(1) %out, i64 %e\n"
    "  store i64 %e, ptr addrspace(1) %p\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.amdgcn.workitem.id.x()\n";

static const char *const ARCHS[] = {"sm_80", "cpu"};

typedef struct Fixture {
    Compilation c;
    Build b;
    BuildOptions options;
    FILE *diagnostics;
    char *diag_text, *c_text;
    size_t diag_len, c_len;
} Fixture;

/* The program's C, with `object` as its one code object. */
static void emit(Fixture *f, const CCodeObject *object)
{
    f->diagnostics = open_memstream(&f->diag_text, &f->diag_len);
    compile_init(&f->c, f->diagnostics);
    f->options = (BuildOptions){.archs = ARCHS, .n_archs = 2, .last = BUILD_CODE, .optimize = true,
                                .program = "check_c_code_objects"};
    ck_assert_ptr_nonnull(compile_add_text(&f->c, "fill.silk", PROGRAM, strlen(PROGRAM), PKG_ROOT));
    ck_assert_int_eq(build_run(&f->c, &f->options, &f->b), BUILD_OK);
    static const int ptx[] = {0};
    const char *inputs[] = {"fill.silk"};
    CProgram p = {.c = &f->c, .build = &f->b, .ptx = ptx, .n_ptx = 1, .code_objects = object,
                  .n_code_objects = 1, .cpu = 1, .inputs = inputs, .n_inputs = 1};
    FILE *out = open_memstream(&f->c_text, &f->c_len);
    ck_assert_int_eq(c_emit_program(&p, out), C_OK);
    fclose(out);
    diag_finish(&f->c.diag);
    fflush(f->diagnostics);
    ck_assert_str_eq(f->diag_text, "");
}

static void finish(Fixture *f)
{
    build_finish(&f->b);
    compile_free(&f->c);
    fclose(f->diagnostics);
    free(f->diag_text);
    free(f->c_text);
}

#define HAS(text, part) ck_assert_msg(strstr((text), (part)) != NULL, "the C lacks:\n%s", (part))

START_TEST(table_names_the_code_objects)
{
    Fixture f;
    emit(&f, &FAKE_OBJECT);
    /* "silk fake code object for gfx942\n.kernel fill 2\n.end\n": 53 bytes */
    HAS(f.c_text, "/* 53 bytes */\n_Alignas(8) static const unsigned char silk_hsaco_gfx942[] = {\n"
                  "    0x73, 0x69, 0x6c, 0x6b, 0x20, 0x66, 0x61, 0x6b, 0x65, 0x20, 0x63, 0x6f, 0x64, "
                  "0x65, 0x20, 0x6f,\n"
                  "    0x62, 0x6a, 0x65, 0x63, 0x74, 0x20, 0x66, 0x6f, 0x72, 0x20, 0x67, 0x66, 0x78, "
                  "0x39, 0x34, 0x32,\n"
                  "    0x0a, 0x2e, 0x6b, 0x65, 0x72, 0x6e, 0x65, 0x6c, 0x20, 0x66, 0x69, 0x6c, 0x6c, "
                  "0x20, 0x32, 0x0a,\n"
                  "    0x2e, 0x65, 0x6e, 0x64, 0x0a,\n};\n");
    HAS(f.c_text, "static const SilkrtCodeObject silk_program_code_objects[] = {\n"
                  "    {\"gfx942\", silk_hsaco_gfx942, 53},\n};\n");
    HAS(f.c_text, "    .n_ptx = 1,\n    .ptx = silk_program_ptx,\n");
    HAS(f.c_text, "    .n_code_objects = 1,\n    .code_objects = silk_program_code_objects,\n};\n");
    HAS(f.c_text, "and as AMDHSA code objects for gfx942 (HIP loads the one of the GPU's target).\n");
    ck_assert_ptr_null(strstr(f.c_text, "silk_ptx_gfx942"));
    finish(&f);
}
END_TEST

/* ---- the program run on the double ------------------------------------------------------ */

static char work[] = "/tmp/check_c_code_objects-XXXXXX";

/* Runs `command` (sh -c); its exit status. */
static int shell(const char *command)
{
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static char *slurp(const char *path)
{
    FILE *in = fopen(path, "r");
    static char text[16384];
    size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    text[n] = '\0';
    if (in)
        fclose(in);
    return text;
}

/* The program compiled and linked in `work`. */
static void build_program(const CCodeObject *object)
{
    Fixture f;
    emit(&f, object);
    char path[256], command[2048];
    snprintf(path, sizeof path, "%s/fill.c", work);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fwrite(f.c_text, 1, f.c_len, out);
    fclose(out);
    finish(&f);
    const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    /* The sanitizers libsilkrt was built with, which its link needs. */
    snprintf(command, sizeof command, "%s -std=gnu11 -w %s -I%s/std/runtime -o %s/fill %s/fill.c "
             "%s/std/runtime/libsilkrt.a -lpthread -ldl -lm", cc, SILK_SANITIZER_FLAGS, SILK_SOURCE_DIR,
             work, work, SILK_BUILD_DIR);
    ck_assert_msg(shell(command) == 0, "%s", command);
}

/* The program on the double with `settings`; its standard output. */
static const char *run_program(const char *settings, const char **log)
{
    char command[2048];
    snprintf(command, sizeof command, "cd %s && rm -f log && env -i SILK_BACKEND=hip "
             "SILK_HIP_LIBRARY=%s FAKE_HIP_LOG=log %s ./fill > out 2> err", work, getenv("FAKE_HIP"),
             settings);
    int rc = shell(command);
    char path[256];
    snprintf(path, sizeof path, "%s/err", work);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", command, rc, slurp(path));
    snprintf(path, sizeof path, "%s/log", work);
    static char log_text[16384];
    snprintf(log_text, sizeof log_text, "%s", slurp(path));
    *log = log_text;
    snprintf(path, sizeof path, "%s/out", work);
    return slurp(path);
}

#define LOGGED(log, line) ck_assert_msg(strstr((log), line "\n") != NULL, "the log lacks '%s':\n%s", line, log)

START_TEST(launched_from_the_code_object)
{
    build_program(&FAKE_OBJECT);
    const char *log;
    ck_assert_str_eq(run_program("", &log), "hip true\n");
    LOGGED(log, "target gfx942");
    LOGGED(log, "call hipModuleLoadData 1");
    LOGGED(log, "call hipModuleGetFunction 1");
    LOGGED(log, "call hipModuleLaunchKernel 1");
    LOGGED(log, "call hipDeviceSynchronize 1");
    /* 256 work items in workgroups of 64 (@launch): 4 of them */
    LOGGED(log, "launch fill grid=4,1,1 block=64,1,1 shared=0 params=0x100,@1");
    LOGGED(log, "live 0");
    /* An RDNA 3 device: the program has no code object for it. */
    ck_assert_str_eq(run_program("FAKE_HIP_ARCH=gfx1100", &log), "hip false\n");
    ck_assert_ptr_null(strstr(log, "call hipModuleLoadData"));
    ck_assert_ptr_null(strstr(log, "call hipModuleLaunchKernel"));
    LOGGED(log, "call hipDeviceSynchronize 1");
}
END_TEST

/* The first of the tools found: $VAR, else the names on PATH; NULL. */
static const char *tool(const char *var, const char *a, const char *b)
{
    const char *v = getenv(var);
    if (v && *v)
        return v;
    const char *names[] = {a, b};
    for (int i = 0; i < 2; i++) {
        char command[600];
        snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", names[i]);
        if (shell(command) == 0)
            return names[i];
    }
    return NULL;
}

/* A real code object: fill linked for gfx942 by llc and ld.lld. */
START_TEST(launched_from_a_real_code_object)
{
    const char *llc = tool("SILK_LLC", "llc-19", "llc"), *lld = tool("SILK_LLD", "ld.lld-19", "ld.lld");
    char path[256], command[2048];
    snprintf(path, sizeof path, "%s/fill.ll", work);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fputs(FILL_IR, out);
    fclose(out);
    snprintf(command, sizeof command, "cd %s && %s -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj "
             "fill.ll -o fill.o && %s -shared fill.o -o fill.hsaco", work, llc, lld);
    ck_assert_msg(shell(command) == 0, "%s", command);
    snprintf(path, sizeof path, "%s/fill.hsaco", work);
    FILE *in = fopen(path, "rb");
    ck_assert_ptr_nonnull(in);
    static unsigned char bytes[1 << 16];
    size_t size = fread(bytes, 1, sizeof bytes, in);
    fclose(in);
    ck_assert_uint_gt(size, 64);
    const CCodeObject object = {"gfx942", bytes, size};
    build_program(&object);
    const char *log;
    ck_assert_str_eq(run_program("", &log), "hip true\n");
    LOGGED(log, "target gfx942");
    LOGGED(log, "launch fill grid=4,1,1 block=64,1,1 shared=0");
    /* The code object's own target decides: on an MI250 (gfx90a) HIP
     * refuses it, whatever the table calls it. */
    const CCodeObject misnamed = {"gfx90a", bytes, size};
    build_program(&misnamed);
    ck_assert_str_eq(run_program("FAKE_HIP_ARCH=gfx90a:sramecc+:xnack-", &log), "hip false\n");
    LOGGED(log, "call hipModuleLoadData 1");
    ck_assert_ptr_null(strstr(log, "call hipModuleLaunchKernel"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("c_code_objects");
    TCase *t = tcase_create("table");
    tcase_add_test(t, table_names_the_code_objects);
    suite_add_tcase(s, t);
    const char *fake = getenv("FAKE_HIP");
    bool can_run = fake && access(fake, R_OK) == 0 && shell("command -v \"${CC:-cc}\" >/dev/null") == 0 &&
                   mkdtemp(work);
    if (can_run) {
        TCase *r = tcase_create("run");
        tcase_set_timeout(r, 120);
        tcase_add_test(r, launched_from_the_code_object);
        if (tool("SILK_LLC", "llc-19", "llc") && tool("SILK_LLD", "ld.lld-19", "ld.lld"))
            tcase_add_test(r, launched_from_a_real_code_object);
        else
            printf("note: no llc-19 or ld.lld-19: no real code object is linked\n");
        suite_add_tcase(s, r);
    } else {
        printf("note: no C compiler or no FAKE_HIP (make check sets it): the program is not run\n");
    }
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    if (can_run) {
        char command[300];
        snprintf(command, sizeof command, "rm -rf %s", work);
        shell(command);
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
