/*
 * check_runtime_gpu.c: libsilkrt's GPU backend through the test doubles
 * of the CUDA Driver API (tests/runtime/fake_cuda.so) and of libamdhip64
 * (fake_hip.so), loaded with SILK_CUDA_LIBRARY and SILK_HIP_LIBRARY;
 * their logs say what was called.  The runtime has one GPU backend over
 * two driver tables, so every test of it runs over both drivers
 * (fixture_gpus, a loop test each): the image chosen for the device, a
 * failed launch followed by exactly one synchronize, the driver's
 * statuses in DispatchResult unchanged and named by last_error, the
 * runtime's geometry statuses before the driver is reached, no device or
 * no library (NO_DEVICE and NO_DRIVER with SILK_BACKEND naming it, the
 * CPU backend with auto), @persistent sizing from the driver's occupancy,
 * buffers, and the device on task threads.  Then the order auto tries
 * them in (CUDA, HIP, the CPU), and what HIP alone has: a gfx name that
 * cannot be read.
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

/* The GPU of loop test _i, and a child's environment for it. */
#define GPU (&fixture_gpus[_i])
#define ENV(...) fixture_gpu_env(GPU, (const char *const[]){__VA_ARGS__, NULL})

/* The double's log has this line. */
#define LOGGED(c, ...)                                                                       \
    do {                                                                                     \
        char line_[512];                                                                     \
        int n_ = snprintf(line_, sizeof line_ - 1, __VA_ARGS__);                             \
        snprintf(line_ + n_, sizeof line_ - (size_t)n_, "\n");                               \
        ck_assert_msg(strstr(fixture_log(GPU, (c)), line_), "the log lacks '%s':\n%s", line_, \
                      fixture_log(GPU, (c)));                                                \
    } while (0)
#define NOT_LOGGED(c, ...)                                                                   \
    do {                                                                                     \
        char line_[512];                                                                     \
        snprintf(line_, sizeof line_, __VA_ARGS__);                                          \
        ck_assert_msg(!strstr(fixture_log(GPU, (c)), line_), "the log has '%s':\n%s", line_,  \
                      fixture_log(GPU, (c)));                                                \
    } while (0)

/* `got` is `times` copies of `line` and a newline. */
static void assert_lines(const char *got, int times, const char *line)
{
    char want[4096];
    size_t n = 0;
    for (int i = 0; i < times && n < sizeof want; i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%s\n", line);
    ck_assert_str_eq(got, want);
}

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

/* ---- over both drivers ----------------------------------------------------------------- */

START_TEST(auto_takes_it)
{
    Child c;
    child_run(&c, ENV("SILK_VERBOSE=1"), backend_and_dispatch, NULL);
    ck_assert_int_eq(c.status, 0);
    char want[2048];
    snprintf(want, sizeof want, "%s\n0 0 \n", GPU->backend);
    ck_assert_str_eq(c.out, want);
    snprintf(want, sizeof want, "silkrt: device 0: %s\nsilkrt: backend %s (SILK_BACKEND=auto: %s has "
             "device 0)\nsilkrt: module %s loaded (", GPU->device_line, GPU->backend, GPU->fake(),
             GPU->target);
    ck_assert_msg(strncmp(c.err, want, strlen(want)) == 0, "%s", c.err);
    ck_assert_msg(strstr(c.err, "\nsilkrt: dispatch fill: grid=64 workspace=32 ctas=2: launch_status=0 "
                                "synchronize_status=0\n"), "%s", c.err);
    LOGGED(&c, "%s", GPU->opened);
    LOGGED(&c, "target %s", GPU->target);
    LOGGED(&c, "call %s 1", GPU->load);
    LOGGED(&c, "call %s 1", GPU->launch);
    LOGGED(&c, "call %s 1", GPU->synchronize);
    LOGGED(&c, "launch fill grid=2,1,1 block=32,1,1 shared=0 params=@1,0x7");
    LOGGED(&c, "allocs 1");
    LOGGED(&c, "live 0");
}
END_TEST

/* The image the device runs; none: MODULE_LOAD, and the driver never
 * sees a load or a launch (but the one synchronize). */
START_TEST(image_for_the_device)
{
    Child c;
    child_run(&c, ENV(GPU->older), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "target %s", GPU->older_target);
    NOT_LOGGED(&c, "target %s", GPU->target);
    LOGGED(&c, "call %s 1", GPU->load);
    int twice = 2;
    child_run(&c, ENV(GPU->other), fill_dispatches, &twice);
    char line[1024];
    snprintf(line, sizeof line, "1010 0 %s", GPU->none);
    assert_lines(c.out, 2, line);
    NOT_LOGGED(&c, "call %s", GPU->load);
    NOT_LOGGED(&c, "call %s", GPU->launch);
    LOGGED(&c, "call %s 2", GPU->synchronize);
}
END_TEST

/* A program built for the other vendor's targets only. */
static void without_images(void *arg)
{
    static SilkrtProgram p;
    const FixtureGpu *g = arg;
    p = fixture_program;
    if (strcmp(g->backend, "cuda") == 0)
        p.n_ptx = 0;
    else
        p.n_code_objects = 0;
    silkrt_register(&p);
    fill_dispatches(NULL);
}

START_TEST(program_without_images)
{
    Child c;
    fixture_unregistered = 1;
    child_run(&c, ENV(NULL), without_images, (void *)GPU);
    char line[1024];
    snprintf(line, sizeof line, "1010 0 %s", GPU->without);
    assert_lines(c.out, 1, line);
    NOT_LOGGED(&c, "call %s", GPU->load);
}
END_TEST

/* Every image refused: each the device runs tried once, the first
 * ranked first; the last one's reason for every launch. */
START_TEST(images_refused)
{
    Child c;
    const char *const *refuse = GPU->refuse;
    int twice = 2;
    child_run(&c, ENV("SILK_VERBOSE=1", refuse[0], refuse[1]), fill_dispatches, &twice);
    char line[1024];
    snprintf(line, sizeof line, "1010 0 %s", GPU->refused);
    assert_lines(c.out, 2, line);
    LOGGED(&c, "call %s %d", GPU->load, GPU->refused_loads);
    NOT_LOGGED(&c, "call %s", GPU->launch);
    snprintf(line, sizeof line, "silkrt: module %s did not load (SILKRT_MODULE_LOAD: %s: ", GPU->target,
             GPU->target);
    ck_assert_msg(strstr(c.err, line), "%s", c.err);
}
END_TEST

/* A failed launch: its status unchanged, then exactly one synchronize. */
START_TEST(failed_launch_then_one_synchronize)
{
    Child c;
    int three = 3;
    child_run(&c, ENV(fixture_knob(GPU, "FAIL=%s:719", GPU->launch)), fill_dispatches, &three);
    char line[1024];
    snprintf(line, sizeof line, "719 0 %s: kernel fill: %s: unspecified launch failure",
             GPU->launch_failed, GPU->launch);
    assert_lines(c.out, 3, line);
    LOGGED(&c, "call %s 3", GPU->launch);
    LOGGED(&c, "call %s 3", GPU->synchronize);
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
    char want[1024], fault[256];
    snprintf(fault, sizeof fault, "%s: %s: an illegal memory access was encountered", GPU->illegal_address,
             GPU->synchronize);
    child_run(&c, ENV(fixture_knob(GPU, "FAIL=%s:700", GPU->synchronize)), fill_dispatches, NULL);
    snprintf(want, sizeof want, "0 700 %s", fault);
    assert_lines(c.out, 1, want);
    child_run(&c, ENV(fixture_knob(GPU, "FAIL=%s:701,%s:999", GPU->launch, GPU->synchronize)),
              fill_dispatches, NULL);
    snprintf(want, sizeof want, "701 999 %s: kernel fill: %s: too many resources requested for launch; "
             "then %s: %s: unknown error", GPU->out_of_resources, GPU->launch, GPU->unknown,
             GPU->synchronize);
    assert_lines(c.out, 1, want);
    LOGGED(&c, "call %s 1", GPU->synchronize);
    /* A code the driver has no name for passes through too. */
    child_run(&c, ENV(fixture_knob(GPU, "FAIL=%s:42", GPU->launch)), fill_dispatches, NULL);
    snprintf(want, sizeof want, "42 0 %s: kernel fill: %s: the launch failed", GPU->unnamed, GPU->launch);
    assert_lines(c.out, 1, want);
    /* A fault of one dispatch's kernel is its synchronize's, and only its
     * (last_error stays the last failure's). */
    child_run(&c, ENV(fixture_knob(GPU, "FAULT_GRID=2:700")), fault_then_not, NULL);
    snprintf(want, sizeof want, "0 700 %s\n0 0 %s\n", fault, fault);
    ck_assert_str_eq(c.out, want);
    LOGGED(&c, "launch fill grid=2,1,1 block=32,1,1 shared=0 params=@1,0x7");
    LOGGED(&c, "launch fill grid=1,1,1 block=64,1,1 shared=0 params=@1,0x7");
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
    child_run(&c, ENV(NULL), bad_geometry, NULL);
    ck_assert_str_eq(c.out, "1003 0 SILKRT_BAD_GEOMETRY: kernel fill: a grid of 100 work items is not "
                            "divisible by the workspace of 64\n"
                            "1004 0 SILKRT_WORKSPACE_MISMATCH: kernel fixed runs CTAs of 128 threads, "
                            "and the workspace is 64\n"
                            "1005 0 SILKRT_UNKNOWN_KERNEL: no kernel nosuch in this program\n");
    NOT_LOGGED(&c, "call %s", GPU->launch);
    LOGGED(&c, "call %s 3", GPU->synchronize);
}
END_TEST

/* `c` printed the backend, then one dispatch failing with `status` both
 * times and last_error `error`. */
static void assert_unusable(const Child *c, const char *backend, int status, const char *error)
{
    char want[2048];
    snprintf(want, sizeof want, "%s\n%d %d %s\n", backend, status, status, error);
    ck_assert_str_eq(c->out, want);
}

START_TEST(no_device)
{
    Child c;
    char insist[64], why[1024];
    snprintf(insist, sizeof insist, "SILK_BACKEND=%s", GPU->backend);
    child_run(&c, ENV(insist, fixture_knob(GPU, "DEVICES=0")), backend_and_dispatch, NULL);
    snprintf(why, sizeof why, "SILKRT_NO_DEVICE: %s: %s", insist, GPU->zero_devices);
    assert_unusable(&c, GPU->backend, 1002, why);
    NOT_LOGGED(&c, "call %s", GPU->synchronize);
    child_run(&c, ENV(insist, fixture_knob(GPU, "FAIL=%s:100", GPU->init)), backend_and_dispatch, NULL);
    snprintf(why, sizeof why, "SILKRT_NO_DEVICE: %s: %s: %s: %s (100)", insist, GPU->no_device_words,
             GPU->init, GPU->no_device);
    assert_unusable(&c, GPU->backend, 1002, why);
    /* Any other failure as the device opens: the driver's code. */
    child_run(&c, ENV(insist, fixture_knob(GPU, "FAIL=%s:999", GPU->init)), backend_and_dispatch, NULL);
    snprintf(why, sizeof why, "%s: %s: %s: unknown error", GPU->unknown, insist, GPU->init);
    assert_unusable(&c, GPU->backend, 999, why);
    child_run(&c, ENV(insist, fixture_knob(GPU, "FAIL=%s:101", GPU->use)), backend_and_dispatch, NULL);
    assert_unusable(&c, GPU->backend, 101, GPU->use_failed);
}
END_TEST

/* SILK_BACKEND=auto with no device for it and no library for the other
 * GPU: the CPU backend, with each GPU's reason in the order tried. */
START_TEST(no_device_then_the_cpu)
{
    Child c;
    char missing[FIXTURE_GPUS][512], reasons[2048] = "";
    const char *env[FIXTURE_GPUS + 3];
    int n = 0;
    size_t used = 0;
    for (int j = 0; j < FIXTURE_GPUS; j++) {
        const FixtureGpu *g = &fixture_gpus[j];
        if (g != GPU) {
            snprintf(missing[j], sizeof missing[j], "%s=%s", g->library, g->missing);
            env[n++] = missing[j];
        }
        used += (size_t)snprintf(reasons + used, sizeof reasons - used, "%s", j ? "; " : "");
        if (g == GPU)
            used += (size_t)snprintf(reasons + used, sizeof reasons - used, "%s", g->zero_devices);
        else
            used += (size_t)snprintf(reasons + used, sizeof reasons - used, "%s: %s: cannot open shared "
                                     "object file: No such file or directory", g->no_driver_words,
                                     g->missing);
    }
    env[n++] = fixture_knob(GPU, "DEVICES=0");
    env[n++] = "SILK_VERBOSE=1";
    env[n] = NULL;
    child_run(&c, fixture_gpu_env(GPU, env), backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, "cpu\n0 0 \n");
    char want[2400];
    snprintf(want, sizeof want, "silkrt: backend cpu (SILK_BACKEND=auto: %s)\n", reasons);
    ck_assert_msg(strstr(c.err, want) == c.err, "want:\n%s\ngot:\n%s", want, c.err);
}
END_TEST

START_TEST(no_library)
{
    Child c;
    char backend[64], library[1024], why[1024];
    snprintf(backend, sizeof backend, "SILK_BACKEND=%s", GPU->backend);
    snprintf(library, sizeof library, "%s=%s", GPU->library, GPU->missing);
    const char *const missing[] = {backend, library, NULL};
    child_run(&c, missing, backend_and_dispatch, NULL);
    snprintf(why, sizeof why, "SILKRT_NO_DRIVER: %s: %s: %s: cannot open shared object file: No such "
             "file or directory", backend, GPU->no_driver_words, GPU->missing);
    assert_unusable(&c, GPU->backend, 1001, why);
    /* A library that is no driver: NO_DRIVER, naming the first entry point missing. */
    snprintf(library, sizeof library, "%s=libm.so.6", GPU->library);
    child_run(&c, missing, backend_and_dispatch, NULL);
    snprintf(why, sizeof why, "%s\n1001 1001 SILKRT_NO_DRIVER: %s: %s: ", GPU->backend, backend,
             GPU->no_driver_words);
    ck_assert_msg(strncmp(c.out, why, strlen(why)) == 0, "%s", c.out);
    snprintf(why, sizeof why, "libm.so.6: undefined symbol: %s\n", GPU->init);
    ck_assert_msg(strstr(c.out, why), "%s", c.out);
    /* This machine's own library, when it has none. */
    for (const char *const *name = GPU->defaults; *name; name++) {
        void *h = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (h) {
            printf("note: this machine has %s: the no-library case of the default names not run\n", *name);
            dlclose(h);
            return;
        }
    }
    const char *const real[] = {backend, NULL};
    child_run(&c, real, backend_and_dispatch, NULL);
    snprintf(why, sizeof why, "SILKRT_NO_DRIVER: %s: %s: %s", backend, GPU->no_driver_words,
             GPU->defaults_missing);
    assert_unusable(&c, GPU->backend, 1001, why);
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
    child_run(&c, ENV(fixture_knob(GPU, "%s=4", GPU->units), fixture_knob(GPU, "OCCUPANCY=3"),
                      "SILK_VERBOSE=1"), persistent, NULL);
    ck_assert_str_eq(c.out, "0 0 \n0 0 \n");
    LOGGED(&c, "occupancy threads=64 shared=0");
    LOGGED(&c, "call %s 1", GPU->occupancy); /* asked once */
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
    child_run(&c, ENV(NULL), buffers, NULL);
    ck_assert_str_eq(c.out, "1.5\n");
    LOGGED(&c, "call %s 1", GPU->upload);
    LOGGED(&c, "call %s 1", GPU->download);
    LOGGED(&c, "allocs 1");
    LOGGED(&c, "frees 1");
    LOGGED(&c, "live 0");
    child_run(&c, ENV(fixture_knob(GPU, "FAIL=%s:2", GPU->alloc)), alloc_fails, NULL);
    char want[512];
    snprintf(want, sizeof want, "0 0 %s: Buffer.alloc: %s: out of memory: 64 bytes", GPU->out_of_memory,
             GPU->alloc);
    assert_lines(c.out, 1, want);
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
    child_run(&c, ENV(NULL), from_a_task, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "call %s 2", GPU->use);
}
END_TEST

/* ---- the order auto tries them in ------------------------------------------------------ */

/* The first GPU when both have a device; the second when the first has
 * none; the second alone when SILK_BACKEND names it. */
START_TEST(cuda_then_hip)
{
    const FixtureGpu *first = &fixture_gpus[0], *second = &fixture_gpus[1];
    Child c;
    char a[1024], b[1024], want[64], insist[64];
    snprintf(a, sizeof a, "%s=%s", first->library, first->fake());
    snprintf(b, sizeof b, "%s=%s", second->library, second->fake());
    const char *const both[] = {a, b, NULL};
    child_run(&c, both, backend_and_dispatch, NULL);
    snprintf(want, sizeof want, "%s\n0 0 \n", first->backend);
    ck_assert_str_eq(c.out, want);
    ck_assert_str_eq(fixture_log(second, &c), ""); /* the second never loaded */
    const char *const no_first_device[] = {a, b, fixture_knob(first, "DEVICES=0"), NULL};
    child_run(&c, no_first_device, backend_and_dispatch, NULL);
    snprintf(want, sizeof want, "%s\n0 0 \n", second->backend);
    ck_assert_str_eq(c.out, want);
    ck_assert_msg(strstr(fixture_log(second, &c), second->launch), "%s", fixture_log(second, &c));
    snprintf(insist, sizeof insist, "SILK_BACKEND=%s", second->backend);
    const char *const passed_by[] = {a, b, insist, NULL};
    child_run(&c, passed_by, backend_and_dispatch, NULL);
    ck_assert_str_eq(c.out, want);
    ck_assert_msg(!strstr(fixture_log(first, &c), first->init), "%s", fixture_log(first, &c));
}
END_TEST

/* ---- HIP's gfx name ---------------------------------------------------------------------- */

/* The gfx name unreadable: every code object tried, in the program's
 * order.  A loop test over HIP alone (fixture_gpus[1]). */
START_TEST(gfx_name_unknown)
{
    ck_assert_str_eq(GPU->backend, "hip");
    Child c;
    child_run(&c, ENV("FAKE_HIP_BAD_LAYOUT=1", "SILK_VERBOSE=1"), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    ck_assert_msg(strstr(c.err, "silkrt: device 0: Fake HIP device (target unknown, 304 CUs)\n") == c.err,
                  "%s", c.err);
    ck_assert_msg(strstr(c.err, "silkrt: module gfx90a did not load (SILKRT_MODULE_LOAD: gfx90a: "
                                "hipErrorNoBinaryForGpu: no kernel image is available for execution "
                                "on the device)\nsilkrt: module gfx942 loaded ("), "%s", c.err);
    LOGGED(&c, "call hipModuleLoadData 2");
    LOGGED(&c, "target gfx942");
    /* HIP 5's library has no hipGetDevicePropertiesR0600: the same. */
    child_run(&c, ENV("FAKE_HIP_FAIL=hipGetDevicePropertiesR0600:1"), fill_dispatches, NULL);
    ck_assert_str_eq(c.out, "0 0 \n");
    LOGGED(&c, "call hipModuleLoadData 2");
    /* None loading: the last one's reason, for every launch. */
    int twice = 2;
    child_run(&c, ENV("FAKE_HIP_BAD_LAYOUT=1", "FAKE_HIP_ARCH=gfx1201"), fill_dispatches, &twice);
    assert_lines(c.out, 2, "1010 0 SILKRT_MODULE_LOAD: gfx942: hipErrorNoBinaryForGpu: no kernel image "
                           "is available for execution on the device");
    LOGGED(&c, "call hipModuleLoadData 2");
    /* And a program without code objects: for no target in particular. */
    fixture_unregistered = 1;
    child_run(&c, ENV("FAKE_HIP_BAD_LAYOUT=1"), without_images, (void *)GPU);
    assert_lines(c.out, 1, "1010 0 SILKRT_MODULE_LOAD: the program holds no code object for an AMD GPU "
                           "(0 AMD targets)");
    NOT_LOGGED(&c, "call hipModuleLoadData");
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *s = suite_create("runtime_gpu");
    TCase *t = tcase_create("fake_gpu");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, auto_takes_it, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, image_for_the_device, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, program_without_images, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, images_refused, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, failed_launch_then_one_synchronize, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, driver_statuses_unchanged, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, geometry_before_the_driver, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, no_device, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, no_device_then_the_cpu, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, no_library, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, persistent_from_occupancy, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, device_buffers, 0, FIXTURE_GPUS);
    tcase_add_loop_test(t, device_on_task_threads, 0, FIXTURE_GPUS);
    suite_add_tcase(s, t);
    TCase *order = tcase_create("order");
    tcase_set_timeout(order, 60);
    tcase_add_test(order, cuda_then_hip);
    suite_add_tcase(s, order);
    TCase *hip = tcase_create("hip_gfx_name");
    tcase_set_timeout(hip, 60);
    tcase_add_loop_test(hip, gfx_name_unknown, 1, 2);
    suite_add_tcase(s, hip);
    return s;
}

int main(void)
{
    for (int i = 0; i < FIXTURE_GPUS; i++) {
        FILE *f = fopen(fixture_gpus[i].fake(), "rb");
        if (!f) {
            printf("SKIP: no %s (make check builds it)\n", fixture_gpus[i].fake());
            return 77;
        }
        fclose(f);
    }
    SRunner *r = srunner_create(gpu_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
