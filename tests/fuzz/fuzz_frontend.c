/*
 * fuzz_frontend.c: a libFuzzer target for the compiler on one file of
 * arbitrary bytes: lexer, parser and checker, and when the program is
 * accepted, lowering, the passes (the verifier after each) and the PTX
 * backend.  A verifier failure or a backend error on an accepted program
 * is a compiler bug, so it aborts.  Built with
 * `./configure --enable-fuzz CC=clang` as tests/fuzz/fuzz_frontend and
 * run with `make fuzz` (seeded from the golden cases).  Any crash,
 * sanitizer report, leak or hang is a bug; each one found becomes a golden
 * case.
 */
#include "compile.h"
#include "ir.h"
#include "lower.h"
#include "pass.h"
#include "ptx.h"

#include <stdlib.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What silkc compile does after the front end; lowering may still refuse
 * (a recursive helper), but what it lowers must verify and emit. */
static void back_end(Compilation *c, FILE *sink)
{
    IrModule *m = lower_module(c, c->arena);
    if (!m)
        return;
    if (ir_verify(m, &c->diag) > 0 || !ir_optimize(m, &c->diag, true) ||
        !ptx_emit_module(m, "sm_90", sink, &c->diag))
        abort();
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
    if (compile_add_text(&c, "fuzz.silk", (const char *)data, size, PKG_ROOT) &&
        compile_check(&c) == 0)
        back_end(&c, sink);
    diag_finish(&c.diag);
    compile_free(&c);
    fclose(sink);
    return 0;
}
