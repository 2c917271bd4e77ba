/*
 * check_runtime.c: libsilkrt on the CPU backend, with a program written by
 * hand (runtime_fixture.h): every geometry and argument error a status
 * with its exact last_error, never a crash; launches that run and fill
 * their buffers; a kernel's fault as the launching thread's synchronize
 * status; @persistent sizing from the program's figures; buffers and
 * every misuse stop (exit 70, one line with the Silk source place); the
 * backend choice and SILK_VERBOSE's lines; print; async and task calls.
 *
 * Each scenario runs in a child process (the backend is chosen once per
 * process, a misuse ends it) and writes what it saw; the test compares
 * that text.
 */
#define _GNU_SOURCE
#include "runtime_fixture.h"

#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const CPU[] = {"SILK_BACKEND=cpu", NULL};
static const char *const CPU_VERBOSE[] = {"SILK_BACKEND=cpu", "SILK_VERBOSE=1", NULL};

/* "L S last_error" of a dispatch, a line of the child's output. */
static void show(SilkDispatchResult r)
{
    SilkStr e = silkrt_last_error();
    printf("%d %d %.*s\n", (int)r.launch_status, (int)r.synchronize_status, (int)e.len, e.bytes);
}

#define ASSERT_OUT(c, want) ck_assert_str_eq((c)->out, (want))

/* ---- geometry and arguments: statuses, never a crash ----------------------------------- */

typedef struct Case {
    const char *kernel;
    uint64_t grid, workspace;
    uint32_t n_args;
    const char *want;       /* "L S last_error\n" */
} Case;

static const Case cases[] = {
    {"fill", 64, 0, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a workspace of 0 work items (it must be 1 to 1024)\n"},
    {"fill", 2048, 2048, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a workspace of 2048 work items (it must be 1 to 1024)\n"},
    {"fill", 0, 32, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 0 work items (it must be 1 to 4294967295)\n"},
    {"fill", UINT64_C(4294967296), 32, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 4294967296 work items (it must be 1 to 4294967295)\n"},
    {"fill", UINT64_MAX, 1024, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 18446744073709551615 work items (it must be 1 to 4294967295)\n"},
    {"fill", 100, 64, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 100 work items is not divisible by the workspace of 64\n"},
    {"fill", UINT64_C(2147483648), 1, 2, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: 2147483648 work-groups (at most 2147483647)\n"},
    {"fixed", 256, 64, 0, "1004 0 SILKRT_WORKSPACE_MISMATCH: kernel fixed runs CTAs of 128 threads, and the workspace is 64\n"},
    {"nosuch", 64, 64, 0, "1005 0 SILKRT_UNKNOWN_KERNEL: no kernel nosuch in this program\n"},
    {NULL, 64, 64, 0, "1005 0 SILKRT_UNKNOWN_KERNEL: no kernel (null) in this program\n"},
    {"fill", 64, 64, 3, "1006 0 SILKRT_BAD_ARGUMENTS: kernel fill takes 2 arguments, and 3 were given\n"},
    {"fill", 64, 64, 1, "1006 0 SILKRT_BAD_ARGUMENTS: kernel fill takes 2 arguments, and 1 was given\n"},
    {"empty", 64, 64, 1, "1006 0 SILKRT_BAD_ARGUMENTS: kernel empty takes 0 arguments, and 1 was given\n"},
    {"ghost", 64, 64, 0, "1010 0 SILKRT_MODULE_LOAD: kernel ghost is not in the program's CPU module\n"},
    /* the checks' order: the count before the geometry */
    {"fill", 0, 0, 0, "1006 0 SILKRT_BAD_ARGUMENTS: kernel fill takes 2 arguments, and 0 were given\n"},
};

static void run_case(void *arg)
{
    const Case *c = arg;
    uint64_t args[4] = {0, 7, 0, 0};
    show(silkrt_launch_and_synchronize(c->kernel, c->grid, c->workspace, c->n_args, args));
}

START_TEST(geometry_statuses)
{
    Child c;
    child_run(&c, CPU, run_case, (void *)&cases[_i]);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, cases[_i].want);
    ck_assert_str_eq(c.err, "");
}
END_TEST

/* The manual API gives the same statuses, and synchronize stays 0. */
static void manual_errors(void *arg)
{
    (void)arg;
    uint64_t args[2] = {0, 0};
    printf("%d", (int)silkrt_launch("fill", 100, 64, 2, args));
    printf(" %d\n", (int)silkrt_synchronize());
    SilkStr e = silkrt_last_error();
    printf("%.*s\n", (int)e.len, e.bytes);
}

START_TEST(manual_launch_statuses)
{
    Child c;
    child_run(&c, CPU, manual_errors, NULL);
    ASSERT_OUT(&c, "1003 0\nSILKRT_BAD_GEOMETRY: kernel fill: a grid of 100 work items is not divisible "
                   "by the workspace of 64\n");
}
END_TEST

/* An argument that is a released buffer's address, and of no live one. */
static void released_argument(void *arg)
{
    (void)arg;
    SilkBuffer keep = silkrt_buffer_alloc(64);
    SilkBuffer b = silkrt_buffer_alloc(64);
    silkrt_buffer_release(b, NULL);
    uint64_t args[2] = {keep.address, b.address};
    SilkDispatchResult r = silkrt_launch_and_synchronize("fill", 8, 8, 2, args);
    SilkStr e = silkrt_last_error();
    char want[200];
    snprintf(want, sizeof want, "SILKRT_RELEASED_BUFFER: kernel fill: argument 2 is 0x%" PRIx64
             ", the address of a released buffer", b.address);
    printf("%d %d %s\n", (int)r.launch_status, (int)r.synchronize_status,
           e.len == strlen(want) && memcmp(e.bytes, want, e.len) == 0 ? "named" : e.bytes);
    /* The same address allocated again is live, and fine to pass. */
    SilkBuffer again = silkrt_buffer_alloc(64);
    args[1] = again.address;
    if (again.address == b.address)
        show(silkrt_launch_and_synchronize("fill", 8, 8, 2, args));
    else
        printf("0 0 (not reused)\n");
}

START_TEST(released_buffer_argument)
{
    Child c;
    child_run(&c, CPU, released_argument, NULL);
    ck_assert_int_eq(c.status, 0);
    ck_assert_msg(strncmp(c.out, "1007 0 named\n0 0 ", 17) == 0, "%s", c.out);
}
END_TEST

/* ---- launches that run --------------------------------------------------------------- */

static void fill_runs(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    uint64_t args[2] = {b.address, 0x1234567890ULL};
    show(silkrt_launch_and_synchronize("fill", 64, 32, 2, args));
    int right = 0;
    for (uint64_t i = 0; i < 64; i++) {
        uint64_t v;
        silkrt_buffer_download(b, i, &v, 8, "u64", NULL);
        right += v == 0x1234567890ULL;
    }
    printf("%d of 64\n", right);
    args[1] = 5;
    SilkSite site = {"main.silk", 9, 3};
    SilkDispatchResult r = silkrt_dispatch(&site, "label=hot", "fill", 32, 32, 2, args);
    uint64_t v0, v40;
    silkrt_buffer_download(b, 0, &v0, 8, "u64", NULL);
    silkrt_buffer_download(b, 40, &v40, 8, "u64", NULL);
    printf("%d %d %" PRIu64 " %" PRIu64 "\n", (int)r.launch_status, (int)r.synchronize_status, v0, v40);
    silkrt_buffer_release(b, NULL);
}

START_TEST(launch_fills_buffer)
{
    Child c;
    child_run(&c, CPU_VERBOSE, fill_runs, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "0 0 \n64 of 64\n0 0 5 78187493520\n");
    ck_assert_msg(strstr(c.err, "silkrt: backend cpu (SILK_BACKEND=cpu)\n") == c.err, "%s", c.err);
    ck_assert_msg(strstr(c.err, "silkrt: device cpu: 4 SMs emulated on "), "%s", c.err);
    ck_assert_msg(strstr(c.err, "\nsilkrt: dispatch fill: grid=64 workspace=32 ctas=2: launch_status=0 "
                                "synchronize_status=0\n"), "%s", c.err);
    ck_assert_msg(strstr(c.err, "\nsilkrt: dispatch fill at main.silk:9:3 attr(label=hot): grid=32 "
                                "workspace=32 ctas=1: launch_status=0 synchronize_status=0\n"), "%s", c.err);
}
END_TEST

/* A kernel's fault: launch 0, then KERNEL_FAULT at this thread's
 * synchronize, once; another thread's synchronize sees nothing. */
static void *other_synchronize(void *arg)
{
    *(int *)arg = silkrt_synchronize();
    return NULL;
}

static void fault_at_synchronize(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(32 * 8);
    uint64_t args[2] = {b.address, 1};
    printf("%d\n", (int)silkrt_launch("fill", 64, 32, 2, args));
    int other = -1;
    pthread_t t;
    pthread_create(&t, NULL, other_synchronize, &other);
    pthread_join(t, NULL);
    printf("other %d\n", other);
    printf("%d\n", (int)silkrt_synchronize());
    SilkStr e = silkrt_last_error();
    printf("%.*s\n", (int)e.len, e.bytes);
    printf("%d\n", (int)silkrt_synchronize()); /* reported once */
    show(silkrt_launch_and_synchronize("fill", 64, 32, 2, args));
}

START_TEST(kernel_fault)
{
    Child c;
    child_run(&c, CPU, fault_at_synchronize, NULL);
    ck_assert_int_eq(c.status, 0);
    const char *fault = "SILKRT_KERNEL_FAULT: fill.silk:3:5: kernel fill, CTA 1, thread 0: a store of 8 "
                        "bytes at byte 256 of buffer 1, which has 256 bytes";
    char want[1024];
    snprintf(want, sizeof want, "0\nother 0\n1009\n%s\n0\n0 1009 %s\n", fault, fault);
    ASSERT_OUT(&c, want);
    /* Each check that fires is on stderr as it happens, whatever the
     * program does with the status. */
    const char *line = strchr(fault, ' ') + 1;
    snprintf(want, sizeof want, "%s\n%s\n", line, line);
    ck_assert_str_eq(c.err, want);
}
END_TEST

/* A fault nobody synchronizes (a statement-position launch block drops
 * its DispatchResult): its line is on stderr all the same. */
static void fault_unsynchronized(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(32 * 8);
    uint64_t args[2] = {b.address, 1};
    printf("before\n");
    silkrt_launch("fill", 64, 32, 2, args);
    printf("after\n");
}

START_TEST(kernel_fault_on_stderr)
{
    Child c;
    child_run(&c, CPU, fault_unsynchronized, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "before\nafter\n");
    ck_assert_str_eq(c.err, "fill.silk:3:5: kernel fill, CTA 1, thread 0: a store of 8 bytes at byte 256 "
                            "of buffer 1, which has 256 bytes\n");
}
END_TEST

/* A kernel touching memory that is no live buffer's faults. */
static void fault_outside(void *arg)
{
    (void)arg;
    uint64_t on_stack[8];
    uint64_t args[2] = {(uint64_t)(uintptr_t)on_stack, 1};
    SilkDispatchResult r = silkrt_launch_and_synchronize("fill", 1, 1, 2, args);
    SilkStr e = silkrt_last_error();
    printf("%d %d %s\n", (int)r.launch_status, (int)r.synchronize_status,
           strstr(e.bytes, ", outside every buffer") ? "outside" : e.bytes);
}

START_TEST(kernel_fault_no_buffers)
{
    Child c;
    child_run(&c, CPU, fault_outside, NULL);
    ASSERT_OUT(&c, "0 1009 outside\n");
}
END_TEST

/* @persistent: min(logical, cpu_sms x cpu_ctas_per_sm) CTAs, the logical
 * count passed. */
static void persistent_runs(void *arg)
{
    uint64_t logical = *(const uint64_t *)arg;
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    uint64_t args[1] = {b.address};
    show(silkrt_launch_and_synchronize("persist", logical * 64, 64, 1, args));
    for (uint64_t i = 0; i < logical + 1; i++) {
        uint64_t v;
        silkrt_buffer_download(b, i, &v, 8, "u64", NULL);
        printf("%" PRIu64 "%s", v, i == logical ? "\n" : " ");
    }
}

START_TEST(persistent_sizing)
{
    Child c;
    uint64_t logical = 20;
    child_run(&c, CPU_VERBOSE, persistent_runs, &logical);
    ASSERT_OUT(&c, "0 0 \n8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 0\n");
    ck_assert_msg(strstr(c.err, "silkrt: dispatch persist: grid=1280 workspace=64 ctas=8 logical=20: "
                                "launch_status=0 synchronize_status=0\n"), "%s", c.err);
    logical = 3; /* fewer than the device holds: one CTA each */
    child_run(&c, CPU, persistent_runs, &logical);
    ASSERT_OUT(&c, "0 0 \n3 3 3 0\n");
}
END_TEST

/* ---- buffers ------------------------------------------------------------------------- */

static void buffers_work(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(12);
    printf("bytes %" PRIu64 " aligned %d\n", b.bytes, (int)(b.address % 256 == 0));
    float f = 2.5f, g = 0;
    int32_t i = -7, j = 0;
    uint64_t zero = 1;
    silkrt_buffer_download(b, 2, &zero, 4, "i32", NULL);
    printf("zeroed %" PRIu64 "\n", zero);
    silkrt_buffer_upload(b, 2, &f, 4, "f32", NULL);
    silkrt_buffer_upload(b, 0, &i, 4, "i32", NULL);
    silkrt_buffer_download(b, 2, &g, 4, "f32", NULL);
    silkrt_buffer_download(b, 0, &j, 4, "i32", NULL);
    printf("%g %d\n", (double)g, (int)j);
    SilkBuffer none = silkrt_buffer_alloc(0);
    SilkStr e = silkrt_last_error();
    printf("%" PRIu64 " %" PRIu64 " %.*s\n", none.address, none.bytes, (int)e.len, e.bytes);
    silkrt_buffer_release(none, NULL); /* nothing to free */
    SilkBuffer huge = silkrt_buffer_alloc(UINT64_MAX - 8);
    e = silkrt_last_error();
    printf("%" PRIu64 " %.*s\n", huge.address, (int)e.len, e.bytes);
    silkrt_buffer_release(b, NULL);
}

START_TEST(buffer_operations)
{
    Child c;
    child_run(&c, CPU, buffers_work, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "bytes 12 aligned 1\nzeroed 0\n2.5 -7\n"
                   "0 0 SILKRT_BAD_ARGUMENTS: Buffer.alloc: 0 bytes (a buffer holds at least one)\n"
                   "0 SILKRT_OUT_OF_MEMORY: Buffer.alloc: 18446744073709551607 bytes: out of host memory\n");
}
END_TEST

/* The misuse stops: exit 70, one line naming the source place. */
static const SilkSite SITE = {"prog.silk", 4, 7};

static void past_end(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(32);
    float f;
    silkrt_buffer_download(b, 7, &f, 4, "f32", &SITE);
    printf("7 ok\n");
    silkrt_buffer_download(b, 8, &f, 4, "f32", &SITE);
    printf("not reached\n");
}

static void past_end_one(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(8);
    uint64_t v = 1;
    silkrt_buffer_upload(b, 1, &v, 8, "u64", &SITE);
}

static void failed_alloc_used(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(0);
    int32_t v = 1;
    silkrt_buffer_upload(b, 0, &v, 4, "i32", &SITE);
}

static void alloc_unusable_used(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(64);
    float f;
    silkrt_buffer_download(b, 3, &f, 4, "f32", &SITE);
}

static void *released_twice(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(32);
    silkrt_buffer_release(b, &SITE);
    printf("released 0x%" PRIx64 "\n", b.address);
    fflush(stdout);
    silkrt_buffer_release(b, &SITE);
    return NULL;
}

static void release_twice(void *arg)
{
    (void)arg;
    released_twice(NULL);
}

static void upload_after_release(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(32);
    silkrt_buffer_release(b, NULL);
    printf("released 0x%" PRIx64 "\n", b.address);
    uint64_t v = 0;
    silkrt_buffer_upload(b, 0, &v, 8, "u64", &SITE);
}

static void foreign_buffer(void *arg)
{
    (void)arg;
    SilkBuffer b = {0x1000, 64};
    uint64_t v = 0;
    silkrt_buffer_download(b, 0, &v, 8, "u64", NULL);
}

static void release_foreign(void *arg)
{
    (void)arg;
    SilkBuffer b = {0x1000, 64};
    silkrt_buffer_release(b, &SITE);
}

/* A misuse on another thread stops the whole program just the same. */
static void release_twice_in_thread(void *arg)
{
    (void)arg;
    pthread_t t;
    pthread_create(&t, NULL, released_twice, NULL);
    pthread_join(t, NULL);
    printf("not reached\n");
}

/* "released 0x..." of the child's output, as the address in `hex`. */
static void released_address(const Child *c, char *hex, size_t size)
{
    const char *at = strstr(c->out, "released ");
    snprintf(hex, size, "%.*s", at ? (int)strcspn(at + 9, "\n") : 0, at ? at + 9 : "");
}

START_TEST(misuse_stops)
{
    Child c;
    char want[256], hex[64];
    child_run(&c, CPU, past_end, NULL);
    ck_assert_int_eq(c.status, SILKRT_EXIT_MISUSE);
    ASSERT_OUT(&c, "7 ok\n");
    ck_assert_str_eq(c.err, "prog.silk:4:7: Buffer.download_f32: index 8 is past the end of a buffer "
                            "of 8 f32 elements\n");
    child_run(&c, CPU, past_end_one, NULL);
    ck_assert_int_eq(c.status, 70);
    ck_assert_str_eq(c.err, "prog.silk:4:7: Buffer.upload_u64: index 1 is past the end of a buffer "
                            "of 1 u64 element\n");
    child_run(&c, CPU, failed_alloc_used, NULL);
    ck_assert_int_eq(c.status, 70);
    ck_assert_str_eq(c.err, "prog.silk:4:7: Buffer.upload_i32: index 0 of a buffer whose Buffer.alloc "
                            "failed: SILKRT_BAD_ARGUMENTS: Buffer.alloc: 0 bytes (a buffer holds at "
                            "least one)\n");
    /* the backend unusable: every alloc fails, and the stop says why */
    const char *const cuda_no_driver[] = {"SILK_BACKEND=cuda", "SILK_CUDA_LIBRARY=/nonexistent/libcuda.so.1",
                                          NULL};
    child_run(&c, cuda_no_driver, alloc_unusable_used, NULL);
    ck_assert_int_eq(c.status, 70);
    ck_assert_str_eq(c.err, "prog.silk:4:7: Buffer.download_f32: index 3 of a buffer whose Buffer.alloc "
                            "failed: SILKRT_NO_DRIVER: SILK_BACKEND=cuda: no CUDA driver: "
                            "/nonexistent/libcuda.so.1: cannot open shared object file: No such file or "
                            "directory\n");
    child_run(&c, CPU, release_twice, NULL);
    ck_assert_int_eq(c.status, 70);
    released_address(&c, hex, sizeof hex);
    snprintf(want, sizeof want, "prog.silk:4:7: Buffer.release: the buffer at %s was released before\n", hex);
    ck_assert_str_eq(c.err, want);
    child_run(&c, CPU, release_twice_in_thread, NULL);
    ck_assert_int_eq(c.status, 70);
    released_address(&c, hex, sizeof hex);
    snprintf(want, sizeof want, "prog.silk:4:7: Buffer.release: the buffer at %s was released before\n", hex);
    ck_assert_str_eq(c.err, want);
    ck_assert_ptr_null(strstr(c.out, "not reached"));
    child_run(&c, CPU, upload_after_release, NULL);
    ck_assert_int_eq(c.status, 70);
    released_address(&c, hex, sizeof hex);
    snprintf(want, sizeof want, "prog.silk:4:7: Buffer.upload_u64: the buffer at %s was released\n", hex);
    ck_assert_str_eq(c.err, want);
    child_run(&c, CPU, foreign_buffer, NULL);
    ck_assert_int_eq(c.status, 70);
    ck_assert_str_eq(c.err, "silkrt: Buffer.download_u64: 0x1000 is not the address of a buffer\n");
    child_run(&c, CPU, release_foreign, NULL);
    ck_assert_int_eq(c.status, 70);
    ck_assert_str_eq(c.err, "prog.silk:4:7: Buffer.release: 0x1000 is not the address of a buffer\n");
}
END_TEST

/* ---- the backend chosen --------------------------------------------------------------- */

static void backend_report(void *arg)
{
    (void)arg;
    SilkStr name = silkrt_backend();
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    SilkStr e = silkrt_last_error();
    printf("%.*s alloc %" PRIu64 " %.*s\n", (int)name.len, name.bytes, b.bytes, (int)e.len, e.bytes);
    uint64_t args[2] = {b.address, 1};
    show(silkrt_launch_and_synchronize("fill", 64, 64, 2, args));
    printf("sync %d\n", (int)silkrt_synchronize());
}

START_TEST(backend_choice)
{
    Child c;
    const char *const auto_no_driver[] = {"SILK_CUDA_LIBRARY=/nonexistent/libcuda.so.1",
                                          "SILK_HIP_LIBRARY=/nonexistent/libamdhip64.so.6",
                                          "SILK_VERBOSE=1", NULL};
    child_run(&c, auto_no_driver, backend_report, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "cpu alloc 512 \n0 0 \nsync 0\n");
    ck_assert_msg(strstr(c.err, "silkrt: backend cpu (SILK_BACKEND=auto: no CUDA driver: "
                                "/nonexistent/libcuda.so.1: cannot open shared object file: No such "
                                "file or directory; no HIP runtime: /nonexistent/libamdhip64.so.6: "
                                "cannot open shared object file: No such file or directory)\n") == c.err,
                  "%s", c.err);

    const char *const cuda_no_driver[] = {"SILK_BACKEND=cuda", "SILK_CUDA_LIBRARY=/nonexistent/libcuda.so.1",
                                          "SILK_VERBOSE=1", NULL};
    child_run(&c, cuda_no_driver, backend_report, NULL);
    ck_assert_int_eq(c.status, 0);
    const char *why = "SILKRT_NO_DRIVER: SILK_BACKEND=cuda: no CUDA driver: /nonexistent/libcuda.so.1: "
                      "cannot open shared object file: No such file or directory";
    char want[1024];
    snprintf(want, sizeof want, "cuda alloc 0 %s\n1001 1001 %s\nsync 1001\n", why, why);
    ASSERT_OUT(&c, want);
    ck_assert_msg(strstr(c.err, "silkrt: backend cuda unusable (SILK_BACKEND=cuda: no CUDA driver: "
                                "/nonexistent/libcuda.so.1: cannot open shared object file: No such "
                                "file or directory): every launch, synchronize and alloc fails with "
                                "status 1001\n") == c.err, "%s", c.err);

    const char *const bogus[] = {"SILK_BACKEND=opencl", NULL};
    child_run(&c, bogus, backend_report, NULL);
    why = "SILKRT_NO_BACKEND: SILK_BACKEND=opencl names no backend (auto, cpu, cuda or hip)";
    snprintf(want, sizeof want, "none alloc 0 %s\n1011 1011 %s\nsync 1011\n", why, why);
    ASSERT_OUT(&c, want);
    ck_assert_str_eq(c.err, "");
}
END_TEST

/* Without a program registered, nothing crashes: no kernel is known. */
static void no_program(void *arg)
{
    (void)arg;
    show(silkrt_launch_and_synchronize("fill", 64, 64, 0, NULL));
    SilkBuffer b = silkrt_buffer_alloc(8);
    printf("%" PRIu64 "\n", b.bytes);
}

START_TEST(unregistered_program)
{
    Child c;
    fixture_unregistered = 1;
    child_run(&c, CPU, no_program, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "1005 0 SILKRT_UNKNOWN_KERNEL: no kernel fill in this program\n8\n");
}
END_TEST

static void wrong_abi(void *arg)
{
    (void)arg;
    static SilkrtProgram p;
    p = fixture_program;
    p.abi_version = 99;
    silkrt_register(&p);
}

START_TEST(program_abi_checked)
{
    Child c;
    fixture_unregistered = 1;
    child_run(&c, CPU, wrong_abi, NULL);
    ck_assert_int_eq(c.status, 70);
    ck_assert_str_eq(c.err, "silkrt: the program was built for runtime ABI 99, and this is ABI 2: "
                            "build it again with this silkc\n");
}
END_TEST

/* ---- print ---------------------------------------------------------------------------- */

static void print_values(void *arg)
{
    (void)arg;
    const SilkrtValue scalars[] = {
        {.kind = SILKRT_V_BOOL, .u = 1}, {.kind = SILKRT_V_BOOL, .u = 0},
        {.kind = SILKRT_V_INT, .i = -5}, {.kind = SILKRT_V_INT, .i = INT64_MIN},
        {.kind = SILKRT_V_UINT, .u = UINT64_MAX}, {.kind = SILKRT_V_STR, .s = {"a b", 3}},
    };
    silkrt_print(scalars, 6, true);
    const SilkrtValue floats[] = {
        {.kind = SILKRT_V_F32, .f = 0.1f}, {.kind = SILKRT_V_F64, .d = 0.1},
        {.kind = SILKRT_V_F64, .d = 1}, {.kind = SILKRT_V_F32, .f = 1e30f},
        {.kind = SILKRT_V_F64, .d = 1e16}, {.kind = SILKRT_V_F64, .d = 1e15},
        {.kind = SILKRT_V_F64, .d = 0.0001}, {.kind = SILKRT_V_F64, .d = 0.00001},
        {.kind = SILKRT_V_F64, .d = 123.456}, {.kind = SILKRT_V_F32, .f = 16777216.0f},
        {.kind = SILKRT_V_F32, .f = 3.4028235e38f}, {.kind = SILKRT_V_F64, .d = 1.0 / 3},
        {.kind = SILKRT_V_F32, .f = 1.0f / 3}, {.kind = SILKRT_V_F64, .d = -2.5},
        {.kind = SILKRT_V_F64, .d = -0.0}, {.kind = SILKRT_V_F64, .d = 5e-324},
    };
    silkrt_print(floats, 16, true);
    const SilkrtValue specials[] = {
        {.kind = SILKRT_V_F64, .d = NAN}, {.kind = SILKRT_V_F32, .f = -NAN},
        {.kind = SILKRT_V_F64, .d = INFINITY}, {.kind = SILKRT_V_F32, .f = -INFINITY},
        {.kind = SILKRT_V_F16, .h = 0x3c00}, {.kind = SILKRT_V_F16, .h = 0x2e66},
        {.kind = SILKRT_V_F16, .h = 0x7bff}, {.kind = SILKRT_V_F16, .h = 0x0001},
        {.kind = SILKRT_V_F16, .h = 0xfc00}, {.kind = SILKRT_V_F16, .h = 0x7e00},
    };
    silkrt_print(specials, 10, true);
    const SilkrtValue structs[] = {
        {.kind = SILKRT_V_DISPATCH, .r = {0, 1009}},
        {.kind = SILKRT_V_BUFFER, .b = {0x7f0000001000, 64}},
    };
    silkrt_print(structs, 2, false);
    silkrt_print(NULL, 0, true);
}

START_TEST(print_format)
{
    Child c;
    child_run(&c, CPU, print_values, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "true false -5 -9223372036854775808 18446744073709551615 a b\n"
                   "0.1 0.1 1 1e+30 1e+16 1000000000000000 0.0001 1e-05 123.456 16777216 "
                   "3.4028235e+38 0.3333333333333333 0.33333334 -2.5 -0 5e-324\n"
                   "nan nan inf -inf 1 0.1 65500 6e-08 -inf nan\n"
                   "DispatchResult { launch_status: 0, synchronize_status: 1009 } "
                   "Buffer { address: 0x7f0000001000, bytes: 64 }\n");
}
END_TEST

/* ---- async and task calls --------------------------------------------------------------- */

typedef struct Shared {
    pthread_mutex_t lock;
    int order[64], n;
    pthread_barrier_t barrier;
    int counter;
} Shared;

static Shared shared = {.lock = PTHREAD_MUTEX_INITIALIZER};

typedef struct Arg {
    int index;
} Arg;

static void append(void *closure)
{
    Arg *a = closure;
    pthread_mutex_lock(&shared.lock);
    shared.order[shared.n++] = a->index;
    pthread_mutex_unlock(&shared.lock);
    free(a);
}

static void async_order(void *arg)
{
    (void)arg;
    for (int i = 0; i < 40; i++) {
        Arg *a = malloc(sizeof *a);
        a->index = i;
        silkrt_spawn(SILKRT_ASYNC, append, a);
    }
    silkrt_wait_tasks();
    for (int i = 0; i < shared.n; i++)
        printf("%d%s", shared.order[i], i + 1 == shared.n ? "\n" : " ");
}

START_TEST(async_in_call_order)
{
    Child c;
    child_run(&c, CPU, async_order, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 "
                   "30 31 32 33 34 35 36 37 38 39\n");
}
END_TEST

/* 16 tasks that each wait for all 16: only 16 parallel workers finish. */
static void meet(void *closure)
{
    (void)closure;
    pthread_barrier_wait(&shared.barrier);
    __atomic_fetch_add(&shared.counter, 1, __ATOMIC_RELAXED);
}

static void tasks_parallel(void *arg)
{
    (void)arg;
    pthread_barrier_init(&shared.barrier, NULL, 16);
    for (int i = 0; i < 16; i++)
        silkrt_spawn(SILKRT_TASK, meet, NULL);
    silkrt_wait_tasks();
    printf("%d met\n", shared.counter);
}

START_TEST(tasks_run_in_parallel)
{
    Child c;
    const char *const env[] = {"SILK_BACKEND=cpu", "SILK_TASK_WORKERS=16", NULL};
    child_run(&c, env, tasks_parallel, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "16 met\n");
}
END_TEST

/* Tasks that start tasks and wait for them: with 2 workers, waiting
 * tasks run the queued ones, and main's wait covers the grandchildren. */
static void leaf(void *closure)
{
    (void)closure;
    __atomic_fetch_add(&shared.counter, 1, __ATOMIC_RELAXED);
}

static void parent(void *closure)
{
    (void)closure;
    for (int i = 0; i < 10; i++)
        silkrt_spawn(SILKRT_TASK, leaf, NULL);
    silkrt_wait_tasks();
    int seen = __atomic_load_n(&shared.counter, __ATOMIC_RELAXED);
    for (int i = 0; i < 5; i++)
        silkrt_spawn(i % 2 ? SILKRT_ASYNC : SILKRT_TASK, leaf, NULL); /* left running */
    pthread_mutex_lock(&shared.lock);
    shared.order[shared.n++] = seen >= 10;
    pthread_mutex_unlock(&shared.lock);
}

static void nested_tasks(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++)
        silkrt_spawn(SILKRT_TASK, parent, NULL);
    silkrt_wait_tasks();
    int all = 1;
    for (int i = 0; i < shared.n; i++)
        all &= shared.order[i];
    printf("%d parents, each saw its 10: %d; %d leaves\n", shared.n, all, shared.counter);
}

START_TEST(nested_waits)
{
    Child c;
    const char *const env[] = {"SILK_BACKEND=cpu", "SILK_TASK_WORKERS=2", NULL};
    child_run(&c, env, nested_tasks, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "8 parents, each saw its 10: 1; 120 leaves\n");
}
END_TEST

/* Calls that share a worker: none sees what another left, its fault or
 * its last_error; a waiting call's own are there after it waits. */
static void leaves_fault(void *closure)
{
    SilkBuffer *b = closure;
    uint64_t args[2] = {b->address, 1};
    silkrt_launch("fill", 64, 32, 2, args);    /* faults, never synchronized */
    silkrt_launch("fill", 100, 64, 2, args);   /* BAD_GEOMETRY in last_error */
}

static void sees_nothing(void *closure)
{
    (void)closure;
    SilkStr e = silkrt_last_error();
    int32_t s = silkrt_synchronize();
    pthread_mutex_lock(&shared.lock);
    shared.order[shared.n++] = s == 0 && e.len == 0;
    pthread_mutex_unlock(&shared.lock);
}

static void waits_keeping_its_own(void *closure)
{
    SilkBuffer *b = closure;
    uint64_t args[2] = {b->address, 1};
    silkrt_launch("fill", 100, 64, 2, args);
    silkrt_spawn(SILKRT_TASK, leaves_fault, b); /* run here, while this call waits */
    silkrt_wait_tasks();
    SilkStr e = silkrt_last_error();
    pthread_mutex_lock(&shared.lock);
    shared.order[shared.n++] = strstr(e.bytes, "a grid of 100 work items") != NULL;
    pthread_mutex_unlock(&shared.lock);
}

static void calls_share_a_worker(void *arg)
{
    (void)arg;
    static SilkBuffer b;
    b = silkrt_buffer_alloc(32 * 8);
    silkrt_spawn(SILKRT_TASK, leaves_fault, &b);
    silkrt_spawn(SILKRT_TASK, sees_nothing, NULL);
    silkrt_wait_tasks();
    silkrt_spawn(SILKRT_TASK, waits_keeping_its_own, &b);
    silkrt_spawn(SILKRT_TASK, sees_nothing, NULL);
    silkrt_wait_tasks();
    printf("%d: %d %d %d\n", shared.n, shared.order[0], shared.order[1], shared.order[2]);
}

/* SILK_TASK_WORKERS that is no count from 1 to 4096 stops the program
 * at its first task call, as an unknown SILK_BACKEND is an error. */
static const char *const bad_workers[] = {"SILK_TASK_WORKERS=garbage", "SILK_TASK_WORKERS=0",
                                          "SILK_TASK_WORKERS=-1", "SILK_TASK_WORKERS=999999",
                                          "SILK_TASK_WORKERS= 4", "SILK_TASK_WORKERS=a\033b"};
static const char *const bad_workers_shown[] = {"garbage", "0", "-1", "999999", " 4", "a\\x1bb"};

static void one_task(void *arg)
{
    (void)arg;
    printf("spawning\n");
    silkrt_spawn(SILKRT_TASK, leaf, NULL);
    silkrt_wait_tasks();
    printf("not reached\n");
}

START_TEST(task_workers_checked)
{
    Child c;
    const char *const env[] = {"SILK_BACKEND=cpu", bad_workers[_i], NULL};
    child_run(&c, env, one_task, NULL);
    ck_assert_int_eq(c.status, SILKRT_EXIT_MISUSE);
    ASSERT_OUT(&c, "spawning\n");
    char want[256];
    snprintf(want, sizeof want, "silkrt: SILK_TASK_WORKERS=%s is not a number of task workers "
                                "(1 to 4096)\n", bad_workers_shown[_i]);
    ck_assert_str_eq(c.err, want);
}
END_TEST

START_TEST(calls_start_clean)
{
    Child c;
    const char *const env[] = {"SILK_BACKEND=cpu", "SILK_TASK_WORKERS=1", NULL};
    child_run(&c, env, calls_share_a_worker, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "3: 1 1 1\n");
}
END_TEST

/* silkrt_main: the program's status, after every call has finished. */
static void slow_leaf(void *closure)
{
    (void)closure;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    __atomic_fetch_add(&shared.counter, 1, __ATOMIC_RELAXED);
}

static int32_t silk_main(void)
{
    for (int i = 0; i < 6; i++)
        silkrt_spawn(i % 2 ? SILKRT_ASYNC : SILKRT_TASK, slow_leaf, NULL);
    return 3;
}

static void main_waits(void *arg)
{
    (void)arg;
    int status = silkrt_main(&fixture_program, 0, NULL, silk_main);
    printf("%d %d\n", status, shared.counter);
}

START_TEST(main_waits_for_tasks)
{
    Child c;
    fixture_unregistered = 1;
    child_run(&c, CPU, main_waits, NULL);
    ck_assert_int_eq(c.status, 0);
    ASSERT_OUT(&c, "3 6\n");
}
END_TEST

/* 16 tasks printing long lines at once: every line whole. */
static void print_lines(void *closure)
{
    Arg *a = closure;
    char text[200];
    memset(text, 'a' + a->index, sizeof text - 1);
    text[sizeof text - 1] = '\0';
    for (int i = 0; i < 200; i++) {
        SilkrtValue v[2] = {{.kind = SILKRT_V_STR, .s = {text, sizeof text - 1}},
                            {.kind = SILKRT_V_INT, .i = i}};
        silkrt_print(v, 2, true);
    }
    free(a);
}

static void tasks_print(void *arg)
{
    (void)arg;
    for (int i = 0; i < 16; i++) {
        Arg *a = malloc(sizeof *a);
        a->index = i;
        silkrt_spawn(SILKRT_TASK, print_lines, a);
    }
    silkrt_wait_tasks();
}

START_TEST(print_lines_whole)
{
    static Child c;
    const char *const env[] = {"SILK_BACKEND=cpu", NULL};
    child_run(&c, env, tasks_print, NULL);
    ck_assert_int_eq(c.status, 0);
    int lines = 0;
    for (const char *p = c.out; *p; lines++) {
        const char *end = strchr(p, '\n');
        if (!end)
            break; /* cut where Child.out ends */
        ck_assert_msg(end - p >= 201 && end - p <= 203, "a line of %d bytes", (int)(end - p));
        for (const char *q = p; q < p + 199; q++)
            ck_assert_int_eq(*q, *p);
        p = end + 1;
    }
    /* The output is bigger than Child.out: what fits is checked. */
    ck_assert_int_gt(lines, 100);
}
END_TEST

static Suite *runtime_suite(void)
{
    Suite *s = suite_create("runtime");
    TCase *t = tcase_create("launches");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, geometry_statuses, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(t, manual_launch_statuses);
    tcase_add_test(t, released_buffer_argument);
    tcase_add_test(t, launch_fills_buffer);
    tcase_add_test(t, kernel_fault);
    tcase_add_test(t, kernel_fault_no_buffers);
    tcase_add_test(t, kernel_fault_on_stderr);
    tcase_add_test(t, persistent_sizing);
    suite_add_tcase(s, t);
    t = tcase_create("buffers");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, buffer_operations);
    tcase_add_test(t, misuse_stops);
    suite_add_tcase(s, t);
    t = tcase_create("backend");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, backend_choice);
    tcase_add_test(t, unregistered_program);
    tcase_add_test(t, program_abi_checked);
    suite_add_tcase(s, t);
    t = tcase_create("print_and_tasks");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, print_format);
    tcase_add_test(t, async_in_call_order);
    tcase_add_test(t, tasks_run_in_parallel);
    tcase_add_test(t, nested_waits);
    tcase_add_test(t, main_waits_for_tasks);
    tcase_add_test(t, calls_start_clean);
    tcase_add_loop_test(t, task_workers_checked, 0, (int)(sizeof bad_workers / sizeof *bad_workers));
    tcase_add_test(t, print_lines_whole);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(runtime_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
