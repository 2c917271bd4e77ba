/*
 * types.h: Silk's types.  Scalars are shared singletons; composite types
 * (tensors, tiles, shared arrays, the std structs, functions) are made in
 * the compilation's arena.  TY_ERROR is the type of an expression that
 * already had an error: every check accepts it silently, so one mistake
 * gives one message.
 */
#ifndef SILK_TYPES_H
#define SILK_TYPES_H

#include "ast.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum TypeKind {
    TY_ERROR,
    TY_VOID,
#define SCALAR(e, name, class, bits) TY_##e,
#include "types.def"
#undef SCALAR
    TY_STR,
    TY_TENSOR, /* a row-major view of global memory; ABI: one u64 address */
    TY_TILE,   /* a CTA-wide array value with constant extents */
    TY_ARRAY,  /* a `shared` array */
    TY_STRUCT, /* a std type: DispatchResult, Buffer */
    TY_FUNC,
    TY_CTX,    /* the `ctx` object of device code */
} TypeKind;

enum { TYPE_MAX_DIMS = 8 };

typedef struct Field {
    const char *name;
    Type *type;
} Field;

struct Type {
    TypeKind kind;
    const char *name;        /* TY_STRUCT */
    Type *elem;              /* TY_TENSOR, TY_TILE, TY_ARRAY */
    int rank;
    Node *extents[TYPE_MAX_DIMS]; /* TY_TENSOR: constants or parameter names */
    int64_t dims[TYPE_MAX_DIMS];  /* constant extents (-1: a parameter's value) */
    Field *fields;           /* TY_STRUCT */
    int n_fields;
    Type **params;           /* TY_FUNC */
    int n_params;
    Type *result;            /* TY_FUNC */
};

Type *type_scalar(TypeKind kind); /* also TY_ERROR, TY_VOID, TY_STR, TY_CTX */
Type *type_scalar_named(const char *name); /* "u64" -> its type; NULL otherwise */

bool type_is_integer(const Type *t);
bool type_is_signed(const Type *t);
bool type_is_float(const Type *t);
bool type_is_numeric(const Type *t);
int type_bits(const Type *t);
bool type_equal(const Type *a, const Type *b);

/* Whether `value` fits in integer type `t` (as a two's-complement bit
 * pattern when `negative`). */
bool type_int_fits(const Type *t, uint64_t magnitude, bool negative);

/* "u64", "tensor<f32>[n, 4]", "DispatchResult", written to buf. */
const char *type_name(const Type *t, char *buf, size_t size);

#endif
