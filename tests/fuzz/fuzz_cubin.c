/*
 * fuzz_cubin.c: a libFuzzer target for the cubin reader (compiler/cubin.c)
 * on one file of arbitrary bytes.  Built with `./configure --enable-fuzz
 * CC=clang` as tests/fuzz/fuzz_cubin and run with `make fuzz-cubin
 * CUBIN_SEEDS=DIR`, DIR holding real cubins (ptxas --gpu-name sm_90 -o
 * x.cubin x.ptx) to start from.  Any crash, sanitizer report, leak or hang
 * is a bug; so is a failure without its one line of error text.
 */
#include "arena.h"
#include "cubin.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Arena *arena = arena_new();
    PtxasReport report;
    char error[256];
    bool ok = cubin_read(data, size, arena, &report, error, sizeof error);
    if (!ok && (error[0] == '\0' || strchr(error, '\n')))
        abort(); /* every failure is one line of text */
    arena_free(arena);
    return 0;
}
