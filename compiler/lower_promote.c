/*
 * lower_promote.c: which tile variables without @registers may still live
 * in registers.  The language puts a tile variable in shared memory; when
 * every use of one reads or writes it only element by element — as a
 * whole tile statement destination, an element-wise operand, or a
 * reduction's argument — no thread ever needs another thread's element,
 * so keeping it in registers (lower_tile.c: slots) is invisible to the
 * program and saves its shared memory (48 KiB of static shared memory is
 * all a kernel has on an NVIDIA target, and a CTA-wide accumulator beside
 * two 64x64 operand tiles would not fit).  A use as a product operand, through a view or
 * an element index keeps it in shared memory.
 *
 * Only with a fixed thread count that divides its elements, and at most
 * 64 slots a thread, so register pressure stays bounded.
 */
#include "lower_internal.h"

#include <string.h>

enum { MAX_PROMOTED_SLOTS = 64 };

typedef struct Promote {
    Lower *l;
    Symbol **candidates;
    bool *kept;          /* false once a use needs it in memory */
    uint32_t n;
} Promote;

static bool fits(const Lower *l, const Symbol *s)
{
    int threads = l->info->reqntid;
    const Type *t = s->type;
    if (!threads || !t || t->kind != TY_TILE || lower_tile_declared_registers(s))
        return false;
    uint64_t n = 1;
    for (int d = 0; d < t->rank; d++) {
        if (t->dims[d] <= 0)
            return false;
        n *= (uint64_t)t->dims[d];
    }
    return n % (uint64_t)threads == 0 && n / (uint64_t)threads <= MAX_PROMOTED_SLOTS;
}

static void each_child(Promote *p, Node *n, void (*f)(Promote *, Node *))
{
    Node *kids[] = {n->a, n->b, n->c, n->d};
    for (size_t i = 0; i < 4; i++)
        if (kids[i])
            f(p, kids[i]);
    for (uint32_t i = 0; i < n->list.count; i++)
        f(p, n->list.items[i]);
    for (uint32_t i = 0; i < n->list2.count; i++)
        f(p, n->list2.items[i]);
}

static void collect(Node *n, void *promote)
{
    Promote *p = promote;
    if (n->kind == ND_LET && n->symbol && fits(p->l, n->symbol)) {
        Arena *a = p->l->m->arena;
        p->candidates = ir_grow(a, p->candidates, p->n, sizeof *p->candidates);
        p->kept = ir_grow(a, p->kept, p->n, sizeof *p->kept);
        p->candidates[p->n] = n->symbol;
        p->kept[p->n++] = true;
    }
}

static bool is_reduction(const Node *e)
{
    const char *f = e->a->kind == ND_NAME && !e->a->symbol ? e->a->name : "";
    return e->list.count == 1 && (strcmp(f, "sum") == 0 || strcmp(f, "min") == 0 || strcmp(f, "max") == 0);
}

static void walk(Promote *p, Node *n, bool elementwise);

static void walk_opaque(Promote *p, Node *n) { walk(p, n, false); }

/* `elementwise`: n's value is used only at the element being computed.
 * A chain of binary operators is walked down its left spine in a loop:
 * it is as deep as the source is long. */
static void walk(Promote *p, Node *n, bool elementwise)
{
    while (n->kind == ND_BINARY) {
        bool inner = elementwise && lower_is_tile_like(n->type) && n->op != TK_AT;
        walk(p, n->b, inner);
        n = n->a;
        elementwise = inner;
    }
    bool tile = lower_is_tile_like(n->type);
    switch (n->kind) {
    case ND_NAME:
        for (uint32_t i = 0; i < p->n && !elementwise; i++)
            if (p->candidates[i] == n->symbol)
                p->kept[i] = false;
        return;
    case ND_LET:
        if (n->b)
            walk(p, n->b, n->symbol && lower_is_tile_like(n->symbol->type));
        return;
    case ND_ASSIGN:
        walk(p, n->a, n->a->kind == ND_NAME);
        walk(p, n->b, lower_is_tile_like(n->a->type));
        return;
    case ND_UNARY:
        walk(p, n->a, elementwise && tile);
        return;
    case ND_CALL:
        if (is_reduction(n)) {
            walk(p, n->list.items[0], true);
            return;
        }
        break;
    default:
        break;
    }
    each_child(p, n, walk_opaque);
}

void lower_promote_tiles(Lower *l, Node *body)
{
    Promote p = {.l = l};
    l->promoted = NULL;
    l->n_promoted = 0;
    ast_walk(body, l->m->arena, collect, &p);
    if (p.n == 0)
        return;
    walk(&p, body, false);
    for (uint32_t i = 0; i < p.n; i++)
        if (p.kept[i]) {
            l->promoted = ir_grow(l->m->arena, l->promoted, l->n_promoted, sizeof *l->promoted);
            l->promoted[l->n_promoted++] = p.candidates[i];
        }
}
