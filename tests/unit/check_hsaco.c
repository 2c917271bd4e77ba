/*
 * check_hsaco.c: the AMDGPU metadata reader (compiler/amdgpu/hsaco.h) on
 * code objects llc-19 and ld.lld-19 built from tests/data/amdgpu/pinned.ll
 * (their figures checked against llvm-readobj-19 --notes: make-pinned.sh),
 * on the same files broken every way a file can be (truncated at every
 * length, not ELF, another machine, no note, bad MessagePack, a field
 * missing), and the llc driver (llc.h) building pinned.ll afresh when
 * llc-19 and ld.lld-19 are installed (else those tests are skipped: exit
 * 77 after the others pass).
 */
#include "amdgpu/hsaco.h"
#include "amdgpu/llc.h"
#include "../le_bytes.h"
#include "read_file.h"
#include "tempdir.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Arena *arena;

static void open_arena(void) { arena = arena_new(); }
static void close_arena(void) { arena_free(arena); }

/* tests/data/amdgpu/NAME, in the arena. */
static const char *data_path(const char *name)
{
    const char *dir = getenv("SILK_TEST_DATA");
    char buf[4096];
    int len = snprintf(buf, sizeof buf, "%s/amdgpu/%s", dir && *dir ? dir : SILK_TEST_DATA_DIR, name);
    ck_assert_int_lt(len, (int)sizeof buf);
    return arena_strndup(arena, buf, (size_t)len);
}

/* The bytes of tests/data/amdgpu/NAME, malloc'd. */
static unsigned char *data_bytes(const char *name, size_t *len)
{
    unsigned char *data = (unsigned char *)read_file(data_path(name), READ_FILE_CODE_LIMIT_MIB, len);
    ck_assert_ptr_nonnull(data);
    return data;
}

/* The figures make-pinned.sh printed for each kernel. */
typedef struct Expected {
    const char *name;
    int vgprs, agprs, sgprs, lds, scratch, wave, max_threads;
} Expected;

static void assert_kernel(const UsageReport *r, const Expected *want)
{
    const KernelUsage *u = usage_kernel(r, want->name);
    ck_assert_msg(u != NULL, "no kernel %s", want->name);
    ck_assert_int_eq(u->registers, want->vgprs);
    ck_assert_int_eq(u->agprs, want->agprs);
    ck_assert_int_eq(u->sgprs, want->sgprs);
    ck_assert_int_eq(u->static_smem, want->lds);
    ck_assert_int_eq(u->stack_frame, want->scratch);
    ck_assert_int_eq(u->wavefront_size, want->wave);
    ck_assert_int_eq(u->max_threads, want->max_threads);
    ck_assert_int_eq(u->vgpr_spills, 0);
    ck_assert_int_eq(u->sgpr_spills, 0);
    ck_assert_int_eq(u->spill_stores, -1); /* AMD counts registers, not bytes */
    ck_assert_int_eq(u->barriers, -1);
}

static const Expected gfx942_kernels[] = {
    {"pinned", 40, 0, 46, 1000, 68, 64, 128},
    {"plain", 2, 0, 10, 0, 0, 64, 1024},
};
static const Expected gfx1100_kernels[] = { /* no .agpr_count there: 0 */
    {"pinned", 40, 0, 40, 1000, 68, 32, 128},
    {"plain", 2, 0, 4, 0, 0, 32, 1024},
};

START_TEST(test_gfx942)
{
    UsageReport r;
    ck_assert_int_eq(amdgpu_code_object_usage(data_path("pinned.gfx942.hsaco"), arena, &r), 0);
    ck_assert_int_eq(r.n_kernels, 2);
    ck_assert_str_eq(r.arch, "gfx942");
    ck_assert_int_eq(r.source, USAGE_BINARY);
    ck_assert_ptr_null(r.errors);
    for (size_t i = 0; i < 2; i++)
        assert_kernel(&r, &gfx942_kernels[i]);
}
END_TEST

START_TEST(test_gfx1100)
{
    UsageReport r;
    ck_assert_int_eq(amdgpu_code_object_usage(data_path("pinned.gfx1100.hsaco"), arena, &r), 0);
    ck_assert_int_eq(r.n_kernels, 2);
    ck_assert_str_eq(r.arch, "gfx1100");
    for (size_t i = 0; i < 2; i++)
        assert_kernel(&r, &gfx1100_kernels[i]);
}
END_TEST

/* ---- malformed files -------------------------------------------------------------------- */

/* The error for `len` bytes of `data`: -1 and no kernels, always. */
static const char *parse_error(const unsigned char *data, size_t len)
{
    UsageReport r;
    ck_assert_int_eq(amdgpu_code_object_parse(data, len, arena, &r), -1);
    ck_assert_int_eq(r.n_kernels, 0);
    ck_assert_ptr_nonnull(r.errors);
    ck_assert(strchr(r.errors, '\n') == NULL); /* one line */
    return r.errors;
}

/* Every prefix of the file is refused with one line, and never read past
 * (run under the sanitizers: ./configure --enable-sanitizers). */
START_TEST(test_truncated_everywhere)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    for (size_t n = 0; n < len; n++) {
        unsigned char *copy = malloc(n ? n : 1); /* exactly n bytes: a read past them is caught */
        memcpy(copy, data, n);
        UsageReport r;
        int rc = amdgpu_code_object_parse(copy, n, arena, &r);
        ck_assert_msg(rc == -1 || r.n_kernels == 2, "prefix %zu: rc %d", n, rc);
        free(copy);
    }
    free(data);
}
END_TEST

START_TEST(test_truncated_messages)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    ck_assert_str_eq(parse_error(data, 3), "not an ELF file");
    ck_assert_str_eq(parse_error(data, 40), "truncated or corrupt: the ELF header at offset 0 (64 bytes) "
                                            "ends past the end of the file (40 bytes)");
    char want[256];
    uint64_t shoff = data[40] | (uint64_t)data[41] << 8 | (uint64_t)data[42] << 16 | (uint64_t)data[43] << 24;
    unsigned shnum = data[60] | data[61] << 8;
    snprintf(want, sizeof want, "truncated or corrupt: the section headers at offset %llu (%u bytes) ends "
                                "past the end of the file (%llu bytes)",
             (unsigned long long)shoff, shnum * 64, (unsigned long long)shoff + 10);
    ck_assert_str_eq(parse_error(data, (size_t)shoff + 10), want);
    free(data);
}
END_TEST

START_TEST(test_not_elf)
{
    const unsigned char text[] = "kernel saxpy() {}\n";
    ck_assert_str_eq(parse_error(text, sizeof text - 1), "not an ELF file");
    ck_assert_str_eq(parse_error(NULL, 0), "no data");
}
END_TEST

START_TEST(test_other_machine)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    put16(data + 18, 62); /* EM_X86_64 */
    ck_assert_str_eq(parse_error(data, len), "not an AMDGPU code object (ELF machine 62, not 224)");
    data[4] = 1; /* ELFCLASS32 */
    ck_assert_str_eq(parse_error(data, len),
                     "not a 64-bit little-endian ELF file, as AMDGPU code objects are");
    free(data);
}
END_TEST

/* The metadata note's name in the file ("AMDGPU\0", after its header). */
static unsigned char *note_name(unsigned char *data, size_t len)
{
    for (size_t i = 12; i + 8 <= len; i++)
        if (memcmp(data + i, "AMDGPU\0\0", 8) == 0 && data[i - 4] == 32)
            return data + i;
    ck_abort_msg("no metadata note in the test file");
    return NULL;
}

START_TEST(test_no_note)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    put32(note_name(data, len) - 4, 33); /* another note type */
    ck_assert_str_eq(parse_error(data, len),
                     "no AMDGPU metadata note (NT_AMDGPU_METADATA): not a code object of version 3 or later");
    free(data);
}
END_TEST

START_TEST(test_note_past_section)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    unsigned char *name = note_name(data, len);
    put32(name - 8, 0x7fffffff); /* descsz */
    const char *e = parse_error(data, len);
    ck_assert_msg(strstr(e, "truncated or corrupt: a note at offset ") == e, "%s", e);
    ck_assert_msg(strstr(e, " runs past its section") != NULL, "%s", e);
    free(data);
}
END_TEST

START_TEST(test_bad_msgpack)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    note_name(data, len)[8] = 0xc1; /* never used in MessagePack */
    ck_assert_str_eq(parse_error(data, len), "the AMDGPU metadata note is not valid MessagePack");
    free(data);
}
END_TEST

START_TEST(test_not_a_map)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    note_name(data, len)[8] = 0x01; /* the positive fixint 1 */
    ck_assert_str_eq(parse_error(data, len), "the AMDGPU metadata note is not a MessagePack map");
    free(data);
}
END_TEST

/* The first occurrence of `key` in the file, renamed by its last byte. */
static void rename_key(unsigned char *data, size_t len, const char *key, char last)
{
    size_t n = strlen(key);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(data + i, key, n) == 0) {
            data[i + n - 1] = (unsigned char)last;
            return;
        }
    ck_abort_msg("no %s in the test file", key);
}

START_TEST(test_missing_field)
{
    size_t len;
    unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
    rename_key(data, len, ".vgpr_count", 'x');
    ck_assert_str_eq(parse_error(data, len), "kernel 0 of the AMDGPU metadata has no .vgpr_count");
    free(data);
    data = data_bytes("pinned.gfx942.hsaco", &len);
    rename_key(data, len, "amdhsa.kernels", 'x');
    ck_assert_str_eq(parse_error(data, len), "the AMDGPU metadata has no amdhsa.kernels list");
    free(data);
}
END_TEST

/* The value byte after the first `key` in the file (a fixint there). */
static unsigned char *value_after(unsigned char *data, size_t len, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i + n < len; i++)
        if (memcmp(data + i, key, n) == 0)
            return data + i + n;
    ck_abort_msg("no %s in the test file", key);
    return NULL;
}

START_TEST(test_wavefront_size)
{
    static const unsigned char bad[] = {0, 7, 16, 0x7f};
    for (size_t i = 0; i < sizeof bad; i++) {
        size_t len;
        unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
        *value_after(data, len, ".wavefront_size") = bad[i];
        char want[128];
        snprintf(want, sizeof want, "kernel 0 of the AMDGPU metadata: .wavefront_size %d is not 32 or 64",
                 bad[i]);
        ck_assert_str_eq(parse_error(data, len), want);
        free(data);
    }
}
END_TEST

/* msgpack-c would allocate count x 24 bytes (48 a pair) on reading these
 * headers, before finding the elements absent: 8 GiB from a 6.5 KiB file.
 * Each is refused before msgpack-c runs, naming the count (it used to ask
 * for the memory and, given none, say only "not valid MessagePack"). */
START_TEST(test_counts_past_the_note)
{
    static const struct {
        unsigned char bytes[6];
        size_t n;
        const char *what;
        size_t at;
    } cases[] = {
        {{0xdd, 0x15, 0x55, 0x55, 0x55}, 5, "an array of 357913941 elements", 0},  /* 8 GiB */
        {{0xdf, 0x0a, 0xaa, 0xaa, 0xaa}, 5, "a map of 178956970 pairs", 0},         /* 8 GiB */
        {{0xdf, 0x7f, 0xff, 0xff, 0xff}, 5, "a map of 2147483647 pairs", 0},        /* 96 GiB */
        {{0x91, 0xdc, 0xff, 0xff}, 4, "an array of 65535 elements", 1},             /* nested */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        unsigned char *data = data_bytes("pinned.gfx942.hsaco", &len);
        unsigned char *name = note_name(data, len);
        unsigned desc_size = name[-8] | name[-7] << 8 | name[-6] << 16 | (unsigned)name[-5] << 24;
        memcpy(name + 8, cases[i].bytes, cases[i].n);
        char want[256];
        snprintf(want, sizeof want, "the AMDGPU metadata note is not valid MessagePack: %s at byte %zu "
                                    "of %u, more than the bytes left",
                 cases[i].what, cases[i].at, desc_size);
        ck_assert_str_eq(parse_error(data, len), want);
        free(data);
    }
}
END_TEST

START_TEST(test_unreadable_path)
{
    UsageReport r;
    ck_assert_int_eq(amdgpu_code_object_usage(data_path("no-such.hsaco"), arena, &r), -1);
    ck_assert_str_eq(r.errors, "cannot read: No such file or directory");
}
END_TEST

/* ---- llc-19 and ld.lld-19 ----------------------------------------------------------------- */

/* pinned.ll compiled for both targets by the driver, in a temporary directory. */
START_TEST(test_llc_builds_pinned)
{
    const char *base;
    char *dir = tempdir_make("silk-hsaco", &base);
    ck_assert_ptr_nonnull(dir);
    const char *ll = data_path("pinned.ll");
    const char *lls[] = {ll, ll}, *archs[] = {"gfx942", "gfx1100"}, *objs[2], *hsacos[2], *tools[2];
    for (int i = 0; i < 2; i++) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s/%s.o", dir, archs[i]);
        objs[i] = arena_strndup(arena, buf, strlen(buf));
        snprintf(buf, sizeof buf, "%s/%s.hsaco", dir, archs[i]);
        hsacos[i] = arena_strndup(arena, buf, strlen(buf));
    }
    const char *kernels[] = {"pinned", "plain"};
    UsageReport out[2];
    int rc = amdgpu_compile_targets(amdgpu_llc_find(), amdgpu_lld_find(), lls, archs, objs, hsacos, 2,
                                    kernels, 2, arena, out, tools);
    ck_assert_msg(rc == 0, "%s", out[0].errors ? out[0].errors : out[1].errors ? out[1].errors : "");
    ck_assert_str_eq(out[0].arch, "gfx942");
    ck_assert_int_eq(out[0].source, USAGE_ASSEMBLER);
    for (size_t i = 0; i < 2; i++) {
        assert_kernel(&out[0], &gfx942_kernels[i]);
        assert_kernel(&out[1], &gfx1100_kernels[i]);
    }
    tempdir_remove(dir, 0);
}
END_TEST

/* A kernel the code object lacks, and LLVM IR llc rejects, in the tools' words. */
START_TEST(test_llc_failures)
{
    const char *base;
    char *dir = tempdir_make("silk-hsaco", &base);
    ck_assert_ptr_nonnull(dir);
    char bad[4096], obj[4096], hsaco[4096];
    snprintf(bad, sizeof bad, "%s/bad.ll", dir);
    snprintf(obj, sizeof obj, "%s/bad.o", dir);
    snprintf(hsaco, sizeof hsaco, "%s/bad.hsaco", dir);
    FILE *f = fopen(bad, "w");
    fputs("define amdgpu_kernel void @k() {\n  ret i32 0\n}\n", f);
    fclose(f);
    const char *lls[] = {bad}, *archs[] = {"gfx942"}, *objs[] = {obj}, *hsacos[] = {hsaco}, *tools[1];
    const char *kernels[] = {"k"};
    UsageReport out[1];
    int rc = amdgpu_compile_targets(amdgpu_llc_find(), amdgpu_lld_find(), lls, archs, objs, hsacos, 1,
                                    kernels, 1, arena, out, tools);
    ck_assert_int_eq(rc, 1);
    ck_assert_str_eq(tools[0], amdgpu_llc_find());
    ck_assert_msg(strstr(out[0].errors, "value doesn't match function result type 'void'") != NULL, "%s",
                  out[0].errors);
    const char *ll = data_path("pinned.ll"), *missing[] = {"pinned", "absent"};
    lls[0] = ll;
    rc = amdgpu_compile_targets(amdgpu_llc_find(), amdgpu_lld_find(), lls, archs, objs, hsacos, 1, missing, 2,
                                arena, out, tools);
    ck_assert_int_eq(rc, AMDGPU_BAD_CODE_OBJECT);
    ck_assert_str_eq(out[0].errors, "its code object has no metadata for kernel 'absent'");
    tempdir_remove(dir, 0);
}
END_TEST

static Suite *reader_suite(void)
{
    Suite *s = suite_create("hsaco");
    TCase *tc = tcase_create("reader");
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_add_test(tc, test_gfx942);
    tcase_add_test(tc, test_gfx1100);
    tcase_add_test(tc, test_truncated_everywhere);
    tcase_add_test(tc, test_truncated_messages);
    tcase_add_test(tc, test_not_elf);
    tcase_add_test(tc, test_other_machine);
    tcase_add_test(tc, test_no_note);
    tcase_add_test(tc, test_note_past_section);
    tcase_add_test(tc, test_bad_msgpack);
    tcase_add_test(tc, test_not_a_map);
    tcase_add_test(tc, test_missing_field);
    tcase_add_test(tc, test_wavefront_size);
    tcase_add_test(tc, test_counts_past_the_note);
    tcase_add_test(tc, test_unreadable_path);
    suite_add_tcase(s, tc);
    return s;
}

static Suite *llc_suite(void)
{
    Suite *s = suite_create("hsaco llc");
    TCase *tc = tcase_create("llc");
    tcase_add_checked_fixture(tc, open_arena, close_arena);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_llc_builds_pinned);
    tcase_add_test(tc, test_llc_failures);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    bool have_llvm = amdgpu_llc_find() != NULL && amdgpu_lld_find() != NULL;
    SRunner *sr = srunner_create(reader_suite());
    if (have_llvm)
        srunner_add_suite(sr, llc_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    if (!have_llvm) {
        printf("SKIP: llc tests: llc-19 or ld.lld-19 not found (install llvm-19 and lld-19, or set "
               "SILK_LLC and SILK_LLD)\n");
        return 77;
    }
    return EXIT_SUCCESS;
}
