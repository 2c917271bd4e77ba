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
#include "ast.h"

#include "types.h"

#include <inttypes.h>

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
        fprintf(out, " %s", token_kind_name(n->op));
        break;
    default:
        break;
    }
}

static void dump_node(const Node *n, const SourceMap *sources, int depth, FILE *out);

static void dump_list(const NodeList *list, const SourceMap *sources, int depth, FILE *out)
{
    for (uint32_t i = 0; i < list->count; i++)
        dump_node(list->items[i], sources, depth, out);
}

static void dump_node(const Node *n, const SourceMap *sources, int depth, FILE *out)
{
    if (!n)
        return;
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

    if (n->attrs)
        dump_list(n->attrs, sources, depth + 1, out);
    if (n->kind == ND_FUNC) {
        dump_list(&n->list2, sources, depth + 1, out);
        dump_list(&n->list, sources, depth + 1, out);
        dump_node(n->a, sources, depth + 1, out);
        dump_node(n->c, sources, depth + 1, out);
        dump_node(n->b, sources, depth + 1, out);
        return;
    }
    const Node *children[] = {n->a, n->b, n->c, n->d};
    for (int i = 0; i < 4; i++)
        dump_node(children[i], sources, depth + 1, out);
    dump_list(&n->list, sources, depth + 1, out);
    dump_list(&n->list2, sources, depth + 1, out);
}

void ast_dump(const Node *node, const SourceMap *sources, FILE *out)
{
    dump_node(node, sources, 0, out);
}
