/*
 * size_expr.c: a recursive-descent parser for the grammar in size_expr.h
 * into a fixed array of nodes, children before parents, and an evaluator
 * that walks that array in order, so that evaluating needs no recursion
 * however long the expression.  Only parentheses make the parser recurse,
 * and their depth is bounded.
 */
#include "size_expr.h"

#include "edit_distance.h"

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
    NODE_NAME, /* a caller's name: value is its index in SizeNames */
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
    const SizeNames *names; /* the caller's, or NULL */
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

/* The caller's name closest to the unknown one, when it is close enough
 * to be a slip (at most a third of it wrong); NULL otherwise. */
static const char *closest_name(const SizeNames *names, const char *unknown)
{
    const char *best = NULL;
    int best_distance = (int)strlen(unknown) / 3 + 1;
    const char *builtins[] = {"threads", "warps"};
    for (size_t i = 0; i < 2 + (names ? names->n : 0); i++) {
        const char *name = i < 2 ? builtins[i] : names->names[i - 2];
        int d = edit_distance(unknown, name, true);
        if (d < best_distance) {
            best = name;
            best_distance = d;
        }
    }
    return best;
}

/* "threads, warps, A, B, ...": the names a text may use, at most eight
 * of the caller's so that the message fits SIZE_EXPR_ERROR_SIZE. */
static void list_names(const SizeNames *names, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "threads, warps");
    size_t n = names ? names->n : 0;
    for (size_t i = 0; i < n && i < 8 && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, ", %s", names->names[i]);
    if (n > 8 && used < size)
        snprintf(buf + used, size - used, ", ... (%zu in all)", n + 2);
}

static bool fail_unknown_name(Parser *p, size_t start, size_t len)
{
    char name[EDIT_DISTANCE_MAX_NAME + 1], known[224];
    snprintf(name, sizeof name, "%.*s", (int)(len < EDIT_DISTANCE_MAX_NAME ? len : EDIT_DISTANCE_MAX_NAME),
             p->text + start);
    const char *close = len < EDIT_DISTANCE_MAX_NAME ? closest_name(p->names, name) : NULL;
    if (!p->names || p->names->n == 0)
        return fail(p, start, "unknown name '%.*s' (the names are 'threads' and 'warps'%s%s%s)",
                    quoted(len), p->text + start, close ? "; did you mean '" : "",
                    close ? close : "", close ? "'?" : "");
    list_names(p->names, known, sizeof known);
    return fail(p, start, "unknown name '%.*s' (known: %s)%s%s%s", quoted(len), p->text + start,
                known, close ? "; did you mean '" : "", close ? close : "", close ? "'?" : "");
}

static bool parse_name(Parser *p, size_t *index)
{
    size_t start = p->pos, end = start;
    while (isalnum((unsigned char)p->text[end]) || p->text[end] == '_')
        end++;
    size_t len = end - start;
    Node node = {.column = start + 1};
    if (len == 7 && strncmp(p->text + start, "threads", 7) == 0)
        node.kind = NODE_THREADS;
    else if (len == 5 && strncmp(p->text + start, "warps", 5) == 0)
        node.kind = NODE_WARPS;
    else {
        size_t n = p->names ? p->names->n : 0, i = 0;
        while (i < n && !(strlen(p->names->names[i]) == len &&
                          strncmp(p->text + start, p->names->names[i], len) == 0))
            i++;
        if (i == n)
            return fail_unknown_name(p, start, len);
        node.kind = NODE_NAME;
        node.value = i;
    }
    take(p, start, len);
    return add_node(p, node, index);
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
    return size_expr_parse_names(text, NULL, error, error_size);
}

SizeExpr *size_expr_parse_names(const char *text, const SizeNames *names, char *error,
                                size_t error_size)
{
    Parser p = {.text = text, .names = names, .error = error, .error_size = error_size};
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
    return size_expr_eval_names(e, threads, warps, NULL, out, error, error_size);
}

bool size_expr_eval_names(const SizeExpr *e, long long threads, long long warps,
                          const uint64_t *values, uint64_t *out, char *error, size_t error_size)
{
    if (threads < 0 || warps < 0) {
        message(error, error_size, "%s is negative (%lld)", threads < 0 ? "threads" : "warps",
                threads < 0 ? threads : warps);
        return false;
    }
    uint64_t v[SIZE_EXPR_MAX_NODES];
    for (size_t i = 0; i < e->n; i++) {
        const Node *node = &e->nodes[i];
        if (node->kind == NODE_NUMBER)
            v[i] = node->value;
        else if (node->kind == NODE_THREADS)
            v[i] = (uint64_t)threads;
        else if (node->kind == NODE_WARPS)
            v[i] = (uint64_t)warps;
        else if (node->kind == NODE_NAME && values)
            v[i] = values[node->value];
        else if (node->kind == NODE_NAME) { /* a caller's slip: say so rather than guess */
            message(error, error_size, "1:%zu: a name without a value", node->column);
            return false;
        } else if (!apply(node, v[node->lhs], v[node->rhs], &v[i], error, error_size))
            return false;
    }
    *out = v[e->n - 1];
    return true;
}

void size_expr_bind(SizeExpr *e, const uint64_t *values)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->nodes[i].kind == NODE_NAME)
            e->nodes[i] = (Node){.kind = NODE_NUMBER, .column = e->nodes[i].column,
                                 .value = values[e->nodes[i].value]};
}

const char *size_expr_check_name(const char *name)
{
    size_t len = strlen(name);
    if (len == 0)
        return "the name is empty";
    if (len > SIZE_EXPR_MAX_NAME)
        return "the name is longer than 32 bytes";
    if (!isalpha((unsigned char)name[0]) && name[0] != '_')
        return "a name starts with a letter or '_'";
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_')
            return "a name has only letters, digits and '_'";
    if (strcmp(name, "threads") == 0 || strcmp(name, "warps") == 0)
        return "the name is built in (the block's threads and warps)";
    return NULL;
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
