/*
 * _engine.c: the CPython extension silk_occ._engine, the occupancy engine
 * of silk-occ (libsilkocc, compiled in from the project's sources) behind
 * three calls: calc(config) answers one configuration with the keys and
 * values of `silk-occ calc --format json`, batch(configs) answers a list of
 * them in one C loop, and tables() gives the rows of the compiled-in
 * tables.  Python does no occupancy arithmetic: every figure here is the
 * engine's, and the checks before it are calc's (src/cmd_calc.c), with
 * calc's words, so that a script and the command refuse the same
 * configuration the same way.  tests/python/module.sh holds the two to
 * each other key by key and message by message.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "amd.h"
#include "escape.h"
#include "format_bytes.h"
#include "occupancy.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#ifndef SILK_OCC_VERSION
#error "setup.py defines SILK_OCC_VERSION, configure.ac's version"
#endif

/* Every dictionary key the module reads or writes, interned once at import
 * so that a batch of a million configurations hashes no new string. */
#define KEYS(X)                                                                                    \
    X(arch) X(gpu) X(threads) X(regs) X(smem) X(dyn_smem) X(barriers) X(smem_optin) X(carveout)   \
    X(work) X(sms) X(cluster) X(vgprs) X(agprs) X(sgprs) X(lds) X(waves_per_eu)                    \
    X(schema) X(tool) X(name) X(version) X(ptxas) X(nvcc) X(llc) X(vendor) X(compute_capability)  \
    X(family) X(warp_size) X(unit) X(gpu_asked) X(sm_count) X(regs_per_thread) X(static_smem)     \
    X(dynamic_smem) X(warps_per_block) X(active_blocks_per_sm) X(active_warps_per_sm)              \
    X(max_warps_per_sm) X(waves_per_simd) X(max_waves_per_simd) X(occupancy) X(limited_by)         \
    X(limits) X(limits_unit) X(allocated_regs_per_block) X(allocated_smem_per_block)               \
    X(allocated_vgprs) X(smem_per_sm) X(waves_per_eu_max) X(next_step) X(regs_to_cut)             \
    X(regs_cut_blocks_per_sm) X(regs_cut_waves_per_simd) X(sgprs_to_cut)                           \
    X(sgprs_cut_waves_per_simd) X(smem_to_cut) X(smem_cut_blocks_per_sm)                           \
    X(smem_cut_waves_per_simd) X(regs_slack) X(smem_slack) X(best_block_size)                      \
    X(runtime_block_size) X(min_grid) X(persistent_grid) X(ctas) X(waves) X(full_waves)           \
    X(last_wave_fill) X(idle_fraction) X(tail_threads) X(dims) X(size) X(portable_limit)          \
    X(limit) X(nonportable) X(valid) X(resident_clusters) X(resident_estimated) X(error)          \
    X(reason) X(index)

typedef enum Key {
#define KEY_ENUM(k) K_##k,
    KEYS(KEY_ENUM)
#undef KEY_ENUM
    N_KEYS
} Key;

static const char *const key_names[] = {
#define KEY_NAME(k) #k,
    KEYS(KEY_NAME)
#undef KEY_NAME
};

/* The keys a configuration may hold, in the order calc's errors name them. */
static const Key input_keys[] = {K_arch, K_gpu, K_threads, K_regs, K_smem, K_dyn_smem,
                                 K_barriers, K_smem_optin, K_carveout, K_work, K_sms, K_cluster,
                                 K_vgprs, K_agprs, K_sgprs, K_lds, K_waves_per_eu};
enum { N_INPUT_KEYS = sizeof input_keys / sizeof *input_keys };

/* The module's state: the tables (read once, never changed) and the keys. */
typedef struct State {
    ArchTable nv;
    AmdTable amd;
    bool loaded;
    PyObject *key[N_KEYS];
    PyObject *nv_limiter[OCC_N_LIMITERS];
    PyObject *amd_limiter[AMD_N_LIMITERS];
    PyObject *input_index; /* input key -> its Key, as an int */
    /* Names found before (arch names, gpu names) -> an index of found[]:
     * a lookup walks every alias of every row, and costs a hundred times
     * the occupancy it leads to.  The tables never change, so neither
     * does what a name finds; only found names are kept, at most
     * MAX_FOUND, so that hostile names cannot grow it. */
    PyObject *found_index[2];
    struct Found *found;
    size_t n_found;
} State;

enum { MAX_FOUND = 256 };

typedef struct Found {
    Target target;
    bool amd;
} Found;

/* Why a configuration was refused, for prune: the check that refused it.
 * Its names are the reasons of silk-occ prune (occupancy/prune.c), the
 * ones the engine's checks give; the others (no CTA resident, a cluster
 * that cannot be) come from the engine's answer (silk_occ/prune.py). */
typedef enum Refusal {
    R_USAGE,           /* a value no target takes: not a tuning reason */
    R_EMPTY_BLOCK,     /* a block of 0 threads */
    R_BLOCK_TOO_LARGE, /* threads above the block (workgroup) limit */
    R_REGS_OVER_MAX,   /* registers (VGPRs, AGPRs, SGPRs) above the architecture's */
    R_STATIC_SMEM_OVER_LIMIT, /* static shared memory above the static limit */
    R_SMEM_OVER_OPTIN, /* shared memory (LDS) above the per-block limit */
} Refusal;

static const char *const refusal_names[] = {NULL, "empty_block", "block_too_large",
                                            "regs_over_max", "static_smem_over_limit",
                                            "smem_over_optin"};

/* One refused configuration: calc's message and the check. */
typedef struct Failure {
    char message[1024];
    Refusal why;
    bool type_error; /* a value of the wrong type: TypeError, not ValueError */
} Failure;

static bool fail(Failure *f, Refusal why, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail(Failure *f, Refusal why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    f->why = why;
    return false;
}

/* ---- reading a configuration ---------------------------------------------- */

/* A configuration as calc's options hold it. */
typedef struct Config {
    const char *arch, *gpu;
    PyObject *arch_obj, *gpu_obj; /* borrowed: the names as given, for the cache */
    long long threads, regs, barriers, sms, vgprs, agprs, sgprs;
    unsigned long long smem, dyn_smem, work, lds;
    bool have_threads, have_regs, have_work, have_sms, have_vgprs;
    bool optin;
    int carveout;
    int cluster[3];
    int waves_per_eu_min, waves_per_eu_max;
    const char *nvidia_option, *amd_option; /* the first vendor-only option given */
} Config;

static const char *option_name(Key k)
{
    static const char *const names[] = {
        [K_arch] = "--arch", [K_gpu] = "--gpu", [K_threads] = "--threads", [K_regs] = "--regs",
        [K_smem] = "--smem", [K_dyn_smem] = "--dyn-smem", [K_barriers] = "--barriers",
        [K_smem_optin] = "--no-optin", [K_carveout] = "--carveout", [K_work] = "--work",
        [K_sms] = "--sms", [K_cluster] = "--cluster", [K_vgprs] = "--vgprs",
        [K_agprs] = "--agprs", [K_sgprs] = "--sgprs", [K_lds] = "--lds",
        [K_waves_per_eu] = "--waves-per-eu"};
    return names[k];
}

/* An integer in min..max, refused in calc's words (cli_parse_integer). */
static bool read_integer(PyObject *v, Key k, long long min, long long max, long long *out,
                         Failure *f)
{
    const char *opt = option_name(k);
    if (!PyLong_Check(v)) {
        f->type_error = true;
        return fail(f, R_USAGE, "%s: %s is not an integer", opt, Py_TYPE(v)->tp_name);
    }
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow > 0)
        return fail(f, R_USAGE, "%s: the value is too large (at most %lld)", opt, max);
    if (x > max)
        return fail(f, R_USAGE, "%s: '%lld' is too large (at most %lld)", opt, x, max);
    if (overflow < 0 || x < 0)
        return fail(f, R_USAGE, "%s: '%lld' is negative (at least %lld)", opt,
                    overflow ? LLONG_MIN : x, min);
    if (x < min)
        return fail(f, R_USAGE, "%s: '%lld' is too small (at least %lld)", opt, x, min);
    *out = x;
    return true;
}

/* A size in bytes: a non-negative integer (cli_parse_size's bound). */
static bool read_size(PyObject *v, Key k, unsigned long long *out, Failure *f)
{
    long long x;
    if (!PyLong_Check(v)) {
        f->type_error = true;
        return fail(f, R_USAGE, "%s: %s is not a size in bytes", option_name(k), Py_TYPE(v)->tp_name);
    }
    int overflow;
    x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow < 0 || (!overflow && x < 0))
        return fail(f, R_USAGE, "%s: '%lld' is negative", option_name(k), overflow ? LLONG_MIN : x);
    if (overflow > 0 || (unsigned long long)x > UINT64_MAX / 2)
        return fail(f, R_USAGE, "%s: the size is too large", option_name(k));
    *out = (unsigned long long)x;
    return true;
}

static bool read_string(PyObject *v, Key k, const char **out, Failure *f)
{
    if (!PyUnicode_Check(v)) {
        f->type_error = true;
        return fail(f, R_USAGE, "%s: %s is not a string", option_name(k), Py_TYPE(v)->tp_name);
    }
    *out = PyUnicode_AsUTF8(v);
    if (!*out) {
        PyErr_Clear();
        return fail(f, R_USAGE, "%s: not valid text", option_name(k));
    }
    return true;
}

/* "default", "max-shared", "max-l1", "half", or a percentage 0..100. */
static bool read_carveout(PyObject *v, Config *c, Failure *f)
{
    static const struct {
        const char *name;
        int percent;
    } names[] = {{"default", OCC_CARVEOUT_DEFAULT}, {"max-shared", 100}, {"max-l1", 0}, {"half", 50}};
    if (PyLong_Check(v)) {
        long long p;
        if (!read_integer(v, K_carveout, 0, 100, &p, f))
            return false;
        c->carveout = (int)p;
        return true;
    }
    const char *text;
    if (!read_string(v, K_carveout, &text, f))
        return false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(text, names[i].name) == 0) {
            c->carveout = names[i].percent;
            return true;
        }
    return fail(f, R_USAGE, "--carveout: '%s' is not default, max-shared, max-l1, half or a percentage 0..100",
                QUOTED(text));
}

/* An int or a sequence of one to three ints, as calc's X[,Y[,Z]]. */
static bool read_extents(PyObject *v, Key k, int n_max, long long lo, long long hi, int *dims,
                         int *n, Failure *f)
{
    if (PyLong_Check(v)) {
        long long x;
        if (!read_integer(v, k, lo, hi, &x, f))
            return false;
        dims[0] = (int)x;
        *n = 1;
        return true;
    }
    if (!PyList_Check(v) && !PyTuple_Check(v)) {
        f->type_error = true;
        return fail(f, R_USAGE, "%s: %s is not an integer or a list", option_name(k), Py_TYPE(v)->tp_name);
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(v);
    if (len < 1 || len > n_max)
        return fail(f, R_USAGE, "%s: %zd values; give 1 to %d", option_name(k), len, n_max);
    for (Py_ssize_t i = 0; i < len; i++) {
        long long x;
        if (!read_integer(PySequence_Fast_GET_ITEM(v, i), k, lo, hi, &x, f))
            return false;
        dims[i] = (int)x;
    }
    *n = (int)len;
    return true;
}

static bool read_cluster(PyObject *v, Config *c, Failure *f)
{
    int n;
    c->cluster[0] = c->cluster[1] = c->cluster[2] = 1;
    if (!read_extents(v, K_cluster, 3, 1, 64, c->cluster, &n, f))
        return false;
    long long product = (long long)c->cluster[0] * c->cluster[1] * c->cluster[2];
    if (product > 64)
        return fail(f, R_USAGE, "--cluster: %lld CTAs per cluster; at most 64", product);
    return true;
}

static bool read_waves_per_eu(PyObject *v, Config *c, Failure *f)
{
    int dims[2] = {0, 0}, n;
    if (!read_extents(v, K_waves_per_eu, 2, 1, 64, dims, &n, f))
        return false;
    c->waves_per_eu_min = dims[0];
    c->waves_per_eu_max = n == 2 ? dims[1] : 0;
    return true;
}

static void note_vendor_option(Config *c, Key k)
{
    bool nvidia = k == K_regs || k == K_smem || k == K_dyn_smem || k == K_barriers ||
                  k == K_smem_optin || k == K_carveout || k == K_sms || k == K_cluster;
    bool amd = k == K_vgprs || k == K_agprs || k == K_sgprs || k == K_lds || k == K_waves_per_eu;
    if (nvidia && !c->nvidia_option)
        c->nvidia_option = option_name(k);
    if (amd && !c->amd_option)
        c->amd_option = option_name(k);
}

static bool read_value(Config *c, Key k, PyObject *v, Failure *f)
{
    long long x;
    switch (k) {
    case K_arch: c->arch_obj = v; return read_string(v, k, &c->arch, f);
    case K_gpu: c->gpu_obj = v; return read_string(v, k, &c->gpu, f);
    case K_threads:
        c->have_threads = true;
        if (read_integer(v, k, 1, 1 << 30, &c->threads, f))
            return true;
        if (PyLong_Check(v) && PyLong_AsLong(v) == 0)
            f->why = R_EMPTY_BLOCK; /* calc's words, prune's reason */
        return false;
    case K_regs: c->have_regs = true; return read_integer(v, k, 0, 1 << 30, &c->regs, f);
    case K_smem: return read_size(v, k, &c->smem, f);
    case K_dyn_smem: return read_size(v, k, &c->dyn_smem, f);
    case K_barriers: return read_integer(v, k, 0, 16, &c->barriers, f);
    case K_smem_optin:
        if (!PyBool_Check(v)) {
            f->type_error = true;
            return fail(f, R_USAGE, "smem_optin: %s is not True or False", Py_TYPE(v)->tp_name);
        }
        c->optin = v == Py_True;
        return true;
    case K_carveout: return read_carveout(v, c, f);
    case K_work:
        c->have_work = true;
        if (!read_integer(v, k, 1, INT64_MAX, &x, f))
            return false;
        c->work = (unsigned long long)x;
        return true;
    case K_sms: c->have_sms = true; return read_integer(v, k, 1, 1 << 20, &c->sms, f);
    case K_cluster: return read_cluster(v, c, f);
    case K_vgprs: c->have_vgprs = true; return read_integer(v, k, 0, 1 << 20, &c->vgprs, f);
    case K_agprs: return read_integer(v, k, 0, 1 << 20, &c->agprs, f);
    case K_sgprs: return read_integer(v, k, 0, 1 << 20, &c->sgprs, f);
    case K_lds: return read_size(v, k, &c->lds, f);
    case K_waves_per_eu: return read_waves_per_eu(v, c, f);
    default: return false;
    }
}

/* A key that is not a configuration's: named, with the keys that are. */
static bool unknown_key(PyObject *k, Failure *f)
{
    const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
    if (!name)
        PyErr_Clear();
    return fail(f, R_USAGE, "unknown key '%s'; a configuration takes arch, gpu, threads, regs, "
                "smem, dyn_smem, barriers, smem_optin, carveout, work, sms, cluster, vgprs, "
                "agprs, sgprs, lds, waves_per_eu", name ? QUOTED(name) : "?");
}

/* The configuration's own items, in its order (as calc reads its options
 * in the command line's): a value None is the key not given, as scripts
 * build dicts. */
static bool read_config(const State *s, PyObject *dict, Config *c, Failure *f)
{
    *c = (Config){.barriers = 1, .optin = true, .carveout = OCC_CARVEOUT_DEFAULT};
    if (!PyDict_Check(dict)) {
        f->type_error = true;
        return fail(f, R_USAGE, "a configuration is a dict, not %s", Py_TYPE(dict)->tp_name);
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &k, &v)) {
        PyObject *index = PyDict_GetItemWithError(s->input_index, k);
        if (!index) {
            PyErr_Clear(); /* an unhashable key cannot be in a dict: only absence */
            return unknown_key(k, f);
        }
        if (v == Py_None)
            continue;
        Key key = (Key)PyLong_AsLong(index);
        note_vendor_option(c, key);
        if (!read_value(c, key, v, f))
            return false;
    }
    return true;
}

/* ---- calc's checks (src/cmd_calc.c, src/target.c), in calc's words -------- */

static bool unknown_name(const ArchTable *t, bool want_arch, const char *name, Failure *f)
{
    const char *option = want_arch ? "--arch" : "--gpu", *other = want_arch ? "--gpu" : "--arch";
    const char *kind = want_arch ? "architecture" : "GPU";
    int same = want_arch ? OCC_SUGGEST_ARCHS : OCC_SUGGEST_PRODUCTS;
    int different = want_arch ? OCC_SUGGEST_PRODUCTS : OCC_SUGGEST_ARCHS;
    char s[OCC_ALIASES_MAX];
    if (arch_table_suggest(t, name, same, s, sizeof s))
        return fail(f, R_USAGE, "%s: unknown %s '%s' (did you mean '%s'?); 'silk-occ arch list' lists them",
                    option, kind, QUOTED(name), s);
    if (arch_table_suggest(t, name, different, s, sizeof s))
        return fail(f, R_USAGE, "%s: unknown %s '%s' (did you mean %s %s?); 'silk-occ arch list' lists them",
                    option, kind, QUOTED(name), other, s);
    return fail(f, R_USAGE, "%s: unknown %s '%s'; 'silk-occ arch list' lists them", option, kind,
                QUOTED(name));
}

static bool resolve_nvidia(const ArchTable *t, const Config *c, Target *out, Failure *f)
{
    *out = (Target){0};
    const char *name = c->gpu ? c->gpu : c->arch;
    if (c->arch) {
        out->arch = arch_table_find(t, name);
        if (!out->arch && arch_table_find_product(t, name))
            return fail(f, R_USAGE, "--arch: '%s' is a GPU product, not an architecture: use --gpu %s",
                        QUOTED(name), QUOTED(name));
        if (!out->arch)
            return unknown_name(t, true, name, f);
    } else {
        out->gpu = arch_table_find_product(t, name);
        if (!out->gpu && arch_table_find(t, name))
            return fail(f, R_USAGE, "--gpu: '%s' is an architecture, not a GPU product: use --arch %s",
                        QUOTED(name), QUOTED(name));
        if (!out->gpu)
            return unknown_name(t, false, name, f);
        out->arch = arch_table_product_arch(t, out->gpu);
        if (!out->arch)
            return fail(f, R_USAGE, "--gpu: %s has compute capability %d.%d, which the tables lack",
                        out->gpu->id, out->gpu->major, out->gpu->minor);
        out->sm_count = out->gpu->sm_count;
        snprintf(out->gpu_asked, sizeof out->gpu_asked, "%s", name);
    }
    arch_sm_name(out->arch, out->sm_name, sizeof out->sm_name);
    return true;
}

static bool resolve_amd(const AmdTable *amd, const Config *c, Target *out)
{
    const AmdProduct *p = c->gpu ? amd_table_find_product(amd, c->gpu) : NULL;
    const AmdTarget *t = c->gpu ? (p ? amd_table_product_target(amd, p) : NULL)
                                : amd_table_find(amd, c->arch);
    if (!t)
        return false;
    *out = (Target){.vendor = OCC_AMD, .amd = t, .amd_gpu = p,
                    .sm_count = p ? amd_product_units(t, p) : 0};
    snprintf(out->sm_name, sizeof out->sm_name, "%s", t->gfx);
    if (p)
        snprintf(out->gpu_asked, sizeof out->gpu_asked, "%s", c->gpu);
    return true;
}

static bool check_smem(const Config *c, const Target *t, Failure *f)
{
    const ArchLimits *a = t->arch;
    char limit[32], asked[32], optin[32];
    if (c->smem > (uint64_t)a->smem_per_block) {
        format_bytes_pair(c->smem, asked, (uint64_t)a->smem_per_block, limit, sizeof asked);
        return fail(f, R_STATIC_SMEM_OVER_LIMIT,
                    "--smem: %s of static shared memory is above the %s static limit per block on %s; "
                    "larger sizes must be dynamic (--dyn-smem)", asked, limit, t->sm_name);
    }
    uint64_t per_block = (uint64_t)(c->optin ? a->smem_per_block_optin : a->smem_per_block);
    uint64_t total = c->smem + c->dyn_smem;
    if (total <= per_block)
        return true;
    format_bytes_pair(total, asked, per_block, limit, sizeof asked);
    if (!c->optin && total <= (uint64_t)a->smem_per_block_optin)
        return fail(f, R_SMEM_OVER_OPTIN,
                    "--dyn-smem: %s of shared memory per block is above the %s default limit on %s; "
                    "drop --no-optin (the kernel opts in with cudaFuncSetAttribute(kernel, "
                    "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)) to use up to %s",
                    asked, limit, t->sm_name,
                    format_bytes((uint64_t)a->smem_per_block_optin, optin, sizeof optin));
    return fail(f, R_SMEM_OVER_OPTIN, "--dyn-smem: %s of shared memory per block is above the %s %s limit on %s",
                asked, limit, c->optin ? "opt-in" : "default", t->sm_name);
}

/* What calc checks before it looks the NVIDIA name up. */
static bool check_nvidia_options(const Config *c, Failure *f)
{
    if (c->amd_option)
        return fail(f, R_USAGE, "%s: is for AMD targets (gfx90a, gfx942, gfx1100, gfx1201, ...); "
                    "%s takes --regs and --smem", c->amd_option, c->arch ? c->arch : c->gpu);
    if (!c->have_threads)
        return fail(f, R_USAGE, "--threads: required (threads per CTA)");
    if (!c->have_regs)
        return fail(f, R_USAGE, "--regs: required (registers per thread, from ptxas -v)");
    return true;
}

/* ... and after: the limits of the architecture found. */
static bool check_nvidia(const Config *c, Target *t, Failure *f)
{
    if (c->have_sms)
        t->sm_count = (int)c->sms;
    const ArchLimits *a = t->arch;
    if (c->threads > a->max_threads_per_block)
        return fail(f, R_BLOCK_TOO_LARGE, "--threads: %lld is above the block limit of %d threads on %s",
                    c->threads, a->max_threads_per_block, t->sm_name);
    if (c->regs > a->max_regs_per_thread)
        return fail(f, R_REGS_OVER_MAX, "--regs: %lld is above the %d registers a thread may use on %s",
                    c->regs, a->max_regs_per_thread, t->sm_name);
    return check_smem(c, t, f);
}

static bool check_amd(const Config *c, const Target *t, Failure *f)
{
    const AmdTarget *a = t->amd;
    if (c->nvidia_option)
        return fail(f, R_USAGE, "%s: is for NVIDIA targets; %s takes --vgprs, --agprs, --sgprs and --lds",
                    c->nvidia_option, t->sm_name);
    if (!c->have_threads)
        return fail(f, R_USAGE, "--threads: required (work-items per workgroup)");
    if (!c->have_vgprs)
        return fail(f, R_USAGE, "--vgprs: required (VGPRs per lane, from the kernel-resource-usage "
                    "remark or the code object's .vgpr_count)");
    if (c->threads > a->max_workgroup_size)
        return fail(f, R_BLOCK_TOO_LARGE, "--threads: %lld is above the workgroup limit of %d work-items on %s",
                    c->threads, a->max_workgroup_size, a->gfx);
    if (c->vgprs > AMD_MAX_ARCH_VGPRS)
        return fail(f, R_REGS_OVER_MAX, "--vgprs: %lld is above the %d VGPRs a wave may address on %s",
                    c->vgprs, AMD_MAX_ARCH_VGPRS, a->gfx);
    if (c->agprs > 0 && a->agpr_file == AMD_AGPR_NONE)
        return fail(f, R_USAGE, "--agprs: %s (%s) has no accumulation registers", a->gfx, a->family);
    if (c->agprs > AMD_MAX_ARCH_VGPRS)
        return fail(f, R_REGS_OVER_MAX, "--agprs: %lld is above the %d AGPRs a wave may address on %s",
                    c->agprs, AMD_MAX_ARCH_VGPRS, a->gfx);
    if (c->sgprs > a->addressable_sgprs)
        return fail(f, R_REGS_OVER_MAX, "--sgprs: %lld is above the %d SGPRs a wave may address on %s",
                    c->sgprs, a->addressable_sgprs, a->gfx);
    if (c->lds > (uint64_t)a->lds_per_workgroup) {
        char asked[32], limit[32];
        format_bytes_pair(c->lds, asked, (uint64_t)a->lds_per_workgroup, limit, sizeof asked);
        return fail(f, R_SMEM_OVER_OPTIN, "--lds: %s is above the %s of LDS a workgroup may allocate on %s",
                    asked, limit, a->gfx);
    }
    return true;
}

/* ---- the model: what calc computes (build_nvidia, build_amd) -------------- */

typedef struct Answer {
    Target target;
    const Config *config;
    int threads, regs, warps;
    uint64_t static_smem, dynamic_smem;
    OccFigures fig;
    OccResult nvidia;
    AmdResult amd;
    KernelResources kernel;
    AmdKernel amd_kernel;
    OccNextStep next;
    AmdNextStep amd_next;
    bool have_best;
    OccBlockSizeChoice best, runtime_best;
    bool have_waves;
    OccWaves waves;
    int cluster_size, cluster_portable, cluster_limit, cluster_resident;
} Answer;

/* What to compute beyond the figures: the searches cost more than the
 * figures themselves, so a batch that asks only some keys skips them. */
enum { WANT_NEXT = 1, WANT_BEST = 2, WANT_ALL = 3 };

static bool unusable_row(const Target *t, Failure *f)
{
    return fail(f, R_USAGE, "the tables' row for %s cannot be used for this calculation", t->sm_name);
}

static bool compute_nvidia(const Config *c, Answer *m, int want, Failure *f)
{
    const Target *t = &m->target;
    const ArchLimits *a = t->arch;
    int threads = (int)c->threads;
    m->kernel = occ_kernel_defaults(a, (int)c->regs, c->smem, c->optin);
    m->kernel.barriers = (int)c->barriers;
    m->kernel.carveout = c->carveout;
    m->have_best = true;
    if (occ_active_blocks(a, &m->kernel, threads, c->dyn_smem, &m->nvidia) != OCC_OK ||
        ((want & WANT_NEXT) && occ_next_step(a, &m->kernel, threads, c->dyn_smem, &m->next) != OCC_OK) ||
        ((want & WANT_BEST) &&
         (occ_best_block_size(a, &m->kernel, NULL, NULL, c->dyn_smem, t->sm_count, &m->runtime_best) != OCC_OK ||
          occ_advise_block_size_all(a, &m->kernel, c->dyn_smem, c->have_work ? c->work : 0,
                                    t->sm_count, &m->best) != OCC_OK)))
        return unusable_row(t, f);
    m->threads = threads;
    m->regs = (int)c->regs;
    m->static_smem = c->smem;
    m->dynamic_smem = c->dyn_smem;
    m->warps = m->nvidia.warps_per_block;
    m->fig = occ_figures_nvidia(&m->nvidia);
    if (c->cluster[0]) {
        m->cluster_size = c->cluster[0] * c->cluster[1] * c->cluster[2];
        m->cluster_portable = occ_cluster_limit(a, false);
        m->cluster_limit = occ_cluster_limit(a, true);
        m->cluster_resident = t->gpu ? occ_cluster_resident(t->sm_count, t->gpu->gpcs, m->fig.groups,
                                                            m->cluster_size)
                                     : -1;
    }
    return true;
}

static bool compute_amd(const Config *c, Answer *m, int want, Failure *f)
{
    const Target *t = &m->target;
    int threads = (int)c->threads;
    m->amd_kernel = (AmdKernel){.vgprs = (int)c->vgprs, .agprs = (int)c->agprs, .sgprs = (int)c->sgprs,
                                .lds = c->lds, .flat_workgroup_max = threads,
                                .waves_per_eu_min = c->waves_per_eu_min,
                                .waves_per_eu_max = c->waves_per_eu_max};
    if (amd_occupancy_calc(t->amd, &m->amd_kernel, threads, &m->amd) != OCC_OK ||
        ((want & WANT_NEXT) && amd_next_step(t->amd, &m->amd_kernel, threads, &m->amd_next) != OCC_OK))
        return unusable_row(t, f);
    m->threads = threads;
    m->regs = (int)c->vgprs;
    m->static_smem = c->lds;
    m->warps = m->amd.waves_per_workgroup;
    m->fig = occ_figures_amd(&m->amd);
    return true;
}

/* The target a name found before, or NULL. */
static const Found *found_before(const State *s, const Config *c)
{
    PyObject *name = c->gpu ? c->gpu_obj : c->arch_obj;
    PyObject *index = PyDict_GetItemWithError(s->found_index[c->gpu != NULL], name);
    if (!index) {
        PyErr_Clear();
        return NULL;
    }
    return &s->found[PyLong_AsSsize_t(index)];
}

static void remember(State *s, const Config *c, const Target *t, bool amd)
{
    if (s->n_found == MAX_FOUND)
        return;
    PyObject *index = PyLong_FromSize_t(s->n_found);
    PyObject *name = c->gpu ? c->gpu_obj : c->arch_obj;
    if (index && PyDict_SetItem(s->found_index[c->gpu != NULL], name, index) == 0)
        s->found[s->n_found++] = (Found){*t, amd};
    else
        PyErr_Clear(); /* not remembered: found again next time */
    Py_XDECREF(index);
}

/* The target, in calc's order: an AMD name first (silently), else the
 * NVIDIA options and then the NVIDIA name. */
static bool find_target(State *s, const Config *c, Target *t, bool *amd, Failure *f)
{
    const Found *before = found_before(s, c);
    if (before) {
        *t = before->target;
        *amd = before->amd;
        return *amd || check_nvidia_options(c, f);
    }
    *amd = resolve_amd(&s->amd, c, t);
    if (!*amd && (!check_nvidia_options(c, f) || !resolve_nvidia(&s->nv, c, t, f)))
        return false;
    remember(s, c, t, *amd);
    return true;
}

/* One configuration: calc's checks, then its model. */
static bool answer_config(State *s, PyObject *dict, Config *c, Answer *m, int want, Failure *f)
{
    if (!read_config(s, dict, c, f))
        return false;
    if (c->arch && c->gpu)
        return fail(f, R_USAGE, "--arch and --gpu: give one, not both");
    if (!c->arch && !c->gpu)
        return fail(f, R_USAGE, "--arch or --gpu: the target GPU is required");
    *m = (Answer){.config = c};
    bool amd;
    if (!find_target(s, c, &m->target, &amd, f))
        return false;
    if (amd ? !check_amd(c, &m->target, f) || !compute_amd(c, m, want, f)
            : !check_nvidia(c, &m->target, f) || !compute_nvidia(c, m, want, f))
        return false;
    if (c->have_work)
        m->have_waves = occ_waves(c->work, m->threads, m->fig.groups, m->target.sm_count, &m->waves);
    return true;
}

/* ---- the answer as calc's JSON holds it (src/calc_json.c) ----------------- */

/* Sets keys of one dict; after the first failure it does nothing, so that
 * the writers below read as calc_json.c's lists of keys.  `want` (NULL:
 * every key) is the set of top-level keys a batch asked for. */
typedef struct Out {
    const State *s;
    PyObject *d;
    const bool *want; /* want[Key] */
    bool failed;
} Out;

/* Whether a key is wanted, before an object is made for it: a batch that
 * asks three keys makes three objects. */
static bool wanted(const Out *o, Key k)
{
    return !o->failed && (!o->want || o->want[k]);
}

/* Takes v (made for a wanted key). */
static void put(Out *o, Key k, PyObject *v)
{
    if (o->failed || !v) {
        o->failed = true;
        Py_XDECREF(v);
        return;
    }
    o->failed = PyDict_SetItem(o->d, o->s->key[k], v) != 0;
    Py_DECREF(v);
}

#define PUT_IF_WANTED(o, k, make)                                                                  \
    do {                                                                                           \
        if (wanted(o, k))                                                                          \
            put(o, k, make);                                                                       \
    } while (0)

static void put_int(Out *o, Key k, long long v) { PUT_IF_WANTED(o, k, PyLong_FromLongLong(v)); }
static void put_uint(Out *o, Key k, unsigned long long v)
{
    PUT_IF_WANTED(o, k, PyLong_FromUnsignedLongLong(v));
}
static void put_str(Out *o, Key k, const char *v) { PUT_IF_WANTED(o, k, PyUnicode_FromString(v)); }
static void put_none(Out *o, Key k) { PUT_IF_WANTED(o, k, Py_NewRef(Py_None)); }
static void put_bool(Out *o, Key k, bool v) { PUT_IF_WANTED(o, k, PyBool_FromLong(v)); }
static void put_float(Out *o, Key k, double v) { PUT_IF_WANTED(o, k, PyFloat_FromDouble(v)); }

static void put_int_or_none(Out *o, Key k, bool known, long long v)
{
    if (known)
        put_int(o, k, v);
    else
        put_none(o, k);
}

static void put_float_or_none(Out *o, Key k, bool known, double v)
{
    if (known)
        put_float(o, k, v);
    else
        put_none(o, k);
}

/* A nested object, filled by `fill`, under key k. */
static void put_object(Out *o, Key k, void (*fill)(Out *, const Answer *), const Answer *m)
{
    if (!wanted(o, k))
        return;
    Out inner = {o->s, PyDict_New(), NULL, false};
    if (!inner.d) {
        o->failed = true;
        return;
    }
    fill(&inner, m);
    if (inner.failed) {
        Py_DECREF(inner.d);
        o->failed = true;
        return;
    }
    put(o, k, inner.d);
}

static void fill_tool(Out *o, const Answer *m)
{
    (void)m;
    put_str(o, K_name, "silk-occ");
    put_str(o, K_version, SILK_OCC_VERSION);
    put_none(o, K_ptxas);
    put_none(o, K_nvcc);
    put_none(o, K_llc);
}

static void put_target(Out *o, const Answer *m)
{
    const Target *t = &m->target;
    bool amd = t->vendor == OCC_AMD;
    put_str(o, K_schema, "silk-occ/calc/2");
    put_object(o, K_tool, fill_tool, m);
    put_str(o, K_vendor, amd ? "amd" : "nvidia");
    put_str(o, K_arch, t->sm_name);
    if (amd) {
        put_none(o, K_compute_capability);
    } else if (wanted(o, K_compute_capability)) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", t->arch->major, t->arch->minor);
        put_str(o, K_compute_capability, cc);
    }
    put_str(o, K_family, amd ? t->amd->family : t->arch->family);
    put_int(o, K_warp_size, amd ? t->amd->wave_size : t->arch->warp_size);
    put_str(o, K_unit, amd ? t->amd->occupancy_unit : "SM");
    if (t->gpu || t->amd_gpu)
        put_str(o, K_gpu, t->gpu ? t->gpu->id : t->amd_gpu->id);
    else
        put_none(o, K_gpu);
    if (t->gpu_asked[0])
        put_str(o, K_gpu_asked, t->gpu_asked);
    else
        put_none(o, K_gpu_asked);
    put_int_or_none(o, K_sm_count, t->sm_count > 0, t->sm_count);
}

static PyObject *limiter_key(const State *s, OccVendor v, int i)
{
    return v == OCC_AMD ? s->amd_limiter[i] : s->nv_limiter[i];
}

static void fill_limits(Out *o, const Answer *m)
{
    const OccFigures *f = &m->fig;
    for (int i = 0; i < f->n_limiters && !o->failed; i++) {
        PyObject *v = f->limit[i] != INT_MAX ? PyLong_FromLong(f->limit[i]) : Py_NewRef(Py_None);
        o->failed = !v || PyDict_SetItem(o->d, limiter_key(o->s, f->vendor, i), v) != 0;
        Py_XDECREF(v);
    }
}

static void put_limited_by(Out *o, const OccFigures *f)
{
    if (!wanted(o, K_limited_by))
        return;
    Py_ssize_t n = 0;
    for (int i = 0; i < f->n_limiters; i++)
        n += (f->limited_by >> i) & 1u;
    PyObject *list = PyList_New(n);
    for (int i = 0, j = 0; list && i < f->n_limiters; i++)
        if (f->limited_by & (1u << i))
            PyList_SET_ITEM(list, j++, Py_NewRef(limiter_key(o->s, f->vendor, i)));
    put(o, K_limited_by, list);
}

static void put_figures(Out *o, const Answer *m)
{
    const OccFigures *f = &m->fig;
    bool nv = f->vendor == OCC_NVIDIA;
    put_int(o, K_threads, m->threads);
    put_int(o, K_regs_per_thread, m->regs);
    put_uint(o, K_static_smem, m->static_smem);
    put_uint(o, K_dynamic_smem, m->dynamic_smem);
    put_int(o, K_warps_per_block, m->warps);
    put_int(o, K_active_blocks_per_sm, f->groups);
    put_int_or_none(o, K_active_warps_per_sm, nv, f->active);
    put_int_or_none(o, K_max_warps_per_sm, nv, f->max_active);
    put_int_or_none(o, K_waves_per_simd, !nv, f->active);
    put_int_or_none(o, K_max_waves_per_simd, !nv, f->max_active);
    put_float(o, K_occupancy, occ_figures_occupancy(f));
    put_limited_by(o, f);
    put_object(o, K_limits, fill_limits, m);
    put_str(o, K_limits_unit, occ_limit_unit(f->vendor));
    put_int_or_none(o, K_allocated_regs_per_block, nv, m->nvidia.allocated_regs_per_block);
    put_int_or_none(o, K_allocated_smem_per_block, nv, (long long)m->nvidia.allocated_smem_per_block);
    put_int_or_none(o, K_allocated_vgprs, !nv, m->amd.allocated_vgprs);
}

static void put_settings(Out *o, const Answer *m)
{
    const KernelResources *k = &m->kernel;
    bool nv = m->target.vendor == OCC_NVIDIA;
    put_int_or_none(o, K_barriers, nv, k->barriers);
    if (nv)
        put_bool(o, K_smem_optin, k->smem_optin);
    else
        put_none(o, K_smem_optin);
    if (!nv)
        put_none(o, K_carveout);
    else if (k->carveout == OCC_CARVEOUT_DEFAULT)
        put_str(o, K_carveout, "default");
    else
        put_int(o, K_carveout, k->carveout);
    put_int_or_none(o, K_smem_per_sm, nv, (long long)m->nvidia.smem_per_sm);
    put_int_or_none(o, K_agprs, !nv, m->amd_kernel.agprs);
    put_int_or_none(o, K_sgprs, !nv, m->amd_kernel.sgprs);
    put_int_or_none(o, K_waves_per_eu_max, !nv, m->amd.waves_per_eu_max);
}

/* json_add_next_step: the same keys for both vendors, each one's own null
 * on the other's; the slack only while a group is resident. */
static void fill_next_step(Out *o, const Answer *m)
{
    bool resident = m->fig.groups > 0;
    if (m->target.vendor == OCC_NVIDIA) {
        const OccNextStep *s = &m->next;
        put_int_or_none(o, K_regs_to_cut, s->regs_to_cut >= 0, s->regs_to_cut);
        put_int_or_none(o, K_regs_cut_blocks_per_sm, s->regs_gained_blocks >= 0, s->regs_gained_blocks);
        put_none(o, K_regs_cut_waves_per_simd);
        put_none(o, K_sgprs_to_cut);
        put_none(o, K_sgprs_cut_waves_per_simd);
        put_int_or_none(o, K_smem_to_cut, s->smem_to_cut >= 0, s->smem_to_cut);
        put_int_or_none(o, K_smem_cut_blocks_per_sm, s->smem_gained_blocks >= 0, s->smem_gained_blocks);
        put_none(o, K_smem_cut_waves_per_simd);
        put_int_or_none(o, K_regs_slack, resident, s->regs_slack);
        put_int_or_none(o, K_smem_slack, resident, s->smem_slack);
        return;
    }
    const AmdNextStep *s = &m->amd_next;
    put_int_or_none(o, K_regs_to_cut, s->vgprs_to_cut >= 0, s->vgprs_to_cut);
    put_none(o, K_regs_cut_blocks_per_sm);
    put_int_or_none(o, K_regs_cut_waves_per_simd, s->vgprs_gained_waves >= 0, s->vgprs_gained_waves);
    put_int_or_none(o, K_sgprs_to_cut, s->sgprs_to_cut >= 0, s->sgprs_to_cut);
    put_int_or_none(o, K_sgprs_cut_waves_per_simd, s->sgprs_gained_waves >= 0, s->sgprs_gained_waves);
    put_int_or_none(o, K_smem_to_cut, s->lds_to_cut >= 0, s->lds_to_cut);
    put_none(o, K_smem_cut_blocks_per_sm);
    put_int_or_none(o, K_smem_cut_waves_per_simd, s->lds_gained_waves >= 0, s->lds_gained_waves);
    put_int_or_none(o, K_regs_slack, resident && s->vgprs_slack >= 0, s->vgprs_slack);
    put_int_or_none(o, K_smem_slack, resident && s->lds_slack >= 0, s->lds_slack);
}

static void fill_choice(Out *o, const Answer *m, const OccBlockSizeChoice *c)
{
    put_int(o, K_threads, c->block_size);
    put_int(o, K_active_blocks_per_sm, c->blocks_per_sm);
    put_int_or_none(o, K_min_grid, m->target.sm_count > 0, c->min_grid);
}

static void fill_best(Out *o, const Answer *m) { fill_choice(o, m, &m->best); }
static void fill_runtime(Out *o, const Answer *m) { fill_choice(o, m, &m->runtime_best); }

static void put_choices(Out *o, const Answer *m)
{
    if (!m->have_best) {
        put_none(o, K_best_block_size);
        put_none(o, K_runtime_block_size);
        return;
    }
    put_object(o, K_best_block_size, fill_best, m);
    put_object(o, K_runtime_block_size, fill_runtime, m);
}

static void put_launch(Out *o, const Answer *m)
{
    const OccWaves *w = &m->waves;
    int groups = m->fig.groups;
    put_int_or_none(o, K_persistent_grid, m->target.sm_count > 0 && groups > 0,
                    (long long)m->target.sm_count * groups);
    if (!m->config->have_work)
        return;
    put_uint(o, K_work, m->config->work);
    put_uint(o, K_ctas, w->ctas);
    put_float_or_none(o, K_waves, m->have_waves, w->waves);
    put_int_or_none(o, K_full_waves, m->have_waves, (long long)w->full_waves);
    put_float_or_none(o, K_last_wave_fill, m->have_waves, w->last_wave_fill);
    put_float_or_none(o, K_idle_fraction, m->have_waves, w->idle_fraction);
    put_uint(o, K_tail_threads, w->tail_threads);
}

static void fill_cluster(Out *o, const Answer *m)
{
    const Config *c = m->config;
    PyObject *dims = Py_BuildValue("[iii]", c->cluster[0], c->cluster[1], c->cluster[2]);
    put(o, K_dims, dims);
    put_int(o, K_size, m->cluster_size);
    put_int(o, K_portable_limit, m->cluster_portable);
    put_int(o, K_limit, m->cluster_limit);
    put_bool(o, K_nonportable, m->cluster_size > m->cluster_portable && m->cluster_size <= m->cluster_limit);
    put_bool(o, K_valid, m->cluster_portable > 0 && m->cluster_size <= m->cluster_limit);
    put_int_or_none(o, K_resident_clusters, m->cluster_resident >= 0, m->cluster_resident);
    put_bool(o, K_resident_estimated, m->cluster_resident >= 0);
}

static PyObject *answer_dict(const State *s, const Answer *m, const bool *want)
{
    Out o = {s, PyDict_New(), want, false};
    if (!o.d)
        return NULL;
    put_target(&o, m);
    put_figures(&o, m);
    put_settings(&o, m);
    put_object(&o, K_next_step, fill_next_step, m);
    put_choices(&o, m);
    put_launch(&o, m);
    if (m->cluster_size)
        put_object(&o, K_cluster, fill_cluster, m);
    else
        put_none(&o, K_cluster);
    if (o.failed) {
        Py_DECREF(o.d);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    return o.d;
}

/* ---- the module's functions ----------------------------------------------- */

static State *state_of(PyObject *module)
{
    State *s = PyModule_GetState(module);
    if (!s->loaded) {
        PyErr_SetString(PyExc_RuntimeError, "silk_occ: the engine's tables are not loaded");
        return NULL;
    }
    return s;
}

/* keys (an iterable of strings) as want[Key]; -1 with TypeError or
 * ValueError for a key calc's JSON does not have. */
static int want_of(const State *s, PyObject *keys, bool *want)
{
    PyObject *set = PyFrozenSet_New(keys);
    if (!set)
        return -1;
    PyObject *k;
    Py_ssize_t pos = 0;
    Py_hash_t hash;
    while (_PySet_NextEntry(set, &pos, &k, &hash)) {
        int i = 0;
        while (i < N_KEYS && !(PyUnicode_Check(k) && PyUnicode_Compare(k, s->key[i]) == 0))
            i++;
        if (i == N_KEYS) {
            PyErr_Format(PyExc_ValueError, "batch: keys: %R is not a key of calc's JSON", k);
            Py_DECREF(set);
            return -1;
        }
        want[i] = true;
    }
    Py_DECREF(set);
    return (want[K_next_step] ? WANT_NEXT : 0) |
           (want[K_best_block_size] || want[K_runtime_block_size] ? WANT_BEST : 0);
}

static PyObject *raise_failure(const Failure *f, Py_ssize_t index)
{
    PyObject *type = f->type_error ? PyExc_TypeError : PyExc_ValueError;
    if (index >= 0)
        PyErr_Format(type, "configs[%zd]: %s", index, f->message);
    else
        PyErr_SetString(type, f->message);
    return NULL;
}

/* calc(config): one configuration's dict, or ValueError in calc's words. */
static PyObject *engine_calc(PyObject *module, PyObject *config)
{
    State *s = state_of(module);
    if (!s)
        return NULL;
    Config c;
    Answer m;
    Failure f = {0};
    if (!answer_config(s, config, &c, &m, WANT_ALL, &f))
        return raise_failure(&f, -1);
    return answer_dict(s, &m, NULL);
}

/* A refused configuration in a batch that keeps going: its index, calc's
 * message, and the prune reason (None when it is not one). */
static PyObject *failure_dict(const State *s, const Failure *f, Py_ssize_t i)
{
    Out o = {s, PyDict_New(), NULL, false};
    if (!o.d)
        return NULL;
    put_int(&o, K_index, i);
    put_str(&o, K_error, f->message);
    if (refusal_names[f->why])
        put_str(&o, K_reason, refusal_names[f->why]);
    else
        put_none(&o, K_reason);
    if (o.failed)
        Py_CLEAR(o.d);
    return o.d;
}

/* batch(configs, keys=None, errors=False): one dict per configuration in
 * one loop.  keys: a set of top-level keys to keep (the others are not
 * computed where they cost a search); errors: answer a refused
 * configuration with {"index", "error", "reason"} instead of raising. */
static PyObject *engine_batch(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"configs", "keys", "errors", NULL};
    PyObject *configs, *keys = Py_None;
    int keep_going = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Op:batch", names, &configs, &keys, &keep_going))
        return NULL;
    State *s = state_of(module);
    if (!s)
        return NULL;
    PyObject *seq = PySequence_Fast(configs, "batch: configs must be a sequence of dicts");
    if (!seq)
        return NULL;
    bool want[N_KEYS] = {false};
    int what = keys == Py_None ? WANT_ALL : want_of(s, keys, want);
    if (what < 0) {
        Py_DECREF(seq);
        return NULL;
    }
    /* The answers are new containers that hold no cycle: a collection
     * every 700 of them would walk the whole growing list again. */
    int collecting = PyGC_Disable();
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        Config c;
        Answer m;
        Failure f; /* not zeroed: 1 KiB a configuration; fail() writes it */
        f.message[0] = '\0';
        f.why = R_USAGE;
        f.type_error = false;
        PyObject *d;
        if (answer_config(s, PySequence_Fast_GET_ITEM(seq, i), &c, &m, what, &f))
            d = answer_dict(s, &m, keys == Py_None ? NULL : want);
        else if (keep_going)
            d = failure_dict(s, &f, i);
        else
            d = raise_failure(&f, i);
        if (!d)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, d);
    }
    if (collecting)
        PyGC_Enable();
    Py_DECREF(seq);
    return out;
}

/* target({"arch": NAME} or {"gpu": NAME}): the target keys of calc's JSON
 * (schema .. sm_count) for the name, found as calc finds it; ValueError
 * in calc's words for a name it does not know. */
static PyObject *engine_target(PyObject *module, PyObject *config)
{
    State *s = state_of(module);
    if (!s)
        return NULL;
    Config c;
    Failure f = {0};
    Answer m = {.config = &c};
    bool amd;
    if (!read_config(s, config, &c, &f))
        return raise_failure(&f, -1);
    if (!c.arch == !c.gpu)
        return PyErr_Format(PyExc_ValueError, c.arch ? "--arch and --gpu: give one, not both"
                                                     : "--arch or --gpu: the target GPU is required");
    c.have_threads = c.have_regs = true; /* only the name is asked about */
    c.amd_option = NULL;
    if (!find_target(s, &c, &m.target, &amd, &f))
        return raise_failure(&f, -1);
    if (c.have_sms)
        m.target.sm_count = (int)c.sms;
    Out o = {s, PyDict_New(), NULL, false};
    if (!o.d)
        return NULL;
    put_target(&o, &m);
    if (o.failed)
        Py_CLEAR(o.d);
    return o.d;
}

/* ---- tables(): the compiled-in rows ---------------------------------------- */

static PyObject *nvidia_arch_row(const ArchLimits *a)
{
    char sm[16], cc[16];
    arch_sm_name(a, sm, sizeof sm);
    snprintf(cc, sizeof cc, "%d.%d", a->major, a->minor);
    return Py_BuildValue(
        "{s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "vendor", "nvidia",
        "arch", sm, "compute_capability", cc, "family", a->family, "aliases", a->aliases,
        "warp_size", a->warp_size, "max_threads_per_block", a->max_threads_per_block,
        "max_threads_per_sm", a->max_threads_per_sm, "max_blocks_per_sm", a->max_blocks_per_sm,
        "max_warps_per_sm", arch_max_warps_per_sm(a), "regs_per_sm", a->regs_per_sm,
        "max_regs_per_thread", a->max_regs_per_thread, "smem_per_sm", a->smem_per_sm,
        "smem_per_block", a->smem_per_block, "smem_per_block_optin", a->smem_per_block_optin,
        "max_cluster_size", a->max_cluster_size, "max_cluster_size_nonportable",
        a->max_cluster_size_nonportable);
}

static PyObject *nvidia_product_row(const ArchTable *t, const GpuProduct *g)
{
    const ArchLimits *a = arch_table_product_arch(t, g);
    char sm[16] = "", cc[16];
    if (a)
        arch_sm_name(a, sm, sizeof sm);
    snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
    return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:s,s:i,s:i}", "vendor", "nvidia", "gpu", g->id,
                         "name", g->name, "aliases", g->aliases, "arch", sm, "compute_capability", cc,
                         "sm_count", g->sm_count, "unit", "SM", "memory_gib", g->memory_gib, "gpcs", g->gpcs);
}

static PyObject *amd_target_row(const AmdTarget *a)
{
    return Py_BuildValue("{s:s,s:s,s:O,s:s,s:s,s:i,s:s,s:i,s:i,s:i,s:i,s:i}", "vendor", "amd", "arch",
                         a->gfx, "compute_capability", Py_None, "family", a->family, "aliases",
                         a->aliases, "warp_size", a->wave_size, "unit", a->occupancy_unit,
                         "max_threads_per_block", a->max_workgroup_size, "max_waves_per_simd",
                         a->max_waves_per_simd, "max_vgprs", AMD_MAX_ARCH_VGPRS,
                         "addressable_sgprs", a->addressable_sgprs, "lds_per_workgroup",
                         a->lds_per_workgroup);
}

static PyObject *amd_product_row(const AmdTable *t, const AmdProduct *g)
{
    const AmdTarget *a = amd_table_product_target(t, g);
    return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:O,s:i,s:s,s:i}", "vendor", "amd", "gpu", g->id, "name",
                         g->name, "aliases", g->aliases, "arch", g->gfx, "compute_capability", Py_None,
                         "sm_count", a ? amd_product_units(a, g) : 0, "unit",
                         a ? a->occupancy_unit : "CU", "memory_gib", g->memory_gib);
}

static int append_new(PyObject *list, PyObject *item)
{
    if (!item)
        return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

/* tables(): {"architectures": [...], "products": [...]}, NVIDIA rows first. */
static PyObject *engine_tables(PyObject *module, PyObject *unused)
{
    (void)unused;
    State *s = state_of(module);
    if (!s)
        return NULL;
    PyObject *archs = PyList_New(0), *products = PyList_New(0);
    int rc = archs && products ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < s->nv.n_archs; i++)
        rc = append_new(archs, nvidia_arch_row(&s->nv.archs[i]));
    for (size_t i = 0; rc == 0 && i < s->amd.n_targets; i++)
        rc = append_new(archs, amd_target_row(&s->amd.targets[i]));
    for (size_t i = 0; rc == 0 && i < s->nv.n_products; i++)
        rc = append_new(products, nvidia_product_row(&s->nv, &s->nv.products[i]));
    for (size_t i = 0; rc == 0 && i < s->amd.n_products; i++)
        rc = append_new(products, amd_product_row(&s->amd, &s->amd.products[i]));
    PyObject *out = rc == 0 ? Py_BuildValue("{s:O,s:O}", "architectures", archs, "products", products) : NULL;
    Py_XDECREF(archs);
    Py_XDECREF(products);
    return out;
}

/* ---- the module ------------------------------------------------------------- */

static int engine_exec(PyObject *module)
{
    State *s = PyModule_GetState(module);
    OccError err;
    for (int i = 0; i < N_KEYS; i++)
        if (!(s->key[i] = PyUnicode_InternFromString(key_names[i])))
            return -1;
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        if (!(s->nv_limiter[i] = PyUnicode_InternFromString(occ_limiter_name((OccLimiter)i))))
            return -1;
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        if (!(s->amd_limiter[i] = PyUnicode_InternFromString(amd_limiter_name((AmdLimiter)i))))
            return -1;
    if (!(s->input_index = PyDict_New()))
        return -1;
    for (int i = 0; i < N_INPUT_KEYS; i++) {
        PyObject *v = PyLong_FromLong(input_keys[i]);
        int rc = v ? PyDict_SetItem(s->input_index, s->key[input_keys[i]], v) : -1;
        Py_XDECREF(v);
        if (rc != 0)
            return -1;
    }
    if (!(s->found_index[0] = PyDict_New()) || !(s->found_index[1] = PyDict_New()))
        return -1;
    if (!(s->found = PyMem_Calloc(MAX_FOUND, sizeof *s->found))) {
        PyErr_NoMemory();
        return -1;
    }
    if (arch_table_load_builtin(&s->nv, &err) != 0) {
        PyErr_Format(PyExc_RuntimeError, "silk_occ: %s", err.message);
        return -1;
    }
    if (amd_table_load_builtin(&s->amd, &err) != 0) {
        arch_table_free(&s->nv);
        PyErr_Format(PyExc_RuntimeError, "silk_occ: %s", err.message);
        return -1;
    }
    s->loaded = true;
    return 0;
}

static void engine_free(void *module)
{
    State *s = PyModule_GetState(module);
    if (!s)
        return;
    if (s->loaded) {
        arch_table_free(&s->nv);
        amd_table_free(&s->amd);
        s->loaded = false;
    }
    Py_CLEAR(s->input_index);
    Py_CLEAR(s->found_index[0]);
    Py_CLEAR(s->found_index[1]);
    PyMem_Free(s->found);
    s->found = NULL;
    for (int i = 0; i < N_KEYS; i++)
        Py_CLEAR(s->key[i]);
    for (int i = 0; i < OCC_N_LIMITERS; i++)
        Py_CLEAR(s->nv_limiter[i]);
    for (int i = 0; i < AMD_N_LIMITERS; i++)
        Py_CLEAR(s->amd_limiter[i]);
}

static PyMethodDef engine_methods[] = {
    {"calc", engine_calc, METH_O, "calc(config) -> dict: silk-occ calc --format json's keys"},
    {"batch", (PyCFunction)(void (*)(void))engine_batch, METH_VARARGS | METH_KEYWORDS,
     "batch(configs, keys=None, errors=False) -> list of dicts, in one C loop"},
    {"target", engine_target, METH_O, "target(config) -> calc's target keys for its arch or gpu"},
    {"tables", engine_tables, METH_NOARGS, "tables() -> the compiled-in architectures and products"},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot engine_slots[] = {{Py_mod_exec, (void *)engine_exec}, {0, NULL}};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT, "silk_occ._engine", "The silk-occ occupancy engine.", sizeof(State),
    engine_methods, engine_slots, NULL, NULL, engine_free,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    return PyModuleDef_Init(&engine_module);
}
