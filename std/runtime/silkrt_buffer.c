/*
 * silkrt_buffer.c: std/gpu's Buffer: device memory allocated, released,
 * and written and read an element at a time, each access checked.
 *
 * The runtime keeps the live buffers and the addresses of released ones,
 * each sorted by address.  The live table is what the CPU backend checks
 * every global access of a kernel against (CpuLaunch.buffers), so a
 * kernel that touches freed or foreign memory faults instead of
 * corrupting it; the released addresses let a launch name an argument
 * that points at a released buffer (RELEASED_BUFFER) and let upload,
 * download and release tell a buffer used after release from one never
 * allocated.  An address leaves the released table when an allocation
 * returns it again, so the table holds no more than the addresses freed
 * and not reused.
 *
 * A bad index, or a buffer released or never allocated, is a bug of the
 * program, not a status it could test: the program stops with one line
 * naming the Silk source place (silkrt_misuse).  A failed alloc's {0, 0}
 * used anyway is one too, and its line says why that alloc failed (the
 * last failure's last_error is kept for it).  The method's name
 * ("Buffer.upload_f32") is formatted only for that line: an upload or a
 * download is a lookup and a copy, on the program's hottest path.
 */
#include "silkrt_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first index of `live` whose address is not below `a`. */
static uint32_t live_at(uint64_t a)
{
    const SilkrtBuffers *t = &silkrt_state.buffers;
    uint32_t lo = 0, hi = t->n_live;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->live[mid][0] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t released_at(uint64_t a)
{
    const SilkrtBuffers *t = &silkrt_state.buffers;
    uint32_t lo = 0, hi = t->n_released;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->released[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool silkrt_buffers_live(uint64_t a, uint64_t *bytes)
{
    const SilkrtBuffers *t = &silkrt_state.buffers;
    uint32_t i = live_at(a);
    bool live = a != 0 && i < t->n_live && t->live[i][0] == a;
    *bytes = live ? t->live[i][1] : 0;
    return live;
}

bool silkrt_buffers_released(uint64_t a)
{
    const SilkrtBuffers *t = &silkrt_state.buffers;
    uint32_t i = released_at(a);
    return a != 0 && i < t->n_released && t->released[i] == a;
}

/* Room for `n` more entries of `size` bytes in `*items` of `*cap`. */
static bool reserve(void **items, uint32_t *cap, uint32_t used, size_t size)
{
    if (used < *cap)
        return true;
    if (*cap > UINT32_MAX / 2)
        return false;
    uint32_t grown = *cap ? *cap * 2 : 16;
    void *p = realloc(*items, (size_t)grown * size);
    if (!p)
        return false;
    *items = p;
    *cap = grown;
    return true;
}

static void forget_released(uint64_t a)
{
    SilkrtBuffers *t = &silkrt_state.buffers;
    uint32_t i = released_at(a);
    if (i < t->n_released && t->released[i] == a) {
        memmove(&t->released[i], &t->released[i + 1], (t->n_released - i - 1) * sizeof *t->released);
        t->n_released--;
    }
}

/* Kept only to name a use after release: a table that cannot grow
 * forgets it, which costs a message, not correctness. */
static void remember_released(uint64_t a)
{
    SilkrtBuffers *t = &silkrt_state.buffers;
    uint32_t i = released_at(a);
    if ((i < t->n_released && t->released[i] == a) ||
        !reserve((void **)&t->released, &t->cap_released, t->n_released, sizeof *t->released))
        return;
    memmove(&t->released[i + 1], &t->released[i], (t->n_released - i) * sizeof *t->released);
    t->released[i] = a;
    t->n_released++;
}

SilkBuffer silkrt_buffer_alloc(uint64_t bytes)
{
    silkrt_enter();
    SilkrtState *s = &silkrt_state;
    SilkrtBuffers *t = &s->buffers;
    SilkBuffer b = {0, 0};
    uint64_t a = 0;
    if (!s->backend)
        silkrt_fail_text(s->unusable, "%s", s->unusable_why);
    else if (bytes == 0)
        silkrt_fail(SILKRT_BAD_ARGUMENTS, "Buffer.alloc: 0 bytes (a buffer holds at least one)");
    else if (!reserve((void **)&t->live, &t->cap_live, t->n_live, sizeof *t->live))
        silkrt_fail(SILKRT_OUT_OF_MEMORY, "Buffer.alloc: no memory for the table of buffers");
    else if (s->backend->alloc(bytes, &a) == SILKRT_OK) {
        uint32_t i = live_at(a);
        memmove(&t->live[i + 1], &t->live[i], (t->n_live - i) * sizeof *t->live);
        t->live[i][0] = a;
        t->live[i][1] = bytes;
        t->n_live++;
        forget_released(a);
        b = (SilkBuffer){a, bytes};
    }
    if (b.address == 0) { /* kept, cut to its room, for a later use of {0, 0} */
        size_t len = strnlen(silkrt_thread.error, sizeof t->alloc_failed - 1);
        memcpy(t->alloc_failed, silkrt_thread.error, len);
        t->alloc_failed[len] = '\0';
    }
    silkrt_leave();
    return b;
}

/* The misuse of element `index` of buffer b by "Buffer.VERB_TYPE": a
 * failed alloc's buffer, a released one, no buffer, or past the end of
 * its `n` elements. */
static _Noreturn void bad_element(SilkBuffer b, uint64_t index, uint64_t n, const char *type,
                                  const char *verb, const SilkSite *site)
{
    char method[64];
    snprintf(method, sizeof method, "Buffer.%s_%s", verb, type ? type : "bytes");
    const char *why = silkrt_state.buffers.alloc_failed;
    if (b.address == 0)
        silkrt_misuse(site, "%s: index %" PRIu64 " of a buffer whose Buffer.alloc failed: %s", method,
                      index, why[0] ? why : "(no reason kept)");
    if (silkrt_buffers_released(b.address))
        silkrt_misuse(site, "%s: the buffer at 0x%" PRIx64 " was released", method, b.address);
    if (n == UINT64_MAX)
        silkrt_misuse(site, "%s: 0x%" PRIx64 " is not the address of a buffer", method, b.address);
    silkrt_misuse(site, "%s: index %" PRIu64 " is past the end of a buffer of %" PRIu64 " %s element%s",
                  method, index, n, type ? type : "byte", n == 1 ? "" : "s");
}

void silkrt_buffer_release(SilkBuffer b, const SilkSite *site)
{
    if (b.address == 0 && b.bytes == 0)
        return; /* a failed alloc's: nothing to free */
    silkrt_enter();
    SilkrtState *s = &silkrt_state;
    SilkrtBuffers *t = &s->buffers;
    uint64_t bytes;
    if (!silkrt_buffers_live(b.address, &bytes)) {
        if (silkrt_buffers_released(b.address))
            silkrt_misuse(site, "Buffer.release: the buffer at 0x%" PRIx64 " was released before",
                          b.address);
        silkrt_misuse(site, "Buffer.release: 0x%" PRIx64 " is not the address of a buffer", b.address);
    }
    s->backend->release(b.address); /* a failure is in last_error; the buffer is gone either way */
    uint32_t i = live_at(b.address);
    memmove(&t->live[i], &t->live[i + 1], (t->n_live - i - 1) * sizeof *t->live);
    t->n_live--;
    remember_released(b.address);
    silkrt_leave();
}

/* The address of element `index`, checked against the buffer's size. */
static uint64_t element(SilkBuffer b, uint64_t index, uint32_t size, const char *type,
                        const char *verb, const SilkSite *site)
{
    uint64_t bytes;
    if (!silkrt_buffers_live(b.address, &bytes))
        bad_element(b, index, UINT64_MAX, type, verb, site);
    uint64_t n = size ? bytes / size : 0;
    if (index >= n)
        bad_element(b, index, n, type, verb, site);
    return b.address + index * size;
}

void silkrt_buffer_upload(SilkBuffer b, uint64_t index, const void *value, uint32_t size,
                          const char *type, const SilkSite *site)
{
    silkrt_enter();
    uint64_t at = element(b, index, size, type, "upload", site);
    silkrt_state.backend->upload(at, value, size);
    silkrt_leave();
}

void silkrt_buffer_download(SilkBuffer b, uint64_t index, void *value, uint32_t size,
                            const char *type, const SilkSite *site)
{
    silkrt_enter();
    uint64_t at = element(b, index, size, type, "download", site);
    if (silkrt_state.backend->download(value, at, size) != SILKRT_OK)
        memset(value, 0, size); /* the failure is in last_error */
    silkrt_leave();
}
