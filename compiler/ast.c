/*
 * ast.c: making AST nodes, naming their kinds, and walking a tree.
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

/* Children go on the stack last first, so they come off in the order a
 * recursive walk takes them: a, b, c, d, list, list2. */
static void push_children(Arena *scratch, NodeList *stack, Node *n)
{
    for (uint32_t i = n->list2.count; i-- > 0;)
        ast_push(scratch, stack, n->list2.items[i]);
    for (uint32_t i = n->list.count; i-- > 0;)
        ast_push(scratch, stack, n->list.items[i]);
    Node *kids[] = {n->a, n->b, n->c, n->d};
    for (int i = 4; i-- > 0;)
        if (kids[i])
            ast_push(scratch, stack, kids[i]);
}

void ast_walk(Node *root, Arena *scratch, void (*visit)(Node *n, void *data), void *data)
{
    NodeList stack = {0};
    if (root)
        ast_push(scratch, &stack, root);
    while (stack.count) {
        Node *n = stack.items[--stack.count];
        visit(n, data);
        push_children(scratch, &stack, n);
    }
}

bool ast_search(Node *root, Arena *scratch, AstSearch (*visit)(Node *n, void *data), void *data)
{
    NodeList stack = {0};
    if (root)
        ast_push(scratch, &stack, root);
    while (stack.count) {
        Node *n = stack.items[--stack.count];
        AstSearch say = visit(n, data);
        if (say == AST_FOUND)
            return true;
        if (say == AST_DESCEND)
            push_children(scratch, &stack, n);
    }
    return false;
}
