/*
 * silkrt_state.c: the runtime's one state and its one lock, the program
 * registered, and the backend chosen at the first use.
 *
 * Every public operation runs between silkrt_enter and silkrt_leave, so
 * the runtime's tables, the driver (which the test double also relies
 * on) and the CPU executor are used by one thread at a time.  The lock is
 * never held while the program's own code runs (a task's body), so the
 * runtime cannot deadlock against it.
 *
 * The backend (docs/runtime.md): SILK_BACKEND=auto (the default) takes
 * CUDA when the driver loads and has a device, else HIP when libamdhip64
 * loads and has a device, else the CPU backend; =cpu the CPU backend;
 * =cuda CUDA or nothing, =hip HIP or nothing: without a driver or a
 * device no backend is usable, and every launch, synchronize and alloc
 * fails with the status that says why, as does every operation when
 * SILK_BACKEND names no backend.  The program runs on and sees them.
 */
#include "silkrt_internal.h"

#include "common/emulated_device.h"

#include "cuda_driver.h"
#include "hip_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

SilkrtState silkrt_state = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .tasks = {.work = {PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER},
              .done = PTHREAD_COND_INITIALIZER},
};

void silkrt_register(const SilkrtProgram *program)
{
    SilkrtState *s = &silkrt_state;
    pthread_mutex_lock(&s->lock);
    if (!program || program->abi_version != SILKRT_ABI_VERSION)
        silkrt_misuse(NULL, "the program was built for runtime ABI %u, and this is ABI %u: "
                            "build it again with this silkc",
                      program ? program->abi_version : 0, SILKRT_ABI_VERSION);
    if (s->program)
        silkrt_misuse(NULL, "a second program registered (silkrt_register is called once)");
    s->kernels = calloc(program->n_kernels + 1, sizeof *s->kernels);
    if (!s->kernels)
        silkrt_misuse(NULL, "out of memory for the program's %u kernels", program->n_kernels);
    s->program = program;
    pthread_mutex_unlock(&s->lock);
}

uint32_t silkrt_kernel_find(const char *name)
{
    const SilkrtProgram *p = silkrt_state.program;
    for (uint32_t k = 0; p && name && k < p->n_kernels; k++)
        if (p->kernels[k].name == name || strcmp(p->kernels[k].name, name) == 0)
            return k;
    return UINT32_MAX;
}

/* No backend: every operation fails with `status` and its name (the
 * runtime's; or `name`, a driver's) before `text`. */
static void unusable(int32_t status, const char *name, const char *backend_name, const char *text)
{
    SilkrtState *s = &silkrt_state;
    if (!name || !*name)
        name = silkrt_status_name(status);
    snprintf(s->unusable_why, sizeof s->unusable_why, "%s: %s", name, text);
    s->unusable = status;
    s->backend = NULL;
    s->backend_name = backend_name;
    silkrt_say("backend %s unusable (%s): every launch, synchronize and alloc fails with "
               "status %d", backend_name, text, (int)status);
}

static void use_cpu(const char *why, const char *detail)
{
    SilkrtState *s = &silkrt_state;
    s->backend = &silkrt_backend_cpu;
    s->backend_name = "cpu";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->cpu_workers = cores > 0 && cores < 4096 ? (int)cores : 1;
    silkrt_say("backend cpu (%s%s)", why, detail);
    const SilkrtProgram *p = s->program;
    unsigned sms = p && p->cpu_sms ? p->cpu_sms : (unsigned)SILK_EMULATED_SMS;
    silkrt_say("device cpu: %u SMs emulated on %d host cores", sms,
               s->cpu_workers);
}

/* The GPU drivers, in the order SILK_BACKEND=auto tries them. */
static const GpudrvDriver *const gpus[] = {&cudadrv_driver, &hipdrv_driver};

/* `want` ("auto", "cuda", "hip"): the first GPU backend that opens; for
 * auto none opening is the CPU backend, with each one's reason. */
static void choose_gpu(const char *want)
{
    SilkrtState *s = &silkrt_state;
    bool any = strcmp(want, "auto") == 0;
    char reasons[1200] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof gpus / sizeof *gpus; i++) {
        const char *gpu = gpus[i]->backend;
        if (!any && strcmp(want, gpu) != 0)
            continue;
        char why[512], text[600], name[64];
        int32_t status = silkrt_gpu_open(gpus[i], name, sizeof name, why, sizeof why);
        if (status == SILKRT_OK) {
            s->backend = &silkrt_backend_gpu;
            s->backend_name = gpu;
            silkrt_say("backend %s (SILK_BACKEND=%s: %s)", gpu, want, why);
            return;
        }
        if (!any) {
            snprintf(text, sizeof text, "SILK_BACKEND=%s: %s", want, why);
            unusable(status, name, gpu, text);
            return;
        }
        if (used < sizeof reasons)
            used += (size_t)snprintf(reasons + used, sizeof reasons - used, "%s%s%s%s", used ? "; " : "",
                                     name, *name ? ": " : "", why);
    }
    use_cpu("SILK_BACKEND=auto: ", reasons);
}

static void choose(void)
{
    SilkrtState *s = &silkrt_state;
    const char *verbose = getenv("SILK_VERBOSE");
    s->verbose = verbose && *verbose && strcmp(verbose, "0") != 0;
    const char *want = getenv("SILK_BACKEND");
    if (!want || !*want)
        want = "auto";
    s->chosen = true;
    if (strcmp(want, "cpu") == 0) {
        use_cpu("SILK_BACKEND=cpu", "");
        return;
    }
    if (strcmp(want, "auto") != 0 && strcmp(want, "cuda") != 0 && strcmp(want, "hip") != 0) {
        char text[512];
        snprintf(text, sizeof text, "SILK_BACKEND=%s names no backend (auto, cpu, cuda or hip)", want);
        unusable(SILKRT_NO_BACKEND, NULL, "none", text);
        return;
    }
    choose_gpu(want);
}

void silkrt_enter(void)
{
    pthread_mutex_lock(&silkrt_state.lock);
    if (!silkrt_state.chosen)
        choose();
}

void silkrt_leave(void)
{
    pthread_mutex_unlock(&silkrt_state.lock);
}

SilkStr silkrt_backend(void)
{
    silkrt_enter();
    const char *name = silkrt_state.backend_name;
    silkrt_leave();
    return (SilkStr){name, strlen(name)};
}
