/*
 * scope.c: scopes as small open-addressing hash tables (a module's scope
 * may hold thousands of functions), chained to their enclosing scope.
 */
#include "sema.h"

#include <string.h>

struct ScopeEntry {
    const char *name;
    Symbol *symbol;
    uint32_t order;
};

Scope *scope_new(Arena *arena, Scope *parent)
{
    Scope *s = ARENA_NEW(arena, Scope);
    s->parent = parent;
    s->arena = arena;
    return s;
}

static uint32_t hash_name(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h;
}

static ScopeEntry *slot(const Scope *s, const char *name)
{
    uint32_t mask = s->capacity - 1;
    for (uint32_t i = hash_name(name) & mask;; i = (i + 1) & mask)
        if (!s->entries[i].name || strcmp(s->entries[i].name, name) == 0)
            return &s->entries[i];
}

Symbol *scope_find_here(const Scope *s, const char *name)
{
    if (s->count == 0)
        return NULL;
    ScopeEntry *e = slot(s, name);
    return e->name ? e->symbol : NULL;
}

bool scope_is_poison(const Symbol *s) { return s && s->type && s->type->kind == TY_ERROR && s->kind == SYM_LOCAL && s->decl && s->decl->kind == ND_IMPORT_NAME; }

Symbol *scope_find(const Scope *s, const char *name)
{
    for (; s; s = s->parent) {
        Symbol *found = scope_find_here(s, name);
        if (found)
            return found;
    }
    return NULL;
}

/* Doubles at half full, so probes stay short. */
static void grow(Scope *s)
{
    ScopeEntry *old = s->entries;
    uint32_t old_capacity = s->capacity;
    s->capacity = old_capacity ? old_capacity * 2 : 8;
    s->entries = ARENA_ARRAY(s->arena, ScopeEntry, s->capacity);
    for (uint32_t i = 0; i < old_capacity; i++)
        if (old[i].name)
            *slot(s, old[i].name) = old[i];
}

Symbol *scope_add(Scope *s, Symbol *symbol)
{
    Symbol *existing = scope_find_here(s, symbol->name);
    if (existing)
        return existing;
    if ((s->count + 1) * 2 > s->capacity)
        grow(s);
    ScopeEntry *e = slot(s, symbol->name);
    e->name = symbol->name;
    e->symbol = symbol;
    e->order = s->count++;
    return NULL;
}

bool scope_any(const Scope *s, bool (*test)(const Symbol *))
{
    for (uint32_t i = 0; i < s->capacity; i++)
        if (s->entries[i].name && test(s->entries[i].symbol))
            return true;
    return false;
}

Symbol **scope_symbols(const Scope *s, uint32_t *count)
{
    Symbol **all = ARENA_ARRAY(s->arena, Symbol *, s->count ? s->count : 1);
    for (uint32_t i = 0; i < s->capacity; i++)
        if (s->entries[i].name)
            all[s->entries[i].order] = s->entries[i].symbol;
    *count = s->count;
    return all;
}
