/*
 * measure.c: the one door (measure.h): each input file turned into a list
 * of kernels per target.  A .silk file goes through the whole compiler once
 * (front end, lowering, passes) and is emitted for each target; its IR
 * gives each kernel's launch bounds (@launch, @smem) and the register
 * estimate used when there is no ptxas.  A .ptx file is read as it is and
 * its entries' directives scanned (ptx/ptx_scan.c).  .cu files are handed
 * to measure_cuda.c, .cubin files to measure_cubin.c, and a file of any
 * other name is told by its first bytes: a built binary goes to
 * measure_binary.c (a cubin or code object of another name to theirs).  C++ symbols are
 * demangled here for every kind (demangle.h).
 */
#include "measure_internal.h"

#include "escape.h"

#include "build.h"
#include "cleanup.h"
#include "demangle.h"
#include "lower.h"
#include "backend.h"
#include "ptx/ptxas.h"
#include "read_file.h"
#include "tempdir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The message formatted whole, however long a tool's words in it. */
static void say(const Measure *m, MeasureSeverity severity, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *message = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (message)
        vsnprintf(message, (size_t)n + 1, fmt, again);
    va_end(again);
    m->options->say(m->options->context, severity, message ? message : "out of memory");
    free(message);
}

void measure_error(const Measure *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(m, MEASURE_ERROR, fmt, ap);
    va_end(ap);
}

void measure_warning(const Measure *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(m, MEASURE_WARNING, fmt, ap);
    va_end(ap);
}

static bool has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    return n >= m && strcmp(path + n - m, suffix) == 0;
}

const char *measure_write_temp(Measure *m, const char *stem, const char *text, size_t len)
{
    size_t size = strlen(m->tmpdir) + strlen(stem) + 8;
    char *path = arena_alloc(m->arena, size, 1);
    snprintf(path, size, "%s/%s.ptx", m->tmpdir, stem);
    FILE *f = cleanup_add_file(path) ? fopen(path, "w") : NULL; /* tempdir.h */
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok) {
        measure_error(m, "%s: cannot write: %s", ESCAPED(path), strerror(errno));
        return NULL;
    }
    return path;
}

void measure_alloc_targets(Measure *m, MeasuredFile *f, int n)
{
    f->kernels = ARENA_ARRAY(m->arena, MeasuredKernel *, (size_t)n + 1);
    f->n_kernels = ARENA_ARRAY(m->arena, int, (size_t)n + 1);
    f->ptx = ARENA_ARRAY(m->arena, struct MeasurePtx, (size_t)n + 1);
}

char *measure_read_file(Measure *m, const char *path, size_t *len)
{
    char *text = read_file(path, READ_FILE_CODE_LIMIT_MIB, len);
    if (!text)
        return NULL;
    char *kept = arena_strndup(m->arena, text, *len); /* NUL-terminated, as PTX scanning wants */
    free(text);
    return kept;
}

/* "PATH: cannot read: REASON" or "PATH: larger than the 256 MiB limit". */
static void cannot_read(const Measure *m, const char *path)
{
    char reason[128];
    measure_error(m, "%s: %s", ESCAPED(path), read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, reason,
                                                       sizeof reason));
}

MeasuredKernel measure_kernel_from_entry(const PtxEntry *e, const char *path, InputKind kind)
{
    return (MeasuredKernel){.name = e->name, .file = path, .input = kind, .reqntid = e->reqntid,
                          .maxntid = e->maxntid, .minnctapersm = e->minnctapersm,
                          .maxnreg = e->maxnreg, .extern_smem = e->extern_smem,
                          .cluster = {e->cluster[0], e->cluster[1], e->cluster[2]},
                          .explicit_cluster = e->explicit_cluster,
                          .max_cluster_rank = e->maxclusterrank};
}

void measure_use_ptx(Measure *m, MeasuredFile *s, int i, const char *ptx_path, const char *text,
                     size_t len)
{
    struct MeasurePtx *ptx = &s->ptx[i];
    *ptx = (struct MeasurePtx){.path = ptx_path, .text = text, .len = len};
    int n = ptx_scan_entries(text, len, m->arena, &ptx->entries);
    ptx->n_entries = n;
    s->kernels[i] = ARENA_ARRAY(m->arena, MeasuredKernel, (size_t)n + 1);
    for (int k = 0; k < n; k++)
        s->kernels[i][k] = measure_kernel_from_entry(&ptx->entries[k], s->path, s->kind);
    s->n_kernels[i] = n;
}

/* Every target of a .ptx file reads the same text: scanned once, shared. */
static int load_ptx(Measure *m, const char *path, int n, MeasuredFile *s)
{
    size_t len;
    errno = 0;
    char *text = measure_read_file(m, path, &len);
    if (!text) {
        cannot_read(m, path);
        return EXIT_USAGE;
    }
    measure_use_ptx(m, s, 0, path, text, len);
    for (int i = 1; i < n; i++)
        measure_share_target(s, i, 0);
    return EXIT_OK;
}

void measure_share_target(MeasuredFile *s, int i, int j)
{
    s->ptx[i] = s->ptx[j];
    s->kernels[i] = s->kernels[j];
    s->n_kernels[i] = s->n_kernels[j];
}

/* What the walk for launch blocks needs at each node. */
typedef struct LaunchScan {
    const SourceFile *file;
    MeasuredFile *source;
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
    MeasuredFile *s = scan->source;
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

/* In source order; ast_walk keeps its stack off the C stack, which a long
 * chain of operators would overflow. */
static void collect_launch_work(const Compilation *c, int n_targets, MeasuredFile *s)
{
    for (uint32_t i = 0; i < c->n_modules; i++) {
        const Module *mod = c->modules[i];
        LaunchScan scan = {&c->sources.files[mod->file], s, n_targets};
        if (mod->package == PKG_ROOT && mod->tree)
            ast_walk(mod->tree, c->arena, visit_launch, &scan);
    }
}

/* The assembler's warnings of a kernel, copied into the run's arena: the
 * build's own arena, which holds them, is gone once the build is taken. */
static void keep_warnings(Measure *m, KernelUsage *u)
{
    if (u->n_warnings == 0)
        return;
    const char **kept = ARENA_ARRAY(m->arena, const char *, (size_t)u->n_warnings);
    for (int i = 0; i < u->n_warnings; i++)
        kept[i] = arena_strndup(m->arena, u->warnings[i], strlen(u->warnings[i]));
    u->warnings = kept;
}

/* Target t's kernels as the build gave them: bounds from the IR's
 * attributes, usage as measured (ptxas, llc) or estimated. */
static bool take_kernels(Measure *m, const Build *b, const Target *target, int t, const char *path,
                         MeasuredFile *s)
{
    const IrModule *mod = b->module;
    const UsageReport *usage = &b->targets[t].usage;
    bool amd = target->vendor == OCC_AMD;
    MeasuredKernel *kernels = ARENA_ARRAY(m->arena, MeasuredKernel, mod->n_funcs + 1);
    int n = 0;
    for (uint32_t i = 0; i < mod->n_funcs; i++) {
        const IrFunc *f = mod->funcs[i];
        const KernelUsage *u = f->kernel ? usage_kernel(usage, f->name) : NULL;
        if (!u)
            continue;
        MeasuredKernel *k = &kernels[n++];
        /* Silk emits .reqntid for a fixed CTA size, its only bound. */
        *k = (MeasuredKernel){.name = arena_strndup(m->arena, f->name, strlen(f->name)),
                              .file = path, .input = INPUT_SILK, .usage = *u,
                              .reqntid = f->reqntid, .minnctapersm = f->minnctapersm,
                              .maxnreg = f->maxnreg, .dynamic_smem = f->dynamic_smem,
                              .persistent = lower_is_persistent(f)};
        k->usage.name = k->name;
        keep_warnings(m, &k->usage);
        /* On AMD the code object's flat-work-group-size bounds the block
         * the registers were allocated for. */
        if (amd && !k->reqntid)
            k->maxntid = u->max_threads;
        if (amd && !measure_amd_kernel_fits(m, path, u, target->amd))
            return false;
    }
    s->kernels[t] = kernels;
    s->n_kernels[t] = n;
    return true;
}

/* Everything of the build the run keeps, copied out of the compilation:
 * each NVIDIA target's PTX (for the register-cap check) and kernels. */
static bool take_build(Measure *m, const Build *b, const Target *targets, const char *path,
                       MeasuredFile *s)
{
    s->measured = true;
    for (int t = 0; t < b->n_targets; t++) {
        const BuildTarget *bt = &b->targets[t];
        /* The assembler that measured the target (none: the estimate). */
        if (bt->tool && targets[t].vendor == OCC_AMD)
            m->ran.llc = bt->tool;
        else if (bt->tool)
            m->ran.ptxas = bt->tool;
        if (targets[t].vendor == OCC_NVIDIA) {
            struct MeasurePtx *ptx = &s->ptx[t];
            ptx->text = arena_strndup(m->arena, bt->code, bt->code_len);
            ptx->len = bt->code_len;
            ptx->n_entries = ptx_scan_entries(ptx->text, bt->code_len, m->arena, &ptx->entries);
        }
        if (!take_kernels(m, b, &targets[t], t, path, s))
            return false;
    }
    return true;
}

int measure_ptxas_failed(const Measure *m, const char *path, InputKind kind, const UsageReport *run,
                         const char *arch)
{
    const char *ptxas = m->ptxas;
    const char *text = run->errors ? run->errors : "";
    int len = (int)strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    bool silk = kind == INPUT_SILK;
    const char *whose = silk ? " (the compiler's PTX: a compiler bug)" : "";
    if (run->exit_status == PTXAS_NO_RESULT) {
        measure_error(m, "%s, run as ptxas on %s for %s, %s", ptxas, ESCAPED(path), arch, text);
        return EXIT_ENVIRONMENT;
    }
    if (len == 0 && run->exit_status > 0 && run->exit_status <= 128) {
        /* Failed without a word: a broken tool, not a rejection. */
        measure_error(m, "%s on %s for %s exited %d without a message", ptxas, ESCAPED(path), arch,
                      run->exit_status);
        return EXIT_ENVIRONMENT;
    }
    if (len == 0 && run->exit_status > 128) { /* a broken tool too: the one rule (build.h) */
        measure_error(m, "ptxas crashed (signal %d) on %s for %s%s", run->exit_status - 128,
                      ESCAPED(path), arch, whose);
        return build_failure_status(TOOL_KILLED, silk ? TOOL_INPUT_OURS : TOOL_INPUT_USERS);
    } else {
        /* ptxas's words after the line, escaped for the terminal. */
        char *words = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&words, &size);
        if (f) {
            escape_fputs_message(text, (size_t)len, f);
            fclose(f);
        }
        measure_error(m, "ptxas rejected %s for %s%s:\n%s", ESCAPED(path), arch, whose,
                      words ? words : "");
        free(words);
    }
    return silk ? EXIT_FINDINGS : EXIT_USAGE;
}

/* llc (or ld.lld) failed on the compiler's LLVM IR for an AMD target. */
static int amd_tool_failed(const Measure *m, const char *path, const Build *b,
                           const BuildTarget *t)
{
    const char *errors = t->usage.errors;
    measure_error(m, "%s: %s for %s failed%s%s", ESCAPED(path), b->tool ? b->tool : "llc", t->arch,
                  errors ? ": " : "", errors ? errors : "");
    return EXIT_ENVIRONMENT;
}

/* A build that stopped: the compiler's diagnostics are out already;
 * the assembler's failure is said here. */
static int silk_build_failed(const Measure *m, const char *path, const Target *targets,
                             const Build *b, BuildStatus status)
{
    if (status == BUILD_SOURCE_ERRORS || status == BUILD_COMPILER_BUG)
        return EXIT_FINDINGS;
    if (status == BUILD_UNREADABLE) /* said by build_file */
        return EXIT_USAGE;
    if (status == BUILD_TOOL_FAILED && b->tool_status == PTXAS_NOT_STARTED) {
        measure_error(m, "cannot start %s: %s", b->tool, strerror(b->tool_errno));
        return EXIT_ENVIRONMENT;
    }
    bool amd = false;
    for (int t = 0; t < b->n_targets; t++) {
        amd |= targets[t].vendor == OCC_AMD;
        if (status != BUILD_TOOL_FAILED || b->targets[t].usage.exit_status == 0)
            continue;
        if (targets[t].vendor == OCC_AMD)
            return amd_tool_failed(m, path, b, &b->targets[t]);
        return measure_ptxas_failed(m, path, INPUT_SILK, &b->targets[t].usage, b->targets[t].arch);
    }
    if (amd && b->tool && b->tool_errno)
        measure_error(m, "cannot start %s: %s", b->tool, strerror(b->tool_errno));
    else if (amd)
        measure_error(m, "%s: no code object for the AMD targets (llc-19 and ld.lld-19 are needed)",
                      ESCAPED(path));
    return EXIT_ENVIRONMENT;
}

/* silkc compiles for an AMD processor in its default mode only; the
 * +wave64 and +cumode rows count code objects built otherwise.  And only
 * for the processors its AMDGPU target knows: the table has more rows
 * (gfx1030, gfx1101, ...), whose figures a .hsaco or calc gives. */
static bool silk_compiles_for(const Measure *m, const char *path, const Target *targets, int n)
{
    for (int i = 0; i < n; i++) {
        const char *gfx = targets[i].vendor == OCC_AMD ? targets[i].amd->gfx : NULL;
        if (!gfx)
            continue;
        if (strchr(gfx, '+')) {
            measure_error(m, "%s: --arch %s: silkc compiles for %.*s in its default mode only (the "
                             "row is for .hsaco files and calc)",
                          ESCAPED(path), gfx, (int)strcspn(gfx, "+"), gfx);
            return false;
        }
        if (!backend_find(gfx)) {
            measure_error(m, "%s: --arch %s: silkc compiles for %s only (the row is for .hsaco "
                             "files and calc)", ESCAPED(path), gfx, backend_amdgpu.target_range);
            return false;
        }
    }
    return true;
}

/* The build pipeline (build.h) once for every target of both vendors,
 * measured by ptxas and llc (or estimated without ptxas); the constant
 * grids of launch blocks from the checked tree.  The compiler's own
 * diagnostics go to stderr, as silkc prints them. */
static int load_silk(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *s)
{
    if (!silk_compiles_for(m, path, targets, n))
        return EXIT_USAGE;
    Compilation c;
    compile_init(&c, stderr);
    const char **archs = ARENA_ARRAY(m->arena, const char *, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        archs[i] = targets[i].sm_name;
    BuildOptions options = {.archs = archs, .n_archs = n, .last = BUILD_MEASURE,
                            .optimize = true, .program = m->options->program};
    Build b;
    BuildStatus status = build_file(&c, path, NULL, 0, &options, &b);
    int rc = status == BUILD_OK ? EXIT_OK : silk_build_failed(m, path, targets, &b, status);
    if (rc == EXIT_OK && !take_build(m, &b, targets, path, s))
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
void measure_name_kernels(Measure *m, MeasuredFile *s, int n)
{
    for (int t = 0; t < n; t++)
        for (int k = 0; k < s->n_kernels[t]; k++) {
            MeasuredKernel *kernel = &s->kernels[t][k];
            if (kernel->title)
                continue; /* shared with an earlier target */
            kernel->title = keep_name(demangle_symbol(kernel->name), kernel->name, m->arena);
            kernel->cxx_name = keep_name(demangle_base_name(kernel->name), kernel->name, m->arena);
        }
}

static int load_by_kind(Measure *m, const char *path, const Target *targets, int n,
                        MeasuredFile *out)
{
    switch (out->kind) {
    case INPUT_PTX: return load_ptx(m, path, n, out);
    case INPUT_SILK: return load_silk(m, path, targets, n, out);
    case INPUT_CUBIN: return measure_load_cubin(m, path, targets, n, out);
    case INPUT_CUDA: return measure_load_cuda(m, path, targets, n, out);
    case INPUT_HSACO: return measure_load_hsaco(m, path, targets, n, out);
    case INPUT_BINARY: return measure_load_binary(m, path, targets, n, out);
    }
    return EXIT_USAGE;
}

/* Target j of `part` becomes target i of `s`. */
static void take_target(MeasuredFile *s, int i, const MeasuredFile *part, int j)
{
    s->kernels[i] = part->kernels[j];
    s->n_kernels[i] = part->n_kernels[j];
    s->ptx[i] = part->ptx[j];
    s->skipped[i] = part->skipped && part->skipped[j];
}

/* What a file of one vendor's code says of the other vendor's targets. */
static bool other_vendor(const Measure *m, const char *path, const MeasuredFile *s, int mine, int n)
{
    bool nvidia = s->kind != INPUT_HSACO;
    if (mine == 0) {
        if (nvidia)
            measure_error(m, "%s: NVIDIA code, and --arch names no NVIDIA target (the AMD targets "
                             "take .silk and .hsaco files)", ESCAPED(path));
        else
            measure_error(m, "%s: an AMD code object, and --arch names no AMD target (give its "
                             "own, or no --arch)", ESCAPED(path));
        return false;
    }
    if (mine < n && !m->options->own_targets)
        measure_warning(m, nvidia ? "%s: NVIDIA code, no figures for the AMD targets (they take "
                                    ".silk and .hsaco files)"
                                  : "%s: an AMD code object, no figures for the NVIDIA targets",
                        ESCAPED(path));
    return true;
}

/* A file of one vendor's code (all but .silk): loaded for that vendor's
 * targets, the others skipped, with a word. */
static int load_one_vendor(Measure *m, const char *path, const Target *targets, int n,
                           MeasuredFile *s)
{
    OccVendor vendor = s->kind == INPUT_HSACO ? OCC_AMD : OCC_NVIDIA;
    Target *mine = ARENA_ARRAY(m->arena, Target, (size_t)n + 1);
    int *index = ARENA_ARRAY(m->arena, int, (size_t)n + 1), n_mine = 0;
    for (int i = 0; i < n; i++)
        if (targets[i].vendor == vendor) {
            mine[n_mine] = targets[i];
            index[n_mine++] = i;
        }
    if (!other_vendor(m, path, s, n_mine, n))
        return EXIT_USAGE;
    MeasuredFile part = {.path = path, .kind = s->kind};
    measure_alloc_targets(m, &part, n_mine);
    int rc = load_by_kind(m, path, mine, n_mine, &part);
    if (rc != EXIT_OK)
        return rc;
    s->measured = part.measured;
    s->skipped = ARENA_ARRAY(m->arena, bool, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        s->skipped[i] = true;
    for (int j = 0; j < n_mine; j++)
        take_target(s, index[j], &part, j);
    return EXIT_OK;
}

static const struct {
    const char *suffix;
    InputKind kind;
} kinds[] = {{".ptx", INPUT_PTX}, {".silk", INPUT_SILK}, {".cubin", INPUT_CUBIN},
             {".cu", INPUT_CUDA}, {".hsaco", INPUT_HSACO}};

/* What `path` holds: a .cubin or .hsaco by its suffix (their loaders say
 * what is wrong with a broken one), anything else by its first bytes,
 * whatever its name: a compile's object written as x.cu (nvcc -c -o x.cu,
 * as a wrapped build may) is machine code, not source.  OTHER: text. */
static MeasureSniff content_of(const char *path)
{
    if (has_suffix(path, ".cubin"))
        return MEASURE_SNIFF_CUBIN;
    if (has_suffix(path, ".hsaco"))
        return MEASURE_SNIFF_HSACO;
    return measure_sniff(path);
}

/* The kind of `path`: machine code by its content (content_of), else a
 * source by its suffix; false after saying why. */
static bool kind_of(const Measure *m, const char *path, InputKind *kind)
{
    MeasureSniff content = content_of(path);
    for (size_t i = 0; content == MEASURE_SNIFF_OTHER && i < sizeof kinds / sizeof kinds[0]; i++)
        if (has_suffix(path, kinds[i].suffix)) {
            *kind = kinds[i].kind;
            return true;
        }
    switch (content) {
    case MEASURE_SNIFF_CUBIN: *kind = INPUT_CUBIN; return true;
    case MEASURE_SNIFF_HSACO: *kind = INPUT_HSACO; return true;
    case MEASURE_SNIFF_BINARY: *kind = INPUT_BINARY; return true;
    case MEASURE_SNIFF_OTHER: break;
    }
    if (access(path, R_OK) != 0)
        measure_error(m, "%s: cannot read: %s", ESCAPED(path), strerror(errno));
    else
        measure_error(m, "%s: not a .silk, .ptx, .cu, .cubin or .hsaco file, nor a built binary "
                         "(an ELF executable, shared object or object, a static archive, a "
                         ".fatbin) (the report reads those kinds)", ESCAPED(path));
    return false;
}

/* Reads `path` for every target of the run, by its kind. */
static int load_file(Measure *m, const char *path, MeasuredFile *out)
{
    *out = (MeasuredFile){.path = path};
    measure_alloc_targets(m, out, m->n_targets);
    if (!kind_of(m, path, &out->kind))
        return EXIT_USAGE;
    int rc = out->kind == INPUT_SILK ? load_by_kind(m, path, m->targets, m->n_targets, out)
                                     : load_one_vendor(m, path, m->targets, m->n_targets, out);
    if (rc == EXIT_OK)
        measure_name_kernels(m, out, m->n_targets);
    return rc;
}

static bool any_target_runs(const Measure *m, const MeasuredFile *f)
{
    for (int t = 0; t < m->n_targets; t++)
        if (measured_runs_on(f, t))
            return true;
    return false;
}

int measure_files(Measure *m, char *const paths[], int n)
{
    m->files = ARENA_ARRAY(m->arena, MeasuredFile, (size_t)n + 1);
    int room = n;
    for (int i = 0; i < n; i++) {
        /* A report's JSON gives a file per unit it reports, named already. */
        int rc = has_suffix(paths[i], ".json") ? measure_load_reports(m, paths[i], &room)
                                               : load_file(m, paths[i], &m->files[m->n_files]);
        if (rc != EXIT_OK)
            return rc;
        if (has_suffix(paths[i], ".json"))
            continue;
        const MeasuredFile *f = &m->files[m->n_files++];
        if (f->kind != INPUT_SILK && !f->measured && !m->ptxas && any_target_runs(m, f)) {
            measure_error(m, "%s: PTX input needs ptxas for its register counts, and none was "
                             "found (put the CUDA toolkit's bin on PATH, or set SILK_PTXAS)",
                          ESCAPED(paths[i]));
            return EXIT_ENVIRONMENT;
        }
    }
    return measure_run_ptxas(m);
}

int measure_open(Measure *m, const MeasureOptions *o, const Target *targets, int n_targets,
                 Arena *arena)
{
    *m = (Measure){.options = o, .targets = targets, .n_targets = n_targets,
                   .ptxas = ptxas_find(), .arena = arena};
    const char *base;
    m->tmpdir = tempdir_make("silk-occ-report", &base);
    if (!m->tmpdir) {
        measure_error(m, "cannot make a temporary directory in %s: %s", base, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    return EXIT_OK;
}

void measure_close(Measure *m)
{
    if (m->tmpdir)
        tempdir_remove(m->tmpdir, 1);
    m->tmpdir = NULL;
}

/* A file's own targets ("sm_80", or a binary's "sm_80,sm_90"), by its
 * kind as kind_of tells it: 1, 0 (another kind, or it does not read), -1
 * (said). */
static int object_archs(Measure *m, const char *path, char *arch, size_t size)
{
    if (has_suffix(path, ".json")) /* a report's: a list */
        return measure_report_archs(m, path, arch, size);
    switch (content_of(path)) {
    case MEASURE_SNIFF_CUBIN: return measure_cubin_arch(path, arch, size);
    case MEASURE_SNIFF_HSACO: return measure_hsaco_arch(m, path, arch, size);
    case MEASURE_SNIFF_BINARY: return measure_binary_archs(path, arch, size);
    case MEASURE_SNIFF_OTHER: break;
    }
    return 0;
}

int measure_object_targets(char *const paths[], int n, const MeasureOptions *o, char *buf,
                           size_t size)
{
    Measure m = {.options = o};
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char archs[1024], list[1024], item[OCC_NAME_MAX + 2];
        int got = object_archs(&m, paths[i], archs, sizeof archs);
        if (got <= 0)
            return got;
        /* Each target once: ",sm_80," in ",LIST,". */
        for (char *save = NULL, *arch = strtok_r(archs, ",", &save); arch;
             arch = strtok_r(NULL, ",", &save)) {
            snprintf(list, sizeof list, ",%s,", buf);
            snprintf(item, sizeof item, ",%s,", arch);
            size_t used = strlen(buf);
            if (!strstr(list, item))
                snprintf(buf + used, size - used, "%s%s", used ? "," : "", arch);
        }
    }
    return n > 0;
}
