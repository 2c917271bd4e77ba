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
 * Out of memory (or an overflowing size) prints one line and exits with
 * status 3: a compiler has nothing useful to do without memory. */
void *arena_alloc(Arena *arena, size_t count, size_t size);

/* The one way out when memory runs short, for the arena and for code that
 * must use malloc: prints "PROGRAM: out of memory", naming the program that
 * runs (silkc or silk-occ), and exits with status 3. */
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
