/*
 * check_runtime_hip.c: libsilkrt's HIP backend through the test double
 * of libamdhip64 (tests/runtime/fake_hip.so, loaded with
 * SILK_HIP_LIBRARY; its log says what was called): the backend order
 * (CUDA, then HIP, then the CPU), the code object chosen for the device's
 * gfx name (and every one tried when the name cannot be read), a failed
 * launch followed by exactly one synchronize, HIP's statuses in
 * DispatchResult unchanged and named by last_error, the runtime's
 * geometry statuses before HIP is reached, no device or no library (the
 * NO_DEVICE and NO_DRIVER statuses with SILK_BACKEND=hip, the CPU backend
 * with auto), @persistent sizing from HIP's occupancy, buffers, and the
 * device set on task threads.
 */
#define _GNU_SOURCE
#include "runtime_fixture.h"

#include <check.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(SilkDispatchResult r)
{
    SilkStr e = silkrt_last_error();
    printf("%d %d %.*s\n", (int)r.launch_status, (int)r.synchronize_status, (int)e.len, e.bytes);
}

static const char NO_CUDA[] = "SILK_CUDA_LIBRARY=/nonexistent/libcuda.so.1";

/* The child's environment: no CUDA driver, the fake HIP, then `extra`
 * (NULL-ended). */
static const char *const *with_fake(const char *const *extra)
{
    static char library[1024];
    static const char *env[16];
    snprintf(library, sizeof library, "SILK_HIP_LIBRARY=%s", fixture_fake_hip());
    int n = 0;
    env[n++] = NO_CUDA;
    env[n++] = library;
    for (; extra && *extra && n < 15; extra++)
        env[n++] = *extra;
    env[n] = NULL;
    return env;
}

#define LOGGED(c, line)                                                                      \
    ck_assert_msg(strstr((c)->hip_log, line "\n") != NULL, "the log lacks '%s':\n%s", line,  \
                  (c)->hip_log)
#define NOT_LOGGED(c, line)                                                                  \
    ck_assert_msg(strstr((c)->hip_log, line) == NULL, "the log has '%s':\n%s", line, (c)->hip_log)

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

static void backend_and_dispatch(void *arg)
{
    (void)arg;
    SilkStr name = silkrt_backend();
    printf("%.*s\n", (int)name.len, name.bytes);
    fill_dispatches(NULL);
}

START_TEST(auto_takes_hip)
{
    Child c;
    const char *const verbose[] = {"SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(verbose), backend_and_dispatch, NULL);
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(c.out, "hip\n0 0 \n");
    char want[2048];
    snprintf(want, sizeof want,
             "silkrt: device 0: Fake HIP device (gfx942:sramecc+:xnack-, 304 CUs)\n"
             "silkrt: backend hip (SILK_BACKEND=auto: %s has device 0)\n"
             "silkrt: module gfx942 loaded (%zu bytes)\n"
             "silkrt: dispatch fill: grid=64 workspace=32 ctas=2: launch_status=0 "
             "synchronize_status=0\n",
             fixture_fake_hip(), (size_t)fixture_program.code_objects[1].size);
    ck_assert_str_eq(c.err, want);
    LOGGED(&c, "target gfx942");
    LOGGED(&c, "call hipModuleLoadData 1");
    LOGGED(&c, "call hipModuleLaunchKernel 1");
    LOGGED(&c, "call hipDeviceSynchronize 1");
    LOGGED(&c, "set_device 0");
    LOGGED(&c, "launch fill grid=2,1,1 block=32,1,1 shared=0 params=@1,0x7");
    LOGGED(&c, "allocs 1");
    LOGGED(&c, "live 0");
}
END_TEST

/* CUDA comes first when both have a device; HIP when CUDA has none. */
START_TEST(cuda_then_hip)
{
    Child c;
    char cuda[1024], hip[1024];
    snprintf(cuda, sizeof cuda, "SILK_CUDA_LIBRARY=%s", fixture_fake_cuda());
    snprintf(hip, sizeof hip, "SILK_HIP_LIBRARY=%s", fixture_fake_hip());
    const char *const both[] = {cuda, hip, NULL};
    child_run(&c, both, backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "cuda\n0 0 \n");
    ck_assert_str_eq(c.hip_log, ""); /* HIP never loaded */
    const char *const no_cuda_device[] = {cuda, hip, "FAKE_CUDA_DEVICES=0", NULL};
    child_run(&c, no_cuda_device, backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n0 0 \n");
    LOGGED(&c, "call hipModuleLaunchKernel 1");
    /* SILK_BACKEND=hip passes CUDA by. */
    const char *const insist[] = {cuda, hip, "SILK_BACKEND=hip", NULL};
    child_run(&c, insist, backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n0 0 \n");
    ck_assert_msg(strstr(c.log, "call cuInit") == NULL, "%s", c.log);
}
END_TEST

/* The code object of the device's target; none: MODULE_LOAD, and HIP
 * never sees a launch (but the one synchronize). */
START_TEST(code_object_for_the_device)
{
    Child c;
    const char *const mi250[] = {"FAKE_HIP_ARCH=gfx90a:sramecc+:xnack-", NULL};
    child_run(&c, with_fake(mi250), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "target gfx90a");
    LOGGED(&c, "call hipModuleLoadData 1");
    const char *const rdna3[] = {"FAKE_HIP_ARCH=gfx1100", NULL};
    int twice = 2;
    child_run(&c, with_fake(rdna3), fill_dispatches, &twice);
    ck_assert_str_eq(c.out, "1010 0 SILKRT_MODULE_LOAD: the program holds no code object for gfx1100 "
                            "(2 AMD targets: gfx90a, gfx942)\n"
                            "1010 0 SILKRT_MODULE_LOAD: the program holds no code object for gfx1100 "
                            "(2 AMD targets: gfx90a, gfx942)\n");
    NOT_LOGGED(&c, "call hipModuleLoadData");
    NOT_LOGGED(&c, "call hipModuleLaunchKernel");
    LOGGED(&c, "call hipDeviceSynchronize 2");
}
END_TEST

/* A program built for NVIDIA targets only. */
static void without_code_objects(void *arg)
{
    static SilkrtProgram p;
    p = fixture_program;
    p.n_code_objects = 0;
    p.code_objects = NULL;
    silkrt_register(&p);
    fill_dispatches(arg);
}

START_TEST(program_without_code_objects)
{
    Child c;
    fixture_unregistered = 1;
    child_run(&c, with_fake(NULL), without_code_objects, NULL);
    ck_assert_str_eq(c.out, "1010 0 SILKRT_MODULE_LOAD: the program holds no code object for gfx942 "
                            "(0 AMD targets)\n");
    const char *const layout[] = {"FAKE_HIP_BAD_LAYOUT=1", NULL};
    fixture_unregistered = 1;
    child_run(&c, with_fake(layout), without_code_objects, NULL);
    ck_assert_str_eq(c.out, "1010 0 SILKRT_MODULE_LOAD: the program holds no code object for an AMD GPU "
                            "(0 AMD targets)\n");
    NOT_LOGGED(&c, "call hipModuleLoadData");
}
END_TEST

/* The gfx name unreadable: every code object tried, in the program's order. */
START_TEST(gfx_name_unknown)
{
    Child c;
    const char *const layout[] = {"FAKE_HIP_BAD_LAYOUT=1", "SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(layout), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    ck_assert_msg(strstr(c.err, "silkrt: device 0: Fake HIP device (target unknown, 304 CUs)\n") == c.err,
                  "%s", c.err);
    ck_assert_msg(strstr(c.err, "silkrt: module gfx90a did not load (SILKRT_MODULE_LOAD: gfx90a: "
                                "hipErrorNoBinaryForGpu: no kernel image is available for execution "
                                "on the device)\nsilkrt: module gfx942 loaded ("), "%s", c.err);
    LOGGED(&c, "call hipModuleLoadData 2");
    LOGGED(&c, "target gfx942");
    /* HIP 5's library has no hipGetDevicePropertiesR0600: the same. */
    const char *const failing[] = {"FAKE_HIP_FAIL=hipGetDevicePropertiesR0600:1", NULL};
    child_run(&c, with_fake(failing), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "call hipModuleLoadData 2");
    /* None loading: the last one's reason, for every launch. */
    const char *const none[] = {"FAKE_HIP_BAD_LAYOUT=1", "FAKE_HIP_ARCH=gfx1201", NULL};
    int twice = 2;
    child_run(&c, with_fake(none), fill_dispatches, &twice);
    const char *line = "1010 0 SILKRT_MODULE_LOAD: gfx942: hipErrorNoBinaryForGpu: no kernel image is "
                       "available for execution on the device\n";
    char want[1024];
    snprintf(want, sizeof want, "%s%s", line, line);
    ck_assert_str_eq(c.out, want);
    LOGGED(&c, "call hipModuleLoadData 2");
}
END_TEST

START_TEST(module_refused)
{
    Child c;
    const char *const env[] = {"FAKE_HIP_FAIL=hipModuleLoadData:200", NULL};
    int twice = 2;
    child_run(&c, with_fake(env), fill_dispatches, &twice);
    const char *line = "1010 0 SILKRT_MODULE_LOAD: gfx942: hipErrorInvalidImage: device kernel image is "
                       "invalid\n";
    char want[1024];
    snprintf(want, sizeof want, "%s%s", line, line);
    ck_assert_str_eq(c.out, want);
    LOGGED(&c, "call hipModuleLoadData 1"); /* tried once */
    NOT_LOGGED(&c, "call hipModuleLaunchKernel");
}
END_TEST

/* A failed launch: its status unchanged, then exactly one synchronize. */
START_TEST(failed_launch_then_one_synchronize)
{
    Child c;
    const char *const env[] = {"FAKE_HIP_FAIL=hipModuleLaunchKernel:719", NULL};
    int three = 3;
    child_run(&c, with_fake(env), fill_dispatches, &three);
    const char *line = "719 0 hipErrorLaunchFailure: kernel fill: hipModuleLaunchKernel: unspecified "
                       "launch failure\n";
    char want[1024];
    snprintf(want, sizeof want, "%s%s%s", line, line, line);
    ck_assert_str_eq(c.out, want);
    LOGGED(&c, "call hipModuleLaunchKernel 3");
    LOGGED(&c, "call hipDeviceSynchronize 3");
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

START_TEST(hip_statuses_unchanged)
{
    Child c;
    const char *const sync[] = {"FAKE_HIP_FAIL=hipDeviceSynchronize:700", NULL};
    child_run(&c, with_fake(sync), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 700 hipErrorIllegalAddress: hipDeviceSynchronize: an illegal memory "
                            "access was encountered\n");
    const char *const both[] = {"FAKE_HIP_FAIL=hipModuleLaunchKernel:701,hipDeviceSynchronize:999", NULL};
    child_run(&c, with_fake(both), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "701 999 hipErrorLaunchOutOfResources: kernel fill: hipModuleLaunchKernel: "
                            "too many resources requested for launch; then hipErrorUnknown: "
                            "hipDeviceSynchronize: unknown error\n");
    LOGGED(&c, "call hipDeviceSynchronize 1");
    /* A code HIP has no name for (it says hipErrorUnknown) passes through as its number. */
    const char *const odd[] = {"FAKE_HIP_FAIL=hipModuleLaunchKernel:42", NULL};
    child_run(&c, with_fake(odd), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "42 0 hipError_t 42: kernel fill: hipModuleLaunchKernel: the launch failed\n");
    /* A fault of one dispatch's kernel is its synchronize's, and only its. */
    const char *const fault[] = {"FAKE_HIP_FAULT_GRID=2:700", NULL};
    child_run(&c, with_fake(fault), fault_then_not, NULL);
    ck_assert_str_eq(c.out, "0 700 hipErrorIllegalAddress: hipDeviceSynchronize: an illegal memory "
                            "access was encountered\n0 0 hipErrorIllegalAddress: hipDeviceSynchronize: "
                            "an illegal memory access was encountered\n");
    LOGGED(&c, "launch fill grid=2,1,1 block=32,1,1 shared=0 params=@1,0x7");
    LOGGED(&c, "launch fill grid=1,1,1 block=64,1,1 shared=0 params=@1,0x7");
}
END_TEST

/* The runtime's checks come before HIP: no launch, one synchronize. */
static void bad_geometry(void *arg)
{
    (void)arg;
    uint64_t args[2] = {0, 0};
    show(silkrt_launch_and_synchronize("fill", 100, 64, 2, args));
    show(silkrt_launch_and_synchronize("fixed", 128, 64, 0, args));
    show(silkrt_launch_and_synchronize("nosuch", 64, 64, 0, args));
}

START_TEST(geometry_before_hip)
{
    Child c;
    child_run(&c, with_fake(NULL), bad_geometry, NULL);
    ck_assert_str_eq(c.out, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 100 work items is not "
                            "divisible by the workspace of 64\n"
                            "1004 0 SILKRT_WORKSPACE_MISMATCH: kernel fixed runs CTAs of 128 threads, "
                            "and the workspace is 64\n"
                            "1005 0 SILKRT_UNKNOWN_KERNEL: no kernel nosuch in this program\n");
    NOT_LOGGED(&c, "call hipModuleLaunchKernel");
    LOGGED(&c, "call hipDeviceSynchronize 3");
}
END_TEST

START_TEST(no_device)
{
    Child c;
    const char *const insist[] = {"SILK_BACKEND=hip", "FAKE_HIP_DEVICES=0", NULL};
    child_run(&c, with_fake(insist), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n1002 1002 SILKRT_NO_DEVICE: SILK_BACKEND=hip: no HIP device: "
                            "hipGetDeviceCount: hipErrorNoDevice (100)\n");
    NOT_LOGGED(&c, "call hipDeviceSynchronize");
    const char *const fallback[] = {"FAKE_HIP_DEVICES=0", "SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(fallback), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "cpu\n0 0 \n");
    ck_assert_msg(strstr(c.err, "silkrt: backend cpu (SILK_BACKEND=auto: no CUDA driver: "
                                "/nonexistent/libcuda.so.1: cannot open shared object file: No such "
                                "file or directory; no HIP device: hipGetDeviceCount: hipErrorNoDevice "
                                "(100))\n") == c.err, "%s", c.err);
    const char *const init[] = {"SILK_BACKEND=hip", "FAKE_HIP_FAIL=hipInit:100", NULL};
    child_run(&c, with_fake(init), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n1002 1002 SILKRT_NO_DEVICE: SILK_BACKEND=hip: no HIP device: hipInit: "
                            "hipErrorNoDevice (100)\n");
    /* Any other failure of hipInit: HIP's code. */
    const char *const broken[] = {"SILK_BACKEND=hip", "FAKE_HIP_FAIL=hipInit:999", NULL};
    child_run(&c, with_fake(broken), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n999 999 hipErrorUnknown: SILK_BACKEND=hip: hipInit: unknown error\n");
    const char *const set[] = {"SILK_BACKEND=hip", "FAKE_HIP_FAIL=hipSetDevice:101", NULL};
    child_run(&c, with_fake(set), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n101 101 hipErrorInvalidDevice: SILK_BACKEND=hip: hipSetDevice: invalid "
                            "device ordinal\n");
}
END_TEST

START_TEST(no_library)
{
    Child c;
    const char *const missing[] = {"SILK_BACKEND=hip", "SILK_HIP_LIBRARY=/nonexistent/libamdhip64.so.6",
                                   NULL};
    child_run(&c, missing, backend_and_dispatch, NULL);
    const char *why = "SILKRT_NO_DRIVER: SILK_BACKEND=hip: no HIP runtime: /nonexistent/libamdhip64.so.6: "
                      "cannot open shared object file: No such file or directory";
    char want[1024];
    snprintf(want, sizeof want, "hip\n1001 1001 %s\n", why);
    ck_assert_str_eq(c.out, want);
    /* A library that is not HIP: NO_DRIVER, naming the first entry point missing. */
    const char *const not_hip[] = {"SILK_BACKEND=hip", "SILK_HIP_LIBRARY=libm.so.6", NULL};
    child_run(&c, not_hip, backend_and_dispatch, NULL);
    ck_assert_msg(strncmp(c.out, "hip\n1001 1001 SILKRT_NO_DRIVER: SILK_BACKEND=hip: no HIP runtime: ",
                          65) == 0 && strstr(c.out, "libm.so.6: undefined symbol: hipInit\n"),
                  "%s", c.out);
    /* This machine's own libamdhip64, when it has none. */
    const char *const names[] = {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"};
    for (size_t i = 0; i < 3; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            printf("note: this machine has %s: the no-library case of the default names not run\n",
                   names[i]);
            dlclose(h);
            return;
        }
    }
    const char *const real[] = {"SILK_BACKEND=hip", NULL};
    child_run(&c, real, backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "hip\n1001 1001 SILKRT_NO_DRIVER: SILK_BACKEND=hip: no HIP runtime: "
                            "libamdhip64.so.6: cannot open shared object file: No such file or "
                            "directory (nor libamdhip64.so.5, libamdhip64.so)\n");
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
    const char *const env[] = {"FAKE_HIP_CUS=4", "FAKE_HIP_OCCUPANCY=3", "SILK_VERBOSE=1", NULL};
    child_run(&c, with_fake(env), persistent, NULL);
    ck_assert_str_eq(c.out, "0 0 \n0 0 \n");
    LOGGED(&c, "occupancy threads=64 shared=0");
    LOGGED(&c, "call hipModuleOccupancyMaxActiveBlocksPerMultiprocessor 1"); /* asked once */
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
    LOGGED(&c, "call hipMemcpyHtoD 1");
    LOGGED(&c, "call hipMemcpyDtoH 1");
    LOGGED(&c, "allocs 1");
    LOGGED(&c, "frees 1");
    LOGGED(&c, "live 0");
    const char *const oom[] = {"FAKE_HIP_FAIL=hipMalloc:2", NULL};
    child_run(&c, with_fake(oom), alloc_fails, NULL);
    ck_assert_str_eq(c.out, "0 0 hipErrorOutOfMemory: Buffer.alloc: hipMalloc: out of memory: 64 bytes\n");
}
END_TEST

/* A task's thread makes the device its own before its first call. */
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

START_TEST(device_on_task_threads)
{
    Child c;
    child_run(&c, with_fake(NULL), from_a_task, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "call hipSetDevice 2");
}
END_TEST

static Suite *hip_suite(void)
{
    Suite *s = suite_create("runtime_hip");
    TCase *t = tcase_create("fake_hip");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, auto_takes_hip);
    tcase_add_test(t, cuda_then_hip);
    tcase_add_test(t, code_object_for_the_device);
    tcase_add_test(t, program_without_code_objects);
    tcase_add_test(t, gfx_name_unknown);
    tcase_add_test(t, module_refused);
    tcase_add_test(t, failed_launch_then_one_synchronize);
    tcase_add_test(t, hip_statuses_unchanged);
    tcase_add_test(t, geometry_before_hip);
    tcase_add_test(t, no_device);
    tcase_add_test(t, no_library);
    tcase_add_test(t, persistent_from_occupancy);
    tcase_add_test(t, device_buffers);
    tcase_add_test(t, device_on_task_threads);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    const char *const needed[] = {fixture_fake_hip(), fixture_fake_cuda()};
    for (size_t i = 0; i < 2; i++) {
        FILE *f = fopen(needed[i], "rb");
        if (!f) {
            printf("SKIP: no %s (make check builds it)\n", needed[i]);
            return 77;
        }
        fclose(f);
    }
    SRunner *r = srunner_create(hip_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
