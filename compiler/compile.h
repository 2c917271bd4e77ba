/*
 * compile.h: one compilation — its memory, sources, diagnostics, options
 * and modules — and the front end's pipeline:
 *
 *   load (lex, parse) each root file -> resolve imports (loading what they
 *   name) -> declare every module's names -> check every function
 *
 * A later phase never runs on input an earlier phase rejected.
 */
#ifndef SILK_COMPILE_H
#define SILK_COMPILE_H

#include "ast.h"
#include "diag.h"
#include "source.h"

#include <stddef.h>
#include <stdint.h>

typedef struct Scope Scope;

/* The static shared memory one kernel may have, in bytes: the lowest of
 * the build's targets' table rows (Backend.shared_limit: 48 KiB on every
 * NVIDIA target, 64 KiB of LDS on AMD's), and the first target with it;
 * with no target named (silkc check), the lowest any target allows, and
 * target NULL.  Only dynamic shared memory, @smem, may pass it.  Checked
 * for a function's own `shared` arrays by the front end, and for each
 * kernel as lowered (its tiles' and reductions' arrays too) by the build;
 * build_run sets it before either (bytes 0: not checked). */
typedef struct SharedLimit {
    uint64_t bytes;
    const char *target;
} SharedLimit;

/* "49152 (48 KiB) on sm_90": the limit as the messages give it. */
void compile_shared_limit_text(const SharedLimit *limit, char *buf, size_t size);

typedef enum PackageKind {
    PKG_ROOT,       /* the files given to the compiler, and what they import by "./" */
    PKG_DEPENDENCY, /* import ... from "pkg/mod": pkg/mod.silk under an -I directory */
    PKG_STD,        /* import ... from "std/gpu": the standard library */
} PackageKind;

typedef struct Module {
    const char *path;    /* as opened */
    const char *key;     /* its real path: one module per file */
    const char *import_name; /* "std/gpu", "pkg/mod", or the path */
    PackageKind package;
    uint32_t file;
    Node *tree;
    Scope *scope;        /* its top-level declarations and imports */
    bool syntax_errors;  /* lexing or parsing it reported errors */
} Module;

typedef struct CompileOptions {
    const char **include_dirs; /* -I */
    int n_include_dirs;
    const char *std_dir;       /* where std/gpu.silk lives */
    bool nostd;
    bool dump_ast;
    bool bounds_checks; /* lowering checks each index against its extent (IR_CHECK) */
    bool race_checks;   /* silkc exec --race: lowering checks each read of a var
                         * declared without a value (IR_ASSIGNED), and the CPU
                         * backend tracks shared memory (IrModule.race_checks) */
} CompileOptions;

typedef struct Compilation {
    Arena *arena;
    SourceMap sources;
    Diag diag;
    CompileOptions options;
    Module **modules;
    uint32_t n_modules;
    Module *std_gpu;     /* loaded on first use (import, launch block) */
    bool std_failed;     /* std/gpu could not be loaded: reported once */
    SharedLimit shared_limit; /* set by build_run */
} Compilation;

/* A compilation at `c`, which stays where it is: running out of memory in
 * its arena is said through c->diag (arena_on_failure). */
void compile_init(Compilation *c, FILE *diagnostics);
void compile_free(Compilation *c);

/* Reads, lexes and parses a file as a module of `package`; NULL (with the
 * reason reported or, for the command line's own files, returned in errno)
 * when it cannot be read. */
Module *compile_load(Compilation *c, const char *path, const char *import_name,
                     PackageKind package);

/* The same from text in memory (the fuzz target; tests). */
Module *compile_add_text(Compilation *c, const char *path, const char *text, size_t len,
                         PackageKind package);

/* The standard library's gpu module, loading it on first use; NULL with
 * --nostd or when it cannot be found (reported once, at `use`). */
Module *compile_std_gpu(Compilation *c, Span use);

/* The front end on the root files already loaded: imports, names, types,
 * the seeds' rules.  Returns the number of errors. */
int compile_check(Compilation *c);

/* The trees of the root package's files, typed as far as checking went. */
void compile_dump(const Compilation *c, FILE *out);

#endif
