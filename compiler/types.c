/*
 * types.c: the scalar singletons, type predicates and type names.
 */
#include "types.h"

#include <stdio.h>
#include <string.h>

static Type scalars[] = {
    [TY_ERROR] = {.kind = TY_ERROR, .name = "<error>"},
    [TY_VOID] = {.kind = TY_VOID, .name = "void"},
#define SCALAR(e, n, class, bits) [TY_##e] = {.kind = TY_##e, .name = n},
#include "types.def"
#undef SCALAR
    [TY_STR] = {.kind = TY_STR, .name = "str"},
    [TY_CTX] = {.kind = TY_CTX, .name = "ctx"},
};

static const struct {
    char class;
    int bits;
} scalar_info[] = {
#define SCALAR(e, n, class, bits) [TY_##e] = {#class[0], bits},
#include "types.def"
#undef SCALAR
};

Type *type_scalar(TypeKind kind) { return &scalars[kind]; }

Type *type_scalar_named(const char *name)
{
    if (strlen(name) > 4) /* every scalar's name is short: most names are not one */
        return NULL;
#define SCALAR(e, n, class, bits) \
    if (strcmp(name, n) == 0)     \
        return &scalars[TY_##e];
#include "types.def"
#undef SCALAR
    if (strcmp(name, "str") == 0)
        return &scalars[TY_STR];
    return NULL;
}

static char class_of(const Type *t)
{
    return t->kind >= TY_BOOL && t->kind <= TY_F64 ? scalar_info[t->kind].class : 0;
}

bool type_is_integer(const Type *t) { return class_of(t) == 'I' || class_of(t) == 'U'; }
bool type_is_signed(const Type *t) { return class_of(t) == 'I'; }
bool type_is_float(const Type *t) { return class_of(t) == 'F'; }
bool type_is_numeric(const Type *t) { return type_is_integer(t) || type_is_float(t); }
int type_bits(const Type *t) { return class_of(t) ? scalar_info[t->kind].bits : 0; }

bool type_equal(const Type *a, const Type *b)
{
    if (a == b)
        return true;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_TENSOR: case TY_TILE: case TY_ARRAY:
        if (a->rank != b->rank || !type_equal(a->elem, b->elem))
            return false;
        for (int i = 0; i < a->rank; i++)
            if (a->dims[i] != b->dims[i])
                return false;
        return true;
    case TY_STRUCT:
        return strcmp(a->name, b->name) == 0;
    default:
        return false;
    }
}

bool type_int_fits(const Type *t, uint64_t magnitude, bool negative)
{
    int bits = type_bits(t);
    if (type_is_signed(t)) {
        uint64_t limit = (uint64_t)1 << (bits - 1); /* |min| */
        return negative ? magnitude <= limit : magnitude < limit;
    }
    if (negative)
        return magnitude == 0;
    return bits == 64 || magnitude < ((uint64_t)1 << bits);
}

static void append(char *buf, size_t size, const char *text)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used, "%s", text);
}

const char *type_name(const Type *t, char *buf, size_t size)
{
    char part[64];
    buf[0] = '\0';
    switch (t->kind) {
    case TY_TENSOR: case TY_TILE: case TY_ARRAY:
        if (t->kind != TY_ARRAY) {
            append(buf, size, t->kind == TY_TENSOR ? "tensor<" : "tile<");
            append(buf, size, type_name(t->elem, part, sizeof part));
            append(buf, size, ">[");
        } else {
            append(buf, size, type_name(t->elem, part, sizeof part));
            append(buf, size, "[");
        }
        for (int i = 0; i < t->rank; i++) {
            if (i)
                append(buf, size, ", ");
            if (t->dims[i] >= 0)
                snprintf(part, sizeof part, "%lld", (long long)t->dims[i]);
            else
                snprintf(part, sizeof part, "%s",
                         t->extents[i] && t->extents[i]->name ? t->extents[i]->name : "?");
            append(buf, size, part);
        }
        append(buf, size, "]");
        return buf;
    case TY_FUNC:
        append(buf, size, "function");
        return buf;
    default:
        append(buf, size, t->name);
        return buf;
    }
}
