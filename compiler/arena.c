/*
 * arena.c: the compiler's bump allocator.
 *
 * Memory comes in chunks and is handed out by bumping an offset; nothing is
 * freed until arena_free drops every chunk at once.  Chunks start at
 * ARENA_CHUNK_BYTES and grow with the arena (a quarter of what it holds,
 * up to ARENA_MAX_CHUNK_BYTES), so a large compilation takes few chunks; a
 * request bigger than a quarter of the chunk size gets a chunk of its own,
 * linked behind the current one, so one large array does not waste the
 * rest of the chunk that small allocations are still filling.  Every
 * allocation is rounded up to ARENA_ALIGN bytes, which suits any scalar
 * type on the hosts we build on, and is zero: chunks come from calloc or
 * from fresh anonymous mappings and are never reused.
 *
 * Chunks of ARENA_HUGE_BYTES or more are mapped directly and, on Linux,
 * marked for transparent huge pages.  A front end that makes a 56-byte
 * Token per 3 bytes of source spends most of its time taking page faults
 * on fresh memory otherwise: lexing a 100,000-line file went from about
 * 2.4 to 6 million lines a second with it where THP is "madvise" (the
 * common default).  Elsewhere they are plain calloc chunks.
 *
 * All growth goes through arena_alloc, which checks count * size for
 * overflow and honours arena_fail_after, so a test can make the N-th
 * allocation of a compilation fail and see the one clean exit (status 3)
 * instead of a crash.  arena_grow extends the most recent allocation in
 * place when the chunk has room, which makes the usual "append to the array
 * being built" pattern cost no copies.
 */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* MAP_ANONYMOUS, MADV_HUGEPAGE, program_invocation_short_name */
#include <sys/mman.h>
#endif

#include "arena.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define ARENA_MAPS_HUGE_CHUNKS 1
#else
#define ARENA_MAPS_HUGE_CHUNKS 0
#endif

enum {
    ARENA_ALIGN = 16,
    ARENA_CHUNK_BYTES = 64 * 1024,
    ARENA_MAX_CHUNK_BYTES = 8 * 1024 * 1024,
    ARENA_HUGE_BYTES = 4 * 1024 * 1024,
};

typedef struct Chunk {
    struct Chunk *next;
    size_t capacity; /* bytes of data */
    size_t used;
    size_t mapped;   /* bytes mapped with mmap; 0 if from calloc */
    _Alignas(ARENA_ALIGN) unsigned char data[];
} Chunk;

struct Arena {
    Chunk *head;  /* the chunk small allocations come from; NULL at first */
    void *last;   /* the most recent allocation in head, for in-place growth */
    size_t last_bytes;
    size_t total; /* bytes in all chunks: sets the size of the next */
    long fail_after; /* allocations left before failure; -1: never fail */
    ArenaFailFn *fail; /* says the failure (arena_on_failure); NULL: the default line */
    void *fail_context;
    bool failing;    /* fail was called: a failure while it says so gets the default */
};

/* The name the running program was started under ("silkc", "silk-occ", a
 * test's own), so the message below blames the right program: the library
 * runs inside both.  The C library knows it; ours need not keep a copy. */
static const char *running_program(void)
{
#if defined(__GLIBC__)
    return program_invocation_short_name;
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__)
    return getprogname();
#else
    return "silk";
#endif
}

_Noreturn void arena_out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", running_program());
    exit(3);
}

/* Memory ran short in `arena`: its owner says so (once), else the
 * default line; then the one clean exit. */
_Noreturn static void out_of_memory(Arena *arena)
{
    if (arena->fail && !arena->failing) {
        arena->failing = true;
        arena->fail(arena->fail_context);
        exit(3);
    }
    arena_out_of_memory();
}

/* Counts one allocation against arena_fail_after's budget. */
static void charge_allocation(Arena *arena)
{
    if (arena->fail_after == 0)
        out_of_memory(arena);
    if (arena->fail_after > 0)
        arena->fail_after--;
}

/* count * size rounded up to the alignment, or exit if it overflows. */
static size_t checked_bytes(Arena *arena, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        out_of_memory(arena);
    size_t bytes = count * size;
    if (bytes > SIZE_MAX - (ARENA_ALIGN - 1) - sizeof(Chunk))
        out_of_memory(arena);
    return (bytes + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1);
}

/* A fresh mapping is zero and takes no memory until touched; huge pages
 * make touching it cheap.  NULL if the system refuses. */
static Chunk *map_chunk(size_t total)
{
#if ARENA_MAPS_HUGE_CHUNKS
    void *mapping = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED)
        return NULL;
    (void)madvise(mapping, total, MADV_HUGEPAGE); /* a hint: fine if refused */
    Chunk *chunk = mapping;
    chunk->mapped = total;
    return chunk;
#else
    (void)total;
    return NULL;
#endif
}

static Chunk *new_chunk(Arena *arena, size_t capacity)
{
    if (capacity > SIZE_MAX - sizeof(Chunk))
        out_of_memory(arena);
    size_t total = sizeof(Chunk) + capacity;
    Chunk *chunk = ARENA_MAPS_HUGE_CHUNKS && capacity >= ARENA_HUGE_BYTES ? map_chunk(total) : NULL;
    if (!chunk)
        chunk = calloc(1, total);
    if (!chunk)
        out_of_memory(arena);
    chunk->capacity = capacity;
    arena->total += capacity;
    return chunk;
}

static void release_chunk(Chunk *chunk)
{
#if ARENA_MAPS_HUGE_CHUNKS
    if (chunk->mapped) {
        munmap(chunk, chunk->mapped);
        return;
    }
#endif
    free(chunk);
}

Arena *arena_new(void)
{
    Arena *arena = calloc(1, sizeof *arena);
    if (!arena)
        arena_out_of_memory();
    arena->fail_after = -1;
    return arena;
}

void arena_free(Arena *arena)
{
    if (!arena)
        return;
    Chunk *chunk = arena->head;
    while (chunk) {
        Chunk *next = chunk->next;
        release_chunk(chunk);
        chunk = next;
    }
    free(arena);
}

void arena_on_failure(Arena *arena, ArenaFailFn *fail, void *context)
{
    arena->fail = fail;
    arena->fail_context = context;
}

Arena *arena_new_like(const Arena *parent)
{
    Arena *arena = arena_new();
    if (parent)
        arena_on_failure(arena, parent->fail, parent->fail_context);
    return arena;
}

void arena_fail_after(Arena *arena, long n)
{
    arena->fail_after = n < 0 ? -1 : n;
}

/* The size of the next ordinary chunk: a quarter of what the arena holds,
 * so the number of chunks grows only logarithmically. */
static size_t standard_chunk_bytes(const Arena *arena)
{
    size_t bytes = arena->total / 4;
    if (bytes < ARENA_CHUNK_BYTES)
        return ARENA_CHUNK_BYTES;
    if (bytes > ARENA_MAX_CHUNK_BYTES)
        return ARENA_MAX_CHUNK_BYTES;
    return (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

/* A large request: its own chunk, linked behind head so that head keeps
 * serving small allocations. */
static void *alloc_large(Arena *arena, size_t bytes)
{
    Chunk *chunk = new_chunk(arena, bytes);
    chunk->used = bytes;
    if (arena->head) {
        chunk->next = arena->head->next;
        arena->head->next = chunk;
    } else {
        arena->head = chunk;
        arena->last = NULL; /* full: nothing in it can grow in place */
    }
    return chunk->data;
}

void *arena_alloc(Arena *arena, size_t count, size_t size)
{
    charge_allocation(arena);
    size_t bytes = checked_bytes(arena, count, size);
    size_t chunk_bytes = standard_chunk_bytes(arena);
    if (bytes > chunk_bytes / 4)
        return alloc_large(arena, bytes);
    Chunk *head = arena->head;
    if (!head || head->capacity - head->used < bytes) {
        head = new_chunk(arena, chunk_bytes);
        head->next = arena->head;
        arena->head = head;
    }
    void *p = head->data + head->used;
    head->used += bytes;
    arena->last = p;
    arena->last_bytes = bytes;
    return p;
}

char *arena_strndup(Arena *arena, const char *text, size_t len)
{
    if (len == SIZE_MAX)
        out_of_memory(arena);
    char *copy = arena_alloc(arena, len + 1, 1);
    memcpy(copy, text, len);
    return copy; /* already NUL-terminated: arena memory is zeroed */
}

/* Extends `old`, the most recent allocation in head, to `bytes` if the
 * chunk has room.  The bytes it takes were never handed out, so they are
 * still zero, as a fresh allocation's would be. */
static bool grow_in_place(Arena *arena, void *old, size_t bytes)
{
    Chunk *head = arena->head;
    if (!old || old != arena->last)
        return false;
    if (bytes <= arena->last_bytes)
        return true; /* the rounding already left room */
    size_t extra = bytes - arena->last_bytes;
    if (head->capacity - head->used < extra)
        return false;
    head->used += extra;
    arena->last_bytes = bytes;
    return true;
}

void *arena_grow(Arena *arena, void *old, size_t old_count, size_t new_count, size_t size)
{
    assert(old_count <= new_count);
    assert(old || old_count == 0);
    if (grow_in_place(arena, old, checked_bytes(arena, new_count, size))) {
        charge_allocation(arena); /* growth counts like any allocation */
        return old;
    }
    void *grown = arena_alloc(arena, new_count, size);
    if (old_count)
        memcpy(grown, old, old_count * size);
    return grown;
}
