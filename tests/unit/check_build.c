/*
 * check_build.c: unit tests of the build pipeline (compiler/build.h) on
 * Silk written here: each stage stops where it is asked to, -O0 leaves
 * the IR as lowered, every target gets its own code, source errors stop
 * the build before lowering, and the figures say where they came from:
 * the estimate without ptxas (SILK_PTXAS=none), ptxas with it, the cubin
 * of the same run kept; a verifier fault after lowering is summed up at
 * its kernel, and static shared memory over its limit once lowered is a
 * source error there, the limit the lowest of the targets' table rows.  The ptxas cases need the CUDA toolkit: without
 * it they do not run, and the program exits 77 (skipped) saying so.
 */
#include "build.h"

#include "ptx/ptxas.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel with a constant the passes fold (2 * 3) and a guarded store. */
static const char KERNEL[] = "@launch(128)\n"
                             "kernel scale(n: u64, x: tensor<f32>[n]) {\n"
                             "  let i = ctx.gid\n"
                             "  if i < n {\n"
                             "    x[i] = x[i] * f32(2 * 3)\n"
                             "  }\n"
                             "}\n";

typedef struct Fixture {
    Compilation c;
    Build b;
    BuildOptions options;
    FILE *diagnostics;
    char *diag_text;
    size_t diag_len;
} Fixture;

static const char *const ARCHS[] = {"sm_80", "sm_90"};

static BuildStatus build_for(Fixture *f, const char *const *archs, int n_archs, const char *source,
                             BuildStage last, bool optimize)
{
    f->diagnostics = open_memstream(&f->diag_text, &f->diag_len);
    compile_init(&f->c, f->diagnostics);
    f->options = (BuildOptions){.archs = archs, .n_archs = n_archs, .last = last,
                                .optimize = optimize, .program = "check_build"};
    ck_assert_ptr_nonnull(compile_add_text(&f->c, "t.silk", source, strlen(source), PKG_ROOT));
    BuildStatus status = build_run(&f->c, &f->options, &f->b);
    diag_finish(&f->c.diag);
    fflush(f->diagnostics);
    return status;
}

static BuildStatus build(Fixture *f, const char *source, BuildStage last, bool optimize)
{
    return build_for(f, ARCHS, 2, source, last, optimize);
}

static void finish(Fixture *f)
{
    build_finish(&f->b);
    compile_free(&f->c);
    fclose(f->diagnostics);
    free(f->diag_text);
}

/* The instructions of the module's first function, all blocks. */
static uint32_t instructions(const IrModule *m)
{
    uint32_t n = 0;
    const IrFunc *f = m->funcs[0];
    for (uint32_t b = 0; b < f->n_blocks; b++)
        n += f->blocks[b]->n_insts;
    return n;
}

START_TEST(test_check_stops_before_lowering)
{
    Fixture f;
    ck_assert_int_eq(build(&f, KERNEL, BUILD_CHECK, true), BUILD_OK);
    ck_assert_ptr_null(f.b.module);
    ck_assert_ptr_null(f.b.targets);
    finish(&f);
}
END_TEST

START_TEST(test_source_errors_stop_the_build)
{
    Fixture f;
    const char *bad = "kernel k(n: u64) {\n  let x: i32 = n\n}\n";
    ck_assert_int_eq(build(&f, bad, BUILD_MEASURE, true), BUILD_SOURCE_ERRORS);
    ck_assert_ptr_null(f.b.module);
    ck_assert_ptr_nonnull(strstr(f.diag_text, "t.silk:2:"));
    finish(&f);
}
END_TEST

/* -O0 keeps the IR as lowered: the multiplication by a constant 2 * 3 is
 * folded only with the passes. */
START_TEST(test_O0_keeps_the_lowered_ir)
{
    Fixture lowered, optimised;
    ck_assert_int_eq(build(&lowered, KERNEL, BUILD_IR, false), BUILD_OK);
    ck_assert_int_eq(build(&optimised, KERNEL, BUILD_IR, true), BUILD_OK);
    ck_assert_ptr_null(lowered.b.targets);
    ck_assert_uint_gt(instructions(lowered.b.module), instructions(optimised.b.module));
    finish(&lowered);
    finish(&optimised);
}
END_TEST

START_TEST(test_code_for_each_target)
{
    Fixture f;
    ck_assert_int_eq(build(&f, KERNEL, BUILD_CODE, true), BUILD_OK);
    ck_assert_int_eq(f.b.n_targets, 2);
    for (int i = 0; i < 2; i++) {
        const BuildTarget *t = &f.b.targets[i];
        char target[32];
        snprintf(target, sizeof target, ".target %s\n", ARCHS[i]);
        ck_assert_str_eq(t->arch, ARCHS[i]);
        ck_assert_ptr_eq(t->backend, &backend_ptx);
        ck_assert_uint_eq(strlen(t->code), t->code_len);
        ck_assert_ptr_nonnull(strstr(t->code, target));
        ck_assert_ptr_nonnull(strstr(t->code, ".visible .entry scale("));
        ck_assert_int_eq(t->usage.n_kernels, 0); /* not measured */
    }
    finish(&f);
}
END_TEST

START_TEST(test_estimate_without_ptxas)
{
    setenv("SILK_PTXAS", "none", 1);
    Fixture f;
    ck_assert_int_eq(build(&f, KERNEL, BUILD_MEASURE, true), BUILD_OK);
    for (int i = 0; i < 2; i++) {
        const UsageReport *u = &f.b.targets[i].usage;
        ck_assert_int_eq(u->source, USAGE_ESTIMATE);
        ck_assert_str_eq(u->arch, ARCHS[i]);
        ck_assert_int_eq(u->n_kernels, 1);
        ck_assert(u->kernels[0].estimated);
        ck_assert_str_eq(u->kernels[0].name, "scale");
        ck_assert_ptr_null(f.b.targets[i].binary_path);
    }
    ck_assert_ptr_null(f.b.tmpdir); /* nothing written */
    finish(&f);
    unsetenv("SILK_PTXAS");
}
END_TEST

/* One ptxas run per target: the figures, and the cubin of that run. */
START_TEST(test_ptxas_measures_and_assembles)
{
    Fixture f;
    ck_assert_int_eq(build(&f, KERNEL, BUILD_MEASURE, true), BUILD_OK);
    for (int i = 0; i < 2; i++) {
        const BuildTarget *t = &f.b.targets[i];
        ck_assert_int_eq(t->usage.source, USAGE_ASSEMBLER);
        ck_assert_int_eq(t->usage.n_kernels, 1);
        ck_assert(!t->usage.kernels[0].estimated);
        ck_assert_int_gt(t->usage.kernels[0].registers, 0);
        ck_assert_int_eq(t->usage.kernels[0].spill_stores, 0);
        ck_assert_ptr_nonnull(t->binary_path);
        FILE *cubin = fopen(t->binary_path, "rb");
        ck_assert_ptr_nonnull(cubin);
        char magic[4] = {0};
        ck_assert_uint_eq(fread(magic, 1, 4, cubin), 4);
        fclose(cubin);
        ck_assert_mem_eq(magic, "\177ELF", 4);
    }
    char *dir = strdup(f.b.tmpdir);
    finish(&f);
    FILE *gone = fopen(dir, "r");
    ck_assert_msg(gone == NULL, "build_finish left %s", dir);
    free(dir);
}
END_TEST

/* A tool that runs but fails is the caller's to report, with its status. */
START_TEST(test_failing_ptxas_is_reported_back)
{
    setenv("SILK_PTXAS", "/bin/false", 1);
    Fixture f;
    ck_assert_int_eq(build(&f, KERNEL, BUILD_MEASURE, true), BUILD_TOOL_FAILED);
    ck_assert_str_eq(f.b.tool, "/bin/false");
    ck_assert_int_eq(f.b.targets[0].usage.exit_status, 1);
    ck_assert_ptr_null(f.b.targets[0].binary_path);
    finish(&f);
    unsetenv("SILK_PTXAS");
}
END_TEST

/* Two kernels; the second one's IR is broken by hand below. */
static const char TWO_KERNELS[] = "kernel first(o: tensor<u32>[256]) {\n"
                                  "  o[ctx.tid] = 1\n"
                                  "}\n"
                                  "@launch(64)\n"
                                  "kernel second(o: tensor<u32>[64]) {\n"
                                  "  o[ctx.tid] = ctx.lane\n"
                                  "}\n";

/* A verifier fault after lowering is summed up at the kernel whose IR
 * failed (its name), not at the top of the file, after the verifier's
 * own message at the instruction's statement. */
START_TEST(test_verifier_fault_at_the_kernel)
{
    Fixture f;
    ck_assert_int_eq(build(&f, TWO_KERNELS, BUILD_IR, false), BUILD_OK);
    ck_assert_uint_eq(f.b.module->n_funcs, 2);
    ck_assert(build_verify_lowered(&f.c, f.b.module));
    IrFunc *second = f.b.module->funcs[1];
    ck_assert_str_eq(second->name, "second");
    IrInst *sreg = NULL;
    for (uint32_t i = 0; !sreg && i < second->blocks[0]->n_insts; i++)
        if (second->blocks[0]->insts[i]->op == IR_SREG)
            sreg = second->blocks[0]->insts[i];
    ck_assert_ptr_nonnull(sreg);
    sreg->type = IRT_I64; /* sreg gives i32 */
    ck_assert(!build_verify_lowered(&f.c, f.b.module));
    fflush(f.diagnostics);
    const char *fault = strstr(f.diag_text, "t.silk:6:3: error: 'sreg' gives i32, not i64\n");
    const char *summary =
        strstr(f.diag_text, "t.silk:5:8: error: the IR failed verification after lowering: a compiler bug\n");
    ck_assert_msg(fault && summary && fault < summary, "diagnostics:\n%s", f.diag_text);
    ck_assert_ptr_null(strstr(f.diag_text, "t.silk:1:"));
    ck_assert_int_eq(f.c.diag.errors, 2);
    finish(&f);
}
END_TEST

/* A kernel whose shared arrays fit as declared but not once lowering has
 * added a tile's (here: the scratch of a product's operand, 16 KiB): a
 * source error at its name, before any code is made. */
START_TEST(test_lowered_shared_memory_over_the_limit)
{
    Fixture f;
    const char *src = "@launch(256)\n"
                      "kernel big(a: tensor<f32>[64, 64], c: tensor<f32>[64, 64]) {\n"
                      "  shared keep: f32[9000]\n"
                      "  keep[ctx.tid] = 1.0\n"
                      "  c = (a + a) @ a\n"
                      "  c[0, 0] = keep[ctx.tid]\n"
                      "}\n";
    ck_assert_int_eq(build(&f, src, BUILD_CODE, true), BUILD_SOURCE_ERRORS);
    ck_assert_uint_eq(ir_static_smem(f.b.module, f.b.module->funcs[0]), 36000 + 64 * 64 * 4);
    ck_assert_ptr_null(f.b.targets);
    ck_assert_ptr_nonnull(strstr(f.diag_text, "t.silk:2:8: error: 'big' needs 52384 bytes of static shared memory"));
    finish(&f);
}
END_TEST

/* Each target's limit is its row's: an NVIDIA architecture's shared memory
 * per CTA without opt-in, an AMD target's LDS per workgroup, the emulated
 * sm_90's for the CPU backend; no target: the lowest any allows; 0 for a
 * name no backend knows (sm_50, a table row silkc does not target). */
static const struct {
    const char *arch;
    uint64_t bytes;
} shared_limits[] = {
    {"sm_75", 49152},   {"sm_80", 49152},  {"sm_90", 49152},   {"sm_90a", 49152},
    {"sm_100a", 49152}, {"sm_110", 49152}, {"sm_121", 49152},  {"gfx90a", 65536},
    {"gfx942", 65536},  {"gfx1100", 65536}, {"gfx1201", 65536}, {"cpu", 49152},
    {NULL, 49152},      {"sm_50", 0},      {"gfx1100+wave64", 0},
};

START_TEST(test_shared_limit_per_target)
{
    ck_assert_uint_eq(backend_shared_limit(shared_limits[_i].arch), shared_limits[_i].bytes);
}
END_TEST

/* 56000 bytes: over NVIDIA's 48 KiB, within AMD's 64 KiB.  The build
 * checks the lowest of its targets, and names the first that has it. */
START_TEST(test_shared_limit_of_the_targets)
{
    Fixture f;
    const char *src = "@launch(256)\n"
                      "kernel k(o: tensor<f32>[256]) {\n"
                      "  shared a: f32[14000]\n"
                      "  a[ctx.tid] = 1.0\n"
                      "  sync()\n"
                      "  o[ctx.tid] = a[255 - ctx.tid]\n"
                      "}\n";
    static const char *const amd[] = {"gfx942", "gfx1100"}, *const both[] = {"gfx942", "sm_80", "sm_90"};
    ck_assert_int_eq(build_for(&f, amd, 2, src, BUILD_CODE, true), BUILD_OK);
    ck_assert_uint_eq(f.c.shared_limit.bytes, 65536);
    ck_assert_str_eq(f.c.shared_limit.target, "gfx942");
    ck_assert_uint_eq(f.diag_len, 0);
    finish(&f);
    ck_assert_int_eq(build_for(&f, both, 3, src, BUILD_CODE, true), BUILD_SOURCE_ERRORS);
    ck_assert_str_eq(f.c.shared_limit.target, "sm_80");
    ck_assert_ptr_nonnull(strstr(f.diag_text, "t.silk:3:3: error: 'a' brings the static shared memory of 'k' to "
                                              "56000 bytes; a kernel may have at most 49152 (48 KiB) on sm_80\n"));
    finish(&f);
    ck_assert_int_eq(build_for(&f, NULL, 0, src, BUILD_CHECK, true), BUILD_SOURCE_ERRORS);
    ck_assert_ptr_null(f.c.shared_limit.target);
    ck_assert_ptr_nonnull(strstr(f.diag_text, "56000 bytes; a kernel may have at most 49152 (48 KiB)\n"));
    finish(&f);
}
END_TEST

int main(void)
{
    unsetenv("SILK_PTXAS");
    bool have_ptxas = ptxas_find() != NULL;
    Suite *s = suite_create("build");
    TCase *tc = tcase_create("stages");
    tcase_add_test(tc, test_check_stops_before_lowering);
    tcase_add_test(tc, test_source_errors_stop_the_build);
    tcase_add_test(tc, test_O0_keeps_the_lowered_ir);
    tcase_add_test(tc, test_code_for_each_target);
    tcase_add_test(tc, test_estimate_without_ptxas);
    tcase_add_test(tc, test_failing_ptxas_is_reported_back);
    tcase_add_test(tc, test_verifier_fault_at_the_kernel);
    tcase_add_test(tc, test_lowered_shared_memory_over_the_limit);
    tcase_add_loop_test(tc, test_shared_limit_per_target, 0,
                        (int)(sizeof shared_limits / sizeof shared_limits[0]));
    tcase_add_test(tc, test_shared_limit_of_the_targets);
    if (have_ptxas)
        tcase_add_test(tc, test_ptxas_measures_and_assembles);
    suite_add_tcase(s, tc);
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    if (failed)
        return EXIT_FAILURE;
    if (!have_ptxas) {
        printf("SKIP: ptxas not found (CUDA toolkit): the ptxas measuring test did not run\n");
        return 77;
    }
    return EXIT_SUCCESS;
}
