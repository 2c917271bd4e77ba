/*
 * silkgen.h: the pieces of silkgen, the random Silk program generator
 * (silkgen.c says what it writes and why it is free of undefined
 * behaviour).  The files share one generator state, Gen:
 *
 *   silkgen.c         options, the kernel's plan and parameters, the exec
 *                     line, the host launch, the output
 *   silkgen_text.c    the seed's random stream, growing text, the types
 *   silkgen_expr.c    typed expressions, literals, the safe helpers
 *   silkgen_stmt.c    statements: declarations, assignments, branches,
 *                     loops, atomics, scopes and their checksums
 *   silkgen_cta.c     what the whole CTA does together: shared-memory
 *                     exchanges, warp collectives, tiles
 */
#ifndef SILKGEN_H
#define SILKGEN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the seed's one random stream (splitmix64: the same numbers on every
 * machine, unlike rand()) ---------------------------------------------------- */

typedef struct Rng {
    uint64_t state;
} Rng;

uint64_t rng_next(Rng *r);
uint32_t rng_below(Rng *r, uint32_t n);    /* 0 .. n-1; 0 when n is 0 */
int rng_range(Rng *r, int lo, int hi);      /* lo .. hi, both included */
bool rng_percent(Rng *r, unsigned percent); /* true that often */

/* ---- text that grows ------------------------------------------------------------- */

typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void text_vprintf(Text *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void text_append(Text *t, const Text *u);
void text_free(Text *t);

/* ---- Silk's scalar types ------------------------------------------------------------ */

typedef enum Ty {
    TY_BOOL,
    TY_I8, TY_I16, TY_I32, TY_I64,
    TY_U8, TY_U16, TY_U32, TY_U64,
    TY_F16, TY_F32, TY_F64,
    TY_COUNT
} Ty;

const char *ty_name(Ty t);
int ty_bits(Ty t);
bool ty_is_int(Ty t);
bool ty_is_signed(Ty t);
bool ty_is_float(Ty t);
/* Whether a literal of this type may carry its suffix (42u64): Silk's
 * suffixes are i32 i64 u32 u64 f32 f64. */
bool ty_has_suffix(Ty t);

/* ---- the generator ------------------------------------------------------------------ */

enum { MAX_VARS = 512, MAX_PARAMS = 32, MAX_HELPERS = 12, MAX_LOOPS = 16 };

typedef struct Var {
    char name[24];
    Ty ty;
    bool is_mutable;  /* a var (assignable unless a counter) */
    bool is_counter;  /* a loop's counter: only the loop changes it */
    bool is_const;    /* a let of a constant: silkc evaluates what uses it */
    bool is_uniform;  /* one value in every thread of the CTA */
    bool is_loop_var; /* a for loop's variable: never reported unused */
    unsigned reads;
    int depth;
} Var;

/* A kernel parameter, and how the exec line binds it. */
typedef enum ParamRole {
    P_EXTENT,   /* u64 n or m: an extent of tensors, --arg COUNT */
    P_SCALAR,   /* u64 value the body reads, --arg VALUE */
    P_INPUT,    /* tensor read anywhere, never written */
    P_OUTPUT,   /* tensor<T>[n, ...]: row gid written by thread gid only */
    P_MAP,      /* tensor<T>[n]: element j written by thread j % size only */
    P_ACC,      /* tensor<T>[K]: one integer atomic (add, min or max) only */
    P_TILE_IN,  /* tensor<T>[R, C] of constant extents, read by tiles */
    P_TILE_OUT  /* tensor<T>[rows, C]: the view of CTA c written by CTA c */
} ParamRole;

typedef struct Param {
    char name[24];
    ParamRole role;
    Ty elem;          /* u64 for a scalar */
    int rank;         /* 0 for a scalar */
    int extent_param[2]; /* the extent's parameter, or -1 for a constant */
    uint64_t extent[2];  /* a constant extent */
    uint64_t value;   /* a scalar's value */
    const char *init; /* a tensor's INIT: "random" or a number */
    const char *atomic; /* an accumulator's one atomic: add, min or max */
} Param;

/* Limits that --size chooses. */
typedef struct Size {
    const char *name;
    int top_stmts;     /* statements of the kernel's body */
    int block_stmts;   /* of a nested block */
    int nest;          /* blocks inside blocks */
    int expr_depth;
    int max_inputs;
    int max_helpers;
    int max_threads;   /* the largest @launch */
    int max_ctas;
} Size;

typedef struct Helper {
    char name[24];
    Ty result;
    Ty params[3];
    int n_params;
} Helper;

typedef struct Gen {
    Rng rng;
    const Size *size;
    Text *out;
    int indent;

    /* the kernel's plan */
    char kernel[24];
    int threads, ctas;  /* @launch threads, CTAs of the grid */
    uint64_t n;         /* the per-thread outputs' extent */
    bool persistent;
    int min_blocks;     /* @launch's second argument, or 0 */
    int max_regs;       /* its third, or 0 */
    int smem;           /* @smem's bytes, or 0 */
    Param params[MAX_PARAMS];
    int n_params;
    int p_n;            /* index of the parameter n */

    /* what is in scope */
    Var vars[MAX_VARS];
    int n_vars;
    int scope_base;     /* a helper sees only the variables from here */
    int depth;          /* of blocks */
    const char *gid_index; /* a name in range 0..n-1 for this thread */

    /* where the code stands */
    bool uniform_cf;    /* every thread of the CTA is here together */
    bool collective_ok; /* ...and every expression here is evaluated by all */
    bool in_helper;
    int loops;          /* loops around this point */
    bool loop_uniform[MAX_LOOPS];

    /* helpers written so far, and the safe conversions and divisions used */
    Helper helpers[MAX_HELPERS];
    int n_helpers;
    Text helper_text;
    unsigned need_to_int;   /* bit per Ty: to_T(x: f64) -> T */
    unsigned need_div;      /* bit per Ty: div_T and rem_T */
    unsigned counter;       /* for fresh names */
    int shared_bytes;       /* of the shared arrays declared (silkgen_cta.c) */

    /* which features this seed turns on */
    bool use_shared, use_warp, use_tiles, use_atomics, use_helpers, use_map;
    bool use_f16;
} Gen;

/* silkgen.c: parameters made as the body asks for them */
int gen_param_input(Gen *g, Ty elem);          /* an input that index n reaches, or a gather */
int gen_param_acc(Gen *g);
int gen_param_tile_in(Gen *g, Ty elem, uint64_t rows, uint64_t cols);
int gen_param_tile_out(Gen *g, Ty elem, uint64_t rows, uint64_t cols);
int gen_param_scalar(Gen *g);
int gen_param_output(Gen *g, Ty elem, int cols, ParamRole role);

/* writing */
void gen_line(Gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gen_put(Gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gen_fresh(Gen *g, char *buf, size_t cap, const char *prefix);

/* silkgen_expr.c */
typedef struct Want {
    bool nonconst; /* not a constant expression (silkc would evaluate it) */
    bool uniform;  /* the same in every thread of the CTA */
} Want;

typedef struct Ex {
    bool is_const;
    bool is_uniform;
} Ex;

Ex expr(Gen *g, Ty t, int depth, Want w);
Ex expr_any(Gen *g, Ty t);             /* at the size's depth */
Ex expr_nonconst(Gen *g, Ty t, int depth);
void expr_literal(Gen *g, Ty t);
void expr_small_literal(Gen *g, Ty t, int lo, int hi);
Ty ty_random(Gen *g);                  /* any number type this seed uses */
Ty ty_random_buffer(Gen *g);           /* ... that a tensor may have (silkgen.c) */
Ty ty_random_any(Gen *g);              /* ... or bool */
void expr_index(Gen *g, int param, int dim, bool uniform); /* in range by construction */
void expr_convert_var(Gen *g, const Var *v, Ty to);
void expr_write_helpers(Gen *g, Text *out);

/* silkgen_stmt.c */
Var *var_declare(Gen *g, const char *name, Ty t, bool is_mutable, Ex init);
Var *var_pick(Gen *g, Ty t, bool assignable, bool uniform);
Var *var_pick_any(Gen *g, bool assignable);
void scope_open(Gen *g);
void scope_close(Gen *g);            /* checksums what the block declared */
void stmt_block(Gen *g, int n);      /* n statements, then the checksums */
void stmt_one(Gen *g);
void stmt_checksum(Gen *g, const Var *v);
void stmt_helper(Gen *g, Helper *h); /* writes h into g->helper_text */

/* silkgen_cta.c: only where uniform_cf holds */
void cta_shared_exchange(Gen *g);
void cta_shared_atomics(Gen *g);
void cta_warp(Gen *g);
void cta_tiles(Gen *g);
bool cta_collective_expr(Gen *g, Ty t); /* a shuffle or ballot, when one fits */

#endif
