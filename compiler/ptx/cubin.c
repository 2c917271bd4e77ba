/*
 * cubin.c: read each entry function's resources from a cubin's ELF
 * records, to the figures ptxas -v prints.
 *
 * The file (CUDA 13.0 ptxas and nvlink, checked with readelf and against
 * ptxas -v on sm_75, 80, 86, 89, 90, 100, 103, 110, 120, 121):
 *
 *   - ELF64, little-endian, e_machine 190 (EM_CUDA), e_type ET_EXEC
 *     (ptxas, nvcc -cubin, nvlink) or ET_REL (ptxas -c).  The SM number is
 *     e_flags bits 8-15 when EI_ABIVERSION is 8 or more (0x4b04 for sm_75,
 *     0x5a04 for sm_90 and sm_90a, 0x6402 for sm_100, 0x7902 for sm_121);
 *     older toolkits (ABI version 7: EF_CUDA_SM(x) = x) kept it in bits 0-7.
 *   - Entry functions are the defined FUNC symbols with STO_CUDA_ENTRY
 *     (0x10) in st_other; device functions ("$kA$helper", or "helper"
 *     under -c) lack it.  Their order in .symtab is the order ptxas -v
 *     prints them.  A relocatable cubin also has undefined ones (st_shndx
 *     0): the child of a device-side launch (extern __global__), not a
 *     kernel of this file.
 *   - Relocatable cubins only: dynamic shared memory (extern __shared__
 *     T s[]) is an undefined symbol with STO_CUDA_SHARED (0x40) and size
 *     0, and each function that addresses it has a relocation against it
 *     in .rel.text.NAME (sm_75 to sm_89) or .rela.text.NAME (sm_90 on);
 *     .nv.callgraph lists calls as [u32 caller, u32 callee] symbol pairs
 *     after a [0, 0xffffffff] header (cuobjdump -elf prints them as
 *     <caller,callee>), a callee of another file being undefined.  An
 *     executable cubin keeps no trace of dynamic shared memory (cubin.h).
 *   - .nv.info sections are a list of attributes: a format byte, an
 *     attribute byte, then for format 1 (NVAL) two zero bytes, for 2 (BVAL)
 *     a value byte and a pad byte, for 3 (HVAL) a u16 value, for 4 (SVAL) a
 *     u16 size and that many bytes.  Every attribute is a multiple of 4
 *     bytes long.
 *   - The global .nv.info holds per-function EIATTR_REGCOUNT (0x2f) and
 *     EIATTR_FRAME_SIZE (0x11), each SVAL [u32 symbol index, u32 value]:
 *     the register count and stack frame of ptxas -v.  Old toolkits
 *     recorded registers in bits 24-31 of .text.NAME's sh_info
 *     (SHI_REGISTERS) and barriers in bits 20-26 of its sh_flags
 *     (SHF_BARRIERS); CUDA 13 still fills SHI_REGISTERS before sm_90, so
 *     both are read when the attributes are missing.
 *   - .nv.info.NAME holds EIATTR_MAX_THREADS (0x05, SVAL 3 x u32: .maxntid),
 *     EIATTR_REQNTID (0x10, SVAL 3 x u32), EIATTR_MAXREG_COUNT (0x1b, HVAL:
 *     the register cap, 255 when none) and EIATTR_NUM_BARRIERS (0x4c, BVAL:
 *     the count ptxas -v prints as "used N barriers"; absent when 0), and
 *     a cluster kernel's EIATTR_CTA_PER_CLUSTER (0x3d, SVAL 3 x u32:
 *     .reqnctapercluster), EIATTR_EXPLICIT_CLUSTER (0x3e, NVAL) and
 *     EIATTR_MAX_CLUSTER_RANK (0x3f, SVAL u32: .maxclusterrank), as
 *     cuobjdump -elf names them (nvcc 13.0 -cubin, sm_90).
 *   - .nv.shared.NAME is the kernel's static shared window;
 *     .nv.constant0.NAME its constant bank 0 (what ptxas -v prints as
 *     cmem[0] before sm_90, where it stopped printing it).  Each names its
 *     kernel twice: by the suffix, and by sh_info, the index of .text.NAME,
 *     which is the kernel symbol's st_shndx.  Both must agree.
 *   - The shared window is NOBITS in an executable, SHT_CUDA_SHARED
 *     (0x7000000a) in a relocatable cubin, where .nv.global is
 *     SHT_CUDA_GLOBAL (0x70000007).  Neither holds file data, and ptxas -c
 *     gives them the offset of the next section, which may be the end of
 *     the file (a 32 KiB window in a 12 KiB file).  So a section's extent
 *     is checked against the file only when its bytes are read.
 *
 * Shared memory.  Up to sm_89 the size of .nv.shared.NAME is ptxas -v's
 * "bytes smem".  From sm_90 on, in an executable cubin (ET_EXEC, from ptxas
 * or nvlink) it is exactly 1024 bytes more: the driver's per-CTA system
 * reservation (cudaDevAttrReservedSharedMemoryPerBlock, 1 KiB since
 * sm_80) is placed by the assembler at the start of the window, and the
 * user's variables follow it (the module also gains a
 * .nv.reservedSmem.offset0 symbol and a .nv.shared.reserved.0 section, but
 * neither holds the 1024).  Measured: 1000 bytes -> 2024, 4096 -> 5120,
 * 8 -> 1040 after padding to 16, a .align 1024 array of 100 -> 1136 (112 +
 * 1024), 49152 -> 50176, an mbarrier only -> 1032, a kernel with no shared
 * variable in a module with an .extern .shared -> 1024 (ptxas: 0), a
 * callee's module-scope array -> counted in each caller, the same with
 * .reqnctapercluster, .reqntid, .minnctapersm and %reserved_smem_offset_*
 * (EIATTR_RESERVED_SMEM_USED set), on sm_90, 100 and 120; nvlink's output
 * of ptxas -c objects likewise.  A relocatable object (ptxas -c, ET_REL)
 * holds the kernel's own variables only, with no reservation.  So:
 * static_smem = size - 1024 for ET_EXEC on sm_90 and newer, else size;
 * a kernel without the section uses none.  The occupancy engine adds the
 * driver's reservation itself, as it does for ptxas's figure.
 *
 * Why ptxas's figure and not the window (issue 24, item 11).  NVIDIA's
 * sources: cudaFuncAttributes.sharedSizeBytes (driver_types.h, and
 * CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES in cuda.h) is "the size in bytes of
 * statically-allocated shared memory per block required by this
 * function", without dynamic memory; the reservation is a separate device
 * attribute, cudaDevAttrReservedSharedMemoryPerBlock ("shared memory
 * reserved by CUDA driver per block in bytes"); and cuda_occupancy.h
 * (CUDA 13.0, cudaOccSMemAllocationGranularity's caller) computes
 * staticSmemSize = sharedSizeBytes + reservedSharedMemPerBlock, adding the
 * reservation to the attribute itself.  The PTX ISA says where the window
 * grew from: from sm_90 the reserved region is part of the CTA's shared
 * window (%reserved_smem_offset_begin/_end/_cap locate it, and
 * %aggr_smem_size is "user shared memory allocated (statically and
 * dynamically) at launch time and the size of shared memory region which
 * is reserved for the NVIDIA system software use").  So the window counts
 * the reservation the calculator adds again: taking it as the kernel's
 * static figure would count 1 KiB twice (tests/report/smem_reserved.sh: a
 * 32256-byte kernel of 64 threads then loses a CTA on sm_90, 7 -> 6, and
 * on sm_120, 3 -> 2).  Whether the driver's cudaFuncGetAttributes returns
 * 32256 or 33280 for such a kernel on sm_90, and what the runtime's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor answers, only a device
 * says: tests/gpu/smem-attrs.sh compares both with ours.
 */
#include <config.h>

#include "cubin.h"
#include "read_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ELF_HEADER_SIZE = 64,
    SECTION_HEADER_SIZE = 64,
    SYMBOL_SIZE = 24,
    EM_CUDA = 190,
    ET_REL = 1,
    ET_EXEC = 2,
    SHT_SYMTAB = 2,
    SHT_RELA = 4,
    SHT_NOBITS = 8,
    SHT_REL = 9,
    SHT_CUDA_INFO = 0x70000000,
    SHT_CUDA_CALLGRAPH = 0x70000001,
    SHT_CUDA_GLOBAL = 0x70000007, /* .nv.global under -c: no file data */
    SHT_CUDA_SHARED = 0x7000000a, /* .nv.shared.NAME under -c: no file data */
    SHN_UNDEF = 0,
    STT_FUNC = 2,
    STO_CUDA_ENTRY = 0x10,
    STO_CUDA_SHARED = 0x40,
    /* the attributes read (EIATTR_*) */
    ATTR_MAX_THREADS = 0x05,
    ATTR_REQNTID = 0x10,
    ATTR_FRAME_SIZE = 0x11,
    ATTR_MAXREG_COUNT = 0x1b,
    ATTR_CTA_PER_CLUSTER = 0x3d,   /* SVAL 3 x u32: .reqnctapercluster */
    ATTR_EXPLICIT_CLUSTER = 0x3e,  /* NVAL: .explicitcluster */
    ATTR_MAX_CLUSTER_RANK = 0x3f,  /* SVAL u32: .maxclusterrank */
    ATTR_REGCOUNT = 0x2f,
    ATTR_NUM_BARRIERS = 0x4c,
    /* the reservation inside .nv.shared.NAME from sm_90 on (see above) */
    RESERVED_SMEM_SM90 = 1024,
};

/* ---- bounded reading -------------------------------------------------------- */

typedef struct Section {
    uint32_t name, type, link, info;
    uint64_t flags, offset, size;
} Section;

typedef struct Elf {
    const unsigned char *data;
    size_t len;
    int type, sm;
    Section *sections;
    unsigned n_sections;
    const Section *names; /* the section name table */
    char *error;
    size_t size;
} Elf;

static uint16_t read16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t read32(const unsigned char *p)
{
    return (uint32_t)read16(p) | (uint32_t)read16(p + 2) << 16;
}

static uint64_t read64(const unsigned char *p)
{
    return (uint64_t)read32(p) | (uint64_t)read32(p + 4) << 32;
}

/* Whether [offset, offset + size) lies within a file of `len` bytes,
 * without overflow. */
static bool fits(size_t len, uint64_t offset, uint64_t size)
{
    return offset <= len && size <= len - offset;
}

static bool fail(Elf *elf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (elf->size)
        vsnprintf(elf->error, elf->size, fmt, ap);
    va_end(ap);
    return false;
}

/* The one message for every part of the file that ends past its end. */
static bool check_extent(Elf *elf, const char *what, uint64_t offset, uint64_t size)
{
    if (fits(elf->len, offset, size))
        return true;
    return fail(elf, "truncated or corrupt: %s at offset %llu (%llu bytes) ends past the end "
                     "of the file (%zu bytes)",
                what, (unsigned long long)offset, (unsigned long long)size, elf->len);
}

/* A NUL-terminated string at `offset` in section `s`, or NULL. */
static const char *string_at(const Elf *elf, const Section *s, uint64_t offset)
{
    if (s->type == SHT_NOBITS || offset >= s->size)
        return NULL;
    const char *start = (const char *)elf->data + s->offset + offset;
    return memchr(start, '\0', (size_t)(s->size - offset)) ? start : NULL;
}

enum { NAME_SHOWN = 96 };

/* `name` as an error line may show it: at most NAME_SHOWN - 4 bytes, each
 * control byte as '?', "..." when cut.  Names come from the file, and a
 * hostile one must not break the one line of error text. */
static const char *printable(const char *name, char shown[NAME_SHOWN])
{
    size_t n = 0;
    for (; name[n] && n < NAME_SHOWN - 4; n++) {
        unsigned char c = (unsigned char)name[n];
        shown[n] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    if (name[n]) {
        memcpy(shown + n, "...", 3);
        n += 3;
    }
    shown[n] = '\0';
    return shown;
}

/* ---- the headers ------------------------------------------------------------ */

/* The SM number from e_flags: bits 8-15 from ABI version 8 (CUDA 12.8
 * and 13), bits 0-7 before. */
static int header_sm(const unsigned char *h)
{
    uint32_t flags = read32(h + 48);
    return h[8] >= 8 ? (int)(flags >> 8 & 0xff) : (int)(flags & 0xff);
}

static bool read_header(Elf *elf)
{
    const unsigned char *h = elf->data;
    if (elf->len == 0)
        return fail(elf, "empty file");
    if (elf->len < 4 || memcmp(h, "\177ELF", 4) != 0)
        return fail(elf, "not an ELF file");
    if (elf->len < 6)
        return fail(elf, "truncated ELF header (%zu of %d bytes)", elf->len, ELF_HEADER_SIZE);
    if (h[4] != 2)
        return fail(elf, "%s ELF file; a cubin is 64-bit ELF", h[4] == 1 ? "32-bit" : "unknown-class");
    if (h[5] != 1)
        return fail(elf, "big-endian ELF file; a cubin is little-endian");
    if (elf->len < ELF_HEADER_SIZE)
        return fail(elf, "truncated ELF header (%zu of %d bytes)", elf->len, ELF_HEADER_SIZE);
    unsigned machine = read16(h + 18);
    if (machine != EM_CUDA)
        return fail(elf, "ELF file for machine %u, not a CUDA cubin (machine 190)", machine);
    elf->type = read16(h + 16);
    if (elf->type != ET_EXEC && elf->type != ET_REL)
        return fail(elf, "ELF file of type %d, not an executable or relocatable cubin", elf->type);
    elf->sm = header_sm(h);
    if (elf->sm == 0)
        return fail(elf, "no SM number in ELF flags 0x%x", (unsigned)read32(h + 48));
    uint64_t phoff = read64(h + 32);
    uint64_t phsize = (uint64_t)read16(h + 54) * read16(h + 56);
    return phsize == 0 || check_extent(elf, "program header table", phoff, phsize);
}

/* Whether section `s` holds bytes of the file.  NOBITS sections (and, in
 * relocatable cubins, the CUDA types of the uninitialised global and the
 * shared windows: .nv.global, .nv.shared.*) only give a size:
 * ptxas -c writes a 32 KiB .nv.shared.NAME with an sh_offset near the end
 * of a 3 KiB file, which is no corruption. */
static bool has_bytes(const Section *s)
{
    return s->type != SHT_NOBITS && s->type != SHT_CUDA_GLOBAL && s->type != SHT_CUDA_SHARED;
}

/* Checks, before any of its bytes are read, that section `index` lies in
 * the file.  Only the sections read are checked (string and symbol
 * tables, .nv.info, relocations, the call graph): a window section's
 * offset means nothing, whatever type a new toolkit gives it. */
static bool check_section(Elf *elf, unsigned index)
{
    const Section *s = &elf->sections[index];
    if (!has_bytes(s))
        return fail(elf, "section %u holds no file data (type 0x%x) where data is needed", index,
                    (unsigned)s->type);
    char what[32];
    snprintf(what, sizeof what, "section %u", index);
    return check_extent(elf, what, s->offset, s->size);
}

static bool read_sections(Elf *elf, Arena *arena)
{
    const unsigned char *h = elf->data;
    uint64_t shoff = read64(h + 40);
    unsigned entsize = read16(h + 58), count = read16(h + 60), names = read16(h + 62);
    if (count == 0)
        return fail(elf, "no section headers");
    if (entsize != SECTION_HEADER_SIZE)
        return fail(elf, "section header size %u, not %d", entsize, SECTION_HEADER_SIZE);
    if (!check_extent(elf, "section header table", shoff, (uint64_t)count * entsize))
        return false;
    if (names >= count)
        return fail(elf, "section name table index %u out of range (%u sections)", names, count);
    elf->sections = ARENA_ARRAY(arena, Section, count);
    elf->n_sections = count;
    for (unsigned i = 0; i < count; i++) {
        const unsigned char *p = elf->data + shoff + (uint64_t)i * entsize;
        elf->sections[i] = (Section){.name = read32(p), .type = read32(p + 4),
                                     .flags = read64(p + 8), .offset = read64(p + 24),
                                     .size = read64(p + 32), .link = read32(p + 40),
                                     .info = read32(p + 44)};
    }
    elf->names = &elf->sections[names];
    return check_section(elf, names);
}

/* A section's name; NULL (with the error set) when it does not read. */
static const char *section_name(Elf *elf, unsigned index)
{
    const char *name = string_at(elf, elf->names, elf->sections[index].name);
    if (!name)
        fail(elf, "section %u has no readable name", index);
    return name;
}

/* ---- the entry functions ----------------------------------------------------- */

typedef struct Kernels {
    KernelUsage *usage;
    CubinKernel *details;
    unsigned *section; /* each kernel's .text section (its symbol's st_shndx) */
    int n, capacity;
    int *by_symbol;    /* symbol index -> kernel, or -1 */
    int *by_section;   /* section index -> kernel whose .text it is, or -1 */
} Kernels;

static void add_kernel(Kernels *k, Arena *arena, const char *name, unsigned section)
{
    if (k->n == k->capacity) {
        int grown = k->capacity ? 2 * k->capacity : 8;
        k->usage = arena_grow(arena, k->usage, (size_t)k->n, (size_t)grown, sizeof *k->usage);
        k->details = arena_grow(arena, k->details, (size_t)k->n, (size_t)grown, sizeof *k->details);
        k->section = arena_grow(arena, k->section, (size_t)k->n, (size_t)grown, sizeof *k->section);
        k->capacity = grown;
    }
    k->usage[k->n] = (KernelUsage){
        .name = arena_strndup(arena, name, strlen(name)),
        .registers = -1, /* until an attribute or SHI_REGISTERS gives it */
        .spill_stores = -1,
        .spill_loads = -1,
        .barriers = -1, /* until NUM_BARRIERS or SHF_BARRIERS */
    };
    k->details[k->n] = (CubinKernel){0};
    k->section[k->n] = section;
    k->n++;
}

static const Section *find_symtab(Elf *elf)
{
    for (unsigned i = 0; i < elf->n_sections; i++) {
        if (elf->sections[i].type == SHT_SYMTAB)
            return &elf->sections[i];
    }
    fail(elf, "no symbol table");
    return NULL;
}

static bool read_symbols(Elf *elf, Arena *arena, Kernels *k)
{
    const Section *symtab = find_symtab(elf);
    if (!symtab || !check_section(elf, (unsigned)(symtab - elf->sections)))
        return false;
    if (symtab->link >= elf->n_sections)
        return fail(elf, "symbol table's string table index %u out of range", symtab->link);
    if (!check_section(elf, symtab->link))
        return false;
    const Section *strings = &elf->sections[symtab->link];
    size_t count = (size_t)(symtab->size / SYMBOL_SIZE);
    k->by_symbol = ARENA_ARRAY(arena, int, count ? count : 1);
    k->by_section = ARENA_ARRAY(arena, int, elf->n_sections);
    memset(k->by_section, 0xff, elf->n_sections * sizeof *k->by_section);
    for (size_t i = 0; i < count; i++) {
        const unsigned char *p = elf->data + symtab->offset + i * SYMBOL_SIZE;
        unsigned shndx = read16(p + 6);
        k->by_symbol[i] = -1;
        /* An undefined entry is a kernel of another file: the parent of a
         * device-side launch under -rdc (extern __global__ child) names
         * its child so.  It has no code here, and no figures. */
        if ((p[4] & 0xf) != STT_FUNC || !(p[5] & STO_CUDA_ENTRY) || shndx == SHN_UNDEF)
            continue;
        const char *name = string_at(elf, strings, read32(p));
        if (!name || !*name)
            return fail(elf, "entry function symbol %zu has no readable name", i);
        if (shndx >= elf->n_sections) {
            char shown[NAME_SHOWN];
            return fail(elf, "entry function %s: section index %u out of range",
                        printable(name, shown), shndx);
        }
        k->by_symbol[i] = k->n;
        k->by_section[shndx] = k->n;
        add_kernel(k, arena, name, shndx);
    }
    return true;
}

/* ---- .nv.info attributes ------------------------------------------------------ */

typedef struct Attr {
    int format, id;
    unsigned value;              /* BVAL and HVAL */
    const unsigned char *bytes;  /* SVAL */
    unsigned n_bytes;
} Attr;

/* The attribute at *pos of section `s`, advancing *pos; false at the end
 * (*pos == size) or, with the error set, when one does not fit. */
static bool next_attr(Elf *elf, const Section *s, const char *name, uint64_t *pos, Attr *a)
{
    if (*pos >= s->size)
        return false;
    const unsigned char *p = elf->data + s->offset + *pos;
    uint64_t left = s->size - *pos;
    uint64_t length = 4;
    if (left >= 4) {
        *a = (Attr){.format = p[0], .id = p[1], .value = p[0] == 2 ? p[2] : read16(p + 2)};
        if (a->format == 4) {
            a->n_bytes = read16(p + 2);
            a->bytes = p + 4;
            length += a->n_bytes;
        }
    }
    if (left < 4 || a->format < 1 || a->format > 4 || length > left) {
        char shown[NAME_SHOWN];
        fail(elf, "malformed attribute at byte %llu of %s", (unsigned long long)*pos,
             printable(name, shown));
        *pos = UINT64_MAX; /* tells the caller it was an error */
        return false;
    }
    *pos += length;
    return true;
}

/* u32 number `i` of an SVAL attribute, or -1 when it is too short or the
 * value does not fit an int. */
static long long sval_word(const Attr *a, unsigned i)
{
    if (a->format != 4 || a->n_bytes < 4 * (i + 1))
        return -1;
    uint32_t v = read32(a->bytes + 4 * i);
    return v > INT32_MAX ? -1 : (long long)v;
}

/* REGCOUNT and FRAME_SIZE: [symbol index, value]. */
static void global_attr(const Attr *a, const Kernels *k, size_t n_symbols)
{
    if (a->id != ATTR_REGCOUNT && a->id != ATTR_FRAME_SIZE)
        return;
    long long symbol = sval_word(a, 0), value = sval_word(a, 1);
    if (symbol < 0 || (size_t)symbol >= n_symbols || value < 0 || k->by_symbol[symbol] < 0)
        return; /* a device function's, or nothing a kernel needs */
    KernelUsage *u = &k->usage[k->by_symbol[symbol]];
    if (a->id == ATTR_REGCOUNT)
        u->registers = (int)value;
    else
        u->stack_frame = (int)value;
}

static void read_dims(const Attr *a, int dims[3])
{
    for (unsigned i = 0; i < 3; i++) {
        long long v = sval_word(a, i);
        dims[i] = v < 0 ? 0 : (int)v;
    }
}

static void kernel_attr(const Attr *a, KernelUsage *u, CubinKernel *d)
{
    switch (a->id) {
    case ATTR_MAX_THREADS:
        read_dims(a, d->max_threads_dim);
        break;
    case ATTR_REQNTID:
        read_dims(a, d->req_threads_dim);
        break;
    case ATTR_CTA_PER_CLUSTER:
        read_dims(a, d->cluster_dim);
        break;
    case ATTR_EXPLICIT_CLUSTER:
        d->explicit_cluster = true;
        break;
    case ATTR_MAX_CLUSTER_RANK: {
        long long v = sval_word(a, 0);
        d->max_cluster_rank = v < 0 || v > 1 << 20 ? 0 : (int)v;
        break;
    }
    case ATTR_MAXREG_COUNT:
        if (a->format == 3)
            d->max_registers = (int)a->value;
        break;
    case ATTR_NUM_BARRIERS:
        if (a->format == 2 || a->format == 3)
            u->barriers = (int)a->value;
        break;
    default:
        break;
    }
}

/* Walks one .nv.info section: the global one (kernel < 0) or a kernel's. */
static bool read_info(Elf *elf, const Section *s, const char *name, Kernels *k, int kernel,
                      size_t n_symbols)
{
    if (!check_section(elf, (unsigned)(s - elf->sections)))
        return false;
    uint64_t pos = 0;
    Attr a;
    while (next_attr(elf, s, name, &pos, &a)) {
        if (kernel < 0)
            global_attr(&a, k, n_symbols);
        else
            kernel_attr(&a, &k->usage[kernel], &k->details[kernel]);
    }
    return pos != UINT64_MAX;
}

/* ---- per-kernel sections ------------------------------------------------------ */

/* The kernel a ".nv.info.NAME"-style section belongs to: the one whose
 * .text section sh_info names, if NAME is its name; else -1. */
static int owner(const Elf *elf, const Kernels *k, const Section *s, const char *suffix)
{
    if (s->info >= elf->n_sections || k->by_section[s->info] < 0)
        return -1;
    int kernel = k->by_section[s->info];
    return strcmp(suffix, k->usage[kernel].name) == 0 ? kernel : -1;
}

static int clamp_int(uint64_t v)
{
    return v > INT32_MAX ? INT32_MAX : (int)v;
}

static int shared_bytes(const Elf *elf, uint64_t size)
{
    if (elf->type == ET_EXEC && elf->sm >= 90 && size >= RESERVED_SMEM_SM90)
        size -= RESERVED_SMEM_SM90;
    return clamp_int(size);
}

/* One section: global or per-kernel .nv.info, .nv.shared.NAME or
 * .nv.constant0.NAME; others are skipped. */
static bool read_section(Elf *elf, unsigned i, Kernels *k, size_t n_symbols)
{
    const Section *s = &elf->sections[i];
    const char *name = section_name(elf, i);
    if (!name)
        return false;
    if (s->type == SHT_CUDA_INFO && strcmp(name, ".nv.info") == 0)
        return read_info(elf, s, name, k, -1, n_symbols);
    if (s->type == SHT_CUDA_INFO && strncmp(name, ".nv.info.", 9) == 0) {
        int kernel = owner(elf, k, s, name + 9);
        return kernel < 0 || read_info(elf, s, name, k, kernel, n_symbols);
    }
    if (strncmp(name, ".nv.shared.", 11) == 0) {
        int kernel = owner(elf, k, s, name + 11);
        if (kernel >= 0)
            k->usage[kernel].static_smem = shared_bytes(elf, s->size);
    } else if (strncmp(name, ".nv.constant0.", 14) == 0) {
        int kernel = owner(elf, k, s, name + 14);
        if (kernel >= 0)
            k->usage[kernel].const_bank0 = clamp_int(s->size);
    }
    return true;
}

/* x * y * z threads (a 0 for y or z counts as 1), at most INT32_MAX (a
 * hostile file's dimensions must not overflow); 0 when x is 0 (no bound). */
static int thread_count(const int dims[3])
{
    long long threads = 1;
    for (int i = 0; i < 3; i++) {
        threads *= dims[i] ? dims[i] : 1;
        if (threads > INT32_MAX)
            return INT32_MAX;
    }
    return dims[0] ? (int)threads : 0;
}

/* What the attributes left unsaid: old toolkits' SHI_REGISTERS and
 * SHF_BARRIERS on .text.NAME, and max_threads from the dimensions. */
static bool finish_kernel(Elf *elf, const Kernels *k, int i)
{
    KernelUsage *u = &k->usage[i];
    const CubinKernel *d = &k->details[i];
    const Section *text = &elf->sections[k->section[i]];
    if (u->registers < 0 && text->info >> 24)
        u->registers = (int)(text->info >> 24);
    if (u->registers < 0) {
        char shown[NAME_SHOWN];
        return fail(elf, "no register count for entry function %s", printable(u->name, shown));
    }
    if (u->barriers < 0)
        u->barriers = (int)(text->flags >> 20 & 0x7f);
    u->max_threads = thread_count(d->max_threads_dim[0] ? d->max_threads_dim : d->req_threads_dim);
    return true;
}

/* ---- relocatable cubins: dynamic shared memory and calls out ----------------- */

/* What a function does, itself or through the functions it calls. */
enum { USES_DYNAMIC = 1, CALLS_OUT = 2 };

typedef struct Graph {
    const Section *symtab;
    size_t n_symbols;
    unsigned char *flags; /* per symbol: USES_DYNAMIC | CALLS_OUT */
    int *func_at;         /* per section: the function symbol whose code it is, or -1 */
    size_t *first_caller; /* per symbol + 1: callers of s are callers[first_caller[s]..] */
    size_t *callers;
} Graph;

static const unsigned char *symbol_at(const Elf *elf, const Graph *g, size_t i)
{
    return elf->data + g->symtab->offset + i * SYMBOL_SIZE;
}

/* The symbol `extern __shared__ T name[]` leaves in a relocatable cubin:
 * undefined, shared (STO_CUDA_SHARED), of size 0.  A sized extern shared
 * variable, defined in another file under -rdc, keeps its size. */
static bool is_dynamic_shared(const unsigned char *p)
{
    return read16(p + 6) == SHN_UNDEF && (p[5] & STO_CUDA_SHARED) && read64(p + 16) == 0;
}

/* A function of another file (an entry there is a launch, not a call). */
static bool is_outside_function(const unsigned char *p)
{
    return read16(p + 6) == SHN_UNDEF && (p[4] & 0xf) == STT_FUNC && !(p[5] & STO_CUDA_ENTRY);
}

/* USES_DYNAMIC for each function whose code has a relocation against the
 * dynamic shared symbol (REL or RELA section, sh_info its .text). */
static bool read_relocations(Elf *elf, Graph *g, unsigned index)
{
    const Section *s = &elf->sections[index];
    if (s->info >= elf->n_sections || g->func_at[s->info] < 0)
        return true; /* relocations of data or debug sections */
    if (!check_section(elf, index))
        return false;
    unsigned entry = s->type == SHT_RELA ? 24 : 16;
    for (uint64_t at = 0; at + entry <= s->size; at += entry) {
        uint64_t symbol = read64(elf->data + s->offset + at + 8) >> 32;
        if (symbol < g->n_symbols && is_dynamic_shared(symbol_at(elf, g, (size_t)symbol)))
            g->flags[g->func_at[s->info]] |= USES_DYNAMIC;
    }
    return true;
}

/* .nv.callgraph: [u32 caller, u32 callee] symbol pairs in lists headed by
 * [0, -1], [0, -2], [0, -3], [0, -4].  Only the first holds calls (the
 * fourth holds device-side launches: parent, child).  A call to a
 * function of another file sets CALLS_OUT; the others are kept, callee
 * to caller, for propagate(). */
static bool read_callgraph(Elf *elf, Arena *arena, Graph *g, unsigned index)
{
    const Section *s = &elf->sections[index];
    if (!check_section(elf, index))
        return false;
    size_t n = (size_t)(s->size / 8), n_calls = 0;
    uint32_t *edges = ARENA_ARRAY(arena, uint32_t, 2 * (n ? n : 1));
    uint32_t list = 1; /* a file without headers: calls */
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = elf->data + s->offset + 8 * i;
        uint32_t caller = read32(p), callee = read32(p + 4);
        if (caller == 0 && callee >= 0xfffffff0u)
            list = ~callee + 1;
        else if (list == 1 && caller < g->n_symbols && callee < g->n_symbols && caller && callee) {
            if (is_outside_function(symbol_at(elf, g, callee)))
                g->flags[caller] |= CALLS_OUT;
            edges[2 * n_calls] = caller;
            edges[2 * n_calls + 1] = callee;
            n_calls++;
        }
    }
    /* callers by callee, counting sort */
    g->first_caller = ARENA_ARRAY(arena, size_t, g->n_symbols + 1);
    g->callers = ARENA_ARRAY(arena, size_t, n_calls ? n_calls : 1);
    memset(g->first_caller, 0, (g->n_symbols + 1) * sizeof *g->first_caller);
    for (size_t i = 0; i < n_calls; i++)
        g->first_caller[edges[2 * i + 1] + 1]++;
    for (size_t i = 0; i < g->n_symbols; i++)
        g->first_caller[i + 1] += g->first_caller[i];
    size_t *next = ARENA_ARRAY(arena, size_t, g->n_symbols + 1);
    memcpy(next, g->first_caller, (g->n_symbols + 1) * sizeof *next);
    for (size_t i = 0; i < n_calls; i++)
        g->callers[next[edges[2 * i + 1]]++] = edges[2 * i];
    return true;
}

/* Gives `bit` to every caller, direct or not, of a function that has it:
 * each symbol is pushed once, so a hostile graph (cycles, a million
 * edges) costs symbols + edges. */
static void propagate(Graph *g, Arena *arena, unsigned char bit)
{
    if (!g->callers)
        return;
    size_t *stack = ARENA_ARRAY(arena, size_t, g->n_symbols ? g->n_symbols : 1), top = 0;
    for (size_t i = 0; i < g->n_symbols; i++) {
        if (g->flags[i] & bit)
            stack[top++] = i;
    }
    while (top) {
        size_t callee = stack[--top];
        for (size_t c = g->first_caller[callee]; c < g->first_caller[callee + 1]; c++) {
            size_t caller = g->callers[c];
            if (!(g->flags[caller] & bit)) {
                g->flags[caller] |= bit;
                stack[top++] = caller;
            }
        }
    }
}

/* Each section's function: the FUNC symbol defined in it (ptxas gives
 * every function of a relocatable cubin its own .text.NAME). */
static void map_functions(const Elf *elf, Arena *arena, Graph *g)
{
    g->func_at = ARENA_ARRAY(arena, int, elf->n_sections);
    memset(g->func_at, 0xff, elf->n_sections * sizeof *g->func_at);
    for (size_t i = 1; i < g->n_symbols && i <= INT32_MAX; i++) {
        const unsigned char *p = symbol_at(elf, g, i);
        unsigned shndx = read16(p + 6);
        if ((p[4] & 0xf) == STT_FUNC && shndx != SHN_UNDEF && shndx < elf->n_sections)
            g->func_at[shndx] = (int)i;
    }
}

/* CubinKernel's dynamic_smem, dynamic_smem_known and calls_out, which
 * only a relocatable cubin records (see cubin.h). */
static bool read_relocatable(Elf *elf, Arena *arena, Kernels *k)
{
    Graph g = {.symtab = find_symtab(elf)};
    g.n_symbols = (size_t)(g.symtab->size / SYMBOL_SIZE);
    g.flags = ARENA_ARRAY(arena, unsigned char, g.n_symbols ? g.n_symbols : 1);
    memset(g.flags, 0, g.n_symbols ? g.n_symbols : 1);
    map_functions(elf, arena, &g);
    for (unsigned i = 0; i < elf->n_sections; i++) {
        unsigned type = elf->sections[i].type;
        bool ok = true;
        if (type == SHT_REL || type == SHT_RELA)
            ok = read_relocations(elf, &g, i);
        else if (type == SHT_CUDA_CALLGRAPH && !g.callers)
            ok = read_callgraph(elf, arena, &g, i);
        if (!ok)
            return false;
    }
    propagate(&g, arena, USES_DYNAMIC);
    propagate(&g, arena, CALLS_OUT);
    for (size_t i = 0; i < g.n_symbols; i++) {
        if (k->by_symbol[i] < 0)
            continue;
        CubinKernel *d = &k->details[k->by_symbol[i]];
        d->dynamic_smem = g.flags[i] & USES_DYNAMIC;
        d->calls_out = g.flags[i] & CALLS_OUT;
        /* a function of another file may use it unseen */
        d->dynamic_smem_known = d->dynamic_smem || !d->calls_out;
    }
    return true;
}

/* ---- the whole file ------------------------------------------------------------ */

static bool read_kernels(Elf *elf, Arena *arena, Kernels *k)
{
    if (!read_header(elf) || !read_sections(elf, arena) || !read_symbols(elf, arena, k))
        return false;
    size_t n_symbols = (size_t)(find_symtab(elf)->size / SYMBOL_SIZE);
    for (unsigned i = 0; i < elf->n_sections; i++) {
        if (!read_section(elf, i, k, n_symbols))
            return false;
    }
    for (int i = 0; i < k->n; i++) {
        if (!finish_kernel(elf, k, i))
            return false;
    }
    return elf->type != ET_REL || read_relocatable(elf, arena, k);
}

bool cubin_read_details(const void *data, size_t len, Arena *arena, UsageReport *out,
                        CubinKernel **details, char *error, size_t size)
{
    Elf elf = {.data = data, .len = len, .error = error, .size = size};
    Kernels k = {0};
    if (size)
        error[0] = '\0';
    *out = (UsageReport){0};
    if (details)
        *details = NULL;
    if (!data && len)
        return fail(&elf, "no data");
    if (!read_kernels(&elf, arena, &k))
        return false;
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", elf.sm);
    out->arch = arena_strndup(arena, arch, strlen(arch));
    out->source = USAGE_BINARY;
    out->kernels = k.n ? k.usage : NULL;
    out->n_kernels = k.n;
    if (details)
        *details = k.n ? k.details : NULL;
    return true;
}

bool cubin_read(const void *data, size_t len, Arena *arena, UsageReport *out, char *error,
                size_t size)
{
    return cubin_read_details(data, len, arena, out, NULL, error, size);
}

bool cubin_read_file(const char *path, Arena *arena, UsageReport *out, CubinKernel **details,
                     char *error, size_t size)
{
    size_t len = 0;
    unsigned char *data = (unsigned char *)read_file(path, READ_FILE_CODE_LIMIT_MIB, &len);
    if (!data) {
        *out = (UsageReport){0};
        if (details)
            *details = NULL;
        if (size && errno == EFBIG)
            read_file_error(errno, READ_FILE_CODE_LIMIT_MIB, error, size);
        else if (size)
            snprintf(error, size, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = cubin_read_details(data, len, arena, out, details, error, size);
    free(data); /* the results live in the arena */
    return ok;
}
