/*
 * ast_dump.c: the AST as stable text, for golden tests and for people
 * (silkc check --dump-ast).  One node a line, two spaces of indentation
 * per level:
 *
 *   kind [name] [details] [flags] [: type] [= constant] line:col
 *
 * (types and constants once the checker has run)
 * then its children in a fixed order: attributes, a, b, c, d, list, list2
 * — except a function, whose children read as its source does: attributes,
 * type parameters, parameters, return type, error type, body.  No addresses
 * or other run-dependent values appear.
 */
#include "arena.h"
#include "ast.h"

#include "types.h"

#include <inttypes.h>
#include <stdlib.h>

static const struct {
    uint32_t flag;
    const char *word;
} flag_words[] = {
    {NF_KERNEL, "kernel"},   {NF_DEVICE, "device"}, {NF_ASYNC, "async"},
    {NF_TASK, "task"},       {NF_VARARGS, "varargs"}, {NF_THROWS, "throws"},
    {NF_MUTABLE, "mutable"}, {NF_VALUE, "value"},   {NF_PARENS, "parens"},
    {NF_SEMI, "semi"},
};

static const char *const suffix_names[] = {"", "i32", "i64", "u32", "u64", "f32", "f64"};

static void dump_string(const Node *n, FILE *out)
{
    fputc('"', out);
    for (uint32_t i = 0; i < n->str_len; i++) {
        unsigned char c = (unsigned char)n->str[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void dump_details(const Node *n, FILE *out)
{
    switch (n->kind) {
    case ND_INT:
        fprintf(out, " %" PRIu64 "%s%s", n->int_value, suffix_names[n->suffix],
                n->overflow ? " overflow" : "");
        break;
    case ND_FLOAT:
        fprintf(out, " %.17g%s", n->float_value, suffix_names[n->suffix]);
        break;
    case ND_STRING:
        fputc(' ', out);
        dump_string(n, out);
        break;
    case ND_BOOL:
        fputs(n->int_value ? " true" : " false", out);
        break;
    case ND_IMPORT:
        fputs(" from ", out);
        dump_string(n, out);
        break;
    case ND_UNARY: case ND_BINARY: case ND_ASSIGN:
        fprintf(out, " %s", lex_token_kind_name(n->op));
        break;
    default:
        break;
    }
}

/* One node's line. */
static void dump_line(const Node *n, const SourceMap *sources, int depth, FILE *out)
{
    fprintf(out, "%*s%s", depth * 2, "", ast_kind_name(n->kind));
    if (n->name && n->kind != ND_STRING && n->kind != ND_IMPORT)
        fprintf(out, " %s", n->name);
    dump_details(n, out);
    for (size_t i = 0; i < sizeof flag_words / sizeof *flag_words; i++)
        if (n->flags & flag_words[i].flag)
            fprintf(out, " [%s]", flag_words[i].word);
    if (n->type) {
        char type[96];
        fprintf(out, " : %s", type_name(n->type, type, sizeof type));
    }
    if (n->folded == 1 && n->type && type_is_signed(n->type))
        fprintf(out, " = %" PRId64, (int64_t)n->int_value);
    else if (n->folded == 1)
        fprintf(out, " = %" PRIu64, n->int_value);
    uint32_t line, col;
    source_line_col(&sources->files[n->span.file], n->span.start, &line, &col);
    fprintf(out, " %" PRIu32 ":%" PRIu32 "\n", line, col);
}

/* A node still to print, and its depth.  The walk keeps them on a stack
 * of its own: a chain of binary operators is as deep as it is long. */
typedef struct DumpItem {
    const Node *node;
    int depth;
} DumpItem;

typedef struct DumpStack {
    DumpItem *items;
    size_t count, capacity;
} DumpStack;

static void push_item(DumpStack *s, const Node *n, int depth)
{
    if (!n)
        return;
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 64;
        DumpItem *grown = realloc(s->items, s->capacity * sizeof *s->items);
        if (!grown)
            arena_out_of_memory();
        s->items = grown;
    }
    s->items[s->count++] = (DumpItem){n, depth};
}

static void push_list(DumpStack *s, const NodeList *list, int depth)
{
    for (uint32_t i = list ? list->count : 0; i-- > 0;)
        push_item(s, list->items[i], depth);
}

/* The children of `n`, last first, so that they come off the stack in the
 * order the header comment gives. */
static void push_children(DumpStack *s, const Node *n, int depth)
{
    if (n->kind == ND_FUNC) {
        push_item(s, n->b, depth);
        push_item(s, n->c, depth);
        push_item(s, n->a, depth);
        push_list(s, &n->list, depth);
        push_list(s, &n->list2, depth);
    } else {
        push_list(s, &n->list2, depth);
        push_list(s, &n->list, depth);
        const Node *children[] = {n->a, n->b, n->c, n->d};
        for (int i = 4; i-- > 0;)
            push_item(s, children[i], depth);
    }
    push_list(s, n->attrs, depth);
}

void ast_dump(const Node *node, const SourceMap *sources, FILE *out)
{
    DumpStack stack = {0};
    push_item(&stack, node, 0);
    while (stack.count) {
        DumpItem item = stack.items[--stack.count];
        dump_line(item.node, sources, item.depth, out);
        push_children(&stack, item.node, item.depth + 1);
    }
    free(stack.items);
}
