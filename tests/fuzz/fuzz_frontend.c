/*
 * fuzz_frontend.c: a libFuzzer target for the whole front end — lexer,
 * parser and checker — on one file of arbitrary bytes.  Built with
 * `./configure --enable-fuzz CC=clang` as tests/fuzz/fuzz_frontend and
 * run with `make fuzz` (seeded from the golden cases).  Any crash,
 * sanitizer report, leak or hang is a bug; each one found becomes a golden
 * case.
 */
#include "compile.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
        compile_check(&c);
    diag_finish(&c.diag);
    compile_free(&c);
    fclose(sink);
    return 0;
}
