/*
 * waves.c: what a launch of `work` items (or of a grid of CTAs, counted
 * however its dimensions make it) does on a product:
 * the CTAs it needs, how many full waves of resident CTAs they make, how
 * full the last wave is, and the persistent grid (one CTA per resident slot).
 */
#include "occupancy.h"

#include <string.h>

/* The waves of out->ctas CTAs; the other fields are still zero. */
static bool fill_waves(int active_blocks, int sm_count, OccWaves *out)
{
    if (out->ctas == 0 || active_blocks <= 0 || sm_count <= 0)
        return false;
    out->ctas_per_wave = (uint64_t)active_blocks * (uint64_t)sm_count;
    out->persistent_grid = occ_persistent_grid(sm_count, active_blocks);
    out->full_waves = out->ctas / out->ctas_per_wave;
    out->waves = (double)out->ctas / (double)out->ctas_per_wave;

    uint64_t last = out->ctas % out->ctas_per_wave;
    uint64_t waves_run = out->full_waves + (last != 0);
    out->last_wave_fill = last ? (double)last / (double)out->ctas_per_wave : 1.0;
    out->idle_fraction = (double)(waves_run * out->ctas_per_wave - out->ctas) /
                         (double)(waves_run * out->ctas_per_wave);
    return true;
}

bool occ_waves(uint64_t work, int block_size, int active_blocks, int sm_count, OccWaves *out)
{
    memset(out, 0, sizeof *out);
    if (work == 0 || block_size <= 0)
        return false;
    uint64_t block = (uint64_t)block_size;
    out->ctas = work / block + (work % block != 0);
    out->tail_threads = work - (out->ctas - 1) * block;
    return fill_waves(active_blocks, sm_count, out);
}

bool occ_waves_ctas(uint64_t ctas, int active_blocks, int sm_count, OccWaves *out)
{
    memset(out, 0, sizeof *out);
    out->ctas = ctas;
    return fill_waves(active_blocks, sm_count, out);
}
