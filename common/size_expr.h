/*
 * size_expr.h: a size that depends on the block size, as in
 * silk-occ report --dyn-smem '4*threads+256'.  The grammar:
 *
 *   expr   := term { ('+' | '-') term }
 *   term   := factor { ('*' | '/') factor }
 *   factor := number | 'threads' | 'warps' | name | '(' expr ')'
 *   number := digits [ K | KiB | M | MiB | B ]   (any case, as --smem 12K)
 *
 * Blanks may separate tokens; there is no unary minus, since a size is
 * never negative.  An expression is parsed once and evaluated for each
 * block size, in unsigned 64-bit arithmetic with every step checked.
 * Messages are one line that starts "1:COLUMN: ", counting bytes from 1.
 *
 * A caller may give more names (--param BLOCK_M=128, a tuning space's
 * parameters): they are resolved to indexes when the text is parsed, so
 * that an unknown one is an error at its column before anything is
 * evaluated, and take their values at each evaluation (a pruner parses a
 * formula once and evaluates it for every configuration).
 */
#ifndef SILK_SIZE_EXPR_H
#define SILK_SIZE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SIZE_EXPR_MAX_DEPTH = 64,  /* parentheses nested at most this deep */
    SIZE_EXPR_MAX_NODES = 256, /* numbers, names and operators in all */
    SIZE_EXPR_ERROR_SIZE = 384, /* a buffer this long holds any message */
    SIZE_EXPR_MAX_NAME = 32     /* bytes in a caller's name, at most */
};

typedef struct SizeExpr SizeExpr;

/* The expression in text, freed with size_expr_free; NULL with the reason
 * in error (error_size bytes, NUL-terminated) when it is not one. */
SizeExpr *size_expr_parse(const char *text, char *error, size_t error_size);

/* The value of e for a block of threads threads and warps warps, in *out;
 * false with the reason in error when a step divides by zero, goes below
 * zero or past UINT64_MAX ("1:7: 512 - 1024 is negative", at the step's
 * operator), or when threads or warps is negative. */
bool size_expr_eval(const SizeExpr *e, long long threads, long long warps, uint64_t *out,
                    char *error, size_t error_size);

/* The caller's names a text may use besides threads and warps: names[i]
 * takes values[i] at evaluation.  A name is an identifier ([A-Za-z_]
 * then [A-Za-z0-9_]) of at most SIZE_EXPR_MAX_NAME bytes and neither
 * 'threads' nor 'warps' (size_expr_check_name says why not). */
typedef struct SizeNames {
    const char *const *names;
    size_t n;
} SizeNames;

/* As size_expr_parse, with the caller's names (NULL: none).  An unknown
 * name is "1:COLUMN: unknown name 'X' (known: threads, warps, A, ...)",
 * with "; did you mean 'A'?" when one is close. */
SizeExpr *size_expr_parse_names(const char *text, const SizeNames *names, char *error,
                                size_t error_size);

/* As size_expr_eval, with values[i] for the parse's names[i] (NULL when
 * it had none or size_expr_bind gave them values). */
bool size_expr_eval_names(const SizeExpr *e, long long threads, long long warps,
                          const uint64_t *values, uint64_t *out, char *error, size_t error_size);

/* Fixes every caller's name in e to its value in values, so that
 * size_expr_eval (with no values) evaluates it: for a command whose
 * --param values are known once. */
void size_expr_bind(SizeExpr *e, const uint64_t *values);

/* NULL when name may be a caller's name, else why not ("'threads' is a
 * built-in name", "'2x' is not an identifier", ...). */
const char *size_expr_check_name(const char *name);

/* Whether e names neither threads nor warps (one value for every block);
 * a caller's name counts as constant. */
bool size_expr_is_constant(const SizeExpr *e);

void size_expr_free(SizeExpr *e);

#endif
