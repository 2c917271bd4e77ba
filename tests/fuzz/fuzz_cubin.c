/*
 * fuzz_cubin.c: a libFuzzer target for the cubin reader (compiler/cubin.c)
 * on one file of arbitrary bytes, with the details the report uses
 * (launch bounds, register cap, dynamic shared memory, calls out).  Built
 * with `./configure --enable-fuzz CC=clang` as tests/fuzz/fuzz_cubin and
 * run by `make fuzz` from tests/fuzz/seeds/cubin: small executable and
 * relocatable cubins made by ptxas from the PTX beside them there
 * (tests/fuzz/seeds/cubin/README).
 *
 * What cubin.h promises is checked, and a broken promise aborts: a failure
 * is one line of error text and no kernels; a success names an sm_NN
 * architecture, and each kernel a name and no negative figure but the
 * spills, which a cubin does not record (-1).  Any crash, sanitizer report,
 * leak or hang is a bug too.
 */
#include "arena.h"
#include "ptx/cubin.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool promise)
{
    if (!promise)
        abort();
}

static void require_sane_kernel(const KernelUsage *k, const CubinKernel *d)
{
    require(k->name && k->name[0]);
    require(k->registers >= 0 && k->stack_frame >= 0 && k->static_smem >= 0 &&
            k->const_bank0 >= 0 && k->barriers >= 0 && k->max_threads >= 0);
    require(k->spill_stores == -1 && k->spill_loads == -1);
    require(d->max_registers >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Arena *arena = arena_new();
    UsageReport report;
    CubinKernel *details = NULL;
    char error[256];
    error[0] = '\0';
    if (cubin_read_details(data, size, arena, &report, &details, error, sizeof error)) {
        require(report.arch && strncmp(report.arch, "sm_", 3) == 0);
        require(report.n_kernels == 0 || details);
        for (int i = 0; i < report.n_kernels; i++)
            require_sane_kernel(&report.kernels[i], &details[i]);
    } else {
        require(error[0] != '\0' && !strchr(error, '\n')); /* one line of text */
        require(report.n_kernels == 0);
    }
    arena_free(arena);
    return 0;
}
