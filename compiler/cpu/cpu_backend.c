/*
 * cpu_backend.c: the CPU backend behind backend.h.  Its code is C for the
 * executor (cpu_emit.c); it has no assembler that measures registers, and
 * no occupancy of its own, so a build that asks for figures gets none for
 * it (the occupancy warnings skip a target the tables lack).
 */
#include "build.h"

#include "cpu/cpu.h"

#include <string.h>

static bool cpu_knows(const char *arch) { return strcmp(arch, "cpu") == 0; }

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
    .assembler = cpu_assembler,
    .emit = cpu_emit_module,
    .measure = cpu_measure,
    .measure_at_caps = cpu_measure_at_caps,
};
