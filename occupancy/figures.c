/*
 * figures.c: one face for both vendors' engines (occupancy.h).  The
 * NVIDIA engine counts resident CTAs per SM and the AMD one waves per
 * SIMD, each with its own limiters; the report, calc and their writers
 * read both through OccFigures, so a writer is written once, not once per
 * vendor.  Only the shape is common: every number is the vendor engine's.
 */
#include "amd.h"
#include "occupancy.h"

_Static_assert((int)OCC_N_LIMITERS <= (int)OCC_MAX_LIMITERS && (int)AMD_N_LIMITERS <= (int)OCC_MAX_LIMITERS,
               "OccFigures holds every vendor's limiters");

/* occ_figures_nvidia is inline, in occupancy.h. */

OccFigures occ_figures_amd(const AmdResult *r)
{
    OccFigures f = {.vendor = OCC_AMD, .groups = r->workgroups_per_unit,
                    .active = r->waves_per_simd, .max_active = r->max_waves_per_simd,
                    .resident = r->workgroups_per_unit * r->waves_per_workgroup,
                    .n_limiters = AMD_N_LIMITERS, .limited_by = r->limited_by};
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        f.limit[i] = r->limit[i];
    return f;
}

const char *occ_vendor_limiter_name(OccVendor vendor, int i)
{
    return vendor == OCC_AMD ? amd_limiter_name((AmdLimiter)i) : occ_limiter_name((OccLimiter)i);
}

const char *occ_vendor_limiter_what(OccVendor vendor, int i)
{
    return vendor == OCC_AMD ? amd_limiter_what((AmdLimiter)i) : occ_limiter_what((OccLimiter)i);
}

const char *occ_limit_unit(OccVendor vendor)
{
    return vendor == OCC_AMD ? "waves_per_simd" : "ctas_per_sm";
}
