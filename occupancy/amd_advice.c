/*
 * amd_advice.c: the next step for an AMDGPU kernel: how many VGPRs, SGPRs
 * or bytes of LDS to cut for one more wave per SIMD, and how many may be
 * added without losing one.
 *
 * Each answer is found by asking the engine itself (waves per SIMD falls
 * as any one resource grows), so the advice can never disagree with the
 * calculation, whatever the granules and roundings of the target.
 */
#include "amd.h"

typedef enum { VAR_VGPRS, VAR_SGPRS, VAR_LDS } Variable;

/* The kernel with one resource set to `value` (VGPRs: the combined count,
 * the AGPRs folded in, which amd_combined_vgprs gives back unchanged). */
static AmdKernel with_value(const AmdTarget *t, const AmdKernel *k, Variable var, int64_t value)
{
    AmdKernel c = *k;
    if (var == VAR_VGPRS) {
        c.vgprs = (int)value;
        c.agprs = 0;
    } else if (var == VAR_SGPRS) {
        c.sgprs = (int)value;
    } else {
        c.lds = (uint64_t)value;
    }
    (void)t;
    return c;
}

/* The engine's answer at `value`; false where the value cannot run. */
static bool result_at(const AmdTarget *t, const AmdKernel *k, int threads, Variable var,
                      int64_t value, AmdResult *r)
{
    AmdKernel c = with_value(t, k, var, value);
    return amd_occupancy_calc(t, &c, threads, r) == OCC_OK;
}

/* Waves per SIMD at `value`; 0 where the value cannot run. */
static int waves_at(const AmdTarget *t, const AmdKernel *k, int threads, Variable var,
                    int64_t value)
{
    AmdResult r;
    return result_at(t, k, threads, var, value, &r) ? r.waves_per_simd : 0;
}

/* Whether `value` is a step on from `now`: a wave more per SIMD; or, where
 * no whole workgroup fits (a workgroup of 1024 needs 4 waves on each of 4
 * SIMDs), one that fits, since a wave more that still fits none is no
 * step at all. */
static bool better_at(const AmdTarget *t, const AmdKernel *k, int threads, Variable var,
                      int64_t value, const AmdResult *now)
{
    AmdResult r;
    if (!result_at(t, k, threads, var, value, &r))
        return false;
    if (now->workgroups_per_unit == 0)
        return r.workgroups_per_unit > 0;
    return r.waves_per_simd > now->waves_per_simd;
}

/* The least cut that is a step on (the largest value below `now` that is
 * better_at), and the waves there; -1 and -1 when none is. */
static void least_cut(const AmdTarget *t, const AmdKernel *k, int threads, Variable var,
                      int64_t now, const AmdResult *r, int64_t *cut, int *gained)
{
    *cut = -1;
    *gained = -1;
    if (now == 0 || !better_at(t, k, threads, var, 0, r))
        return;
    int64_t lo = 0, hi = now; /* better at lo, not at hi */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (better_at(t, k, threads, var, mid, r))
            lo = mid;
        else
            hi = mid;
    }
    *cut = now - lo;
    *gained = waves_at(t, k, threads, var, lo);
}

/* How far the value may grow (up to `max`) keeping `waves`. */
static int64_t slack(const AmdTarget *t, const AmdKernel *k, int threads, Variable var,
                     int64_t now, int64_t max, int waves)
{
    int64_t lo = now, hi = max + 1; /* waves(lo) == waves, waves(hi) < waves or past max */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (waves_at(t, k, threads, var, mid) >= waves)
            lo = mid;
        else
            hi = mid;
    }
    return lo - now;
}

OccStatus amd_next_step(const AmdTarget *t, const AmdKernel *k, int threads, AmdNextStep *out)
{
    AmdResult r;
    OccStatus status = amd_occupancy_calc(t, k, threads, &r);
    if (status != OCC_OK)
        return status;
    int w = r.waves_per_simd;
    int vgprs = amd_combined_vgprs(t, k->vgprs, k->agprs);
    AmdNextStep s = {0};
    int64_t cut;
    least_cut(t, k, threads, VAR_VGPRS, vgprs, &r, &cut, &s.vgprs_gained_waves);
    s.vgprs_to_cut = (int)cut;
    s.vgprs_slack = (int)slack(t, k, threads, VAR_VGPRS, vgprs, t->addressable_vgprs, w);
    least_cut(t, k, threads, VAR_SGPRS, k->sgprs, &r, &cut, &s.sgprs_gained_waves);
    s.sgprs_to_cut = (int)cut;
    least_cut(t, k, threads, VAR_LDS, (int64_t)k->lds, &r, &s.lds_to_cut, &s.lds_gained_waves);
    s.lds_slack = slack(t, k, threads, VAR_LDS, (int64_t)k->lds, t->lds_per_workgroup, w);
    *out = s;
    return OCC_OK;
}
