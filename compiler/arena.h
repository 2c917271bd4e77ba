/*
 * arena.h: the compiler's memory.  Everything a compilation allocates comes
 * from one arena and is freed in one call.  All growth goes through
 * arena_alloc, whose failure a test can force (arena_fail_after), and whose
 * size arithmetic is checked for overflow.
 */
#ifndef SILK_ARENA_H
#define SILK_ARENA_H

#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *arena);

/* Zeroed memory for `count` objects of `size` bytes, aligned for any type.
 * Out of memory (or an overflowing size) is said once, by the arena's
 * owner (arena_on_failure), and the process exits with status 3: a
 * compiler has nothing useful to do without memory. */
void *arena_alloc(Arena *arena, size_t count, size_t size);

/* How running short in `arena` is said: fail(context), which must not
 * allocate from the arena, before the exit with status 3.  A compilation
 * says it through its diagnostics (compile_init), so that the JSON form
 * holds it too; an arena with none says it with arena_out_of_memory's
 * line, as does a failure while `fail` runs. */
typedef void ArenaFailFn(void *context);
void arena_on_failure(Arena *arena, ArenaFailFn *fail, void *context);

/* A new arena that fails as `parent` does (NULL: as arena_new's): a
 * pass's scratch arena beside the compilation's. */
Arena *arena_new_like(const Arena *parent);

/* The way out when memory runs short where there is no owner to say it
 * (an arena without arena_on_failure, code that must use malloc): prints
 * "PROGRAM: out of memory", naming the program that runs (silkc or
 * silk-occ), and exits with status 3. */
_Noreturn void arena_out_of_memory(void);

/* A NUL-terminated copy of the first `len` bytes of `text`. */
char *arena_strndup(Arena *arena, const char *text, size_t len);

/* Grow a dynamic array in the arena: returns a copy with room for
 * `new_count` elements, the first `old_count` copied. */
void *arena_grow(Arena *arena, void *old, size_t old_count, size_t new_count, size_t size);

/* Tests: make the arena's allocations fail after `n` more succeed (-1: never). */
void arena_fail_after(Arena *arena, long n);

#define ARENA_NEW(arena, T) ((T *)arena_alloc((arena), 1, sizeof(T)))
#define ARENA_ARRAY(arena, T, n) ((T *)arena_alloc((arena), (n), sizeof(T)))

#endif
