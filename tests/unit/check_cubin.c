/*
 * check_cubin.c: unit tests of the cubin reader (compiler/cubin.c) and the
 * nvcc driver (compiler/nvcc.c).
 *
 * Built cubins: a small cubin assembled here byte by byte (one kernel with
 * every record the reader takes, and the undefined symbols, relocation and
 * call graph of a relocatable one) reads to its exact figures and flags,
 * in the new and the old ELF flag layouts, executable and relocatable; a
 * shared window past the end of the file is no error, nor is a hostile
 * name able to break an error's line; then each
 * malformed variant of it (and of a few headers) gives its exact error
 * line; every truncation and thousands of random byte flips give an error
 * or a result, never a crash (run under --enable-asan to check reads).
 *
 * ptxas: a PTX module written here (no shared memory, 1000 and 4096 bytes,
 * an .extern .shared array only, barriers 0, 1 and 2, .maxntid, .reqntid,
 * .maxnreg, over a hundred registers, a spilling kernel) assembled for
 * sm_75 to sm_121 (ten targets): cubin_read gives exactly ptxas
 * -v's registers, shared memory, barriers and stack frame, and the
 * .maxntid; under ptxas -c, the same and the dynamic shared memory flag.
 * A module with a device function and a module-scope shared array,
 * whole-program and relocatable (ptxas -c).  The real cubin cut at every
 * 64-byte boundary gives the exact error line.
 *
 * nvcc: a .cu file compiled by nvcc_compile_targets gives the figures of
 * `nvcc --ptxas-options=-v` on the same file and flags; a file nvcc
 * rejects gives its own error text.  Relocatable device code
 * (tests/data/cubin/rdc_kernels.cu, sm_75, sm_90, sm_120): the cubin of
 * nvcc -cubin -rdc=true, and that of nvcc -ptx -rdc=true assembled by
 * ptxas_assemble_targets (with -c), give ptxas's figures, exactly the
 * file's five kernels and their dynamic shared memory and calls out.
 * Flag splitting needs no nvcc.
 *
 * Without ptxas (or nvcc) those tests are left out and, if the rest pass,
 * the program exits 77 saying so.
 */
#include <config.h>

#include "arena.h"
#include "ptx/cubin.h"
#include "jobs.h"
#include "ptx/nvcc.h"
#include "ptx/ptxas.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../le_bytes.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- fixture -------------------------------------------------------------------- */

static Arena *arena;
static char temp_dir[256];

static void open_arena(void)
{
    arena = arena_new();
    snprintf(temp_dir, sizeof temp_dir, "%s/check-cubin-XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(temp_dir));
}

static void close_arena(void)
{
    DIR *d = opendir(temp_dir);
    if (d) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", temp_dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(temp_dir);
    arena_free(arena);
}

/* temp_dir/NAME, in the arena. */
static char *temp_path(const char *name)
{
    char buf[512];
    int len = snprintf(buf, sizeof buf, "%s/%s", temp_dir, name);
    return arena_strndup(arena, buf, (size_t)len);
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    unsigned char *data = arena_alloc(arena, (size_t)size + 1, 1);
    ck_assert_uint_eq(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return data;
}

/* cubin_read on bytes; the error text, or "" on success. */
static const char *read_error(const void *data, size_t len, UsageReport *out)
{
    static char error[512]; /* only for the assertion that follows */
    UsageReport scratch;
    bool ok = cubin_read(data, len, arena, out ? out : &scratch, error, sizeof error);
    ck_assert_int_eq(ok, error[0] == '\0');
    return error;
}

/* ---- a cubin built by hand ----------------------------------------------------- */

enum { BLOB_MAX = 2048, N_SECTIONS = 11 };

typedef struct Blob {
    unsigned char b[BLOB_MAX];
    size_t n;
    size_t shoff;
} Blob;

/* Appends bytes at a 4-byte boundary and returns their offset. */
static size_t append(Blob *blob, const void *data, size_t len)
{
    blob->n = (blob->n + 3) & ~(size_t)3;
    size_t at = blob->n;
    memcpy(blob->b + at, data, len);
    blob->n += len;
    return at;
}

static void section_header(Blob *blob, int i, uint32_t name, uint32_t type, uint64_t offset,
                           uint64_t size, uint32_t info, uint32_t link)
{
    unsigned char *p = blob->b + blob->shoff + 64 * (size_t)i;
    put32(p, name);
    put32(p + 4, type);
    put64(p + 24, offset);
    put64(p + 32, size);
    put32(p + 40, link);
    put32(p + 44, info);
}

static const char shstrtab[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.info\0.nv.info.k\0.text.k\0"
                               ".nv.shared.k\0.nv.constant0.k\0.rel.text.k\0.nv.callgraph";

/* The offset of `name` in shstrtab. */
static uint32_t shname(const char *name)
{
    for (size_t i = 1; i < sizeof shstrtab; i += strlen(shstrtab + i) + 1) {
        if (strcmp(shstrtab + i, name) == 0)
            return (uint32_t)i;
    }
    ck_abort_msg("no section name %s", name);
    return 0;
}

/* The symbols: the null one, kernel "k" (in .text.k, section 6), and
 * three undefined ones a relocatable cubin has: "child", an entry of
 * another file (a device-side launch's); "pool", extern __shared__ float
 * pool[] (STT 13, STO_CUDA_SHARED, size 0); "ext", a function of another
 * file.  Only "k" is a kernel. */
static size_t append_symbols(Blob *blob)
{
    static const struct {
        uint32_t name;
        unsigned char info, other;
        unsigned shndx;
    } symbols[] = {{0, 0, 0, 0}, {1, 0x12, 0x10, 6}, {3, 0x12, 0x10, 0}, {9, 0x1d, 0x40, 0},
                   {14, 0x12, 0, 0}};
    unsigned char syms[5 * 24] = {0};
    for (int i = 0; i < 5; i++) {
        put32(syms + 24 * i, symbols[i].name);
        syms[24 * i + 4] = symbols[i].info;
        syms[24 * i + 5] = symbols[i].other;
        put16(syms + 24 * i + 6, symbols[i].shndx);
    }
    return append(blob, syms, sizeof syms);
}

/* .rel.text.k: one relocation against "pool" (symbol 3); .nv.callgraph:
 * k calls ext (list 1), k launches child (list 4). */
static const unsigned char relocations[16] = {0x10, 0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 3, 0, 0, 0};
static const uint32_t callgraph[] = {0, 0xffffffff, 1, 4, 0, 0xfffffffe, 0, 0xfffffffd,
                                     0, 0xfffffffc, 1, 2};

/* One kernel "k": 42 registers, a 16-byte frame, .maxntid 128,2,1,
 * .maxnreg 64, 3 barriers, a 2024-byte shared section and an 8-byte
 * constant bank, using dynamic shared memory and calling a function of
 * another file.  `sm` and `abi` make e_flags; `type` is e_type. */
static void build_cubin(Blob *blob, int sm, int abi, int type)
{
    memset(blob, 0, sizeof *blob);
    unsigned char *h = blob->b;
    memcpy(h, "\177ELF\002\001\001\101", 8);
    h[8] = (unsigned char)abi;
    put16(h + 16, (unsigned)type);
    put16(h + 18, 190);
    put32(h + 20, 1);
    put32(h + 48, abi >= 8 ? (uint32_t)sm << 8 | 0x6000004 : (uint32_t)sm << 16 | 0x500 | (uint32_t)sm);
    put16(h + 52, 64);
    put16(h + 58, 64);
    put16(h + 60, N_SECTIONS);
    put16(h + 62, 1);
    blob->n = 64;
    size_t names = append(blob, shstrtab, sizeof shstrtab);
    static const char strings[] = "\0k\0child\0pool\0ext";
    size_t strtab = append(blob, strings, sizeof strings);
    size_t symtab = append_symbols(blob);
    unsigned char info[24] = {0x04, 0x2f, 8, 0, 1, 0, 0, 0, 42, 0, 0, 0,
                              0x04, 0x11, 8, 0, 1, 0, 0, 0, 16, 0, 0, 0};
    size_t global = append(blob, info, sizeof info);
    unsigned char kinfo[28] = {0x04, 0x05, 12, 0, 128, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0,
                               0x03, 0x1b, 64, 0, 0x02, 0x4c, 3, 0, 0x01, 0x35, 0, 0};
    size_t kernel = append(blob, kinfo, sizeof kinfo);
    size_t text = append(blob, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    size_t constant = append(blob, "\0\0\0\0\0\0\0", 8);
    size_t rel = append(blob, relocations, sizeof relocations);
    unsigned char calls[sizeof callgraph];
    for (size_t i = 0; i < sizeof callgraph / 4; i++)
        put32(calls + 4 * i, callgraph[i]);
    size_t graph = append(blob, calls, sizeof calls);
    blob->n = (blob->n + 7) & ~(size_t)7;
    blob->shoff = blob->n;
    put64(h + 40, blob->shoff);
    blob->n += 64 * N_SECTIONS;
    section_header(blob, 1, shname(".shstrtab"), 3, names, sizeof shstrtab, 0, 0);
    section_header(blob, 2, shname(".strtab"), 3, strtab, sizeof strings, 0, 0);
    section_header(blob, 3, shname(".symtab"), 2, symtab, 5 * 24, 1, 2);
    section_header(blob, 4, shname(".nv.info"), 0x70000000, global, sizeof info, 0, 3);
    section_header(blob, 5, shname(".nv.info.k"), 0x70000000, kernel, sizeof kinfo, 6, 3);
    section_header(blob, 6, shname(".text.k"), 1, text, 16, 0, 3);
    section_header(blob, 7, shname(".nv.shared.k"), 8, blob->n, 2024, 6, 0);
    section_header(blob, 8, shname(".nv.constant0.k"), 1, constant, 8, 6, 0);
    section_header(blob, 9, shname(".rel.text.k"), 9, rel, sizeof relocations, 6, 3);
    section_header(blob, 10, shname(".nv.callgraph"), 0x70000001, graph, sizeof calls, 0, 3);
}

static void check_built(const UsageReport *r, const char *arch, int smem)
{
    ck_assert_str_eq(r->arch, arch);
    ck_assert_int_eq(r->n_kernels, 1);
    const KernelUsage *k = &r->kernels[0];
    ck_assert_str_eq(k->name, "k");
    ck_assert_int_eq(k->registers, 42);
    ck_assert_int_eq(k->stack_frame, 16);
    ck_assert_int_eq(k->static_smem, smem);
    ck_assert_int_eq(k->const_bank0, 8);
    ck_assert_int_eq(k->barriers, 3);
    ck_assert_int_eq(k->max_threads, 256);
    ck_assert_int_eq(k->spill_stores, -1);
    ck_assert_int_eq(k->spill_loads, -1);
    ck_assert_int_eq(r->exit_status, 0);
    ck_assert_ptr_null(r->errors);
}

START_TEST(test_built_sm90_exec)
{
    Blob blob;
    build_cubin(&blob, 90, 8, 2);
    UsageReport r;
    CubinKernel *d;
    char error[256];
    ck_assert_msg(cubin_read_details(blob.b, blob.n, arena, &r, &d, error, sizeof error), "%s",
                  error);
    check_built(&r, "sm_90", 1000); /* the 1 KiB reservation taken off */
    ck_assert_int_eq(d[0].max_threads_dim[0], 128);
    ck_assert_int_eq(d[0].max_threads_dim[1], 2);
    ck_assert_int_eq(d[0].max_threads_dim[2], 1);
    ck_assert_int_eq(d[0].req_threads_dim[0], 0);
    ck_assert_int_eq(d[0].max_registers, 64);
}
END_TEST

START_TEST(test_built_other_layouts)
{
    Blob blob;
    UsageReport r;
    build_cubin(&blob, 80, 8, 2); /* before sm_90: the section is the figure */
    ck_assert_str_eq(read_error(blob.b, blob.n, &r), "");
    check_built(&r, "sm_80", 2024);
    build_cubin(&blob, 90, 8, 1); /* relocatable: no reservation inside */
    ck_assert_str_eq(read_error(blob.b, blob.n, &r), "");
    check_built(&r, "sm_90", 2024);
    build_cubin(&blob, 0x50, 7, 2); /* ABI 7: EF_CUDA_SM in bits 0-7 */
    ck_assert_str_eq(read_error(blob.b, blob.n, &r), "");
    check_built(&r, "sm_80", 2024);
}
END_TEST

START_TEST(test_read_file)
{
    Blob blob;
    build_cubin(&blob, 120, 8, 2);
    const char *path = temp_path("k.cubin");
    write_file(path, blob.b, blob.n);
    UsageReport r;
    char error[256];
    ck_assert_msg(cubin_read_file(path, arena, &r, NULL, error, sizeof error), "%s", error);
    check_built(&r, "sm_120", 1000);
    const char *missing = temp_path("missing.cubin");
    ck_assert(!cubin_read_file(missing, arena, &r, NULL, error, sizeof error));
    char want[600];
    snprintf(want, sizeof want, "cannot read %s: No such file or directory", missing);
    ck_assert_str_eq(error, want);
    ck_assert_int_eq(r.n_kernels, 0);
}
END_TEST

/* The offset of the first `len` bytes equal to `pattern` after the header. */
static size_t find_run(const Blob *blob, const void *pattern, size_t len)
{
    for (size_t i = 64; i + len <= blob->n; i++) {
        if (memcmp(blob->b + i, pattern, len) == 0)
            return i;
    }
    ck_abort_msg("pattern not found");
    return 0;
}

/* A relocatable cubin records dynamic shared memory and calls out; an
 * executable one neither (its relocations and call graph are not read). */
START_TEST(test_built_relocatable)
{
    Blob blob;
    build_cubin(&blob, 90, 8, 1);
    UsageReport r;
    CubinKernel *d;
    char error[256];
    ck_assert_msg(cubin_read_details(blob.b, blob.n, arena, &r, &d, error, sizeof error), "%s",
                  error);
    check_built(&r, "sm_90", 2024); /* "child", undefined, is no kernel */
    ck_assert(d[0].dynamic_smem && d[0].dynamic_smem_known && d[0].calls_out);
    Blob other = blob; /* the relocation against another symbol: unknown, ext may use it */
    other.b[find_run(&other, relocations, sizeof relocations) + 12] = 1;
    ck_assert(cubin_read_details(other.b, other.n, arena, &r, &d, error, sizeof error));
    ck_assert(!d[0].dynamic_smem && !d[0].dynamic_smem_known && d[0].calls_out);
    /* k -> ext made k -> child (a kernel: launched, never called): known */
    put32(other.b + find_run(&other, "\x01\x00\x00\x00\x04\x00\x00\x00", 8) + 4, 2);
    ck_assert(cubin_read_details(other.b, other.n, arena, &r, &d, error, sizeof error));
    ck_assert(!d[0].dynamic_smem && d[0].dynamic_smem_known && !d[0].calls_out);
    build_cubin(&blob, 90, 8, 2);
    ck_assert(cubin_read_details(blob.b, blob.n, arena, &r, &d, error, sizeof error));
    ck_assert(!d[0].dynamic_smem && !d[0].dynamic_smem_known && !d[0].calls_out);
}
END_TEST

/* Shared windows hold no file data: ptxas -c gives .nv.shared.NAME the
 * type SHT_CUDA_SHARED and an offset and size past the end of the file. */
START_TEST(test_shared_window_past_end)
{
    static const struct {
        int type;
        uint32_t section_type;
        int smem;
    } cases[] = {{1, 0x7000000a, 1 << 20}, {2, 8, (1 << 20) - 1024}};
    for (int i = 0; i < N(cases); i++) {
        Blob blob;
        build_cubin(&blob, 90, 8, cases[i].type);
        unsigned char *shared = blob.b + blob.shoff + 64 * 7;
        put32(shared + 4, cases[i].section_type);
        put64(shared + 24, (uint64_t)1 << 40);
        put64(shared + 32, (uint64_t)1 << 20);
        UsageReport r;
        ck_assert_str_eq(read_error(blob.b, blob.n, &r), "");
        ck_assert_int_eq(r.kernels[0].static_smem, cases[i].smem);
    }
}
END_TEST

/* A name from the file never breaks the one line of an error. */
START_TEST(test_hostile_names)
{
    Blob blob;
    build_cubin(&blob, 90, 8, 2);
    blob.b[find_run(&blob, "\0k\0child", 8) + 1] = '\n'; /* the kernel "\n" */
    Blob bad = blob;
    bad.b[find_run(&bad, "\x04\x2f\x08\x00", 4) + 1] = 0x7e; /* no REGCOUNT */
    ck_assert_str_eq(read_error(bad.b, bad.n, NULL), "no register count for entry function ?");
    bad = blob; /* its .nv.info."\n", malformed */
    bad.b[find_run(&bad, ".nv.info.k", 10) + 9] = '\n';
    put16(bad.b + find_run(&bad, "\x04\x05\x0c\x00", 4) + 2, 0xfff0);
    ck_assert_str_eq(read_error(bad.b, bad.n, NULL), "malformed attribute at byte 0 of .nv.info.?");
}
END_TEST

/* ---- malformed input ------------------------------------------------------------ */

static unsigned char header64[64] = "\177ELF\002\001\001";

START_TEST(test_bad_headers)
{
    ck_assert_str_eq(read_error("", 0, NULL), "empty file");
    ck_assert_str_eq(read_error("hello, world\n", 13, NULL), "not an ELF file");
    ck_assert_str_eq(read_error("\177EL", 3, NULL), "not an ELF file");
    ck_assert_str_eq(read_error("\177ELF\002", 5, NULL), "truncated ELF header (5 of 64 bytes)");
    unsigned char h[64];
    memcpy(h, header64, 64);
    ck_assert_str_eq(read_error(h, 40, NULL), "truncated ELF header (40 of 64 bytes)");
    h[4] = 1; /* ELFCLASS32: a 52-byte header */
    ck_assert_str_eq(read_error(h, 52, NULL), "32-bit ELF file; a cubin is 64-bit ELF");
    h[4] = 2;
    h[5] = 2;
    ck_assert_str_eq(read_error(h, 64, NULL), "big-endian ELF file; a cubin is little-endian");
    h[5] = 1;
    put16(h + 18, 62);
    ck_assert_str_eq(read_error(h, 64, NULL),
                     "ELF file for machine 62, not a CUDA cubin (machine 190)");
    put16(h + 18, 190);
    put16(h + 16, 3);
    ck_assert_str_eq(read_error(h, 64, NULL),
                     "ELF file of type 3, not an executable or relocatable cubin");
    put16(h + 16, 2);
    h[8] = 8;
    ck_assert_str_eq(read_error(h, 64, NULL), "no SM number in ELF flags 0x0");
    put32(h + 48, 0x5a00);
    ck_assert_str_eq(read_error(h, 64, NULL), "no section headers");
}
END_TEST

/* A change to the built cubin and the line it must give. */
typedef struct Corruption {
    size_t field;  /* offset in the file; SIZE_MAX - k: section header k's offset field */
    int width;     /* 1, 2, 4 or 8 bytes */
    uint64_t value;
    const char *error; /* %zu: the file's length */
} Corruption;

#define SH(k, at) (SIZE_MAX - 64 * (k) - (at)) /* field `at` of section header k */

static const Corruption corruptions[] = {
    {40, 8, 1u << 20, "truncated or corrupt: section header table at offset 1048576 "
                      "(704 bytes) ends past the end of the file (%zu bytes)"},
    {58, 2, 40, "section header size 40, not 64"},
    {62, 2, 12, "section name table index 12 out of range (11 sections)"},
    {SH(5, 24), 8, 0xffffffffffffull, "truncated or corrupt: section 5 at offset "
                                      "281474976710655 (28 bytes) ends past the end of the "
                                      "file (%zu bytes)"},
    {SH(5, 32), 8, UINT64_MAX, "truncated or corrupt: section 5 at offset %s"},
    {SH(4, 0), 4, 5000, "section 4 has no readable name"},
    {SH(3, 4), 4, 1, "no symbol table"},
    {SH(3, 40), 4, 77, "symbol table's string table index 77 out of range"},
    {SH(5, 4), 4, 1, NULL}, /* .nv.info.k no longer an info section: skipped */
};

static void apply(Blob *blob, const Corruption *c)
{
    size_t at = c->field;
    if (at > SIZE_MAX / 2) {
        size_t k = (SIZE_MAX - at) / 64, field = (SIZE_MAX - at) % 64;
        at = blob->shoff + 64 * k + field;
    }
    unsigned char *p = blob->b + at;
    switch (c->width) {
    case 1: p[0] = (unsigned char)c->value; break;
    case 2: put16(p, (unsigned)c->value); break;
    case 4: put32(p, (uint32_t)c->value); break;
    default: put64(p, c->value); break;
    }
}

START_TEST(test_corruption)
{
    const Corruption *c = &corruptions[_i];
    Blob blob;
    build_cubin(&blob, 90, 8, 2);
    apply(&blob, c);
    UsageReport r;
    const char *error = read_error(blob.b, blob.n, &r);
    if (!c->error) {
        ck_assert_str_eq(error, "");
        return;
    }
    char want[512];
    if (strstr(c->error, "%s")) { /* the offset is the section's own: compare the start */
        snprintf(want, sizeof want, "%.*s", (int)(strstr(c->error, "%s") - c->error), c->error);
        ck_assert_msg(strncmp(error, want, strlen(want)) == 0, "got: %s", error);
    } else {
        snprintf(want, sizeof want, c->error, blob.n);
        ck_assert_str_eq(error, want);
    }
    ck_assert_int_eq(r.n_kernels, 0);
}
END_TEST

/* The offset of the first 4 bytes equal to `pattern` after the header. */
static size_t find_bytes(const Blob *blob, const char *pattern)
{
    for (size_t i = 64; i + 4 <= blob->n; i++) {
        if (memcmp(blob->b + i, pattern, 4) == 0)
            return i;
    }
    ck_abort_msg("pattern not found");
    return 0;
}

/* Attribute lists that do not parse, and a kernel with no register count. */
START_TEST(test_bad_attributes)
{
    Blob blob;
    build_cubin(&blob, 90, 8, 2);
    size_t global = find_bytes(&blob, "\x04\x2f\x08\x00");
    Blob bad = blob;
    put16(bad.b + global + 2, 0xfff0); /* an SVAL longer than its section */
    ck_assert_str_eq(read_error(bad.b, bad.n, NULL), "malformed attribute at byte 0 of .nv.info");
    bad = blob;
    bad.b[global + 12] = 9; /* no such format */
    ck_assert_str_eq(read_error(bad.b, bad.n, NULL), "malformed attribute at byte 12 of .nv.info");
    bad = blob;
    bad.b[global + 1] = 0x7e; /* REGCOUNT gone, and no SHI_REGISTERS */
    ck_assert_str_eq(read_error(bad.b, bad.n, NULL), "no register count for entry function k");
    bad = blob; /* .maxntid of 2^31 - 1 cubed: saturates, no overflow (found by fuzz_cubin) */
    unsigned char *maxntid = bad.b + find_bytes(&bad, "\x04\x05\x0c\x00");
    for (int i = 0; i < 3; i++)
        put32(maxntid + 4 + 4 * i, INT32_MAX);
    UsageReport r;
    ck_assert_str_eq(read_error(bad.b, bad.n, &r), "");
    ck_assert_int_eq(r.kernels[0].max_threads, INT32_MAX);
}
END_TEST

/* A 32-bit LCG: the same flips every run. */
static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* Every truncation, and random flips of 1 to 4 bytes: an answer, never a
 * crash or a read outside the buffer (ASan builds check the reads: each
 * try gets a buffer of exactly its length). */
static void hammer(const unsigned char *data, size_t len, int tries)
{
    for (size_t cut = 0; cut < len; cut++) {
        unsigned char *copy = malloc(cut ? cut : 1);
        memcpy(copy, data, cut);
        ck_assert_str_ne(read_error(copy, cut, NULL), "");
        free(copy);
    }
    uint32_t state = 12345;
    for (int t = 0; t < tries; t++) {
        unsigned char *copy = malloc(len);
        memcpy(copy, data, len);
        int flips = 1 + (int)(next_random(&state) % 4);
        for (int f = 0; f < flips; f++)
            copy[next_random(&state) % len] = (unsigned char)next_random(&state);
        read_error(copy, len, NULL);
        free(copy);
    }
}

START_TEST(test_hammer_built)
{
    Blob blob;
    build_cubin(&blob, 90, 8, 2);
    hammer(blob.b, blob.n, 20000);
    build_cubin(&blob, 90, 8, 1); /* relocations and call graph read too */
    hammer(blob.b, blob.n, 20000);
}
END_TEST

/* ---- against ptxas -v ------------------------------------------------------------ */

/* `n` values loaded with volatile loads and stored back in reverse: all
 * live at once. */
static void live_values_kernel(FILE *f, const char *name, int n, const char *directives)
{
    fprintf(f, ".visible .entry %s(.param .u64 buf)\n%s{\n", name, directives);
    fprintf(f, "    .reg .b32 %%v<%d>;\n    .reg .b32 %%r<2>;\n    .reg .b64 %%rd<4>;\n", n);
    fprintf(f, "    ld.param.u64 %%rd1, [buf];\n    cvta.to.global.u64 %%rd2, %%rd1;\n");
    fprintf(f, "    mov.u32 %%r1, %%tid.x;\n    mul.wide.u32 %%rd3, %%r1, %d;\n", 4 * n);
    fprintf(f, "    add.s64 %%rd2, %%rd2, %%rd3;\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "    ld.volatile.global.u32 %%v%d, [%%rd2+%d];\n", i, 4 * i);
    for (int i = 0; i < n; i++)
        fprintf(f, "    st.volatile.global.u32 [%%rd2+%d], %%v%d;\n", 4 * i, n - 1 - i);
    fprintf(f, "    ret;\n}\n");
}

/* A kernel that stores to shared array `array`, syncs on `barriers`
 * barriers and loads back. */
static void shared_kernel(FILE *f, const char *name, const char *decl, const char *array,
                          int barriers, const char *directives)
{
    fprintf(f, ".visible .entry %s(.param .u64 p)\n%s{\n%s", name, directives, decl);
    fprintf(f, "    .reg .u64 %%rd<3>;\n    .reg .u32 %%r<5>;\n    ld.param.u64 %%rd1, [p];\n");
    fprintf(f, "    mov.u32 %%r1, %%tid.x;\n");
    if (array) {
        fprintf(f, "    mov.u32 %%r2, %s;\n    st.shared.u32 [%%r2], %%r1;\n", array);
        for (int b = 0; b < barriers; b++)
            fprintf(f, b ? "    bar.sync %d, 64;\n" : "    bar.sync %d;\n", b);
        fprintf(f, "    ld.shared.u32 %%r1, [%%r2+4];\n");
    }
    fprintf(f, "    st.global.u32 [%%rd1], %%r1;\n    ret;\n}\n");
}

typedef struct Expect {
    const char *name;
    int max_threads, max_registers;
} Expect;

static const Expect module_kernels[] = {
    {"plain", 0, 255},   {"shared1000", 256, 255}, {"twobar", 256, 40}, {"reqn", 128, 255},
    {"dynonly", 0, 255}, {"wide", 0, 255},         {"spill", 128, 32},
    /* .minnctapersm 4 itself is not kept; the cap 64K / (256 x 4) is */
    {"minblocks", 256, 64},
};

static void write_module(const char *path)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, ".version 8.0\n.target sm_75\n.address_size 64\n");
    fprintf(f, ".extern .shared .align 16 .b8 dyn[];\n");
    shared_kernel(f, "plain", "", NULL, 0, "");
    shared_kernel(f, "shared1000", "    .shared .align 4 .b8 buf[1000];\n", "buf", 1,
                  ".maxntid 256, 1, 1\n");
    shared_kernel(f, "twobar", "    .shared .align 4 .b8 buf2[4096];\n", "buf2", 2,
                  ".maxnreg 40\n.maxntid 128, 2, 1\n");
    shared_kernel(f, "reqn", "    .shared .align 4 .b8 small[8];\n", "small", 1,
                  ".reqntid 64, 2, 1\n");
    shared_kernel(f, "dynonly", "", "dyn", 1, "");
    shared_kernel(f, "minblocks", "", NULL, 0, ".maxntid 256, 1, 1\n.minnctapersm 4\n");
    live_values_kernel(f, "wide", 160, "");
    live_values_kernel(f, "spill", 48, ".maxnreg 32\n.maxntid 128, 1, 1\n");
    ck_assert_int_eq(fclose(f), 0);
}

static const char *const targets[] = {"sm_75", "sm_80",  "sm_86",  "sm_89",  "sm_90",
                                       "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"};

static void compare_kernel(const KernelUsage *got, const KernelUsage *want)
{
    ck_assert_str_eq(got->name, want->name);
    ck_assert_int_eq(got->registers, want->registers);
    ck_assert_int_eq(got->static_smem, want->static_smem);
    ck_assert_int_eq(got->barriers, want->barriers);
    ck_assert_int_eq(got->stack_frame, want->stack_frame);
    if (want->const_bank0 > 0) /* ptxas stopped printing cmem[0] at sm_90 */
        ck_assert_int_eq(got->const_bank0, want->const_bank0);
    ck_assert_int_gt(got->const_bank0, 0);
    ck_assert_int_eq(got->spill_stores, -1);
}

static void check_against(const UsageReport *got, const CubinKernel *details,
                          const UsageReport *want, bool relocatable)
{
    ck_assert_int_eq(got->n_kernels, want->n_kernels);
    ck_assert_int_eq(got->n_kernels, N(module_kernels));
    for (int i = 0; i < got->n_kernels; i++) {
        const KernelUsage *k = &got->kernels[i];
        compare_kernel(k, &want->kernels[i]); /* also the order */
        for (int e = 0; e < N(module_kernels); e++) {
            if (strcmp(module_kernels[e].name, k->name) != 0)
                continue;
            ck_assert_int_eq(k->max_threads, module_kernels[e].max_threads);
            ck_assert_int_eq(details[i].max_registers, module_kernels[e].max_registers);
        }
    }
    /* Not vacuous: the figures the module was written to produce. */
    /* 1000 bytes, padded to the 16-byte alignment of the .extern array,
     * which under -c is placed by the linker, not ptxas */
    ck_assert_int_eq(usage_kernel(got, "shared1000")->static_smem, relocatable ? 1000 : 1008);
    ck_assert_int_eq(usage_kernel(got, "shared1000")->barriers, 1);
    ck_assert_int_eq(usage_kernel(got, "twobar")->static_smem, 4096);
    ck_assert_int_eq(usage_kernel(got, "twobar")->barriers, 2);
    ck_assert_int_eq(usage_kernel(got, "plain")->barriers, 0);
    ck_assert_int_eq(usage_kernel(got, "dynonly")->static_smem, 0);
    ck_assert_int_gt(usage_kernel(got, "wide")->registers, 100);
    ck_assert_int_gt(usage_kernel(got, "spill")->stack_frame, 0);
}

/* Assembles the module for `arch`, keeping the cubin; returns its path. */
static const char *assemble(const char *arch, UsageReport *want)
{
    const char *ptx = temp_path("module.ptx");
    const char *cubin = temp_path("module.cubin");
    write_module(ptx);
    int result = ptxas_assemble_targets(ptxas_find(), &ptx, &arch, &cubin, 1, arena, want);
    ck_assert_msg(result == 0, "ptxas failed (%d): %s", result, want->errors ? want->errors : "");
    return cubin;
}

START_TEST(test_ptxas_agrees)
{
    const char *arch = targets[_i];
    UsageReport want, got;
    const char *cubin = assemble(arch, &want);
    CubinKernel *details;
    char error[256];
    ck_assert_msg(cubin_read_file(cubin, arena, &got, &details, error, sizeof error), "%s", error);
    ck_assert_str_eq(got.arch, arch);
    check_against(&got, details, &want, false);
    for (int i = 0; i < got.n_kernels; i++) /* an executable cubin does not say */
        ck_assert(!details[i].dynamic_smem && !details[i].dynamic_smem_known &&
                  !details[i].calls_out);
    const CubinKernel *twobar = &details[usage_kernel(&got, "twobar") - got.kernels];
    ck_assert_int_eq(twobar->max_threads_dim[0], 128);
    ck_assert_int_eq(twobar->max_threads_dim[1], 2);
    const CubinKernel *reqn = &details[usage_kernel(&got, "reqn") - got.kernels];
    ck_assert_int_eq(reqn->req_threads_dim[0], 64);
    ck_assert_int_eq(reqn->req_threads_dim[1], 2);
    ck_assert_int_eq(reqn->req_threads_dim[2], 1);
}
END_TEST

/* With REGCOUNT hidden, sm_75's SHI_REGISTERS (old toolkits' only record)
 * gives the same counts. */
START_TEST(test_shi_registers)
{
    UsageReport want, got;
    const char *cubin = assemble("sm_75", &want);
    size_t len;
    unsigned char *data = read_whole(cubin, &len);
    int hidden = 0;
    for (size_t i = 0; i + 4 <= len; i += 4) {
        if (memcmp(data + i, "\x04\x2f\x08\x00", 4) == 0) {
            data[i + 1] = 0x7e;
            hidden++;
        }
    }
    ck_assert_int_ge(hidden, N(module_kernels));
    ck_assert_str_eq(read_error(data, len, &got), "");
    for (int i = 0; i < got.n_kernels; i++)
        ck_assert_int_eq(got.kernels[i].registers, want.kernels[i].registers);
}
END_TEST

/* The real cubin cut at every 64-byte boundary: the program headers come
 * last, so each cut names them (or the section headers before them). */
START_TEST(test_truncated_real)
{
    UsageReport want;
    size_t len;
    unsigned char *data = read_whole(assemble("sm_90", &want), &len);
    uint64_t phoff = 0, shoff = 0;
    memcpy(&phoff, data + 32, 8); /* little-endian host, as the tests run */
    memcpy(&shoff, data + 40, 8);
    unsigned phsize = (unsigned)(data[54] | data[55] << 8) * (unsigned)(data[56] | data[57] << 8);
    unsigned shsize = 64u * (unsigned)(data[60] | data[61] << 8);
    for (size_t cut = 0; cut < len; cut += 64) {
        unsigned char *copy = malloc(cut ? cut : 1);
        memcpy(copy, data, cut);
        char expected[256];
        if (cut == 0)
            snprintf(expected, sizeof expected, "empty file");
        else if (phoff + phsize > cut)
            snprintf(expected, sizeof expected,
                     "truncated or corrupt: program header table at offset %llu (%u bytes) "
                     "ends past the end of the file (%zu bytes)",
                     (unsigned long long)phoff, phsize, cut);
        else
            snprintf(expected, sizeof expected,
                     "truncated or corrupt: section header table at offset %llu (%u bytes) "
                     "ends past the end of the file (%zu bytes)",
                     (unsigned long long)shoff, shsize, cut);
        ck_assert_str_eq(read_error(copy, cut, NULL), expected);
        free(copy);
    }
    hammer(data, len, 3000);
}
END_TEST

/* A device function using a module-scope shared array, whole-program and
 * relocatable (ptxas -c: ET_REL, no reservation, callee not counted). */
static const char callee_module[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".shared .align 4 .b8 gbuf[300];\n"
    ".func helper(.param .u32 x)\n{\n  .reg .u32 %r<4>;\n  ld.param.u32 %r1, [x];\n"
    "  mov.u32 %r2, gbuf;\n  st.shared.u32 [%r2+8], %r1;\n  ret;\n}\n"
    ".visible .entry kA(.param .u64 p)\n{\n  .shared .align 4 .b8 la[100];\n"
    "  .reg .u32 %r<4>;\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, la;\n"
    "  st.shared.u32 [%r2], %r1;\n"
    "  { .param .u32 a; st.param.u32 [a], %r1; call.uni helper, (a); }\n  ret;\n}\n"
    ".visible .entry kB(.param .u64 p)\n{\n  .reg .u32 %r<4>;\n  mov.u32 %r1, %tid.x;\n"
    "  { .param .u32 a; st.param.u32 [a], %r1; call.uni helper, (a); }\n  ret;\n}\n";

/* `ptxas -v --gpu-name ARCH -o CUBIN PTX`, with -c when `relocatable`
 * (ptxas_assemble_targets decides that itself), its -v output parsed. */
static void run_ptxas(const char *ptx, const char *arch, const char *cubin, bool relocatable,
                      UsageReport *want)
{
    const char *program = jobs_resolve_command(ptxas_find(), arena);
    char *argv[] = {(char *)program, "-v", "--gpu-name", (char *)arch, "-o", (char *)cubin,
                    (char *)ptx, relocatable ? "-c" : NULL, NULL};
    JobRun run = {.path = program, .argv = argv};
    jobs_run(&run, 1, arena);
    ck_assert_msg(run.status == 0, "ptxas: %s", run.output);
    ck_assert(ptxas_parse(run.output, run.len, arena, want));
}

static void check_callee_module(const char *arch, bool relocatable)
{
    const char *ptx = temp_path("callee.ptx");
    const char *cubin = temp_path("callee.cubin");
    write_file(ptx, callee_module, strlen(callee_module));
    UsageReport want, got;
    run_ptxas(ptx, arch, cubin, relocatable, &want);
    size_t len;
    unsigned char *data = read_whole(cubin, &len);
    ck_assert_str_eq(read_error(data, len, &got), "");
    ck_assert_int_eq(got.n_kernels, 2);
    for (int i = 0; i < 2; i++)
        compare_kernel(&got.kernels[i], &want.kernels[i]);
    ck_assert_int_eq(usage_kernel(&got, "kA")->static_smem, relocatable ? 100 : 400);
    ck_assert_int_eq(usage_kernel(&got, "kB")->static_smem, relocatable ? 0 : 300);
}

START_TEST(test_callee_shared)
{
    check_callee_module("sm_80", false);
    check_callee_module("sm_90", false);
    check_callee_module("sm_80", true);
    check_callee_module("sm_90", true);
}
END_TEST

/* The module under ptxas -c: the same figures as ptxas -c -v, and the
 * one kernel that addresses the .extern .shared array flagged. */
START_TEST(test_module_relocatable)
{
    const char *arch = _i ? "sm_90" : "sm_80";
    const char *ptx = temp_path("module.ptx");
    const char *cubin = temp_path("module.cubin");
    write_module(ptx);
    UsageReport want, got;
    run_ptxas(ptx, arch, cubin, true, &want);
    CubinKernel *details;
    char error[256];
    ck_assert_msg(cubin_read_file(cubin, arena, &got, &details, error, sizeof error), "%s", error);
    check_against(&got, details, &want, true);
    for (int i = 0; i < got.n_kernels; i++) {
        bool dynonly = strcmp(got.kernels[i].name, "dynonly") == 0;
        ck_assert_msg(details[i].dynamic_smem == dynonly, "%s", got.kernels[i].name);
        ck_assert(details[i].dynamic_smem_known);
        ck_assert(!details[i].calls_out);
    }
}
END_TEST

/* ---- nvcc ------------------------------------------------------------------------ */

START_TEST(test_split_flags)
{
    char **words;
    int n;
    char error[128];
    ck_assert(nvcc_split_flags("-O3 -DN=4", arena, &words, &n, error, sizeof error));
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(words[0], "-O3");
    ck_assert_str_eq(words[1], "-DN=4");
    ck_assert_ptr_null(words[2]);
    ck_assert(nvcc_split_flags("  -Xptxas '-v -O2'\t-DS=\"a \\\"b\\\"\" x\\ y ", arena, &words, &n,
                               error, sizeof error));
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(words[0], "-Xptxas");
    ck_assert_str_eq(words[1], "-v -O2");
    ck_assert_str_eq(words[2], "-DS=a \"b\"");
    ck_assert_str_eq(words[3], "x y");
    ck_assert(nvcc_split_flags("", arena, &words, &n, error, sizeof error));
    ck_assert_int_eq(n, 0);
    ck_assert(nvcc_split_flags(NULL, arena, &words, &n, error, sizeof error));
    ck_assert_int_eq(n, 0);
    ck_assert(!nvcc_split_flags("-DX='a b", arena, &words, &n, error, sizeof error));
    ck_assert_str_eq(error, "unterminated ' quote in flags");
    ck_assert(!nvcc_split_flags("-DX=\"a", arena, &words, &n, error, sizeof error));
    ck_assert_str_eq(error, "unterminated \" quote in flags");
    ck_assert(!nvcc_split_flags("-O3 \\", arena, &words, &n, error, sizeof error));
    ck_assert_str_eq(error, "trailing backslash in flags");
}
END_TEST

static const char cuda_source[] =
    "#ifndef TILE\n#error TILE not defined\n#endif\n"
    "__global__ void __launch_bounds__(256, 2) scale(float *x, int n) {\n"
    "  __shared__ float s[300];\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  s[threadIdx.x] = x[i];\n  __syncthreads();\n"
    "  if (i < n) x[i] = s[(threadIdx.x + 1) % 256] * 2.0f;\n}\n"
    "template <int T> __global__ void __launch_bounds__(128) tile(float *x) {\n"
    "  __shared__ float t[T][T + 1];\n"
    "  t[threadIdx.y][threadIdx.x] = x[threadIdx.x];\n  __syncthreads();\n"
    "  x[threadIdx.x] = t[threadIdx.x][threadIdx.y];\n}\n"
    "template __global__ void tile<TILE>(float *);\n"
    "__global__ void plain(int *p) { p[threadIdx.x] = threadIdx.x; }\n";

static const char *const nvcc_targets[] = {"sm_80", "sm_90", "sm_120"};

/* `nvcc -cubin -arch=ARCH FLAGS --ptxas-options=-v -o /dev/null CU`, parsed. */
static void nvcc_verbose(const char *nvcc, const char *cu, const char *arch, char **flags,
                         int n_flags, UsageReport *want)
{
    const char *program = jobs_resolve_command(nvcc, arena);
    char **argv = arena_alloc(arena, (size_t)n_flags + 8, sizeof *argv);
    int k = 0;
    argv[k++] = (char *)program;
    argv[k++] = "-cubin";
    char *arch_flag = arena_alloc(arena, 32, 1);
    snprintf(arch_flag, 32, "-arch=%s", arch);
    argv[k++] = arch_flag;
    for (int i = 0; i < n_flags; i++)
        argv[k++] = flags[i];
    argv[k++] = "--ptxas-options=-v";
    argv[k++] = "-o";
    argv[k++] = "/dev/null";
    argv[k++] = (char *)cu;
    JobRun run = {.path = program, .argv = argv};
    jobs_run(&run, 1, arena);
    ck_assert_msg(run.status == 0, "nvcc -v: %s", run.output);
    ck_assert(ptxas_parse(run.output, run.len, arena, want));
}

START_TEST(test_nvcc_agrees)
{
    const char *nvcc = nvcc_find();
    const char *cu = temp_path("kernels.cu");
    write_file(cu, cuda_source, strlen(cuda_source));
    char **flags;
    int n_flags;
    char error[128];
    ck_assert(nvcc_split_flags("-O3 -DTILE=16", arena, &flags, &n_flags, error, sizeof error));
    UsageReport got[N(nvcc_targets)];
    int result = nvcc_compile_targets(nvcc, cu, flags, n_flags, (const char **)nvcc_targets,
                                      N(nvcc_targets), arena, got);
    ck_assert_msg(result == 0, "nvcc failed (%d): %s", result, got[0].errors ? got[0].errors : "");
    for (int t = 0; t < N(nvcc_targets); t++) {
        UsageReport want;
        nvcc_verbose(nvcc, cu, nvcc_targets[t], flags, n_flags, &want);
        ck_assert_str_eq(got[t].arch, nvcc_targets[t]);
        ck_assert_int_eq(got[t].n_kernels, 3);
        ck_assert_int_eq(want.n_kernels, 3);
        for (int i = 0; i < 3; i++)
            compare_kernel(&got[t].kernels[i], &want.kernels[i]);
        ck_assert_int_eq(usage_kernel(&got[t], "_Z5scalePfi")->static_smem, 1200);
        ck_assert_int_eq(usage_kernel(&got[t], "_Z5scalePfi")->max_threads, 256);
        ck_assert_int_eq(usage_kernel(&got[t], "_Z4tileILi16EEvPf")->static_smem, 16 * 17 * 4);
        ck_assert_int_eq(usage_kernel(&got[t], "_Z4tileILi16EEvPf")->max_threads, 128);
        ck_assert_int_eq(usage_kernel(&got[t], "_Z5plainPi")->max_threads, 0);
    }
}
END_TEST

START_TEST(test_nvcc_rejects)
{
    const char *cu = temp_path("broken.cu");
    write_file(cu, cuda_source, strlen(cuda_source)); /* TILE not defined: #error */
    const char *arch = "sm_80";
    UsageReport out;
    int result = nvcc_compile_targets(nvcc_find(), cu, NULL, 0, &arch, 1, arena, &out);
    ck_assert_int_gt(result, 0);
    ck_assert_int_eq(out.exit_status, result);
    ck_assert_str_eq(out.arch, "sm_80");
    ck_assert_ptr_nonnull(out.errors);
    ck_assert_ptr_nonnull(strstr(out.errors, "TILE not defined"));
    ck_assert_int_eq(out.n_kernels, 0);
    errno = 0;
    result = nvcc_compile_targets("/nonexistent/nvcc", cu, NULL, 0, &arch, 1, arena, &out);
    ck_assert_int_eq(result, PTXAS_NOT_STARTED);
    ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* ---- relocatable device code (-rdc) ------------------------------------------------ */

/* tests/data/cubin/NAME, in the arena. */
static const char *cubin_data(const char *name)
{
    const char *dir = getenv("SILK_TEST_DATA");
    char buf[4096];
    int len = snprintf(buf, sizeof buf, "%s/cubin/%s", dir && *dir ? dir : SILK_TEST_DATA_DIR, name);
    ck_assert_int_lt(len, (int)sizeof buf);
    return arena_strndup(arena, buf, (size_t)len);
}

/* `nvcc MODE -rdc=true -arch=ARCH [--ptxas-options=-v] -o OUT CU`; with
 * -v, its report parsed into *want. */
static void nvcc_rdc(const char *mode, const char *arch, const char *out, UsageReport *want)
{
    const char *program = jobs_resolve_command(nvcc_find(), arena);
    char arch_flag[32];
    snprintf(arch_flag, sizeof arch_flag, "-arch=%s", arch);
    char *argv[] = {(char *)program, (char *)mode, "-rdc=true", arch_flag, "-o", (char *)out,
                    (char *)cubin_data("rdc_kernels.cu"), want ? "--ptxas-options=-v" : NULL,
                    NULL};
    JobRun run = {.path = program, .argv = argv};
    jobs_run(&run, 1, arena);
    ck_assert_msg(run.status == 0, "nvcc: %s", run.output);
    if (want)
        ck_assert(ptxas_parse(run.output, run.len, arena, want));
}

/* rdc_kernels.cu's kernels, as its comment describes them. */
static const struct {
    const char *name;
    int static_smem;
    bool dynamic_smem, known, calls_out;
} rdc_kernels[] = {
    {"_Z5tiledPfPKf", 32768, false, false, true},   {"_Z14direct_dynamicPf", 0, true, true, false},
    {"_Z14callee_dynamicPf", 0, true, true, false}, {"_Z11static_onlyPf", 256, false, true, false},
    {"_Z6parentPii", 0, false, false, true},
};

static const char *const rdc_targets[] = {"sm_75", "sm_90", "sm_120"};

/* The cubin at `path` against ptxas's report `want`: every figure, the
 * exact kernel count (child, blend and offsets are no kernels) and the
 * flags. */
static void check_rdc_cubin(const char *path, const char *arch, const UsageReport *want)
{
    UsageReport got;
    CubinKernel *d;
    char error[256];
    ck_assert_msg(cubin_read_file(path, arena, &got, &d, error, sizeof error), "%s", error);
    ck_assert_str_eq(got.arch, arch);
    ck_assert_int_eq(got.n_kernels, N(rdc_kernels));
    ck_assert_int_eq(want->n_kernels, N(rdc_kernels));
    for (int i = 0; i < got.n_kernels; i++)
        compare_kernel(&got.kernels[i], &want->kernels[i]);
    for (int e = 0; e < N(rdc_kernels); e++) {
        const KernelUsage *k = usage_kernel(&got, rdc_kernels[e].name);
        ck_assert_msg(k != NULL, "no kernel %s", rdc_kernels[e].name);
        const CubinKernel *kd = &d[k - got.kernels];
        ck_assert_int_eq(k->static_smem, rdc_kernels[e].static_smem);
        ck_assert_msg(kd->dynamic_smem == rdc_kernels[e].dynamic_smem, "%s", k->name);
        ck_assert_msg(kd->dynamic_smem_known == rdc_kernels[e].known, "%s", k->name);
        ck_assert_msg(kd->calls_out == rdc_kernels[e].calls_out, "%s", k->name);
    }
}

/* nvcc -cubin -rdc=true: the 32 KiB window ends past the file's end. */
START_TEST(test_nvcc_rdc_cubin)
{
    const char *arch = rdc_targets[_i];
    const char *cubin = temp_path("rdc.cubin");
    UsageReport want;
    nvcc_rdc("-cubin", arch, cubin, &want);
    size_t len;
    read_whole(cubin, &len);
    ck_assert_uint_lt(len, 32768);
    check_rdc_cubin(cubin, arch, &want);
}
END_TEST

/* nvcc -ptx -rdc=true, then ptxas_assemble_targets, which must pass -c
 * for the calls and variables of other files. */
START_TEST(test_nvcc_rdc_ptx)
{
    const char *arch = rdc_targets[_i];
    const char *ptx = temp_path("rdc.ptx");
    const char *cubin = temp_path("rdc.cubin");
    nvcc_rdc("-ptx", arch, ptx, NULL);
    size_t len;
    const char *text = (const char *)read_whole(ptx, &len);
    ck_assert(ptxas_needs_compile_only(text, len));
    UsageReport want;
    int result = ptxas_assemble_targets(ptxas_find(), &ptx, &arch, &cubin, 1, arena, &want);
    ck_assert_msg(result == 0, "ptxas failed (%d): %s", result, want.errors ? want.errors : "");
    check_rdc_cubin(cubin, arch, &want);
}
END_TEST

/* ---- the suites ------------------------------------------------------------------- */

static Suite *cubin_suite(void)
{
    Suite *s = suite_create("cubin");
    TCase *tc = tcase_create("built");
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_built_sm90_exec);
    tcase_add_test(tc, test_built_other_layouts);
    tcase_add_test(tc, test_read_file);
    tcase_add_test(tc, test_built_relocatable);
    tcase_add_test(tc, test_shared_window_past_end);
    tcase_add_test(tc, test_hostile_names);
    tcase_add_test(tc, test_bad_headers);
    tcase_add_loop_test(tc, test_corruption, 0, N(corruptions));
    tcase_add_test(tc, test_bad_attributes);
    tcase_add_test(tc, test_hammer_built);
    tcase_add_test(tc, test_split_flags);
    suite_add_tcase(s, tc);
    return s;
}

static Suite *ptxas_suite(void)
{
    Suite *s = suite_create("cubin ptxas");
    TCase *tc = tcase_create("ptxas");
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_ptxas_agrees, 0, N(targets));
    tcase_add_test(tc, test_shi_registers);
    tcase_add_test(tc, test_truncated_real);
    tcase_add_test(tc, test_callee_shared);
    tcase_add_loop_test(tc, test_module_relocatable, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

static Suite *nvcc_suite(void)
{
    Suite *s = suite_create("cubin nvcc");
    TCase *tc = tcase_create("nvcc");
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_nvcc_agrees);
    tcase_add_test(tc, test_nvcc_rejects);
    tcase_add_loop_test(tc, test_nvcc_rdc_cubin, 0, N(rdc_targets));
    tcase_add_loop_test(tc, test_nvcc_rdc_ptx, 0, N(rdc_targets));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    bool have_ptxas = ptxas_find() != NULL, have_nvcc = nvcc_find() != NULL;
    SRunner *sr = srunner_create(cubin_suite());
    if (have_ptxas)
        srunner_add_suite(sr, ptxas_suite());
    if (have_nvcc)
        srunner_add_suite(sr, nvcc_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    if (!have_ptxas || !have_nvcc) {
        printf("SKIP: %s%s%s tests: not found (set SILK_PTXAS / SILK_NVCC or configure "
               "--with-cuda=DIR)\n",
               have_ptxas ? "" : "ptxas", !have_ptxas && !have_nvcc ? " and " : "",
               have_nvcc ? "" : "nvcc");
        return 77;
    }
    return EXIT_SUCCESS;
}
