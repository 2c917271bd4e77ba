/*
 * size_expr.h: a size that depends on the block size, as in
 * silk-occ report --dyn-smem '4*threads+256'.  The grammar:
 *
 *   expr   := term { ('+' | '-') term }
 *   term   := factor { ('*' | '/') factor }
 *   factor := number | 'threads' | 'warps' | '(' expr ')'
 *   number := digits [ K | KiB | M | MiB | B ]   (any case, as --smem 12K)
 *
 * Blanks may separate tokens; there is no unary minus, since a size is
 * never negative.  An expression is parsed once and evaluated for each
 * block size, in unsigned 64-bit arithmetic with every step checked.
 * Messages are one line that starts "1:COLUMN: ", counting bytes from 1.
 */
#ifndef SILK_SIZE_EXPR_H
#define SILK_SIZE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SIZE_EXPR_MAX_DEPTH = 64,  /* parentheses nested at most this deep */
    SIZE_EXPR_MAX_NODES = 256, /* numbers, names and operators in all */
    SIZE_EXPR_ERROR_SIZE = 192 /* a buffer this long holds any message */
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

/* Whether e names neither threads nor warps (one value for every block). */
bool size_expr_is_constant(const SizeExpr *e);

void size_expr_free(SizeExpr *e);

#endif
