/*
 * build.c: the build pipeline (build.h), read top to bottom in build_run;
 * each stage below it.
 */
#include "build.h"

#include "cleanup.h"
#include "escape.h"
#include "lower.h"
#include "occ_warn.h"
#include "pass.h"
#include "read_file.h"
#include "tempdir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static SharedLimit shared_limit(const BuildOptions *o);
static void say(const Build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool check_shared_limit(Build *b);
static bool emit_targets(Build *b);
static BuildStatus measure_targets(Build *b);
static void measure_at_caps(Build *b);

BuildStatus build_file(Compilation *c, const char *path, const char *text, size_t len,
                       const BuildOptions *o, Build *b)
{
    *b = (Build){.c = c, .options = o};
    if (o->program)
        c->diag.program = o->program;
    errno = 0;
    bool loaded = text ? compile_add_text(c, path, text, len, PKG_ROOT) != NULL
                       : compile_load(c, path, path, PKG_ROOT) != NULL;
    if (!loaded) {
        char reason[128];
        say(b, "%s: %s", ESCAPED(path),
            read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, reason, sizeof reason));
        return BUILD_UNREADABLE;
    }
    return build_run(c, o, b);
}

BuildStatus build_run(Compilation *c, const BuildOptions *o, Build *b)
{
    *b = (Build){.c = c, .options = o};
    c->shared_limit = shared_limit(o);
    if (o->program)
        c->diag.program = o->program;
    if (compile_check(c) > 0)
        return BUILD_SOURCE_ERRORS;
    if (o->last == BUILD_CHECK)
        return BUILD_OK;
    if (!(b->module = lower_module(c, c->arena)))
        return BUILD_SOURCE_ERRORS;
    if (!build_verify_lowered(c, b->module))
        return BUILD_COMPILER_BUG;
    if (!check_shared_limit(b))
        return BUILD_SOURCE_ERRORS;
    if (o->optimize && !ir_optimize(b->module, &c->diag, PASS_VERIFY_EACH))
        return BUILD_COMPILER_BUG;
    if (o->last == BUILD_IR)
        return BUILD_OK;
    if (!emit_targets(b))
        return BUILD_COMPILER_BUG;
    if (o->last == BUILD_CODE)
        return BUILD_OK;
    BuildStatus status = measure_targets(b);
    if (status == BUILD_OK && o->measure_caps)
        measure_at_caps(b);
    return status;
}

void build_finish(Build *b)
{
    tempdir_remove(b->tmpdir, 0);
    b->tmpdir = NULL;
}

/* ---- the IR ----------------------------------------------------------------------------- */

/* Lowering's output must satisfy the IR's invariants before any pass
 * trusts them; a fault is ours, not the program's, and is summed up at
 * the kernel whose IR failed. */
bool build_verify_lowered(Compilation *c, const IrModule *m)
{
    bool ok = true;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const IrFunc *f = m->funcs[i];
        if (ir_verify_func(m, f, &c->diag) == 0)
            continue;
        diag_error(&c->diag, f->span, "the IR failed verification after lowering: a compiler bug");
        ok = false;
    }
    return ok;
}

/* The static shared memory a kernel may have on every target of `o`: the
 * lowest of their rows, at the first target that has it; with no target,
 * the lowest any target allows (compile.h: SharedLimit). */
static SharedLimit shared_limit(const BuildOptions *o)
{
    SharedLimit lowest = {0};
    for (int i = 0; i < o->n_archs; i++) {
        uint64_t bytes = backend_shared_limit(o->archs[i]);
        if (bytes && (!lowest.bytes || bytes < lowest.bytes))
            lowest = (SharedLimit){.bytes = bytes, .target = o->archs[i]};
    }
    if (o->n_archs == 0)
        lowest.bytes = backend_shared_limit(NULL);
    return lowest;
}

/* Every kernel within the static shared memory a kernel may have, now
 * that lowering has added the arrays of its tiles and reductions (and of
 * the helpers inlined into it) to what the front end counted. */
static bool check_shared_limit(Build *b)
{
    const SharedLimit *limit = &b->c->shared_limit;
    bool ok = true;
    for (uint32_t i = 0; limit->bytes && i < b->module->n_funcs; i++) {
        const IrFunc *f = b->module->funcs[i];
        uint64_t bytes = ir_static_smem(b->module, f);
        if (bytes <= limit->bytes)
            continue;
        char total[32], most[64];
        if (bytes == UINT64_MAX)
            snprintf(total, sizeof total, "2^64 or more");
        else
            snprintf(total, sizeof total, "%llu", (unsigned long long)bytes);
        compile_shared_limit_text(limit, most, sizeof most);
        diag_error(&b->c->diag, f->span,
                   "'%s' needs %s bytes of static shared memory once compiled (with the arrays of its helpers, tiles and reductions); a kernel may have at most %s",
                   f->name, total, most);
        ok = false;
    }
    return ok;
}

/* ---- code per target -------------------------------------------------------------------- */

/* One target's code, in the compilation's arena. */
static bool emit_target(Build *b, BuildTarget *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        say(b, "cannot hold the %s code: %s", t->arch, strerror(errno));
        return false;
    }
    bool ok = t->backend->emit(b->module, t->arch, f, &b->c->diag);
    ok = fclose(f) == 0 && ok;
    if (ok) {
        t->code = arena_strndup(b->c->arena, text, len);
        t->code_len = len;
    }
    free(text);
    return ok;
}

static bool emit_targets(Build *b)
{
    const BuildOptions *o = b->options;
    b->targets = ARENA_ARRAY(b->c->arena, BuildTarget, (size_t)o->n_archs + 1);
    b->n_targets = o->n_archs;
    for (int i = 0; i < o->n_archs; i++) {
        BuildTarget *t = &b->targets[i];
        *t = (BuildTarget){.arch = o->archs[i], .backend = backend_find(o->archs[i])};
        if (!t->backend || !emit_target(b, t))
            return false;
    }
    return true;
}

/* ---- measuring -------------------------------------------------------------------------- */

/* Whether an earlier target than i has the same backend: each backend
 * takes all its targets at once, the first time it comes. */
static bool backend_seen(const Build *b, int i)
{
    for (int j = 0; j < i; j++)
        if (b->targets[j].backend == b->targets[i].backend)
            return true;
    return false;
}

/* The targets of `backend`, in order. */
static int targets_of(Build *b, const Backend *backend, BuildTarget **out)
{
    int n = 0;
    for (int i = 0; i < b->n_targets; i++)
        if (b->targets[i].backend == backend)
            out[n++] = &b->targets[i];
    return n;
}

/* Each backend measures its targets at once (its assembler runs them in
 * parallel); the first backend that fails decides the status. */
static BuildStatus measure_targets(Build *b)
{
    BuildTarget **mine = ARENA_ARRAY(b->c->arena, BuildTarget *, (size_t)b->n_targets + 1);
    for (int i = 0; i < b->n_targets; i++) {
        if (backend_seen(b, i))
            continue;
        const Backend *backend = b->targets[i].backend;
        BuildStatus status = backend->measure(b, mine, targets_of(b, backend, mine));
        if (status != BUILD_OK)
            return status;
    }
    return BUILD_OK;
}

/* The targets of `backend` where -Wocc-limit would advise a register cap
 * (occ_warn_register_caps), each with its caps. */
static int capped_targets(Build *b, const Backend *backend, BuildTarget **capped, int **caps)
{
    int n = 0;
    for (int i = 0; i < b->n_targets; i++) {
        BuildTarget *t = &b->targets[i];
        int *kernel_caps = ARENA_ARRAY(b->c->arena, int, b->module->n_funcs + 1);
        if (t->backend == backend &&
            occ_warn_register_caps(b->c, b->module, &t->usage, kernel_caps)) {
            capped[n] = t;
            caps[n++] = kernel_caps;
        }
    }
    return n;
}

/* The caps measured, so that a cap is advised only where the kernel does
 * not spill at it. */
static void measure_at_caps(Build *b)
{
    BuildTarget **capped = ARENA_ARRAY(b->c->arena, BuildTarget *, (size_t)b->n_targets + 1);
    int **caps = ARENA_ARRAY(b->c->arena, int *, (size_t)b->n_targets + 1);
    for (int i = 0; i < b->n_targets; i++) {
        if (backend_seen(b, i))
            continue;
        const Backend *backend = b->targets[i].backend;
        int n = capped_targets(b, backend, capped, caps);
        if (n > 0)
            backend->measure_at_caps(b, capped, caps, n);
    }
}

/* ---- temporary files -------------------------------------------------------------------- */

/* The build's own failures, which have no place in the source, through
 * the compilation's diagnostics: the library prints nothing itself. */
static void say(const Build *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vplain(&b->c->diag, DIAG_ERROR, fmt, ap);
    va_end(ap);
}

const char *build_temp_path(Build *b, const char *name)
{
    const char *base;
    if (!b->tmpdir && !(b->tmpdir = tempdir_make("silk-build", &base))) {
        say(b, "cannot make a temporary directory in %s: %s", base, strerror(errno));
        return NULL;
    }
    size_t len = strlen(b->tmpdir) + strlen(name) + 2;
    char *path = arena_alloc(b->c->arena, len, 1);
    snprintf(path, len, "%s/%s", b->tmpdir, name);
    if (cleanup_add_file(path))
        return path;
    say(b, "out of memory");
    return NULL;
}

const char *build_temp_file(Build *b, const char *name, const char *text, size_t len)
{
    const char *path = build_temp_path(b, name);
    if (!path)
        return NULL;
    FILE *f = fopen(path, "w");
    bool ok = f && fwrite(text, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    if (!ok) {
        say(b, "%s: cannot write: %s", path, strerror(errno));
        return NULL;
    }
    return path;
}
