/*
 * hsaco.c: the AMDGPU metadata note of a code object, read into a
 * UsageReport (hsaco.h).
 *
 * The ELF part: a 64-bit little-endian file for machine EM_AMDGPU (224);
 * its notes are the SHT_NOTE sections, or, in a file with no section
 * headers, the PT_NOTE segments.  A note is namesz, descsz and type (four
 * bytes each), then the name and the descriptor, each padded to four
 * bytes (ELF gABI; AMDGPUUsage "Note Records").  The one read is owner
 * "AMDGPU" type 32; its descriptor is one MessagePack map.
 *
 * Checked against llvm-readobj-19 --notes on code objects llc-19 and
 * ld.lld-19 made for gfx90a, gfx942, gfx1100 and gfx1201
 * (tests/unit/check_hsaco.c).
 */
#include "hsaco.h"

#include "read_file.h"

#include <elf.h>
#include <errno.h>
#include <msgpack.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    HEADER_SIZE = 64,
    SECTION_HEADER_SIZE = 64,
    PROGRAM_HEADER_SIZE = 56,
    MACHINE_AMDGPU = 224,        /* EM_AMDGPU */
    NOTE_AMDGPU_METADATA = 32,   /* NT_AMDGPU_METADATA */
    ERROR_SIZE = 256,
};

typedef struct Reader {
    const unsigned char *data;
    size_t len;
    Arena *arena;
    char error[ERROR_SIZE];
} Reader;

static uint32_t read16(const unsigned char *p) { return (uint32_t)(p[0] | p[1] << 8); }
static uint32_t read32(const unsigned char *p) { return read16(p) | read16(p + 2) << 16; }
static uint64_t read64(const unsigned char *p) { return read32(p) | (uint64_t)read32(p + 4) << 32; }

static bool fits(size_t len, uint64_t offset, uint64_t size)
{
    return offset <= len && size <= len - offset;
}

static bool fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(Reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    return false;
}

static bool check_extent(Reader *r, const char *what, uint64_t offset, uint64_t size)
{
    if (fits(r->len, offset, size))
        return true;
    return fail(r, "truncated or corrupt: %s at offset %llu (%llu bytes) ends past the end of the "
                   "file (%zu bytes)",
                what, (unsigned long long)offset, (unsigned long long)size, r->len);
}

/* ---- the ELF file ------------------------------------------------------------------ */

static bool check_header(Reader *r)
{
    const unsigned char *d = r->data;
    if (r->len < 4 || memcmp(d, ELFMAG, SELFMAG) != 0)
        return fail(r, "not an ELF file");
    if (r->len < HEADER_SIZE)
        return check_extent(r, "the ELF header", 0, HEADER_SIZE);
    if (d[EI_CLASS] != ELFCLASS64 || d[EI_DATA] != ELFDATA2LSB)
        return fail(r, "not a 64-bit little-endian ELF file, as AMDGPU code objects are");
    uint32_t machine = read16(d + 18);
    if (machine != MACHINE_AMDGPU)
        return fail(r, "not an AMDGPU code object (ELF machine %u, not %d)", machine, MACHINE_AMDGPU);
    return true;
}

/* The AMDGPU metadata note's descriptor among the notes in [offset,
 * offset + size); NULL (no error) when none of them is it. */
static const unsigned char *find_in_notes(Reader *r, uint64_t offset, uint64_t size, size_t *desc_len)
{
    uint64_t at = offset, end = offset + size;
    while (end - at >= 12) {
        const unsigned char *p = r->data + at;
        uint64_t name_size = read32(p), desc_size = read32(p + 4);
        uint32_t type = read32(p + 8);
        uint64_t name_padded = (name_size + 3) & ~UINT64_C(3), desc_padded = (desc_size + 3) & ~UINT64_C(3);
        if (name_padded > end - at - 12 || desc_size > end - at - 12 - name_padded) {
            fail(r, "truncated or corrupt: a note at offset %llu runs past its section",
                 (unsigned long long)at);
            return NULL;
        }
        const unsigned char *name = p + 12;
        if (type == NOTE_AMDGPU_METADATA && name_size == 7 && memcmp(name, "AMDGPU", 7) == 0) {
            *desc_len = (size_t)desc_size;
            return name + name_padded;
        }
        uint64_t rest = end - at - 12 - name_padded; /* desc_size of it is the descriptor */
        if (desc_padded > rest)
            break; /* the last note, its padding cut off */
        at += 12 + name_padded + desc_padded;
    }
    return NULL;
}

/* The note regions: SHT_NOTE sections, else PT_NOTE segments.  The
 * metadata note's descriptor, or NULL with r->error set. */
static const unsigned char *find_metadata(Reader *r, size_t *desc_len)
{
    const unsigned char *d = r->data;
    uint64_t shoff = read64(d + 40), phoff = read64(d + 32);
    uint32_t shnum = read16(d + 60), phnum = read16(d + 56);
    bool sections = shnum > 0;
    uint64_t table = sections ? shoff : phoff, count = sections ? shnum : phnum;
    uint64_t entry = sections ? SECTION_HEADER_SIZE : PROGRAM_HEADER_SIZE;
    if (!check_extent(r, sections ? "the section headers" : "the program headers", table, count * entry))
        return NULL;
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *h = d + table + i * entry;
        bool note = sections ? read32(h + 4) == SHT_NOTE : read32(h) == PT_NOTE;
        if (!note)
            continue;
        uint64_t offset = sections ? read64(h + 24) : read64(h + 8);
        uint64_t size = sections ? read64(h + 32) : read64(h + 32);
        if (!check_extent(r, "a note section", offset, size))
            return NULL;
        const unsigned char *desc = find_in_notes(r, offset, size, desc_len);
        if (desc || r->error[0])
            return desc;
    }
    fail(r, "no AMDGPU metadata note (NT_AMDGPU_METADATA): not a code object of version 3 or later");
    return NULL;
}

/* ---- bounding msgpack-c ---------------------------------------------------------------- */

/* msgpack-c's msgpack_unpack_next allocates count x sizeof(msgpack_object)
 * (48 bytes a pair for a map) from its zone as soon as it reads an array
 * or map header, before it knows the elements exist, and its zone has no
 * cap to set: a 172-byte note can ask for 8 GiB.  So before it runs, the
 * headers are walked once and every count checked against the bytes left.
 * This is a count check, not a second parser: values are stepped over by
 * their length and never read.  Each element takes at least one byte, so
 * the elements announced and not yet seen ("pending") can never exceed
 * the bytes after the header that announces them; then the zone holds at
 * most about 2 x len objects.  Whatever else is wrong (a byte MessagePack
 * never uses, a value cut short) is left to msgpack-c to report. */

static uint64_t read_be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* The forms 0xc4 .. 0xdf: the width of the size field after the type
 * byte (a length, or a container's count), and the payload bytes of the
 * fixed-size forms (an ext's type byte counted). */
typedef struct MsgpackForm {
    unsigned char size_bytes, fixed;
} MsgpackForm;

static const MsgpackForm FORMS[] = {
    [0xc4 - 0xc4] = {1, 0}, [0xc5 - 0xc4] = {2, 0}, [0xc6 - 0xc4] = {4, 0},  /* bin */
    [0xc7 - 0xc4] = {1, 1}, [0xc8 - 0xc4] = {2, 1}, [0xc9 - 0xc4] = {4, 1},  /* ext */
    [0xca - 0xc4] = {0, 4}, [0xcb - 0xc4] = {0, 8},                          /* float */
    [0xcc - 0xc4] = {0, 1}, [0xcd - 0xc4] = {0, 2}, [0xce - 0xc4] = {0, 4}, [0xcf - 0xc4] = {0, 8},
    [0xd0 - 0xc4] = {0, 1}, [0xd1 - 0xc4] = {0, 2}, [0xd2 - 0xc4] = {0, 4}, [0xd3 - 0xc4] = {0, 8},
    [0xd4 - 0xc4] = {0, 2}, [0xd5 - 0xc4] = {0, 3}, [0xd6 - 0xc4] = {0, 5}, /* fixext */
    [0xd7 - 0xc4] = {0, 9}, [0xd8 - 0xc4] = {0, 17},
    [0xd9 - 0xc4] = {1, 0}, [0xda - 0xc4] = {2, 0}, [0xdb - 0xc4] = {4, 0},  /* str */
    [0xdc - 0xc4] = {2, 0}, [0xdd - 0xc4] = {4, 0},                          /* array */
    [0xde - 0xc4] = {2, 0}, [0xdf - 0xc4] = {4, 0},                          /* map */
};

static bool is_map(unsigned b) { return (b >= 0x80 && b <= 0x8f) || b == 0xde || b == 0xdf; }
static bool is_array(unsigned b) { return (b >= 0x90 && b <= 0x9f) || b == 0xdc || b == 0xdd; }

/* The object at p (left bytes from p on): its header's length (the type
 * byte and size field), the payload after it, and the elements it
 * announces (two a pair for a map).  False where the header is cut short
 * or the byte is 0xc1, which no object starts with. */
static bool msgpack_header(const unsigned char *p, size_t left, size_t *header, uint64_t *payload,
                           uint64_t *elements)
{
    unsigned b = p[0];
    *header = 1, *payload = 0, *elements = 0;
    if (b <= 0x9f && b >= 0x80) /* fixmap, fixarray */
        *elements = (uint64_t)(b & 0x0f) << is_map(b);
    else if (b >= 0xa0 && b <= 0xbf) /* fixstr */
        *payload = b & 0x1f;
    else if (b >= 0xc4 && b <= 0xdf) {
        const MsgpackForm *f = &FORMS[b - 0xc4];
        *header = 1u + f->size_bytes;
        if (*header > left)
            return false;
        uint64_t size = read_be(p + 1, f->size_bytes);
        if (is_map(b) || is_array(b))
            *elements = size << is_map(b);
        else
            *payload = size + f->fixed;
    } else if (b == 0xc1) {
        return false;
    }
    return true; /* 0x00-0x7f, 0xe0-0xff fixints; 0xc0 nil, 0xc2, 0xc3 booleans */
}

/* Whether the first object of the note announces no more elements than
 * there are bytes for; false with r->error naming the first that does. */
static bool counts_fit(Reader *r, const unsigned char *data, size_t len)
{
    uint64_t pending = 1; /* the root object */
    for (size_t at = 0; pending > 0 && at < len;) {
        size_t header;
        uint64_t payload, elements;
        if (!msgpack_header(data + at, len - at, &header, &payload, &elements) ||
            payload > len - at - header)
            return true; /* msgpack-c reports it, having allocated nothing for it */
        size_t left = len - at - header - (size_t)payload;
        pending = pending - 1 + elements;
        if (elements > 0 && pending > left) { /* only a container allocates */
            unsigned b = data[at];
            return fail(r, "the AMDGPU metadata note is not valid MessagePack: %s of %llu %s at byte "
                           "%zu of %zu, more than the bytes left",
                        is_map(b) ? "a map" : "an array",
                        (unsigned long long)(is_map(b) ? elements / 2 : elements),
                        is_map(b) ? "pairs" : "elements", at, len);
        }
        at += header + (size_t)payload;
    }
    return true;
}

/* ---- the metadata --------------------------------------------------------------------- */

/* The value of `key` in the map `map`; NULL when absent. */
static const msgpack_object *lookup(const msgpack_object *map, const char *key)
{
    if (map->type != MSGPACK_OBJECT_MAP)
        return NULL;
    size_t len = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object_kv *kv = &map->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == len &&
            memcmp(kv->key.via.str.ptr, key, len) == 0)
            return &kv->val;
    }
    return NULL;
}

/* An integer field of kernel `k` into *value: `fallback` when absent and
 * not required; false (reported) when required and absent, or not a
 * non-negative integer within int. */
static bool int_field(Reader *r, const msgpack_object *kernel, int k, const char *key, bool required,
                      int fallback, int *value)
{
    const msgpack_object *v = lookup(kernel, key);
    if (!v && !required) {
        *value = fallback;
        return true;
    }
    if (!v)
        return fail(r, "kernel %d of the AMDGPU metadata has no %s", k, key);
    if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > INT32_MAX)
        return fail(r, "kernel %d of the AMDGPU metadata: %s is not a count", k, key);
    *value = (int)v->via.u64;
    return true;
}

static const char *string_field(Reader *r, const msgpack_object *kernel, const char *key)
{
    const msgpack_object *v = lookup(kernel, key);
    if (!v || v->type != MSGPACK_OBJECT_STR)
        return NULL;
    return arena_strndup(r->arena, v->via.str.ptr, v->via.str.size);
}

/* AMD GPUs run waves of 32 or 64 work-items; another size would give a
 * workgroup a wave count no target has. */
static bool wave_size_known(Reader *r, int k, int wave_size)
{
    if (wave_size == 32 || wave_size == 64)
        return true;
    return fail(r, "kernel %d of the AMDGPU metadata: .wavefront_size %d is not 32 or 64", k, wave_size);
}

static bool read_kernel(Reader *r, const msgpack_object *kernel, int k, KernelUsage *u)
{
    *u = (KernelUsage){.spill_stores = -1, .spill_loads = -1, .barriers = -1};
    if (kernel->type != MSGPACK_OBJECT_MAP)
        return fail(r, "kernel %d of the AMDGPU metadata is not a map", k);
    if (!(u->name = string_field(r, kernel, ".name")))
        return fail(r, "kernel %d of the AMDGPU metadata has no .name", k);
    return int_field(r, kernel, k, ".vgpr_count", true, 0, &u->registers) &&
           int_field(r, kernel, k, ".agpr_count", false, 0, &u->agprs) &&
           int_field(r, kernel, k, ".sgpr_count", true, 0, &u->sgprs) &&
           int_field(r, kernel, k, ".group_segment_fixed_size", true, 0, &u->static_smem) &&
           int_field(r, kernel, k, ".private_segment_fixed_size", true, 0, &u->stack_frame) &&
           int_field(r, kernel, k, ".wavefront_size", true, 0, &u->wavefront_size) &&
           wave_size_known(r, k, u->wavefront_size) &&
           int_field(r, kernel, k, ".vgpr_spill_count", false, 0, &u->vgpr_spills) &&
           int_field(r, kernel, k, ".sgpr_spill_count", false, 0, &u->sgpr_spills) &&
           int_field(r, kernel, k, ".max_flat_workgroup_size", false, 0, &u->max_threads);
}

/* "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" -> "gfx942"; NULL when absent. */
static const char *target_processor(Reader *r, const msgpack_object *root)
{
    const msgpack_object *v = lookup(root, "amdhsa.target");
    if (!v || v->type != MSGPACK_OBJECT_STR)
        return NULL;
    const char *s = v->via.str.ptr, *end = s + v->via.str.size;
    const char *dash = NULL;
    for (const char *p = s; p + 1 < end; p++)
        if (p[0] == '-' && p[1] == '-')
            dash = p + 2;
    if (!dash)
        return NULL;
    const char *colon = memchr(dash, ':', (size_t)(end - dash));
    return arena_strndup(r->arena, dash, (size_t)((colon ? colon : end) - dash));
}

static bool read_metadata(Reader *r, const unsigned char *desc, size_t len, UsageReport *out)
{
    msgpack_unpacked msg;
    msgpack_unpacked_init(&msg);
    size_t used = 0;
    if (!counts_fit(r, desc, len))
        return false;
    bool ok = msgpack_unpack_next(&msg, (const char *)desc, len, &used) == MSGPACK_UNPACK_SUCCESS;
    const msgpack_object *root = &msg.data;
    const msgpack_object *kernels = ok ? lookup(root, "amdhsa.kernels") : NULL;
    if (!ok)
        fail(r, "the AMDGPU metadata note is not valid MessagePack");
    else if (root->type != MSGPACK_OBJECT_MAP)
        ok = fail(r, "the AMDGPU metadata note is not a MessagePack map");
    else if (!kernels || kernels->type != MSGPACK_OBJECT_ARRAY)
        ok = fail(r, "the AMDGPU metadata has no amdhsa.kernels list");
    if (ok) {
        uint32_t n = kernels->via.array.size;
        out->kernels = ARENA_ARRAY(r->arena, KernelUsage, (size_t)n + 1);
        for (uint32_t k = 0; ok && k < n; k++)
            ok = read_kernel(r, &kernels->via.array.ptr[k], (int)k, &out->kernels[k]);
        out->n_kernels = ok ? (int)n : 0;
        out->arch = target_processor(r, root);
    }
    msgpack_unpacked_destroy(&msg);
    return ok;
}

int amdgpu_code_object_parse(const unsigned char *data, size_t len, Arena *arena, UsageReport *out)
{
    Reader r = {.data = data, .len = len, .arena = arena};
    *out = (UsageReport){.source = USAGE_BINARY};
    size_t desc_len = 0;
    const unsigned char *desc = NULL;
    bool ok = data && check_header(&r) && (desc = find_metadata(&r, &desc_len)) != NULL &&
              read_metadata(&r, desc, desc_len, out);
    if (ok)
        return 0;
    if (!data)
        fail(&r, "no data");
    *out = (UsageReport){.source = USAGE_BINARY, .exit_status = -1,
                         .errors = arena_strndup(arena, r.error, strlen(r.error))};
    return -1;
}

int amdgpu_code_object_usage(const char *path, Arena *arena, UsageReport *out)
{
    size_t len;
    char *data = read_file(path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!data) {
        char why[ERROR_SIZE];
        read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, why, sizeof why);
        *out = (UsageReport){.source = USAGE_BINARY, .exit_status = -1,
                             .errors = arena_strndup(arena, why, strlen(why))};
        return -1;
    }
    int rc = amdgpu_code_object_parse((const unsigned char *)data, len, arena, out);
    free(data);
    return rc;
}
