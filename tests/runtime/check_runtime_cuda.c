/*
 * check_runtime_cuda.c: libsilkrt's CUDA backend through the test double
 * of the Driver API (tests/runtime/fake_cuda.so, loaded with
 * SILK_CUDA_LIBRARY; its log says what was called): the PTX chosen for
 * the device, a failed launch followed by exactly one synchronize, the
 * driver's statuses in DispatchResult unchanged and named by last_error,
 * the runtime's geometry statuses before the driver is reached, no
 * device or no driver (the NO_DEVICE and NO_DRIVER statuses with
 * SILK_BACKEND=cuda, the CPU backend with auto), @persistent sizing from
 * the driver's occupancy, buffers, and the context on task threads.
 */
#define _GNU_SOURCE
#include "runtime_fixture.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(SilkDispatchResult r)
{
    SilkStr e = silkrt_last_error();
    printf("%d %d %.*s\n", (int)r.launch_status, (int)r.synchronize_status, (int)e.len, e.bytes);
}

/* The child's environment: the fake, then `extra` (NULL-ended). */
static const char *const *with_fake(const char *const *extra)
{
    static char library[1024];
    static const char *env[16];
    snprintf(library, sizeof library, "SILK_CUDA_LIBRARY=%s", fixture_fake_cuda());
    int n = 0;
    env[n++] = library;
    for (; extra && *extra && n < 15; extra++)
        env[n++] = *extra;
    env[n] = NULL;
    return env;
}

/* The fake's log has this line. */
#define LOGGED(c, line)                                                                      \
    ck_assert_msg(strstr((c)->log, line "\n") != NULL, "the log lacks '%s':\n%s", line, (c)->log)
#define NOT_LOGGED(c, line)                                                                  \
    ck_assert_msg(strstr((c)->log, line) == NULL, "the log has '%s':\n%s", line, (c)->log)

/* Dispatches fill over a buffer of 64 u64s `times` times. */
static void fill_dispatches(void *arg)
{
    int times = arg ? *(const int *)arg : 1;
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    uint64_t args[2] = {b.address, 7};
    for (int i = 0; i < times; i++)
        show(silkrt_launch_and_synchronize("fill", 64, 32, 2, args));
    silkrt_buffer_release(b, NULL);
}

START_TEST(auto_takes_cuda)
{
    Child c;
    const char *const verbose[] = {"SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(verbose), fill_dispatches, NULL);
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(c.out, "0 0 \n");
    char want[2048];
    snprintf(want, sizeof want,
             "silkrt: device 0: Fake CUDA device (sm_90, 132 SMs)\n"
             "silkrt: backend cuda (SILK_BACKEND=auto: %s has device 0)\n"
             "silkrt: module sm_90 loaded (%zu bytes): fake JIT: ", fixture_fake_cuda(),
             strlen(fixture_program.ptx[1].text));
    ck_assert_msg(strncmp(c.err, want, strlen(want)) == 0, "%s", c.err);
    ck_assert_msg(strstr(c.err, " bytes of PTX for sm_90\nsilkrt: dispatch fill: grid=64 workspace=32 "
                                "ctas=2: launch_status=0 synchronize_status=0\n"), "%s", c.err);
    LOGGED(&c, "target sm_90");
    LOGGED(&c, "call cuLaunchKernel 1");
    LOGGED(&c, "call cuCtxSynchronize 1");
    LOGGED(&c, "launch fill grid=2,1,1 block=32,1,1 shared=0 params=@1,0x7");
    LOGGED(&c, "live 0");
}
END_TEST

/* The newest PTX the device can run; none: MODULE_LOAD, and the driver
 * never sees a launch (but the one synchronize). */
START_TEST(ptx_for_the_device)
{
    Child c;
    const char *const cc80[] = {"FAKE_CUDA_CC=80", NULL};
    child_run(&c, with_fake(cc80), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "target sm_75");
    NOT_LOGGED(&c, "target sm_90");
    const char *const cc70[] = {"FAKE_CUDA_CC=70", NULL};
    int twice = 2;
    child_run(&c, with_fake(cc70), fill_dispatches, &twice);
    ck_assert_str_eq(c.out, "1010 0 SILKRT_MODULE_LOAD: the program holds no PTX for sm_70 or older "
                            "(2 targets: sm_75, sm_90)\n1010 0 SILKRT_MODULE_LOAD: the program holds "
                            "no PTX for sm_70 or older (2 targets: sm_75, sm_90)\n");
    NOT_LOGGED(&c, "call cuModuleLoadDataEx");
    NOT_LOGGED(&c, "call cuLaunchKernel");
    LOGGED(&c, "call cuCtxSynchronize 2");
}
END_TEST

/* Every PTX refused: each tried once, newest first; the JIT's log named. */
START_TEST(jit_failure)
{
    Child c;
    const char *const env[] = {"FAKE_CUDA_FAIL=cuModuleLoadDataEx:218",
                               "FAKE_CUDA_JIT_ERROR=ptxas fatal   : Unresolved extern function 'f'\n"
                               "ptxas fatal   : Ptx assembly aborted",
                               "SILK_VERBOSE=1", NULL};
    int twice = 2;
    child_run(&c, with_fake(env), fill_dispatches, &twice);
    const char *e = "SILKRT_MODULE_LOAD: sm_75: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed: "
                    "ptxas fatal   : Unresolved extern function 'f'; ptxas fatal   : Ptx assembly aborted";
    char want[1024];
    snprintf(want, sizeof want, "1010 0 %s\n1010 0 %s\n", e, e);
    ck_assert_str_eq(c.out, want);
    LOGGED(&c, "call cuModuleLoadDataEx 2");
    ck_assert_msg(strstr(c.err, "silkrt: module sm_90 did not load (SILKRT_MODULE_LOAD: sm_90: "
                                "CUDA_ERROR_INVALID_PTX: "), "%s", c.err);
}
END_TEST

/* A failed launch: its status unchanged, then exactly one synchronize. */
START_TEST(failed_launch_then_one_synchronize)
{
    Child c;
    const char *const env[] = {"FAKE_CUDA_FAIL=cuLaunchKernel:719", NULL};
    int three = 3;
    child_run(&c, with_fake(env), fill_dispatches, &three);
    const char *line = "719 0 CUDA_ERROR_LAUNCH_FAILED: kernel fill: cuLaunchKernel: unspecified launch failure\n";
    char want[1024];
    snprintf(want, sizeof want, "%s%s%s", line, line, line);
    ck_assert_str_eq(c.out, want);
    LOGGED(&c, "call cuLaunchKernel 3");
    LOGGED(&c, "call cuCtxSynchronize 3");
}
END_TEST

/* Two CTAs, then one. */
static void fault_then_not(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    uint64_t args[2] = {b.address, 7};
    show(silkrt_launch_and_synchronize("fill", 64, 32, 2, args));
    show(silkrt_launch_and_synchronize("fill", 64, 64, 2, args));
}

START_TEST(driver_statuses_unchanged)
{
    Child c;
    const char *const sync[] = {"FAKE_CUDA_FAIL=cuCtxSynchronize:700", NULL};
    child_run(&c, with_fake(sync), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 700 CUDA_ERROR_ILLEGAL_ADDRESS: cuCtxSynchronize: an illegal memory "
                            "access was encountered\n");
    const char *const both[] = {"FAKE_CUDA_FAIL=cuLaunchKernel:701,cuCtxSynchronize:999", NULL};
    child_run(&c, with_fake(both), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "701 999 CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: kernel fill: cuLaunchKernel: "
                            "too many resources requested for launch; then CUDA_ERROR_UNKNOWN: "
                            "cuCtxSynchronize: unknown error\n");
    LOGGED(&c, "call cuCtxSynchronize 1");
    /* A code the driver has no name for passes through too. */
    const char *const odd[] = {"FAKE_CUDA_FAIL=cuLaunchKernel:42", NULL};
    child_run(&c, with_fake(odd), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "42 0 CUresult 42: kernel fill: cuLaunchKernel: the launch failed\n");
    /* A fault of one dispatch's kernel is its synchronize's, and only its. */
    const char *const fault[] = {"FAKE_CUDA_FAULT_GRID=2:700", NULL};
    child_run(&c, with_fake(fault), fault_then_not, NULL);
    ck_assert_str_eq(c.out, "0 700 CUDA_ERROR_ILLEGAL_ADDRESS: cuCtxSynchronize: an illegal memory "
                            "access was encountered\n0 0 CUDA_ERROR_ILLEGAL_ADDRESS: cuCtxSynchronize: "
                            "an illegal memory access was encountered\n");
}
END_TEST

/* The runtime's checks come before the driver: no launch, one synchronize. */
static void bad_geometry(void *arg)
{
    (void)arg;
    uint64_t args[2] = {0, 0};
    show(silkrt_launch_and_synchronize("fill", 100, 64, 2, args));
    show(silkrt_launch_and_synchronize("fixed", 128, 64, 0, args));
    show(silkrt_launch_and_synchronize("nosuch", 64, 64, 0, args));
}

START_TEST(geometry_before_the_driver)
{
    Child c;
    child_run(&c, with_fake(NULL), bad_geometry, NULL);
    ck_assert_str_eq(c.out, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 100 work items is not "
                            "divisible by the workspace of 64\n"
                            "1004 0 SILKRT_WORKSPACE_MISMATCH: kernel fixed runs CTAs of 128 threads, "
                            "and the workspace is 64\n"
                            "1005 0 SILKRT_UNKNOWN_KERNEL: no kernel nosuch in this program\n");
    NOT_LOGGED(&c, "call cuLaunchKernel");
    LOGGED(&c, "call cuCtxSynchronize 3");
}
END_TEST

static void backend_and_dispatch(void *arg)
{
    (void)arg;
    SilkStr name = silkrt_backend();
    printf("%.*s\n", (int)name.len, name.bytes);
    fill_dispatches(NULL);
}

START_TEST(no_device)
{
    Child c;
    const char *const insist[] = {"SILK_BACKEND=cuda", "FAKE_CUDA_DEVICES=0", NULL};
    child_run(&c, with_fake(insist), backend_and_dispatch, NULL);
    const char *why = "SILKRT_NO_DEVICE: SILK_BACKEND=cuda: no CUDA device: the driver has 0 devices, "
                      "and device 0 was asked for";
    char want[1024];
    snprintf(want, sizeof want, "cuda\n1002 1002 %s\n", why);
    ck_assert_str_eq(c.out, want);
    const char *const fallback[] = {"FAKE_CUDA_DEVICES=0", "SILK_HIP_LIBRARY=/nonexistent/libamdhip64.so.6",
                                    "SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(fallback), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "cpu\n0 0 \n");
    ck_assert_msg(strstr(c.err, "silkrt: backend cpu (SILK_BACKEND=auto: no CUDA device: the driver has 0 "
                                "devices, and device 0 was asked for; no HIP runtime: "
                                "/nonexistent/libamdhip64.so.6: cannot open shared object file: No such "
                                "file or directory)\n") == c.err, "%s", c.err);
    const char *const init[] = {"SILK_BACKEND=cuda", "FAKE_CUDA_FAIL=cuInit:100", NULL};
    child_run(&c, with_fake(init), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "cuda\n1002 1002 SILKRT_NO_DEVICE: SILK_BACKEND=cuda: no CUDA device: "
                            "cuInit: CUDA_ERROR_NO_DEVICE (100)\n");
    /* Any other failure of cuInit: the driver's code. */
    const char *const broken[] = {"SILK_BACKEND=cuda", "FAKE_CUDA_FAIL=cuInit:999", NULL};
    child_run(&c, with_fake(broken), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "cuda\n999 999 CUDA_ERROR_UNKNOWN: SILK_BACKEND=cuda: cuInit: unknown error\n");
    /* A library that is no driver: NO_DRIVER. */
    const char *const not_driver[] = {"SILK_BACKEND=cuda", "SILK_CUDA_LIBRARY=libm.so.6", NULL};
    child_run(&c, not_driver, backend_and_dispatch, NULL);
    ck_assert_msg(strncmp(c.out, "cuda\n1001 1001 SILKRT_NO_DRIVER: SILK_BACKEND=cuda: no CUDA driver: ",
                          66) == 0, "%s", c.out);
}
END_TEST

static void persistent(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(64 * 8);
    uint64_t args[1] = {b.address};
    show(silkrt_launch_and_synchronize("persist", 20 * 64, 64, 1, args));
    show(silkrt_launch_and_synchronize("persist", 5 * 64, 64, 1, args));
}

START_TEST(persistent_from_occupancy)
{
    Child c;
    const char *const env[] = {"FAKE_CUDA_SMS=4", "FAKE_CUDA_OCCUPANCY=3", "SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(env), persistent, NULL);
    ck_assert_str_eq(c.out, "0 0 \n0 0 \n");
    LOGGED(&c, "occupancy threads=64 shared=0");
    LOGGED(&c, "call cuOccupancyMaxActiveBlocksPerMultiprocessor 1"); /* asked once */
    LOGGED(&c, "launch persist grid=12,1,1 block=64,1,1 shared=0 params=@1,0x14");
    LOGGED(&c, "launch persist grid=5,1,1 block=64,1,1 shared=0 params=@1,0x5");
    ck_assert_msg(strstr(c.err, "silkrt: dispatch persist: grid=1280 workspace=64 ctas=12 logical=20: "
                                "launch_status=0 synchronize_status=0\n"), "%s", c.err);
}
END_TEST

static void buffers(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(16);
    float f = 1.5f, g = 0;
    silkrt_buffer_upload(b, 3, &f, 4, "f32", NULL);
    silkrt_buffer_download(b, 3, &g, 4, "f32", NULL);
    printf("%g\n", (double)g);
    silkrt_buffer_release(b, NULL);
}

static void alloc_fails(void *arg)
{
    (void)arg;
    SilkBuffer b = silkrt_buffer_alloc(64);
    SilkStr e = silkrt_last_error();
    printf("%" PRIu64 " %" PRIu64 " %.*s\n", b.address, b.bytes, (int)e.len, e.bytes);
}

START_TEST(device_buffers)
{
    Child c;
    child_run(&c, with_fake(NULL), buffers, NULL);
    ck_assert_str_eq(c.out, "1.5\n");
    LOGGED(&c, "allocs 1");
    LOGGED(&c, "frees 1");
    LOGGED(&c, "live 0");
    const char *const oom[] = {"FAKE_CUDA_FAIL=cuMemAlloc_v2:2", NULL};
    child_run(&c, with_fake(oom), alloc_fails, NULL);
    ck_assert_str_eq(c.out, "0 0 CUDA_ERROR_OUT_OF_MEMORY: Buffer.alloc: cuMemAlloc_v2: out of memory: "
                            "64 bytes\n");
}
END_TEST

/* A task's thread makes the context current before its first call. */
static void task_dispatch(void *closure)
{
    (void)closure;
    fill_dispatches(NULL);
}

static void from_a_task(void *arg)
{
    (void)arg;
    silkrt_backend(); /* the device opened here, on the main thread */
    silkrt_spawn(SILKRT_TASK, task_dispatch, NULL);
    silkrt_wait_tasks();
}

START_TEST(context_on_task_threads)
{
    Child c;
    child_run(&c, with_fake(NULL), from_a_task, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "call cuCtxSetCurrent 2");
}
END_TEST

static Suite *cuda_suite(void)
{
    Suite *s = suite_create("runtime_cuda");
    TCase *t = tcase_create("fake_driver");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, auto_takes_cuda);
    tcase_add_test(t, ptx_for_the_device);
    tcase_add_test(t, jit_failure);
    tcase_add_test(t, failed_launch_then_one_synchronize);
    tcase_add_test(t, driver_statuses_unchanged);
    tcase_add_test(t, geometry_before_the_driver);
    tcase_add_test(t, no_device);
    tcase_add_test(t, persistent_from_occupancy);
    tcase_add_test(t, device_buffers);
    tcase_add_test(t, context_on_task_threads);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    FILE *f = fopen(fixture_fake_cuda(), "rb");
    if (!f) {
        printf("SKIP: no %s (make check builds it)\n", fixture_fake_cuda());
        return 77;
    }
    fclose(f);
    SRunner *r = srunner_create(cuda_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
