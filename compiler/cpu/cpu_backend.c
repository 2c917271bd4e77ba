/*
 * cpu_backend.c: the CPU backend behind backend.h.  Its code is C for the
 * executor (cpu_emit.c); it has no assembler that measures registers, and
 * no occupancy of its own, so a build that asks for figures gets none for
 * it (the occupancy warnings skip a target the tables lack).
 */
#include "build.h"

#include "common/emulated_device.h"
#include "cpu/cpu.h"
#include "occupancy.h"

#include <string.h>

static bool cpu_knows(const char *arch) { return strcmp(arch, "cpu") == 0; }

/* The device emulated (SILK_EMULATED_ARCH's row) sets the limit, so that a
 * program the CPU backend runs also fits that GPU. */
static uint64_t cpu_shared_limit(const char *arch)
{
    (void)arch;
    ArchTable table;
    OccError err;
    if (arch_table_load_builtin(&table, &err) != 0) /* the built-in tables are tested */
        return 0;
    const ArchLimits *a = arch_table_find(&table, SILK_EMULATED_ARCH);
    uint64_t limit = a ? (uint64_t)a->smem_per_block : 0;
    arch_table_free(&table);
    return limit;
}

static const char *cpu_assembler(void) { return NULL; }

static BuildStatus cpu_measure(Build *b, BuildTarget *const targets[], int n)
{
    (void)b;
    for (int i = 0; i < n; i++)
        targets[i]->usage = (UsageReport){.arch = targets[i]->arch, .source = USAGE_ESTIMATE};
    return BUILD_OK;
}

static void cpu_measure_at_caps(Build *b, BuildTarget *const targets[], int *const caps[], int n)
{
    (void)b, (void)targets, (void)caps, (void)n; /* no registers to cap */
}

const Backend backend_cpu = {
    .name = "cpu",
    .target_range = "cpu",
    .knows = cpu_knows,
    .shared_limit = cpu_shared_limit,
    .assembler = cpu_assembler,
    .emit = cpu_emit_module,
    .measure = cpu_measure,
    .measure_at_caps = cpu_measure_at_caps,
};
