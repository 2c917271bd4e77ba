/*
 * builtins.c: the names Silk provides without a declaration — the device
 * built-ins of language.md section 5, the host's print, and the fields of
 * ctx.  Their typing rules live in sema_expr.c; this is the list.
 */
#include "sema.h"

#include <string.h>

static const Builtin builtins[] = {
    {"sync", BUILTIN_DEVICE, 0, 0, "sync()"},
    {"shfl", BUILTIN_DEVICE, 2, 2, "shfl(x, lane)"},
    {"shfl_down", BUILTIN_DEVICE, 2, 2, "shfl_down(x, delta)"},
    {"shfl_up", BUILTIN_DEVICE, 2, 2, "shfl_up(x, delta)"},
    {"shfl_xor", BUILTIN_DEVICE, 2, 2, "shfl_xor(x, mask)"},
    {"ballot", BUILTIN_DEVICE, 1, 1, "ballot(predicate)"},
    {"atomic_add", BUILTIN_DEVICE, 2, 2, "atomic_add(t[i], v)"},
    {"atomic_min", BUILTIN_DEVICE, 2, 2, "atomic_min(t[i], v)"},
    {"atomic_max", BUILTIN_DEVICE, 2, 2, "atomic_max(t[i], v)"},
    {"atomic_exch", BUILTIN_DEVICE, 2, 2, "atomic_exch(t[i], v)"},
    {"atomic_cas", BUILTIN_DEVICE, 3, 3, "atomic_cas(t[i], expected, v)"},
    {"min", BUILTIN_DEVICE, 1, 2, "min(a, b) or min(tile)"},
    {"max", BUILTIN_DEVICE, 1, 2, "max(a, b) or max(tile)"},
    {"sum", BUILTIN_DEVICE, 1, 1, "sum(tile)"},
    {"abs", BUILTIN_DEVICE, 1, 1, "abs(x)"},
    {"sqrt", BUILTIN_DEVICE, 1, 1, "sqrt(x)"},
    {"rsqrt", BUILTIN_DEVICE, 1, 1, "rsqrt(x)"},
    {"exp", BUILTIN_DEVICE, 1, 1, "exp(x)"},
    {"log", BUILTIN_DEVICE, 1, 1, "log(x)"},
    {"sin", BUILTIN_DEVICE, 1, 1, "sin(x)"},
    {"cos", BUILTIN_DEVICE, 1, 1, "cos(x)"},
    {"floor", BUILTIN_DEVICE, 1, 1, "floor(x)"},
    {"ceil", BUILTIN_DEVICE, 1, 1, "ceil(x)"},
    {"fma", BUILTIN_DEVICE, 3, 3, "fma(a, b, c)"},
    {"load", BUILTIN_DEVICE, 1, 1, "load<T>(address)"},
    {"store", BUILTIN_DEVICE, 2, 2, "store<T>(address, value)"},
    /* The quantized GEMM tile built-ins: c = <fmt>_qgemm_t(a, b, scale). */
    {"int8_qgemm_t", BUILTIN_DEVICE, 3, 3, "int8_qgemm_t(a, b, scale)"},
    {"int4_qgemm_t", BUILTIN_DEVICE, 3, 3, "int4_qgemm_t(a, b, scale)"},
    {"fp8_qgemm_t", BUILTIN_DEVICE, 3, 3, "fp8_qgemm_t(a, b, scale)"},
    {"fp4_qgemm_t", BUILTIN_DEVICE, 3, 3, "fp4_qgemm_t(a, b, scale)"},
    {"print", BUILTIN_HOST, 0, 64, "print(values...)"},
    {"println", BUILTIN_HOST, 0, 64, "println(values...)"},
};

const Builtin *builtin_find(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        if (builtins[i].name[0] == name[0] && strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

/* language.md section 5: ctx's fields and their types. */
Type *builtin_ctx_field_type(const char *field)
{
    static const struct {
        const char *name;
        TypeKind type;
    } fields[] = {
        {"threads", TY_U32}, {"warps", TY_U32}, {"lanes", TY_U32}, {"tid", TY_U32},
        {"lane", TY_U32},    {"warp", TY_U32},  {"cta", TY_U64},   {"ctas", TY_U64},
        {"gid", TY_U64},     {"size", TY_U64},  {"sms", TY_U32},
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strcmp(fields[i].name, field) == 0)
            return type_scalar(fields[i].type);
    return NULL;
}
