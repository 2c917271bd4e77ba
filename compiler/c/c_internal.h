/*
 * c_internal.h: what the host target's files share (compiler/c/):
 *
 *   c_program.c    the translation unit, part by part, and the C main
 *   c_table.c      the kernels inside it: PTX literals, the program table
 *   c_occupancy.c  the resident CTAs of a @persistent kernel on the
 *                  emulated device
 *   c_names.c      C names: of host functions, locals, places
 *   c_func.c       one host function: its signature and statements
 *   c_expr.c       expressions, in the device's semantics, operands with
 *                  effects in order
 *   c_std.c        std/gpu (its functions, methods, fields), print and
 *                  println, launch blocks
 *   c_task.c       async and task calls: a closure and a start function
 */
#ifndef SILK_C_INTERNAL_H
#define SILK_C_INTERNAL_H

#include "c/c.h"
#include "escape.h" /* outside text in the C: escape_fputs_comment, _c_string */
#include "sema.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A C identifier given to a Silk symbol of the function being written. */
typedef struct CLocal {
    const Symbol *symbol;
    const char *name;
    uint32_t reads;            /* its uses other than as an assignment's target */
} CLocal;

/* A place in the source the runtime is told about (SilkSite). */
typedef struct CSite {
    const char *name;          /* silk_at_saxpy_27_11 */
    const char *file;
    uint32_t line, col;
} CSite;

/* An operand already evaluated into a temporary (c_expr.c). */
typedef struct CTemp {
    const Node *node;
    const char *name;
} CTemp;

/* A set of strings (C names taken), open addressing. */
typedef struct CNameSet {
    const char **slots;
    uint32_t capacity, count;
} CNameSet;

typedef struct CEmit {
    Compilation *c;
    Arena *arena;
    Diag *diag;
    FILE *out;                 /* where the function being written goes */
    bool ok;
    /* the program */
    const FuncInfo **funcs;    /* every host function */
    const char **func_names;   /* and its C name */
    bool *started;             /* and whether a call starts it (an async or task
                                * fn called): it then needs its closure */
    uint32_t n_funcs;
    CSite *sites;
    uint32_t n_sites;
    CNameSet site_names;
    /* the function being written */
    const FuncInfo *func;
    CLocal *locals;            /* open addressing, keyed by symbol */
    uint32_t locals_capacity;
    CNameSet names;            /* its C names */
    uint32_t temps;            /* silk_t1, silk_t2, ... */
    int indent;
    const char *metadata;      /* the attr(...) of the statement being written */
    CTemp *subst;              /* operands the expression being written reads from
                                * temporaries */
    uint32_t n_subst;
} CEmit;

/* ---- c_names.c ---------------------------------------------------------------------- */

bool c_names_add(CEmit *e, CNameSet *set, const char *name);
bool c_names_has(const CNameSet *set, const char *name);
/* `name` as a C identifier that neither C, the headers nor the generated
 * code use: itself, or with '_' appended (see c_names.c). */
const char *c_safe_name(CEmit *e, const char *name);
/* The C name of host function `decl`. */
const char *c_func_name(const CEmit *e, const Node *decl);
/* Gives every parameter and local of the function `f` its C name and
 * counts its reads; the function's map is reset first. */
void c_names_function(CEmit *e, const FuncInfo *f);
/* The function's entry for `symbol` (a parameter, local or loop variable). */
const CLocal *c_local(const CEmit *e, const Symbol *symbol);
/* A new temporary of the function: silk_<what><N> (silk_t1, silk_end2). */
const char *c_temp(CEmit *e, const char *what);
/* The SilkSite of the place `at`, declared at the top of the program
 * (&NAME is what a call passes). */
const char *c_site(CEmit *e, Span at);

/* ---- c_expr.c ----------------------------------------------------------------------- */

/* C's binding strength of an expression: 15 primary or postfix, 14 unary
 * or cast, 13 * / %, 12 + -, 11 shifts, 10 relations, 9 equality, 8 &,
 * 7 ^, 6 |, 5 &&, 4 ||; an operand of a context tighter than its own is
 * parenthesized. */
enum { C_PRIMARY = 15, C_UNARY = 14, C_ANY = 2 };

/* Writes expression `n` to e->out, parenthesized when it binds looser
 * than `context`. */
void c_expr(CEmit *e, const Node *n, int context);
/* The C type of `t` ("uint64_t", "SilkBuffer"); reports (and returns
 * "int") what has none. */
const char *c_type(CEmit *e, const Type *t, Span at);
/* Whether evaluating `n` can have an effect (a call of a function, a
 * launch), so that its order against another such operand matters. */
bool c_has_effects(CEmit *e, const Node *n);
/* Writes an expression whose operands are the n `operands`, in order:
 * `write` writes it (in `context`).  When more than one operand has
 * effects, all but the last of those are first evaluated into
 * temporaries, in order, in a statement expression, and `write` reads
 * them from there (c_expr knows them). */
typedef void CWriter(CEmit *e, const void *what, int context);
void c_sequenced(CEmit *e, const Node *const *operands, uint32_t n, CWriter *write,
                 const void *what, int context);
/* A literal of integer type `t` with the bits `value`. */
void c_int_literal(CEmit *e, const Type *t, uint64_t value);

/* ---- c_std.c ------------------------------------------------------------------------ */

/* A call of a std/gpu function (`decl` its declaration) or method. */
void c_std_call(CEmit *e, const Node *call, const Node *decl);
void c_std_method(CEmit *e, const Node *call, const Symbol *method);
/* print(...) or println(...). */
void c_print(CEmit *e, const Node *call);
/* A launch block: its silkrt_dispatch call (an expression). */
void c_launch(CEmit *e, const Node *launch);
/* The metadata text of statement `s`'s attr(...) prefix ("label=hot"),
 * or NULL. */
const char *c_metadata(CEmit *e, const Node *s);

/* ---- c_func.c ----------------------------------------------------------------------- */

/* The prototype of host function `f` ("int32_t silk_fn_main(void)"). */
void c_prototype(CEmit *e, const FuncInfo *f, FILE *out);
/* Writes host function `f` to e->out. */
void c_function(CEmit *e, const FuncInfo *f);

/* ---- c_task.c ----------------------------------------------------------------------- */

/* The closure and start function of async or task fn `f`. */
void c_task_helpers(CEmit *e, const FuncInfo *f, FILE *out);
/* The C name of the function that starts a call of `decl`. */
const char *c_task_start_name(CEmit *e, const Node *decl);

/* ---- c_table.c, c_occupancy.c --------------------------------------------------------- */

void c_kernel_code(const CProgram *p, FILE *out);
void c_program_table(CEmit *e, const CProgram *p, FILE *out);
/* The resident CTAs per SM of persistent kernel `f` on the emulated
 * device `arch`, at its thread count (at least 1). */
uint32_t c_resident_ctas(const ArchLimits *arch, const IrFunc *f, const UsageReport *emulated);
/* Whether IR kernel `f` is @persistent (its hidden last parameter). */
bool c_is_persistent(const IrFunc *f);

/* ---- shared helpers ---------------------------------------------------------------------- */

char *c_format(CEmit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void c_line(CEmit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void c_error(CEmit *e, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The function a call's callee names, when it is one (a host or std fn). */
const Symbol *c_callee(const Node *call);
/* Whether `decl` is an async or task fn (or both). */
bool c_is_task(const Node *decl);

#endif
