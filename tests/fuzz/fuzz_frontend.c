/*
 * fuzz_frontend.c: a libFuzzer target for the compiler on one file of
 * arbitrary bytes: lexer, parser and checker, and when the program is
 * accepted, lowering, the passes (the verifier after each), the PTX
 * backend and the CPU backend's C.  A verifier failure or a backend error on an accepted program
 * is a compiler bug, so it aborts.  Built with
 * `./configure --enable-fuzz CC=clang` as tests/fuzz/fuzz_frontend and
 * run with `make fuzz` (seeded from the golden cases).  Any crash,
 * sanitizer report, leak or hang is a bug; each one found becomes a golden
 * case.
 */
#include "build.h"

#include <stdlib.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What silkc compile does, through the same pipeline: lowering may still
 * refuse (a recursive helper), but what it lowers must verify, optimise
 * and emit. */
static void build(Compilation *c)
{
    static const char *const archs[] = {"sm_90", "cpu"}; /* PTX, and the CPU backend's C */
    static const BuildOptions options = {.archs = archs, .n_archs = 2, .last = BUILD_CODE,
                                         .optimize = true, .program = "fuzz_frontend"};
    Build b;
    if (build_run(c, &options, &b) == BUILD_COMPILER_BUG)
        abort();
    build_finish(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Diagnostics are exercised (formatted, underlined) but not kept. */
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    Compilation c;
    compile_init(&c, sink);
    c.diag.error_limit = 0; /* report everything: more code runs */
    if (compile_add_text(&c, "fuzz.silk", (const char *)data, size, PKG_ROOT))
        build(&c);
    diag_finish(&c.diag);
    compile_free(&c);
    fclose(sink);
    return 0;
}
