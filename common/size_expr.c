/*
 * size_expr.c: a recursive-descent parser for the grammar in size_expr.h
 * into a fixed array of nodes, children before parents, and an evaluator
 * that walks that array in order, so that evaluating needs no recursion
 * however long the expression.  Only parentheses make the parser recurse,
 * and their depth is bounded.
 */
#include "size_expr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum NodeKind {
    NODE_NUMBER,
    NODE_THREADS,
    NODE_WARPS,
    NODE_ADD,
    NODE_SUB,
    NODE_MUL,
    NODE_DIV
} NodeKind;

/* An operator's operands are earlier nodes; column is where its token is. */
typedef struct Node {
    NodeKind kind;
    size_t lhs, rhs, column;
    uint64_t value;
} Node;

/* The root is the last node. */
struct SizeExpr {
    size_t n;
    Node nodes[SIZE_EXPR_MAX_NODES];
};

typedef struct Parser {
    const char *text;
    size_t pos;
    size_t prev, prev_len; /* the last token taken, for "after '...'" */
    int depth;
    SizeExpr *e;
    char *error;
    size_t error_size;
} Parser;

static const char OPERAND[] = "expected a number, 'threads', 'warps' or '('";

/* Tokens are quoted in messages up to this many bytes, so that every
 * message fits SIZE_EXPR_ERROR_SIZE. */
static int quoted(size_t len)
{
    return len > 40 ? 40 : (int)len;
}

__attribute__((format(printf, 3, 4))) static void message(char *buf, size_t size, const char *fmt,
                                                          ...)
{
    if (size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/* Reports a parse error at byte offset at; always false. */
__attribute__((format(printf, 3, 4))) static bool fail(Parser *p, size_t at, const char *fmt, ...)
{
    char reason[SIZE_EXPR_ERROR_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    message(p->error, p->error_size, "1:%zu: %s", at + 1, reason);
    return false;
}

static void skip_blanks(Parser *p)
{
    while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')
        p->pos++;
}

static void take(Parser *p, size_t start, size_t len)
{
    p->prev = start;
    p->prev_len = len;
    p->pos = start + len;
}

static bool add_node(Parser *p, Node node, size_t *index)
{
    if (p->e->n == SIZE_EXPR_MAX_NODES)
        return fail(p, node.column - 1, "expression too long (more than %d numbers, names and operators)",
                    SIZE_EXPR_MAX_NODES);
    *index = p->e->n;
    p->e->nodes[p->e->n++] = node;
    return true;
}

/* The scale of a unit after a number, as parse_size takes it; 0 if none. */
static uint64_t unit_scale(const char *unit, size_t len)
{
    static const struct {
        const char *name;
        uint64_t scale;
    } units[] = {{"", 1}, {"B", 1}, {"K", 1024}, {"KiB", 1024}, {"M", 1048576}, {"MiB", 1048576}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strlen(units[i].name) == len && strncasecmp(unit, units[i].name, len) == 0)
            return units[i].scale;
    return 0;
}

static bool parse_number(Parser *p, size_t *index)
{
    size_t start = p->pos, end = start;
    uint64_t value = 0;
    bool too_large = false;
    for (; isdigit((unsigned char)p->text[end]); end++) {
        unsigned digit = (unsigned)(p->text[end] - '0');
        too_large |= value > (UINT64_MAX - digit) / 10;
        value = value * 10 + digit;
    }
    size_t unit = end;
    while (isalpha((unsigned char)p->text[end]))
        end++;
    uint64_t scale = unit_scale(p->text + unit, end - unit);
    if (scale == 0)
        return fail(p, unit, "unknown unit '%.*s' after '%.*s' (use K/KiB or M/MiB)",
                    quoted(end - unit), p->text + unit, quoted(unit - start), p->text + start);
    if (too_large || value > UINT64_MAX / scale)
        return fail(p, start, "'%.*s' is too large", quoted(end - start), p->text + start);
    take(p, start, end - start);
    return add_node(p, (Node){.kind = NODE_NUMBER, .column = start + 1, .value = value * scale},
                    index);
}

static bool parse_name(Parser *p, size_t *index)
{
    size_t start = p->pos, end = start;
    while (isalnum((unsigned char)p->text[end]) || p->text[end] == '_')
        end++;
    size_t len = end - start;
    NodeKind kind;
    if (len == 7 && strncmp(p->text + start, "threads", 7) == 0)
        kind = NODE_THREADS;
    else if (len == 5 && strncmp(p->text + start, "warps", 5) == 0)
        kind = NODE_WARPS;
    else
        return fail(p, start, "unknown name '%.*s' (the names are 'threads' and 'warps')",
                    quoted(len), p->text + start);
    take(p, start, len);
    return add_node(p, (Node){.kind = kind, .column = start + 1}, index);
}

/* Where an operand was due and none is: names what came before. */
static bool fail_operand(Parser *p)
{
    if (p->prev_len == 0 && p->text[p->pos] == '\0')
        return fail(p, 0, "empty expression");
    if (p->prev_len == 0)
        return fail(p, p->pos, "%s at the start", OPERAND);
    return fail(p, p->pos, "%s after '%.*s'", OPERAND, quoted(p->prev_len), p->text + p->prev);
}

static bool parse_expr(Parser *p, size_t *index);

static bool parse_parenthesized(Parser *p, size_t *index)
{
    size_t open = p->pos;
    if (p->depth == SIZE_EXPR_MAX_DEPTH)
        return fail(p, open, "parentheses nested more than %d deep", SIZE_EXPR_MAX_DEPTH);
    take(p, open, 1);
    p->depth++;
    if (!parse_expr(p, index))
        return false;
    p->depth--;
    skip_blanks(p);
    char c = p->text[p->pos];
    if (c == ')') {
        take(p, p->pos, 1);
        return true;
    }
    if (c == '\0')
        return fail(p, p->pos, "missing ')' to close the '(' at 1:%zu", open + 1);
    return fail(p, p->pos, "expected '+', '-', '*', '/' or ')' after '%.*s'",
                quoted(p->prev_len), p->text + p->prev);
}

static bool parse_factor(Parser *p, size_t *index)
{
    skip_blanks(p);
    char c = p->text[p->pos];
    if (isdigit((unsigned char)c))
        return parse_number(p, index);
    if (isalpha((unsigned char)c) || c == '_')
        return parse_name(p, index);
    if (c == '(')
        return parse_parenthesized(p, index);
    if (c == '-')
        return fail(p, p->pos, "unary minus is not allowed (a size is never negative)");
    return fail_operand(p);
}

/* operand { op operand }, left to right, for the two operators ops. */
static bool parse_chain(Parser *p, const char ops[2], const NodeKind kinds[2],
                        bool (*operand)(Parser *, size_t *), size_t *index)
{
    if (!operand(p, index))
        return false;
    for (;;) {
        skip_blanks(p);
        char c = p->text[p->pos];
        if (c == '\0' || (c != ops[0] && c != ops[1])) /* ops[2] is '\0' */
            return true;
        size_t at = p->pos, rhs;
        take(p, at, 1);
        if (!operand(p, &rhs))
            return false;
        Node node = {.kind = kinds[c == ops[1]], .lhs = *index, .rhs = rhs, .column = at + 1};
        if (!add_node(p, node, index))
            return false;
    }
}

static bool parse_term(Parser *p, size_t *index)
{
    return parse_chain(p, "*/", (NodeKind[2]){NODE_MUL, NODE_DIV}, parse_factor, index);
}

static bool parse_expr(Parser *p, size_t *index)
{
    return parse_chain(p, "+-", (NodeKind[2]){NODE_ADD, NODE_SUB}, parse_term, index);
}

SizeExpr *size_expr_parse(const char *text, char *error, size_t error_size)
{
    Parser p = {.text = text, .error = error, .error_size = error_size};
    p.e = calloc(1, sizeof *p.e);
    if (!p.e) {
        message(error, error_size, "out of memory");
        return NULL;
    }
    size_t root;
    bool ok = parse_expr(&p, &root);
    if (ok && p.text[p.pos] == ')')
        ok = fail(&p, p.pos, "')' without a matching '('");
    else if (ok && p.text[p.pos] != '\0')
        ok = fail(&p, p.pos, "expected '+', '-', '*', '/' or the end after '%.*s'",
                  quoted(p.prev_len), p.text + p.prev);
    if (!ok) {
        free(p.e);
        return NULL;
    }
    return p.e;
}

/* One operator on a and b, into *out; false with the reason otherwise. */
static bool apply(const Node *node, uint64_t a, uint64_t b, uint64_t *out, char *error,
                  size_t error_size)
{
    unsigned long long x = a, y = b;
    switch (node->kind) {
    case NODE_ADD:
        if (a > UINT64_MAX - b)
            break;
        *out = a + b;
        return true;
    case NODE_SUB:
        if (a < b) {
            message(error, error_size, "1:%zu: %llu - %llu is negative", node->column, x, y);
            return false;
        }
        *out = a - b;
        return true;
    case NODE_MUL:
        if (b != 0 && a > UINT64_MAX / b)
            break;
        *out = a * b;
        return true;
    default:
        if (b == 0) {
            message(error, error_size, "1:%zu: division by zero (%llu / 0)", node->column, x);
            return false;
        }
        *out = a / b;
        return true;
    }
    message(error, error_size, "1:%zu: %llu %c %llu overflows 64 bits", node->column, x,
            node->kind == NODE_ADD ? '+' : '*', y);
    return false;
}

bool size_expr_eval(const SizeExpr *e, long long threads, long long warps, uint64_t *out,
                    char *error, size_t error_size)
{
    if (threads < 0 || warps < 0) {
        message(error, error_size, "%s is negative (%lld)", threads < 0 ? "threads" : "warps",
                threads < 0 ? threads : warps);
        return false;
    }
    uint64_t values[SIZE_EXPR_MAX_NODES];
    for (size_t i = 0; i < e->n; i++) {
        const Node *node = &e->nodes[i];
        if (node->kind == NODE_NUMBER)
            values[i] = node->value;
        else if (node->kind == NODE_THREADS)
            values[i] = (uint64_t)threads;
        else if (node->kind == NODE_WARPS)
            values[i] = (uint64_t)warps;
        else if (!apply(node, values[node->lhs], values[node->rhs], &values[i], error, error_size))
            return false;
    }
    *out = values[e->n - 1];
    return true;
}

bool size_expr_is_constant(const SizeExpr *e)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->nodes[i].kind == NODE_THREADS || e->nodes[i].kind == NODE_WARPS)
            return false;
    return true;
}

void size_expr_free(SizeExpr *e)
{
    free(e);
}
