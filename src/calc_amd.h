/*
 * calc_amd.h: `silk-occ calc` for an AMD target (--arch gfx942, --gpu
 * mi300x): the options it takes, the model it computes and its two writers
 * (text and JSON; the keys are documented in silk-occ(1)).
 */
#ifndef SILK_CALC_AMD_H
#define SILK_CALC_AMD_H

#include "amd.h"
#include "cli.h"

typedef struct CalcAmdOptions {
    const char *arch, *gpu;
    long long threads, vgprs, agprs, sgprs;
    uint64_t lds, work;
    bool have_threads, have_vgprs, have_work;
    int waves_per_eu_min, waves_per_eu_max;
    OutputFormat format;
    const char *nvidia_option; /* an NVIDIA-only option given, for the error */
} CalcAmdOptions;

typedef struct CalcAmdModel {
    const AmdTarget *target;
    const AmdProduct *gpu; /* NULL for a bare target */
    int units;             /* CUs (WGPs on RDNA) of the product; 0: unknown */
    int threads;
    AmdKernel kernel;
    AmdResult result;
    AmdNextStep next;
    bool have_work, have_waves;
    uint64_t work;
    OccWaves waves;        /* workgroups per unit x units a wave */
} CalcAmdModel;

/* Whether --arch or --gpu names an AMD target or product. */
bool calc_is_amd(const AmdTable *table, const char *arch, const char *gpu);

/* `calc` for an AMD target: EXIT_OK, or EXIT_USAGE after one line. */
int calc_amd(const CalcAmdOptions *o, const AmdTable *table);

/* "workgroups_per_cu" or "workgroups_per_wgp": the unit's JSON key. */
const char *calc_amd_workgroups_key(const AmdTarget *t);

int calc_amd_write_text(const CalcAmdModel *m, FILE *out);
int calc_amd_write_json(const CalcAmdModel *m, FILE *out);

#endif
