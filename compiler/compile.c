/*
 * compile.c: a compilation's modules and the front end's pipeline.
 *
 * Import paths name three kinds of module: "./x.silk" (or "../") another
 * file of the root package, relative to the importing file; "std/gpu" the
 * standard library, compiled into silkc (or read from --std-dir); anything
 * else "pkg/mod", a dependency package found as pkg/mod.silk under the -I
 * directories, in order.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sema.h"

#include "lex.h"
#include "parse.h"
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* std/gpu.silk, embedded at build time (std_builtin.c). */
extern const char silk_builtin_std_gpu[];

/* The compilation's arena ran short: said as its diagnostics say
 * everything, in the JSON array too. */
static void out_of_memory(void *context)
{
    Compilation *c = context;
    diag_out_of_memory(&c->diag);
}

void compile_init(Compilation *c, FILE *diagnostics)
{
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    arena_on_failure(c->arena, out_of_memory, c);
    source_map_init(&c->sources, c->arena);
    diag_init(&c->diag, &c->sources, c->arena, diagnostics);
}

void compile_free(Compilation *c) { arena_free(c->arena); }

static Module *add_module(Compilation *c, uint32_t file, const char *path, const char *import_name,
                          PackageKind package)
{
    Module *m = ARENA_NEW(c->arena, Module);
    m->path = arena_strndup(c->arena, path, strlen(path));
    char *real = realpath(path, NULL);
    m->key = real ? arena_strndup(c->arena, real, strlen(real)) : m->path;
    free(real);
    m->import_name = arena_strndup(c->arena, import_name, strlen(import_name));
    m->package = package;
    m->file = file;
    /* Tokens are needed only while parsing: they get an arena of their own. */
    Arena *scratch = arena_new_like(c->arena);
    int errors = c->diag.errors;
    TokenArray tokens = lex_file(&c->sources, file, &c->diag, scratch);
    m->tree = parse_file(&tokens, &c->sources, &c->diag, c->arena);
    m->syntax_errors = c->diag.errors > errors;
    arena_free(scratch);
    c->modules = arena_grow(c->arena, c->modules, c->n_modules, c->n_modules + 1, sizeof *c->modules);
    c->modules[c->n_modules++] = m;
    return m;
}

/* A file is one module however it is named ("h.silk", "./h.silk"): the
 * key is its real path. */
static Module *find_module(const Compilation *c, const char *path)
{
    char *real = realpath(path, NULL);
    Module *found = NULL;
    for (uint32_t i = 0; i < c->n_modules && !found; i++)
        if (strcmp(c->modules[i]->key, real ? real : path) == 0)
            found = c->modules[i];
    free(real);
    return found;
}

Module *compile_load(Compilation *c, const char *path, const char *import_name,
                     PackageKind package)
{
    Module *known = find_module(c, path);
    if (known)
        return known;
    long file = source_add_file(&c->sources, path);
    if (file < 0)
        return NULL;
    return add_module(c, (uint32_t)file, path, import_name, package);
}

Module *compile_add_text(Compilation *c, const char *path, const char *text, size_t len,
                         PackageKind package)
{
    uint32_t file = source_add_text(&c->sources, path, text, len);
    if (file == UINT32_MAX)
        return NULL;
    return add_module(c, file, path, path, package);
}

Module *compile_std_gpu(Compilation *c, Span use)
{
    if (c->std_gpu || c->std_failed)
        return c->std_gpu;
    if (c->options.nostd) {
        c->std_failed = true;
        return NULL;
    }
    if (c->options.std_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/gpu.silk", c->options.std_dir);
        c->std_gpu = compile_load(c, path, "std/gpu", PKG_STD);
        if (!c->std_gpu && errno == EFBIG)
            diag_error(&c->diag, use,
                       "cannot read the standard library %s: larger than the %d MiB limit", path,
                       READ_FILE_CODE_LIMIT_MIB);
        else if (!c->std_gpu)
            diag_error(&c->diag, use, "cannot read the standard library %s: %s", path,
                       strerror(errno));
    } else {
        uint32_t file = source_add_text(&c->sources, "<std/gpu.silk>", silk_builtin_std_gpu,
                                        strlen(silk_builtin_std_gpu));
        c->std_gpu = add_module(c, file, "<std/gpu.silk>", "std/gpu", PKG_STD);
    }
    c->std_failed = c->std_gpu == NULL;
    return c->std_gpu;
}

/* Checking a module that did not parse would only echo its syntax errors. */
static bool syntax_errors_in_imports(const Compilation *c)
{
    for (uint32_t i = 0; i < c->n_modules; i++)
        if (c->modules[i]->syntax_errors)
            return true;
    return false;
}

/* ---- the pipeline ------------------------------------------------------------ */

void compile_shared_limit_text(const SharedLimit *limit, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%llu", (unsigned long long)limit->bytes);
    if (n > 0 && (size_t)n < size && limit->bytes % 1024 == 0)
        n += snprintf(buf + n, size - (size_t)n, " (%llu KiB)", (unsigned long long)limit->bytes / 1024);
    if (n > 0 && (size_t)n < size && limit->target)
        snprintf(buf + n, size - (size_t)n, " on %s", limit->target);
}

int compile_check(Compilation *c)
{
    if (c->diag.errors > 0) /* syntax errors: names and types would only echo them */
        return c->diag.errors;
    Checker k = {.c = c, .arena = c->arena, .diag = &c->diag};
    /* Imports load more modules (declared as they arrive), so the list
     * grows while it is walked. */
    for (uint32_t i = 0; i < c->n_modules; i++) {
        if (!c->modules[i]->scope)
            sema_declare_module(&k, c->modules[i]);
        sema_resolve_imports(&k, c->modules[i]);
    }
    if (syntax_errors_in_imports(c))
        return c->diag.errors;
    for (uint32_t i = 0; i < c->n_modules; i++)
        sema_check_signatures(&k, c->modules[i]);
    for (uint32_t i = 0; i < c->n_modules && !diag_too_many(&c->diag); i++)
        sema_check_bodies(&k, c->modules[i]);
    return c->diag.errors;
}

void compile_dump(const Compilation *c, FILE *out)
{
    for (uint32_t i = 0; i < c->n_modules; i++)
        if (c->modules[i]->package == PKG_ROOT)
            ast_dump(c->modules[i]->tree, &c->sources, out);
}
