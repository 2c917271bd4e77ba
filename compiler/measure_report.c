/*
 * measure_report.c: a report's JSON as an input of the door (measure.h):
 * what `silk-occ report --format json` wrote (schema silk-occ/report/3,
 * docs/report-schema.md), read back into the measured kernels it was
 * computed from, so that `silk-occ merge` of many units' files runs the
 * one model and the one set of writers, as a report of the units would.
 *
 * Each entry is one kernel on one target; the entries of one kernel on
 * several products of an architecture (--gpu h100-sxm,h100-pcie) give
 * the kernel once for that architecture, the first entry's figures.  A
 * target of the run that no entry names is skipped for the file.  The
 * file is untrusted: read up to the data limit, every figure checked for
 * its type and range, every string copied into the run's arena (the
 * writers escape them at their sinks, as any input's).
 */
#include "measure_internal.h"

#include "escape.h"
#include "json_file.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const SCHEMA = "silk-occ/report/3";

/* The reading of one file: where a message points. */
typedef struct Reader {
    Measure *m;
    const char *path;
    int index;                 /* the entry read: reports[index] */
    bool ok;                   /* no figure was refused yet */
} Reader;

static void refuse(Reader *r, const char *key, const char *why)
{
    if (r->ok)
        measure_error(r->m, "%s: reports[%d].%s: %s", ESCAPED(r->path), r->index, key, why);
    r->ok = false;
}

/* The whole file parsed; NULL after "PATH:LINE:COL: not valid JSON". */
static cJSON *parse(Reader *r)
{
    JsonFileError why;
    cJSON *root = json_file_parse(r->path, READ_FILE_DATA_LIMIT_MIB, &why);
    char words[256];
    if (!root)
        measure_error(r->m, "%s%s", ESCAPED(r->path),
                      json_file_error(&why, READ_FILE_DATA_LIMIT_MIB, words, sizeof words));
    return root;
}

/* The "reports" array of a report of this schema; NULL after saying why
 * not (another file's JSON, a newer silk-occ's). */
static const cJSON *reports_of(Reader *r, const cJSON *root)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    const char *s = cJSON_IsString(schema) ? schema->valuestring : NULL;
    if (s && strncmp(s, "silk-occ/report/", 16) == 0 && strcmp(s, SCHEMA) != 0) {
        measure_error(r->m, "%s: a report of schema '%s'; this silk-occ reads %s (use the silk-occ "
                            "that wrote it, or write it again)", ESCAPED(r->path), QUOTED(s), SCHEMA);
        return NULL;
    }
    const cJSON *reports = cJSON_GetObjectItemCaseSensitive(root, "reports");
    if (!s || !cJSON_IsArray(reports)) {
        measure_error(r->m, "%s: not a silk-occ report (no \"schema\": \"%s\" and \"reports\" "
                            "array; silk-occ report --format json writes one)",
                      ESCAPED(r->path), SCHEMA);
        return NULL;
    }
    return reports;
}

static const cJSON *member(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A string of the entry, copied into the run's arena; "" when refused. */
static const char *text_at(Reader *r, const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    if (!cJSON_IsString(v)) {
        refuse(r, key, "missing, or not a string");
        return "";
    }
    return arena_strndup(r->m->arena, v->valuestring, strlen(v->valuestring));
}

/* A count of at most `max`; `missing` for null when `nullable`. */
static int count_at(Reader *r, const cJSON *o, const char *parent, const char *key, bool nullable,
                    int missing, int max)
{
    const cJSON *v = member(o, key);
    if (nullable && cJSON_IsNull(v))
        return missing;
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= max &&
        v->valuedouble == floor(v->valuedouble))
        return (int)v->valuedouble;
    char where[96];
    snprintf(where, sizeof where, "%s%s%s", parent, *parent ? "." : "", key);
    refuse(r, where, nullable ? "missing, or not a count or null" : "missing, or not a count");
    return missing;
}

static bool flag_at(Reader *r, const cJSON *o, const char *parent, const char *key)
{
    const cJSON *v = member(o, key);
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    char where[96];
    snprintf(where, sizeof where, "%s.%s", parent, key);
    refuse(r, where, "missing, or not true or false");
    return false;
}

static const cJSON *object_at(Reader *r, const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    if (!cJSON_IsObject(v)) {
        refuse(r, key, "missing, or not an object");
        return NULL;
    }
    return v;
}

/* The JSON's "input" names, InputKind's order (report_json.c's). */
static InputKind input_at(Reader *r, const cJSON *e)
{
    static const char *const inputs[] = {"silk", "ptx", "cuda", "cubin", "hsaco", "binary"};
    const cJSON *v = member(e, "input");
    for (int i = 0; cJSON_IsString(v) && i < (int)(sizeof inputs / sizeof *inputs); i++)
        if (strcmp(v->valuestring, inputs[i]) == 0)
            return (InputKind)i;
    refuse(r, "input", "missing, or not an input kind this silk-occ knows");
    return INPUT_PTX;
}

/* A built binary's kernel assembled from its PTX: "compute_90" gives 90;
 * null, absent or anything else 0 (its own machine code). */
static int from_ptx_at(const cJSON *e)
{
    const cJSON *v = member(e, "from_ptx");
    int arch = 0, used = 0;
    if (cJSON_IsString(v) && sscanf(v->valuestring, "compute_%4d%n", &arch, &used) == 1 &&
        v->valuestring[used] == '\0' && arch > 0)
        return arch;
    return 0;
}

/* absent_on's architectures as the measuring words them: "sm_80, sm_86". */
static const char *absent_on(Reader *r, const cJSON *e)
{
    const cJSON *a = member(e, "absent_on");
    if (!cJSON_IsArray(a)) {
        refuse(r, "absent_on", "missing, or not an array");
        return NULL;
    }
    char list[512] = "";
    size_t used = 0;
    const cJSON *arch;
    cJSON_ArrayForEach(arch, a) {
        if (!cJSON_IsString(arch) || strlen(arch->valuestring) > OCC_NAME_MAX) {
            refuse(r, "absent_on", "not a list of architectures");
            return NULL;
        }
        used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0, "%s%s",
                                 used ? ", " : "", arch->valuestring);
    }
    return used && used < sizeof list ? arena_strndup(r->m->arena, list, used) : NULL;
}

/* ptxas_warnings, at most USAGE_MAX_WARNINGS as the measuring keeps. */
static void warnings_at(Reader *r, const cJSON *e, KernelUsage *u)
{
    const cJSON *w = member(e, "ptxas_warnings"), *item;
    if (!cJSON_IsArray(w)) {
        refuse(r, "ptxas_warnings", "missing, or not an array");
        return;
    }
    u->warnings = ARENA_ARRAY(r->m->arena, const char *, USAGE_MAX_WARNINGS);
    cJSON_ArrayForEach(item, w) {
        if (!cJSON_IsString(item)) {
            refuse(r, "ptxas_warnings", "not a list of strings");
            return;
        }
        if (u->n_warnings < USAGE_MAX_WARNINGS)
            u->warnings[u->n_warnings++] =
                arena_strndup(r->m->arena, item->valuestring,
                              strnlen(item->valuestring, USAGE_WARNING_MAX_BYTES));
    }
}

enum { BIG = 1 << 30 };

/* resources: the figures the measuring gave (report_json.c's add_kernel). */
static void resources_at(Reader *r, const cJSON *e, MeasuredKernel *k)
{
    const cJSON *res = object_at(r, e, "resources");
    if (!res)
        return;
    KernelUsage *u = &k->usage;
    u->registers = count_at(r, res, "resources", "regs_per_thread", false, 0, 1024);
    u->estimated = flag_at(r, res, "resources", "estimated");
    u->static_smem = count_at(r, res, "resources", "static_smem", false, 0, BIG);
    u->stack_frame = count_at(r, res, "resources", "stack_frame", false, 0, BIG);
    u->spill_stores = count_at(r, res, "resources", "spill_stores", true, -1, BIG);
    u->spill_loads = count_at(r, res, "resources", "spill_loads", true, -1, BIG);
    u->barriers = count_at(r, res, "resources", "barriers", true, -1, 64);
    u->sgprs = count_at(r, res, "resources", "sgprs", true, 0, 1024);
    u->agprs = count_at(r, res, "resources", "agprs", true, 0, 1024);
    u->vgpr_spills = count_at(r, res, "resources", "vgpr_spills", true, 0, BIG);
    u->sgpr_spills = count_at(r, res, "resources", "sgpr_spills", true, 0, BIG);
    const cJSON *used = member(res, "dynamic_smem_used");
    k->extern_smem_unknown = cJSON_IsNull(used);
    k->extern_smem = cJSON_IsTrue(used);
    if (!cJSON_IsBool(used) && !cJSON_IsNull(used))
        refuse(r, "resources.dynamic_smem_used", "missing, or not true, false or null");
    k->calls_out = flag_at(r, res, "resources", "registers_before_linking");
}

/* launch_bounds, and the cluster the kernel is compiled for. */
static void bounds_at(Reader *r, const cJSON *e, MeasuredKernel *k)
{
    const cJSON *b = object_at(r, e, "launch_bounds");
    if (!b)
        return;
    k->reqntid = count_at(r, b, "launch_bounds", "reqntid", true, 0, 1024);
    k->maxntid = count_at(r, b, "launch_bounds", "maxntid", true, 0, 1024);
    k->maxnreg = count_at(r, b, "launch_bounds", "maxnreg", true, 0, 1024);
    /* A cubin does not record the minimum (-1), a source gives none (0). */
    k->minnctapersm = count_at(r, b, "launch_bounds", "minnctapersm", true,
                               measured_from_machine_code(k) ? -1 : 0, 64);
    k->usage.max_threads = k->maxntid;
    const cJSON *c = member(e, "cluster"), *from = member(c, "from");
    if (cJSON_IsObject(c) && cJSON_IsString(from) && strcmp(from->valuestring, "cluster_dims") == 0) {
        const cJSON *dims = member(c, "dims");
        for (int i = 0; i < 3 && cJSON_GetArraySize(dims) == 3; i++) {
            const cJSON *d = cJSON_GetArrayItem(dims, i);
            k->cluster[i] = cJSON_IsNumber(d) && d->valuedouble >= 1 && d->valuedouble <= 64
                                ? (int)d->valuedouble : 0;
        }
        k->max_cluster_rank = count_at(r, c, "cluster", "max_cluster_rank", true, 0, 64);
    }
}

/* A figure the JSON has only once ptxas gave it: -1 for null. */
static int checked_at(Reader *r, const cJSON *o, const char *parent, const char *key)
{
    return count_at(r, o, parent, key, true, -1, BIG);
}

/* What ptxas made of the advised cap and of the kernel without its
 * bound, when the report had it compile them; NULL when it did neither. */
static const MeasuredChecks *checks_at(Reader *r, const cJSON *e)
{
    const cJSON *a = member(e, "launch_bounds_advice"), *b = member(e, "bound_cost");
    MeasuredChecks c = {0};
    if (cJSON_IsTrue(member(a, "checked_with_ptxas"))) {
        c.cap = count_at(r, a, "launch_bounds_advice", "max_registers", false, 0, 1024);
        c.cap_registers = checked_at(r, a, "launch_bounds_advice", "registers_at_cap");
        c.cap_spill_stores = checked_at(r, a, "launch_bounds_advice", "spill_stores_at_cap");
        c.cap_spill_loads = checked_at(r, a, "launch_bounds_advice", "spill_loads_at_cap");
    }
    if (cJSON_IsTrue(member(b, "checked_with_ptxas"))) {
        c.unbounded = true;
        c.registers = checked_at(r, b, "bound_cost", "registers_unbounded");
        c.spill_stores = checked_at(r, b, "bound_cost", "spill_stores_unbounded");
        c.spill_loads = checked_at(r, b, "bound_cost", "spill_loads_unbounded");
    }
    if (!c.cap && !c.unbounded)
        return NULL;
    MeasuredChecks *kept = ARENA_ARRAY(r->m->arena, MeasuredChecks, 1);
    *kept = c;
    return kept;
}

/* The launch block's constant grid (a Silk kernel's) that gave the work. */
static void work_at(Reader *r, const cJSON *e, MeasuredKernel *k)
{
    const cJSON *tail = member(e, "tail"), *from = member(tail, "work_from");
    if (!cJSON_IsObject(tail) || !cJSON_IsString(from) || strcmp(from->valuestring, "launch_block"))
        return;
    const cJSON *work = member(tail, "work");
    if (cJSON_IsNumber(work) && work->valuedouble >= 1 && work->valuedouble < 9007199254740992.0)
        k->launch_work = (uint64_t)work->valuedouble;
    k->launch_line = count_at(r, tail, "tail", "launch_line", true, 0, BIG);
}

/* One entry as the kernel the measuring gave. */
static MeasuredKernel kernel_at(Reader *r, const cJSON *e)
{
    MeasuredKernel k = {.name = text_at(r, e, "symbol")};
    k.title = text_at(r, e, "kernel");
    k.cxx_name = text_at(r, e, "launch_name");
    k.file = text_at(r, e, "file");
    k.input = input_at(r, e);
    k.from_ptx = from_ptx_at(e);
    k.absent_on = absent_on(r, e);
    k.usage.name = k.name;
    resources_at(r, e, &k);
    bounds_at(r, e, &k);
    warnings_at(r, e, &k.usage);
    work_at(r, e, &k);
    k.checks = checks_at(r, e);
    if (cJSON_IsString(member(e, "vendor")) && !strcmp(member(e, "vendor")->valuestring, "amd"))
        k.usage.wavefront_size = count_at(r, e, "", "warp_size", false, 64, 64);
    return k;
}

/* The entry's architecture, "sm_90" or "gfx942"; NULL when refused. */
static const char *arch_at(Reader *r, const cJSON *e)
{
    const cJSON *a = member(e, "arch");
    if (!cJSON_IsObject(e) || !cJSON_IsString(a) || strlen(a->valuestring) >= OCC_NAME_MAX) {
        refuse(r, "arch", "missing, or not an architecture");
        return NULL;
    }
    return a->valuestring;
}

static bool have_kernel(const MeasuredKernel *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].name, name) == 0)
            return true;
    return false;
}

static bool is_string(const cJSON *v, const char *text)
{
    return cJSON_IsString(v) && strcmp(v->valuestring, text) == 0;
}

/* Whether entry e stands for unit `file`: its "file", or one of its
 * "units" (a kernel several files define alike, report_units.c). */
static bool names_unit(const cJSON *e, const char *file)
{
    if (is_string(member(e, "file"), file))
        return true;
    const cJSON *units = member(e, "units"), *unit;
    if (!cJSON_IsArray(units))
        return false;
    cJSON_ArrayForEach(unit, units)
        if (is_string(unit, file))
            return true;
    return false;
}

/* Target t's kernels of unit `file`: the entries of its architecture,
 * each kernel once. */
static void take_target(Reader *r, const cJSON *reports, const char *file, int t, MeasuredFile *f)
{
    const char *sm = r->m->targets[t].sm_name;
    const cJSON *e;
    size_t mine = 0; /* counted first: a unit's share, not the whole file's */
    cJSON_ArrayForEach(e, reports)
        mine += is_string(member(e, "arch"), sm) && names_unit(e, file);
    f->kernels[t] = ARENA_ARRAY(r->m->arena, MeasuredKernel, mine + 1);
    f->n_kernels[t] = 0;
    r->index = 0;
    cJSON_ArrayForEach(e, reports) {
        const char *arch = arch_at(r, e);
        if (arch && strcmp(arch, sm) == 0 && names_unit(e, file)) {
            MeasuredKernel k = kernel_at(r, e);
            k.file = f->path; /* one of its units, when several define it */
            if (r->ok && !have_kernel(f->kernels[t], f->n_kernels[t], k.name))
                f->kernels[t][f->n_kernels[t]++] = k;
        }
        r->index++;
    }
    f->skipped[t] = f->n_kernels[t] == 0;
    if (f->n_kernels[t])
        f->kind = f->kernels[t][0].input;
}

/* The next slot of m->files, the array grown (doubled) when full. */
static MeasuredFile *next_file(Measure *m, int *room)
{
    if (m->n_files == *room) {
        int more = *room * 2 + 1;
        MeasuredFile *grown = ARENA_ARRAY(m->arena, MeasuredFile, (size_t)more + 1);
        memcpy(grown, m->files, sizeof *grown * (size_t)m->n_files);
        m->files = grown;
        *room = more;
    }
    return &m->files[m->n_files];
}

/* Whether an earlier entry than `e` names unit `file`. */
static bool seen_file(const cJSON *reports, const cJSON *e, const char *file)
{
    for (const cJSON *x = reports->child; x && x != e; x = x->next)
        if (names_unit(x, file))
            return true;
    return false;
}

/* Entry e's units after its "file", each a string (else refused). */
static const cJSON *other_units(Reader *r, const cJSON *e)
{
    const cJSON *units = member(e, "units"), *unit;
    if (cJSON_IsNull(units) || !units)
        return NULL;
    if (!cJSON_IsArray(units)) {
        refuse(r, "units", "not an array of files, or null");
        return NULL;
    }
    cJSON_ArrayForEach(unit, units)
        if (!cJSON_IsString(unit)) {
            refuse(r, "units", "not an array of files, or null");
            return NULL;
        }
    return units;
}

/* Unit `file` of the report as a file of the run; false when it gives no
 * target of the run a kernel (it is left out). */
static bool take_unit(Reader *r, const cJSON *reports, const char *file, int *room)
{
    Measure *m = r->m;
    MeasuredFile *f = next_file(m, room);
    *f = (MeasuredFile){.path = arena_strndup(m->arena, file, strlen(file)), .measured = true};
    measure_alloc_targets(m, f, m->n_targets);
    f->skipped = ARENA_ARRAY(m->arena, bool, (size_t)m->n_targets + 1);
    bool any = false;
    for (int t = 0; r->ok && t < m->n_targets; t++) {
        take_target(r, reports, file, t, f);
        any |= !f->skipped[t];
    }
    if (any && r->ok)
        m->n_files++;
    return any;
}

int measure_load_reports(Measure *m, const char *path, int *room)
{
    Reader r = {m, path, 0, true};
    cJSON *root = parse(&r);
    const cJSON *reports = root ? reports_of(&r, root) : NULL, *e;
    bool any = false;
    r.index = 0;
    cJSON_ArrayForEach(e, reports) {
        const char *file = cJSON_IsObject(e) ? text_at(&r, e, "file") : NULL;
        if (!file)
            refuse(&r, "file", "missing, or not a string");
        if (!r.ok)
            break;
        int at = r.index;
        if (!seen_file(reports, e, file))
            any |= take_unit(&r, reports, file, room);
        const cJSON *units = other_units(&r, e), *unit;
        cJSON_ArrayForEach(unit, units) {
            bool earlier = is_string(member(e, "file"), unit->valuestring);
            for (const cJSON *u = units->child; u != unit && !earlier; u = u->next)
                earlier = is_string(u, unit->valuestring);
            if (r.ok && !earlier && !seen_file(reports, e, unit->valuestring))
                any |= take_unit(&r, reports, unit->valuestring, room);
        }
        r.index = at + 1;
    }
    cJSON_Delete(root);
    if (!reports || !r.ok)
        return EXIT_USAGE;
    if (!any) {
        measure_error(m, "%s: no kernel on the targets of the run (give its own --arch, or none)",
                      ESCAPED(path));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int measure_report_archs(const Measure *m, const char *path, char *buf, size_t size)
{
    Reader r = {(Measure *)m, path, 0, true};
    cJSON *root = parse(&r);
    const cJSON *reports = root ? reports_of(&r, root) : NULL, *e;
    buf[0] = '\0';
    cJSON_ArrayForEach(e, reports) {
        const char *arch = arch_at(&r, e);
        if (!arch)
            break;
        char list[1024], item[OCC_NAME_MAX + 2];
        snprintf(list, sizeof list, ",%s,", buf);
        snprintf(item, sizeof item, ",%s,", arch);
        size_t used = strlen(buf);
        if (!strstr(list, item) && used + strlen(arch) + 2 < size)
            snprintf(buf + used, size - used, "%s%s", used ? "," : "", arch);
        r.index++;
    }
    cJSON_Delete(root);
    if (reports && r.ok && !buf[0]) {
        measure_error(m, "%s: a report with no kernels", ESCAPED(path));
        return -1;
    }
    return reports && r.ok ? 1 : -1;
}
