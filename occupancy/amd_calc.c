/*
 * amd_calc.c: waves per SIMD of an AMDGPU kernel, as LLVM 19 computes the
 * "Occupancy [waves/SIMD]" of its kernel-resource-usage remark.
 *
 * LLVM (AMDGPUAsmPrinter::getSIProgramInfo, GCNSubtarget::computeOccupancy)
 * takes the least of: the SIMD's wave slots; the LDS rule
 * (getOccupancyWithLocalMemSize: resident workgroups, bounded by the LDS and
 * by the workgroup slots, times their waves, spread over the SIMDs, rounded
 * up); the SGPR rule (gfx9 and older); and the VGPR rule (the file over
 * the count rounded up to the granule).  The register counts it uses are
 * raised to the least that amdgpu-waves-per-eu's maximum implies
 * (getMinNumVGPRs/getMinNumSGPRs): here that is a limiter of its own, so
 * that a person sees the attribute, not a VGPR count they did not write.
 * Each rule gives a limit; the least is the answer, and every rule that
 * reaches it is named.
 */
#include "amd.h"

#include <limits.h>
#include <string.h>

static int div_ceil(int a, int b)
{
    return (a + b - 1) / b;
}

static int align_to(int a, int b)
{
    return div_ceil(a, b) * b;
}

static int align_down(int a, int b)
{
    return a / b * b;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

const char *amd_limiter_name(AmdLimiter limiter)
{
    static const char *const names[] = {
#define AMD_LIMITER(e, json, what) json,
#include "amd_limiters.def"
#undef AMD_LIMITER
    };
    return names[limiter];
}

const char *amd_limiter_what(AmdLimiter limiter)
{
    static const char *const names[] = {
#define AMD_LIMITER(e, json, what) what,
#include "amd_limiters.def"
#undef AMD_LIMITER
    };
    return names[limiter];
}

/* AMDGPU::getTotalNumVGPRs(has90AInsts, AGPRs, VGPRs): after the VGPRs at
 * agpr_align in a unified file; beside them (the larger counts) otherwise. */
int amd_combined_vgprs(const AmdTarget *t, int vgprs, int agprs)
{
    if (t->agpr_file == AMD_AGPR_UNIFIED && agprs > 0)
        return align_to(vgprs, t->agpr_align) + agprs;
    return vgprs > agprs ? vgprs : agprs;
}

/* IsaInfo::getNumWavesPerEUWithNumVGPRs. */
static int waves_with_vgprs(const AmdTarget *t, int vgprs)
{
    if (vgprs < t->vgpr_alloc_granule)
        return t->max_waves_per_simd;
    int waves = t->vgprs_per_simd / align_to(vgprs, t->vgpr_alloc_granule);
    return min_int(waves > 1 ? waves : 1, t->max_waves_per_simd);
}

/* IsaInfo::getOccupancyWithNumSGPRs: a table of steps (gfx8, gfx9); no
 * limit from gfx10 on. */
static int waves_with_sgprs(const AmdTarget *t, int sgprs)
{
    for (int i = 0; i < t->n_sgpr_waves; i++)
        if (sgprs <= t->sgpr_waves[i].max_sgprs)
            return t->sgpr_waves[i].waves;
    return INT_MAX;
}

/* IsaInfo::getMinNumVGPRs: the fewest VGPRs that leave at most `waves`
 * waves per SIMD; 0 when the cap costs nothing. */
static int min_vgprs_for(const AmdTarget *t, int waves)
{
    if (waves >= t->max_waves_per_simd)
        return 0;
    int total = t->vgprs_per_simd, granule = t->vgpr_alloc_granule;
    int max_vgprs = align_down(total / waves, granule);
    if (max_vgprs == align_down(total / t->max_waves_per_simd, granule))
        return 0;
    int least_waves = waves_with_vgprs(t, t->addressable_vgprs);
    if (waves < least_waves)
        return min_vgprs_for(t, least_waves);
    int next = align_down(total / (waves + 1), granule);
    return min_int(1 + min_int(max_vgprs - granule, next), t->addressable_vgprs);
}

/* IsaInfo::getMinNumSGPRs: the same for SGPRs, where they limit. */
static int min_sgprs_for(const AmdTarget *t, int waves)
{
    if (t->n_sgpr_waves == 0 || waves >= t->max_waves_per_simd)
        return 0;
    int sgprs = t->sgprs_per_simd / (waves + 1);
    sgprs -= min_int(sgprs, t->trap_sgprs);
    sgprs = align_down(sgprs, t->sgpr_alloc_granule) + 1;
    return min_int(sgprs, t->addressable_sgprs);
}

/* AMDGPUSubtarget::getWavesPerEU: whether LLVM takes the attribute.  It
 * keeps the default instead (1 to the wave slots) when min > max, when
 * the maximum is above the wave slots, or when the minimum is below what
 * the largest workgroup needs (its waves over the SIMDs). */
AmdWavesPerEu amd_waves_per_eu(const AmdTarget *t, const AmdKernel *k, int *implied_min)
{
    int flat_max = k->flat_workgroup_max > 0 ? k->flat_workgroup_max : t->max_workgroup_size;
    int hw = t->max_waves_per_simd;
    *implied_min = div_ceil(div_ceil(flat_max, t->wave_size), t->simds_per_unit);
    if (k->waves_per_eu_min <= 0)
        return AMD_WPE_NOT_GIVEN;
    int max = k->waves_per_eu_max > 0 ? k->waves_per_eu_max : hw;
    if (k->waves_per_eu_min > max)
        return AMD_WPE_MIN_ABOVE_MAX;
    if (max > hw)
        return AMD_WPE_MAX_ABOVE_SLOTS;
    if (k->waves_per_eu_min < *implied_min)
        return AMD_WPE_MIN_BELOW_WORKGROUP;
    return AMD_WPE_TAKEN;
}

/* The attribute's maximum as LLVM takes it: the target's when ignored. */
static int waves_per_eu_max(const AmdTarget *t, const AmdKernel *k)
{
    int implied_min;
    if (amd_waves_per_eu(t, k, &implied_min) != AMD_WPE_TAKEN || k->waves_per_eu_max <= 0)
        return t->max_waves_per_simd;
    return k->waves_per_eu_max;
}

/* IsaInfo::getMaxWorkGroupsPerCU: one-wave workgroups take no barrier. */
static int workgroup_slots(const AmdTarget *t, int waves_per_group)
{
    int wave_slots = t->max_waves_per_simd * t->simds_per_unit;
    if (waves_per_group == 1)
        return wave_slots;
    return min_int(wave_slots / waves_per_group, t->max_workgroup_barriers);
}

/* The waves per SIMD of `groups` resident workgroups, as
 * getOccupancyWithLocalMemSize rounds them. */
static int waves_of_groups(const AmdTarget *t, int groups, int waves_per_group)
{
    return min_int(div_ceil(groups * waves_per_group, t->simds_per_unit), t->max_waves_per_simd);
}

/* Workgroups the LDS leaves room for; INT_MAX for none used. */
static int lds_groups(const AmdTarget *t, uint64_t lds)
{
    return lds == 0 ? INT_MAX : (int)((uint64_t)t->lds_per_unit / lds);
}

static bool valid_input(const AmdTarget *t, const AmdKernel *k, int threads, int flat_max)
{
    if (threads < 1 || threads > flat_max || flat_max > t->max_workgroup_size)
        return false;
    if (k->vgprs < 0 || k->agprs < 0 || k->sgprs < 0)
        return false;
    if (k->agprs > 0 && t->agpr_file == AMD_AGPR_NONE)
        return false;
    return amd_combined_vgprs(t, k->vgprs, k->agprs) <= t->addressable_vgprs &&
           k->sgprs <= t->addressable_sgprs;
}

static void fill_limits(const AmdTarget *t, const AmdKernel *k, int threads, AmdResult *r)
{
    int wpg = div_ceil(threads, t->wave_size);
    int combined = amd_combined_vgprs(t, k->vgprs, k->agprs);
    int attr_max = waves_per_eu_max(t, k);
    int groups = lds_groups(t, k->lds);
    r->limit[AMD_LIMITER_WAVES] = t->max_waves_per_simd;
    r->limit[AMD_LIMITER_VGPRS] = waves_with_vgprs(t, combined > 1 ? combined : 1);
    r->limit[AMD_LIMITER_SGPRS] = waves_with_sgprs(t, k->sgprs > 1 ? k->sgprs : 1);
    r->limit[AMD_LIMITER_LDS] = groups == INT_MAX ? INT_MAX
                                : groups == 0     ? 1 /* LLVM: "assume the worst" */
                                                  : waves_of_groups(t, groups, wpg);
    r->limit[AMD_LIMITER_WORKGROUPS] = waves_of_groups(t, workgroup_slots(t, wpg), wpg);
    int min_v = min_vgprs_for(t, attr_max), min_s = min_sgprs_for(t, attr_max);
    int attr = min_v ? waves_with_vgprs(t, min_v) : INT_MAX;
    if (min_s)
        attr = min_int(attr, waves_with_sgprs(t, min_s));
    r->limit[AMD_LIMITER_WAVES_PER_EU] = attr;
    r->waves_per_workgroup = wpg;
    r->allocated_vgprs = align_to(combined > 1 ? combined : 1, t->vgpr_alloc_granule);
    r->waves_per_eu_max = attr_max;
}

/* Resident workgroups: as many as the LDS and the slots allow whose waves
 * stay within the waves per SIMD over all SIMDs of the unit. */
static int resident_workgroups(const AmdTarget *t, const AmdKernel *k, const AmdResult *r)
{
    int wpg = r->waves_per_workgroup;
    int by_waves = r->waves_per_simd * t->simds_per_unit / wpg;
    return min_int(min_int(by_waves, lds_groups(t, k->lds)), workgroup_slots(t, wpg));
}

OccStatus amd_occupancy_calc(const AmdTarget *t, const AmdKernel *k, int threads,
                             AmdResult *out)
{
    int flat_max = k->flat_workgroup_max > 0 ? k->flat_workgroup_max : t->max_workgroup_size;
    if (!valid_input(t, k, threads, flat_max))
        return OCC_ERR_INVALID_INPUT;
    if (k->lds > (uint64_t)t->lds_per_workgroup)
        return OCC_ERR_DOES_NOT_FIT;
    AmdResult r = {.max_waves_per_simd = t->max_waves_per_simd};
    fill_limits(t, k, threads, &r);
    r.waves_per_simd = INT_MAX;
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        r.waves_per_simd = min_int(r.waves_per_simd, r.limit[i]);
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        if (r.limit[i] == r.waves_per_simd)
            r.limited_by |= 1u << i;
    r.workgroups_per_unit = resident_workgroups(t, k, &r);
    *out = r;
    return OCC_OK;
}
