/*
 * fuzz_hsaco.c: a libFuzzer target for the AMDGPU code object reader
 * (compiler/amdgpu/hsaco.c) on one file of arbitrary bytes: the ELF
 * headers, the notes and the MessagePack metadata, which msgpack-c decodes
 * after hsaco.c has bounded its counts.  Built with `./configure
 * --enable-fuzz CC=clang` as tests/fuzz/fuzz_hsaco and run by `make fuzz`
 * from tests/fuzz/seeds/hsaco: the code objects of tests/data/amdgpu
 * (llc-19 and ld.lld-19 built them from pinned.ll; make-pinned.sh).
 *
 * What hsaco.h promises is checked, and a broken promise aborts: a
 * failure is one line of error text and no kernels; a success gives each
 * kernel a name, a wave size of 32 or 64 and no negative figure.  Any
 * crash, sanitizer report, leak, hang or allocation past libFuzzer's
 * -rss_limit_mb / -malloc_limit_mb is a bug too.
 */
#include "amdgpu/hsaco.h"
#include "arena.h"

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

static void require_sane_kernel(const KernelUsage *k)
{
    require(k->name != NULL);
    require(k->wavefront_size == 32 || k->wavefront_size == 64);
    require(k->registers >= 0 && k->agprs >= 0 && k->sgprs >= 0 && k->static_smem >= 0 &&
            k->stack_frame >= 0 && k->vgpr_spills >= 0 && k->sgpr_spills >= 0 && k->max_threads >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Arena *arena = arena_new();
    UsageReport report;
    if (amdgpu_code_object_parse(data, size, arena, &report) == 0) {
        require(report.errors == NULL && report.n_kernels >= 0);
        for (int i = 0; i < report.n_kernels; i++)
            require_sane_kernel(&report.kernels[i]);
    } else {
        require(report.errors && report.errors[0] && !strchr(report.errors, '\n')); /* one line */
        require(report.n_kernels == 0);
    }
    arena_free(arena);
    return 0;
}
