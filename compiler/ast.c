/*
 * ast.c: making AST nodes and naming their kinds.
 */
#include "ast.h"

#include "arena.h"

static const char *const kind_names[] = {
#define NODE(e, name, fields) name,
#include "nodes.def"
#undef NODE
};

Node *ast_new(Arena *arena, NodeKind kind, Span span)
{
    Node *n = ARENA_NEW(arena, Node);
    n->kind = kind;
    n->span = span;
    return n;
}

/* Lists double in the arena; the old storage stays until the arena goes. */
void ast_push(Arena *arena, NodeList *list, Node *node)
{
    uint32_t n = list->count;
    if ((n & (n - 1)) == 0) /* 0, 1, 2, 4, ...: full */
        list->items = arena_grow(arena, list->items, n, n ? 2 * (size_t)n : 1, sizeof(Node *));
    list->items[list->count++] = node;
}

const char *ast_kind_name(NodeKind kind) { return kind_names[kind]; }
