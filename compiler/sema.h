/*
 * sema.h: what the checker's files share (sema_decl.c, sema_stmt.c,
 * sema_expr.c, sema_launch.c, consteval.c, scope.c, builtins.c).  Not a
 * public interface: the rest of the compiler calls compile_check.
 */
#ifndef SILK_SEMA_H
#define SILK_SEMA_H

#include "arena.h"
#include "compile.h"
#include "types.h"

/* ---- symbols and scopes (scope.c) ------------------------------------------ */

typedef enum SymbolKind {
    SYM_FUNC,   /* a function of a module */
    SYM_STRUCT, /* a std type */
    SYM_LOCAL,  /* let / var */
    SYM_PARAM,
    SYM_SHARED, /* a `shared` array */
    SYM_LOOP,   /* a for loop's variable */
} SymbolKind;

/* A compile-time integer: its bits and the type they are read as. */
typedef struct ConstValue {
    bool known;
    uint64_t bits;
    Type *type;
} ConstValue;

typedef struct FuncInfo {
    Node *decl;
    Module *module;
    bool gpu;          /* kernel, or attr(device=gpu) fn */
    bool launchable;   /* a GPU function returning nothing */
    int reqntid;       /* the fixed CTA size (@launch's threads, or a kernel's
                        * 256), .reqntid in the PTX; 0: each launch's workspace */
    Span reqntid_span; /* @launch's threads argument, when written */
    int min_blocks, max_regs;
    bool has_launch;   /* written @launch */
    bool launch_ok;    /* @launch passed its checks (or is absent) */
    bool persistent;
    uint64_t smem;     /* @smem bytes */
    uint64_t shared_bytes; /* its `shared` arrays so far, laid out as lowering does */
    Type **params;
    int n_params;
    bool varargs;      /* the last parameter repeats (std only) */
    Type *result;      /* TY_VOID when none */
    Scope *scope;      /* the parameters */
    bool checked_signature;
} FuncInfo;

struct Symbol {
    SymbolKind kind;
    const char *name;
    Span span;
    Node *decl;
    Type *type;
    Module *module;
    bool mutable;
    bool read;         /* for -Wunused-variable */
    ConstValue value;  /* an immutable local with a constant initializer */
    FuncInfo *func;    /* SYM_FUNC */
    /* Lowering's cache: 1 + the index of this symbol's latest slot-0 entry
     * in the variable map (lower.c), 0 for none; checked before use. */
    uint32_t lower_entry;
};

typedef struct ScopeEntry ScopeEntry;

struct Scope {
    Scope *parent;
    ScopeEntry *entries;  /* open addressing */
    uint32_t capacity, count;
    Arena *arena;
};

Scope *scope_new(Arena *arena, Scope *parent);
Symbol *scope_find_here(const Scope *s, const char *name);
/* A name whose import failed (already reported): its uses say nothing. */
bool scope_is_poison(const Symbol *s);
Symbol *scope_find(const Scope *s, const char *name);
/* Adds a symbol; returns the one already there under that name, if any
 * (and then adds nothing). */
Symbol *scope_add(Scope *s, Symbol *symbol);
/* Every symbol of a scope, in insertion order. */
Symbol **scope_symbols(const Scope *s, uint32_t *count);
/* Whether any symbol of the scope passes `test` (no allocation). */
bool scope_any(const Scope *s, bool (*test)(const Symbol *));

/* ---- the checker --------------------------------------------------------------- */

typedef struct Checker {
    Compilation *c;
    Arena *arena;
    Diag *diag;
    Module *module;    /* being checked */
    FuncInfo *func;    /* being checked; NULL at the top level */
    Scope *scope;      /* innermost */
    int loops;         /* enclosing loops */
    Node *statement_call; /* the call an expression statement is made of: the one
                           * place a call of an async or task fn may stand */
} Checker;

bool sema_is_std(const Checker *k);

/* "an async fn", "a task fn", "an async task fn" (NULL for other functions):
 * how messages name the kind of a host function that runs on its own. */
const char *sema_host_kind(const Node *fn);

/* sema_decl.c */
void sema_declare_module(Checker *k, Module *m);
Module *sema_std_module(Checker *k, Span use);
void sema_note_std_name(Checker *k, const char *name);
void sema_resolve_imports(Checker *k, Module *m);
void sema_check_signatures(Checker *k, Module *m);
Type *sema_resolve_type(Checker *k, Node *type, bool in_kernel_params);
FuncInfo *sema_function_info(Checker *k, Symbol *fn);

/* sema_stmt.c */
void sema_check_bodies(Checker *k, Module *m);
void sema_check_block(Checker *k, Node *block);

/* sema_expr.c: the type of an expression; `expected` (may be NULL) is the
 * type its context asks for, which unsuffixed literals take. */
Type *sema_check_expr(Checker *k, Node *e, Type *expected);
/* Checks that `e` can be used where `want` is needed; reports otherwise. */
void sema_check_assignable(Checker *k, Node *e, Type *got, Type *want, const char *what);

/* Whether sema_check_assignable would be silent: callers test this before they
 * spend time formatting `what`. */
static inline bool type_accepts(const Type *want, const Type *got)
{
    return got->kind == TY_ERROR || want->kind == TY_ERROR || type_equal(got, want);
}
Symbol *sema_lookup(Checker *k, const char *name);
Type *sema_check_call(Checker *k, Node *call, Type *expected); /* sema_call.c */
/* Whether `e` is made of unsuffixed literals only, and so takes whatever
 * type its context asks for.  The answer is kept in the node. */
bool sema_is_flexible(Node *e);

/* sema_launch.c: a gpu (grid=..., workspace=...) { call(); } block. */
Type *sema_check_launch(Checker *k, Node *launch);
/* Why a function is not a launch target (written to buf when it needs
 * formatting), or NULL when it is one. */
const char *sema_not_launchable(Checker *k, Symbol *fn, char *buf, size_t size);

/* consteval.c: the value of an integer constant expression already typed
 * by sema_check_expr; unknown when it is not constant.  Overflow and division
 * by zero are reported (once). */
ConstValue const_eval(Checker *k, Node *e);
bool const_is_negative(ConstValue v);

/* builtins.c */
typedef enum BuiltinKind { BUILTIN_NONE, BUILTIN_DEVICE, BUILTIN_HOST } BuiltinKind;
typedef struct Builtin {
    const char *name;
    BuiltinKind where;
    int min_args, max_args;
    const char *signature; /* for messages */
} Builtin;
const Builtin *builtin_find(const char *name);
/* The type of ctx.<field> in function `f`, or NULL if there is no such field. */
Type *builtin_ctx_field_type(const char *field);

#endif
