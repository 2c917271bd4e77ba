/*
 * c_occupancy.c: how many CTAs of a @persistent kernel the CPU backend
 * starts.  A persistent launch starts min(logical CTAs, SMs x resident
 * CTAs per SM); on a GPU the runtime asks the driver
 * (cuOccupancyMaxActiveBlocksPerMultiprocessor), and on the CPU backend,
 * which has no such figure of its own, it takes the occupancy engine's
 * answer for the device the backend emulates (SILK_EMULATED_*, the
 * products table's h100-sxm row: sm_90, 132 SMs), computed here from the
 * kernel's figures on its architecture (ptxas's when it is installed, else
 * the estimate) and written into the program table.
 * The same function of the engine answers silk-occ report and the
 * occupancy warnings.
 */
#include "c_internal.h"

#include "exit_status.h"
#include "lower.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A message of the C backend's with no place in the source, through the
 * compilation's diagnostics. */
static void c_say(Build *b, DiagLevel level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void c_say(Build *b, DiagLevel level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(&b->c->diag, level, fmt, ap);
    va_end(ap);
}

bool c_is_persistent(const IrFunc *f)
{
    return lower_is_persistent(f);
}

bool c_has_persistent(const Build *b)
{
    for (uint32_t i = 0; b->module && i < b->module->n_funcs; i++)
        if (c_is_persistent(b->module->funcs[i]))
            return true;
    return false;
}

/* A kernel without a fixed CTA size is counted at 1024 threads, the most
 * a launch can give it: its CTAs then never outnumber what the device
 * holds at any workspace.  A kernel that fits no CTA on the device (its
 * launch fails on a GPU) still gets one on the CPU backend. */
uint32_t c_resident_ctas(const ArchLimits *arch, const IrFunc *f, const UsageReport *emulated)
{
    const KernelUsage *u = arch && emulated ? usage_kernel(emulated, f->name) : NULL;
    if (!u)
        return 1;
    uint64_t smem = (uint64_t)u->static_smem + f->dynamic_smem;
    KernelResources res = usage_resources(u, arch, smem > (uint64_t)arch->smem_per_block);
    OccResult r;
    int threads = f->reqntid > 0 ? f->reqntid : 1024;
    if (occ_active_blocks(arch, &res, threads, f->dynamic_smem, &r) != OCC_OK || r.active_blocks < 1)
        return 1;
    return (uint32_t)r.active_blocks;
}

/* The code for the emulated device, emitted and measured through its
 * backend, as the build does for its own targets; a failing tool said as
 * the build says it (build_exit_status's words and rule). */
static int measure_now(Build *b, const UsageReport **out)
{
    BuildTarget *t = ARENA_NEW(b->c->arena, BuildTarget);
    *t = (BuildTarget){.arch = SILK_EMULATED_ARCH, .backend = backend_find(SILK_EMULATED_ARCH)};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bool ok = f && t->backend->emit(b->module, t->arch, f, &b->c->diag);
    ok = f && fclose(f) == 0 && ok;
    if (ok) {
        t->code = arena_strndup(b->c->arena, text, len);
        t->code_len = len;
    }
    free(text);
    BuildTarget *const targets[] = {t};
    BuildStatus status = ok ? t->backend->measure(b, targets, 1) : BUILD_ENVIRONMENT;
    if (status == BUILD_OK) {
        *out = &t->usage;
        return EXIT_OK;
    }
    bool tool = status == BUILD_TOOL_FAILED;
    int rc = tool ? build_report_target(b, t, NULL) : EXIT_ENVIRONMENT;
    c_say(b, tool ? DIAG_NOTE : DIAG_ERROR,
          "the figures of the kernels on %s, which the CPU backend emulates, could not be "
          "measured (a @persistent kernel's grid needs them)", SILK_EMULATED_ARCH);
    return rc;
}

int c_measure_emulated(Build *b, const UsageReport **out)
{
    for (int i = 0; i < b->n_targets; i++)
        if (strcmp(b->targets[i].arch, SILK_EMULATED_ARCH) == 0 && b->targets[i].usage.kernels) {
            *out = &b->targets[i].usage;
            return EXIT_OK;
        }
    return measure_now(b, out);
}
