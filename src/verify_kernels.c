/*
 * verify_kernels.c: the kernels `silk-occ verify` checks when given no
 * file, so that the command alone is a full check of a card.
 *
 * They span what decides occupancy: register counts from a few to well
 * over a hundred (one body under several @launch register limits), static
 * shared memory from none to most of the default per-CTA limit, and block
 * limits from 64 threads to none (an attr(device=gpu) fn without @launch
 * may be launched with up to 1024).  The register counts they end up with
 * are the driver's to choose (it JIT-compiles the PTX); what matters is
 * that they differ, and verify reads them back.
 */
#include "verify.h"
#include "escape.h"

#include "build.h"
#include "read_file.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* f64 values live across a loop: 48 of them need about a hundred registers,
 * so that each @launch register limit below binds. */
enum { PRESSURE_VALUES = 48 };

static void pressure_kernel(FILE *f, const char *launch, const char *name)
{
    fprintf(f, "%s\nkernel %s(x: tensor<f64>[4096], y: tensor<f64>[4096]) {\n", launch, name);
    fputs("  let i = ctx.gid\n", f);
    for (int v = 0; v < PRESSURE_VALUES; v++)
        fprintf(f, "  var v%d = x[(i + %d) %% 4096]\n", v, v);
    fputs("  for k in 0..64 {\n", f);
    for (int v = 0; v < PRESSURE_VALUES; v++)
        fprintf(f, "    v%d = v%d * v%d + f64(k)\n", v, v, (v + 1) % PRESSURE_VALUES);
    fputs("  }\n  y[i % 4096] = v0", f);
    for (int v = 1; v < PRESSURE_VALUES; v++)
        fprintf(f, " + v%d", v);
    fputs("\n}\n\n", f);
}

/* A kernel with `words` f32 of static shared memory that it really uses. */
static void shared_kernel(FILE *f, const char *launch, const char *name, int words)
{
    fprintf(f,
            "%s\nkernel %s(x: tensor<f32>[4096], y: tensor<f32>[4096]) {\n"
            "  shared s: f32[%d]\n"
            "  s[ctx.tid %% %d] = x[ctx.gid %% 4096]\n"
            "  sync()\n"
            "  y[ctx.gid %% 4096] = s[(ctx.tid + 1) %% %d]\n"
            "}\n\n",
            launch, name, words, words, words);
}

static char *builtin_source(size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    fputs("// silk-occ verify: the built-in kernels (src/verify_kernels.c)\n", f);
    pressure_kernel(f, "@launch(256)", "regs_free");
    pressure_kernel(f, "@launch(256, 1, 32)", "regs_32");
    pressure_kernel(f, "@launch(128, 1, 64)", "regs_64");
    pressure_kernel(f, "@launch(64, 1, 168)", "regs_168");
    pressure_kernel(f, "@launch(1024)", "block_1024");
    shared_kernel(f, "@launch(256)", "smem_4k", 1024);
    shared_kernel(f, "@launch(128)", "smem_20k", 5120);
    shared_kernel(f, "@launch(512)", "smem_44k", 11264);
    fputs("attr(device=gpu) fn unbounded(x: u64, y: u64) {\n"
          "  store<f32>(y + ctx.gid * 4, load<f32>(x + ctx.gid * 4))\n"
          "}\n",
          f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

char *verify_silk_ptx(const char *path, const char *text, size_t len, const char *arch)
{
    Compilation c;
    compile_init(&c, stderr);
    const char *archs[] = {arch};
    BuildOptions options = {.archs = archs, .n_archs = 1, .last = BUILD_CODE, .optimize = true,
                            .program = "silk-occ verify"};
    Build b = {0};
    char *ptx = NULL;
    if (backend_find(arch) && build_file(&c, path, text, len, &options, &b) == BUILD_OK)
        ptx = strdup(b.targets[0].code);
    build_finish(&b);
    diag_finish(&c.diag);
    compile_free(&c);
    return ptx;
}

char *verify_builtin_ptx(const char *arch_name, char *error, size_t size)
{
    size_t len = 0;
    char *source = builtin_source(&len);
    char *ptx = source ? verify_silk_ptx("<built-in kernels>", source, len, arch_name) : NULL;
    free(source);
    if (!ptx)
        snprintf(error, size, "the built-in kernels do not compile for %s", arch_name);
    return ptx;
}
