/*
 * report_input.c: turning the report's input files into PTX per target and
 * a list of kernels.  A .silk file goes through the whole compiler once
 * (front end, lowering, passes) and is emitted for each target; its IR
 * gives each kernel's launch bounds (@launch, @smem) and the register
 * estimate used when there is no ptxas.  A .ptx file is read as it is and
 * its entries' directives scanned (ptx/ptx_scan.c).  .cu files are handed
 * to report_cuda.c, .cubin files to report_cubin.c.  C++ symbols are
 * demangled here for every kind (demangle.h).
 */
#include "report_input.h"
#include "escape.h"

#include "build.h"
#include "cleanup.h"
#include "demangle.h"
#include "lower.h"
#include "backend.h"
#include "ptx/ptxas.h"
#include "read_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const COMMAND = "report";

static bool has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    return n >= m && strcmp(path + n - m, suffix) == 0;
}

const char *report_write_temp(const char *dir, const char *stem, const char *text, size_t len,
                              Arena *arena)
{
    size_t size = strlen(dir) + strlen(stem) + 8;
    char *path = arena_alloc(arena, size, 1);
    snprintf(path, size, "%s/%s.ptx", dir, stem);
    FILE *f = cleanup_add_file(path) ? fopen(path, "w") : NULL; /* tempdir.h */
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok) {
        cli_error(COMMAND, "%s: cannot write: %s", ESCAPED(path), strerror(errno));
        return NULL;
    }
    return path;
}

static void alloc_targets(ReportSource *s, int n, Arena *arena)
{
    s->kernels = ARENA_ARRAY(arena, MeasuredKernel *, (size_t)n);
    s->n_kernels = ARENA_ARRAY(arena, int, (size_t)n);
    s->ptx_paths = ARENA_ARRAY(arena, const char *, (size_t)n);
    s->ptx_texts = ARENA_ARRAY(arena, const char *, (size_t)n);
    s->ptx_lens = ARENA_ARRAY(arena, size_t, (size_t)n);
    s->entries = ARENA_ARRAY(arena, PtxEntry *, (size_t)n);
    s->n_entries = ARENA_ARRAY(arena, int, (size_t)n);
}

char *report_read_file(const char *path, Arena *arena, size_t *len)
{
    char *text = read_file(path, READ_FILE_CODE_LIMIT_MIB, len);
    if (!text)
        return NULL;
    char *kept = arena_strndup(arena, text, *len); /* NUL-terminated, as PTX scanning wants */
    free(text);
    return kept;
}

/* "PATH: cannot read: REASON" or "PATH: larger than the 256 MiB limit". */
static void cannot_read(const char *path)
{
    char reason[128];
    cli_error(COMMAND, "%s: %s", ESCAPED(path), read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, reason,
                                                       sizeof reason));
}

static MeasuredKernel kernel_from_entry(const PtxEntry *e, const char *path, InputKind kind)
{
    return (MeasuredKernel){.name = e->name, .file = path, .input = kind, .reqntid = e->reqntid,
                          .maxntid = e->maxntid, .minnctapersm = e->minnctapersm,
                          .maxnreg = e->maxnreg, .extern_smem = e->extern_smem};
}

void report_use_ptx(ReportSource *s, int i, const char *ptx_path, const char *text, size_t len,
                    Arena *arena)
{
    s->ptx_paths[i] = ptx_path;
    s->ptx_texts[i] = text;
    s->ptx_lens[i] = len;
    int n = ptx_scan_entries(text, len, arena, &s->entries[i]);
    s->n_entries[i] = n;
    s->kernels[i] = ARENA_ARRAY(arena, MeasuredKernel, (size_t)n + 1);
    for (int k = 0; k < n; k++)
        s->kernels[i][k] = kernel_from_entry(&s->entries[i][k], s->path, s->kind);
    s->n_kernels[i] = n;
}

/* Every target of a .ptx file reads the same text: scanned once, shared. */
static int load_ptx(const char *path, int n, Arena *arena, ReportSource *s)
{
    size_t len;
    errno = 0;
    char *text = report_read_file(path, arena, &len);
    if (!text) {
        cannot_read(path);
        return EXIT_USAGE;
    }
    report_use_ptx(s, 0, path, text, len, arena);
    for (int i = 1; i < n; i++)
        report_share_target(s, i, 0);
    return EXIT_OK;
}

void report_share_target(ReportSource *s, int i, int j)
{
    s->ptx_paths[i] = s->ptx_paths[j];
    s->ptx_texts[i] = s->ptx_texts[j];
    s->ptx_lens[i] = s->ptx_lens[j];
    s->entries[i] = s->entries[j];
    s->n_entries[i] = s->n_entries[j];
    s->kernels[i] = s->kernels[j];
    s->n_kernels[i] = s->n_kernels[j];
}

/* What the walk for launch blocks needs at each node. */
typedef struct LaunchScan {
    const SourceFile *file;
    ReportSource *source;
    int n_targets;
} LaunchScan;

/* A launch block whose grid the checker found constant: its kernel's
 * name in *target and the grid (work items); 0 for any other node.  The
 * checker leaves a constant's value in the node (folded). */
static uint64_t constant_grid(const Node *n, const char **target)
{
    if (n->kind != ND_LAUNCH || n->list2.count != 1 || !n->list2.items[0]->a ||
        n->list2.items[0]->a->kind != ND_CALL || n->list2.items[0]->a->a->kind != ND_NAME)
        return 0;
    *target = n->list2.items[0]->a->a->name;
    for (uint32_t i = 0; i < n->list.count; i++) {
        const Node *o = n->list.items[i];
        if (strcmp(o->name, "grid") == 0 && o->a && o->a->folded == 1 && o->a->int_value != 0)
            return (uint64_t)o->a->int_value;
    }
    return 0;
}

/* The first such block for each kernel gives its work size. */
static void visit_launch(Node *n, void *data)
{
    const LaunchScan *scan = data;
    ReportSource *s = scan->source;
    const char *target;
    uint64_t grid = constant_grid(n, &target);
    if (!grid)
        return;
    for (int t = 0; t < scan->n_targets; t++)
        for (int k = 0; k < s->n_kernels[t]; k++) {
            MeasuredKernel *kernel = &s->kernels[t][k];
            if (strcmp(kernel->name, target) == 0 && !kernel->launch_work) {
                uint32_t line, col;
                source_line_col(scan->file, n->span.start, &line, &col);
                kernel->launch_work = grid;
                kernel->launch_line = (int)line;
            }
        }
}

/* What the walk for one kernel's launch work needs and finds. */
typedef struct KernelLaunchScan {
    const char *kernel;
    uint64_t work;
} KernelLaunchScan;

static void visit_kernel_launch(Node *n, void *data)
{
    KernelLaunchScan *scan = data;
    const char *target;
    uint64_t grid = scan->work ? 0 : constant_grid(n, &target);
    if (grid && strcmp(target, scan->kernel) == 0)
        scan->work = grid;
}

uint64_t report_launch_work(const Compilation *c, const char *kernel)
{
    KernelLaunchScan scan = {kernel, 0};
    for (uint32_t i = 0; i < c->n_modules && !scan.work; i++) {
        const Module *m = c->modules[i];
        if (m->package == PKG_ROOT && m->tree)
            ast_walk(m->tree, c->arena, visit_kernel_launch, &scan);
    }
    return scan.work;
}

/* In source order; ast_walk keeps its stack off the C stack, which a long
 * chain of operators would overflow. */
static void collect_launch_work(const Compilation *c, int n_targets, ReportSource *s)
{
    for (uint32_t i = 0; i < c->n_modules; i++) {
        const Module *m = c->modules[i];
        LaunchScan scan = {&c->sources.files[m->file], s, n_targets};
        if (m->package == PKG_ROOT && m->tree)
            ast_walk(m->tree, c->arena, visit_launch, &scan);
    }
}

/* Target t's kernels as the build gave them: bounds from the IR's
 * attributes, usage as measured (ptxas) or estimated. */
static bool take_kernels(const Build *b, const Target *target, int t, const char *path,
                         Arena *arena, ReportSource *s)
{
    const IrModule *m = b->module;
    const UsageReport *usage = &b->targets[t].usage;
    bool amd = target->vendor == OCC_AMD;
    MeasuredKernel *kernels = ARENA_ARRAY(arena, MeasuredKernel, m->n_funcs + 1);
    int n = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const IrFunc *f = m->funcs[i];
        const KernelUsage *u = f->kernel ? usage_kernel(usage, f->name) : NULL;
        if (!u)
            continue;
        MeasuredKernel *k = &kernels[n++];
        /* A Silk CTA size is fixed (reqntid) or each launch's. */
        *k = (MeasuredKernel){.name = arena_strndup(arena, f->name, strlen(f->name)), .file = path,
                            .input = INPUT_SILK, .usage = *u, .reqntid = f->reqntid,
                            .minnctapersm = f->minnctapersm, .maxnreg = f->maxnreg,
                            .dynamic_smem = f->dynamic_smem,
                            .persistent = f->n_params > 0 && f->params[f->n_params - 1].name &&
                                          strcmp(f->params[f->n_params - 1].name,
                                                 LOWER_LOGICAL_CTAS) == 0};
        k->usage.name = k->name;
        /* On AMD the code object's flat-work-group-size bounds the block
         * the registers were allocated for. */
        if (amd && !k->reqntid)
            k->maxntid = u->max_threads;
        if (amd && !report_amd_kernel_fits(path, u, target->amd))
            return false;
    }
    s->kernels[t] = kernels;
    s->n_kernels[t] = n;
    return true;
}

/* Everything of the build the report keeps, copied out of the
 * compilation: each target's PTX (for the register-cap check) and
 * kernels. */
static bool take_build(const Build *b, const Target *targets, const char *path, Arena *arena,
                       ReportSource *s)
{
    s->measured = true;
    for (int t = 0; t < b->n_targets; t++) {
        const BuildTarget *bt = &b->targets[t];
        if (targets[t].vendor == OCC_NVIDIA) { /* the PTX, for the register-cap check */
            s->ptx_texts[t] = arena_strndup(arena, bt->code, bt->code_len);
            s->ptx_lens[t] = bt->code_len;
            s->n_entries[t] = ptx_scan_entries(s->ptx_texts[t], bt->code_len, arena, &s->entries[t]);
        }
        if (!take_kernels(b, &targets[t], t, path, arena, s))
            return false;
    }
    return true;
}

int report_ptxas_failed(const char *ptxas, const char *path, InputKind kind,
                        const UsageReport *run, const char *arch)
{
    const char *text = run->errors ? run->errors : "";
    int len = (int)strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    bool silk = kind == INPUT_SILK;
    const char *whose = silk ? " (the compiler's PTX: a compiler bug)" : "";
    if (run->exit_status == PTXAS_NO_RESULT) {
        cli_error(COMMAND, "%s, run as ptxas on %s for %s, %s", ptxas, ESCAPED(path), arch, text);
        return EXIT_ENVIRONMENT;
    }
    if (len == 0 && run->exit_status > 0 && run->exit_status <= 128) {
        /* Failed without a word: a broken tool, not a rejection. */
        cli_error(COMMAND, "%s on %s for %s exited %d without a message", ptxas, ESCAPED(path), arch,
                  run->exit_status);
        return EXIT_ENVIRONMENT;
    }
    if (len == 0 && run->exit_status > 128)
        cli_error(COMMAND, "ptxas crashed (signal %d) on %s for %s%s", run->exit_status - 128,
                  ESCAPED(path), arch, whose);
    else {
        cli_error(COMMAND, "ptxas rejected %s for %s%s:", ESCAPED(path), arch, whose);
        escape_fputs_message(text, (size_t)len, stderr);
        fputc('\n', stderr);
    }
    return silk ? EXIT_FINDINGS : EXIT_USAGE;
}

/* llc (or ld.lld) failed on the compiler's LLVM IR for an AMD target. */
static int amd_tool_failed(const char *path, const Build *b, const BuildTarget *t)
{
    const char *errors = t->usage.errors;
    cli_error(COMMAND, "%s: %s for %s failed%s%s", ESCAPED(path), b->tool ? b->tool : "llc", t->arch,
              errors ? ": " : "", errors ? errors : "");
    return EXIT_ENVIRONMENT;
}

/* A build that stopped: the compiler's diagnostics are out already;
 * the assembler's failure is said here. */
static int silk_build_failed(const char *path, const Target *targets, const Build *b,
                             BuildStatus status)
{
    if (status == BUILD_SOURCE_ERRORS || status == BUILD_COMPILER_BUG)
        return EXIT_FINDINGS;
    if (status == BUILD_TOOL_FAILED && b->tool_status == PTXAS_NOT_STARTED) {
        cli_error(COMMAND, "cannot start %s: %s", b->tool, strerror(b->tool_errno));
        return EXIT_ENVIRONMENT;
    }
    bool amd = false;
    for (int t = 0; t < b->n_targets; t++) {
        amd |= targets[t].vendor == OCC_AMD;
        if (status != BUILD_TOOL_FAILED || b->targets[t].usage.exit_status == 0)
            continue;
        if (targets[t].vendor == OCC_AMD)
            return amd_tool_failed(path, b, &b->targets[t]);
        return report_ptxas_failed(b->tool, path, INPUT_SILK, &b->targets[t].usage,
                                   b->targets[t].arch);
    }
    if (amd && b->tool && b->tool_errno)
        cli_error(COMMAND, "cannot start %s: %s", b->tool, strerror(b->tool_errno));
    else if (amd)
        cli_error(COMMAND, "%s: no code object for the AMD targets (llc-19 and ld.lld-19 are needed)",
                  ESCAPED(path));
    return EXIT_ENVIRONMENT;
}

/* silkc compiles for an AMD processor in its default mode only; the
 * +wave64 and +cumode rows count code objects built otherwise.  And only
 * for the processors its AMDGPU target knows: the table has more rows
 * (gfx1030, gfx1101, ...), whose figures a .hsaco or calc gives. */
static bool silk_compiles_for(const char *path, const Target *targets, int n)
{
    for (int i = 0; i < n; i++) {
        const char *gfx = targets[i].vendor == OCC_AMD ? targets[i].amd->gfx : NULL;
        if (!gfx)
            continue;
        if (strchr(gfx, '+')) {
            cli_error(COMMAND, "%s: --arch %s: silkc compiles for %.*s in its default mode only (the "
                               "row is for .hsaco files and calc)",
                      ESCAPED(path), gfx, (int)strcspn(gfx, "+"), gfx);
            return false;
        }
        if (!backend_find(gfx)) {
            cli_error(COMMAND, "%s: --arch %s: silkc compiles for %s only (the row is for .hsaco "
                               "files and calc)", ESCAPED(path), gfx, backend_amdgpu.target_range);
            return false;
        }
    }
    return true;
}

/* The build pipeline (build.h) for every target, measured by ptxas (or
 * estimated without it); the constant grids of launch blocks from the
 * checked tree. */
static int load_silk(const char *path, const Target *targets, int n, Arena *arena,
                     ReportSource *s)
{
    if (!silk_compiles_for(path, targets, n))
        return EXIT_USAGE;
    Compilation c;
    compile_init(&c, stderr);
    errno = 0;
    if (!compile_load(&c, path, path, PKG_ROOT)) {
        cannot_read(path);
        compile_free(&c);
        return EXIT_USAGE;
    }
    const char **archs = ARENA_ARRAY(arena, const char *, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        archs[i] = targets[i].sm_name;
    BuildOptions options = {.archs = archs, .n_archs = n, .last = BUILD_MEASURE,
                            .optimize = true, .program = "silk-occ report"};
    Build b;
    BuildStatus status = build_run(&c, &options, &b);
    int rc = status == BUILD_OK ? EXIT_OK : silk_build_failed(path, targets, &b, status);
    if (rc == EXIT_OK && !take_build(&b, targets, path, arena, s))
        rc = EXIT_USAGE;
    if (rc == EXIT_OK)
        collect_launch_work(&c, n, s);
    build_finish(&b);
    diag_finish(&c.diag);
    compile_free(&c);
    return rc;
}

/* `demangled` (malloc'd, may be NULL) in the arena, else the symbol. */
static const char *keep_name(char *demangled, const char *symbol, Arena *arena)
{
    const char *kept = demangled ? arena_strndup(arena, demangled, strlen(demangled)) : symbol;
    free(demangled);
    return kept;
}

/* Names for people and for host code: C++ symbols demangled (libiberty). */
static void name_kernels(ReportSource *s, int n, Arena *arena)
{
    for (int t = 0; t < n; t++)
        for (int k = 0; k < s->n_kernels[t]; k++) {
            MeasuredKernel *kernel = &s->kernels[t][k];
            if (kernel->title)
                continue; /* shared with an earlier target */
            kernel->title = keep_name(demangle_symbol(kernel->name), kernel->name, arena);
            kernel->cxx_name = keep_name(demangle_base_name(kernel->name), kernel->name, arena);
        }
}

static int load_by_kind(const char *path, const ReportLoadOptions *options, const Target *targets,
                        int n, const char *tmpdir, Arena *arena, ReportSource *out)
{
    switch (out->kind) {
    case INPUT_PTX: return load_ptx(path, n, arena, out);
    case INPUT_SILK: return load_silk(path, targets, n, arena, out);
    case INPUT_CUBIN:
        return report_load_cubin(path, options->targets_from_cubins, targets, n, arena, out);
    case INPUT_CUDA:
        return report_load_cuda(path, options->nvcc_flags, targets, n, tmpdir, arena, out);
    case INPUT_HSACO: return report_load_hsaco(path, options->amd_table, targets, n, arena, out);
    }
    return EXIT_USAGE;
}

/* Target j of `part` becomes target i of `s`. */
static void take_target(ReportSource *s, int i, const ReportSource *part, int j)
{
    s->kernels[i] = part->kernels[j];
    s->n_kernels[i] = part->n_kernels[j];
    s->ptx_paths[i] = part->ptx_paths[j];
    s->ptx_texts[i] = part->ptx_texts[j];
    s->ptx_lens[i] = part->ptx_lens[j];
    s->entries[i] = part->entries[j];
    s->n_entries[i] = part->n_entries[j];
    s->skipped[i] = part->skipped && part->skipped[j];
}

/* What a file of one vendor's code says of the other vendor's targets. */
static bool other_vendor(const char *path, const ReportSource *s, int mine, int n,
                         const ReportLoadOptions *options)
{
    bool nvidia = s->kind != INPUT_HSACO;
    if (mine == 0) {
        if (nvidia)
            cli_error(COMMAND, "%s: NVIDIA code, and --arch names no NVIDIA target (the AMD targets "
                               "take .silk and .hsaco files)", ESCAPED(path));
        else
            cli_error(COMMAND, "%s: an AMD code object, and --arch names no AMD target (give its "
                               "own, or no --arch)", ESCAPED(path));
        return false;
    }
    if (mine < n && !options->targets_from_cubins)
        cli_warning(COMMAND, nvidia ? "%s: NVIDIA code, no figures for the AMD targets (they take "
                                      ".silk and .hsaco files)"
                                    : "%s: an AMD code object, no figures for the NVIDIA targets",
                    ESCAPED(path));
    return true;
}

/* A file of one vendor's code (all but .silk): loaded for that vendor's
 * targets, the others skipped, with a word. */
static int load_one_vendor(const char *path, const ReportLoadOptions *options,
                           const Target *targets, int n, const char *tmpdir, Arena *arena,
                           ReportSource *s)
{
    OccVendor vendor = s->kind == INPUT_HSACO ? OCC_AMD : OCC_NVIDIA;
    Target *mine = ARENA_ARRAY(arena, Target, (size_t)n + 1);
    int *index = ARENA_ARRAY(arena, int, (size_t)n + 1), m = 0;
    for (int i = 0; i < n; i++)
        if (targets[i].vendor == vendor) {
            mine[m] = targets[i];
            index[m++] = i;
        }
    if (!other_vendor(path, s, m, n, options))
        return EXIT_USAGE;
    ReportSource part = {.path = path, .kind = s->kind};
    alloc_targets(&part, m, arena);
    int rc = load_by_kind(path, options, mine, m, tmpdir, arena, &part);
    if (rc != EXIT_OK)
        return rc;
    s->measured = part.measured;
    s->skipped = ARENA_ARRAY(arena, bool, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        s->skipped[i] = true;
    for (int j = 0; j < m; j++)
        take_target(s, index[j], &part, j);
    return EXIT_OK;
}

int report_load(const char *path, const ReportLoadOptions *options, const Target *targets, int n,
                const char *tmpdir, Arena *arena, ReportSource *out)
{
    static const struct {
        const char *suffix;
        InputKind kind;
    } kinds[] = {{".ptx", INPUT_PTX}, {".silk", INPUT_SILK}, {".cubin", INPUT_CUBIN},
                 {".cu", INPUT_CUDA}, {".hsaco", INPUT_HSACO}};
    *out = (ReportSource){.path = path};
    alloc_targets(out, n, arena);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (has_suffix(path, kinds[i].suffix)) {
            out->kind = kinds[i].kind;
            int rc = out->kind == INPUT_SILK
                         ? load_by_kind(path, options, targets, n, tmpdir, arena, out)
                         : load_one_vendor(path, options, targets, n, tmpdir, arena, out);
            if (rc == EXIT_OK)
                name_kernels(out, n, arena);
            return rc;
        }
    cli_error(COMMAND, "%s: not a .silk, .ptx, .cu, .cubin or .hsaco file (the report reads those kinds)",
              ESCAPED(path));
    return EXIT_USAGE;
}

int report_object_archs(char *const files[], int n, const AmdTable *amd, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char arch[OCC_NAME_MAX], list[1024], item[OCC_NAME_MAX + 2];
        int got = has_suffix(files[i], ".cubin") ? report_cubin_arch(files[i], arch, sizeof arch)
                  : has_suffix(files[i], ".hsaco") ? report_hsaco_arch(files[i], amd, arch, sizeof arch)
                                                   : 0;
        if (got <= 0)
            return got;
        /* Each target once: ",sm_80," in ",LIST,". */
        snprintf(list, sizeof list, ",%s,", buf);
        snprintf(item, sizeof item, ",%s,", arch);
        size_t used = strlen(buf);
        if (!strstr(list, item))
            snprintf(buf + used, size - used, "%s%s", used ? "," : "", arch);
    }
    return n > 0;
}

const PtxEntry *report_source_entry(const ReportSource *s, int target, const char *name)
{
    for (int i = 0; i < s->n_entries[target]; i++)
        if (strcmp(s->entries[target][i].name, name) == 0)
            return &s->entries[target][i];
    return NULL;
}

const MeasuredKernel *report_source_kernel(const ReportSource *s, int target, const char *name)
{
    for (int i = 0; i < s->n_kernels[target]; i++)
        if (strcmp(s->kernels[target][i].name, name) == 0)
            return &s->kernels[target][i];
    return NULL;
}
