/*
 * silkrt_module.c: the GPU backend's module: which of the program's
 * images is loaded, at the first launch, and each kernel found in it.
 *
 * The images are SilkrtProgram.ptx (CUDA) or .code_objects (HIP), as the
 * driver table says, and the driver ranks them for the device
 * (gpu_driver.h): CUDA the newest PTX the device can run first, HIP the
 * code object of the device's gfx target (each in the program's order
 * when the target is unknown).  The first is loaded, and when the driver
 * refuses it the next, each tried once.  None loading is MODULE_LOAD for
 * every launch, with the last refusal (and CUDA's JIT error log) in
 * last_error; none that the device can run is MODULE_LOAD naming the
 * targets the program has.  Either way the driver never sees a launch.
 */
#include "silkrt_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* One of the program's images. */
typedef struct Image {
    const char *arch;         /* its target: "sm_90", "gfx942" */
    const void *bytes;
    uint64_t size;
} Image;

static uint32_t image_count(const SilkrtProgram *p, GpudrvImages kind)
{
    return kind == GPUDRV_PTX ? p->n_ptx : p->n_code_objects;
}

static Image image(const SilkrtProgram *p, GpudrvImages kind, uint32_t i)
{
    if (kind == GPUDRV_PTX)
        return (Image){p->ptx[i].arch, p->ptx[i].text, strlen(p->ptx[i].text)};
    return (Image){p->code_objects[i].arch, p->code_objects[i].bytes, p->code_objects[i].size};
}

/* What the images are, for a message: "PTX", "code object". */
static const char *kind_words(GpudrvImages kind)
{
    return kind == GPUDRV_PTX ? "PTX" : "code object";
}

/* The image to try after image `prev` (UINT32_MAX: the first): the
 * highest rank first, ties in the program's order; UINT32_MAX when no
 * image the device can run is left. */
static uint32_t next_image(const SilkrtGpu *g, const SilkrtProgram *p, uint32_t prev)
{
    GpudrvImages kind = g->driver->images;
    int prev_rank = prev == UINT32_MAX ? INT_MAX : g->driver->rank(&g->device, image(p, kind, prev).arch);
    uint32_t best = UINT32_MAX;
    int best_rank = 0;
    for (uint32_t i = 0; i < image_count(p, kind); i++) {
        int r = g->driver->rank(&g->device, image(p, kind, i).arch);
        bool after = r < prev_rank || (r == prev_rank && i > prev);
        if (after && r > best_rank) {
            best = i;
            best_rank = r;
        }
    }
    return best;
}

/* `log` on one line: its lines joined by "; ". */
static void one_line(const char *log, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = log; p && *p && n + 3 < size; p++) {
        if (*p == '\r' || *p == '\n') {
            if (n > 0 && out[n - 1] != ' ' && p[1] && p[1] != '\n') {
                out[n++] = ';';
                out[n++] = ' ';
            }
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
}

/* Tries image `m`: true when it loaded. */
static bool try_image(SilkrtGpu *g, const Image *m)
{
    GpudrvError e;
    if (g->driver->module_load(m->bytes, &g->module, &e) == GPUDRV_OK) {
        char info[512];
        one_line(g->module.info_log, info, sizeof info);
        silkrt_say("module %s loaded (%" PRIu64 " bytes)%s%s", m->arch, m->size, info[0] ? ": " : "",
                   info);
        g->arch = m->arch;
        return true;
    }
    char log[600];
    one_line(g->module.error_log, log, sizeof log);
    snprintf(g->module_error, sizeof g->module_error, "%s: %s: %s: %s%s%s",
             silkrt_status_name(SILKRT_MODULE_LOAD), m->arch, e.result_name,
             e.result_words[0] ? e.result_words : "the module did not load", log[0] ? ": " : "", log);
    silkrt_say("module %s did not load (%s)", m->arch, g->module_error);
    g->driver->module_unload(&g->module);
    return false;
}

/* The program holds no image the device can run: which it holds. */
static void none_for_the_device(SilkrtGpu *g, const SilkrtProgram *p)
{
    GpudrvImages kind = g->driver->images;
    uint32_t n = image_count(p, kind);
    char device[256], targets[512] = "";
    size_t used = 0;
    g->driver->wants(&g->device, device, sizeof device);
    for (uint32_t i = 0; i < n && used < sizeof targets; i++)
        used += (size_t)snprintf(targets + used, sizeof targets - used, "%s%s", i ? ", " : "",
                                 image(p, kind, i).arch);
    snprintf(g->module_error, sizeof g->module_error, "%s: the program holds no %s for %s (%" PRIu32
             " %s%s%s%s)", silkrt_status_name(SILKRT_MODULE_LOAD), kind_words(kind), device, n,
             g->driver->targets, n == 1 ? "" : "s", n ? ": " : "", targets);
}

static void load_module(SilkrtGpu *g)
{
    const SilkrtProgram *p = silkrt_state.program;
    g->module_state = -1;
    g->module_status = SILKRT_MODULE_LOAD;
    uint32_t i = next_image(g, p, UINT32_MAX);
    if (i == UINT32_MAX) {
        none_for_the_device(g, p);
        return;
    }
    for (; i != UINT32_MAX; i = next_image(g, p, i)) {
        Image m = image(p, g->driver->images, i);
        if (try_image(g, &m)) {
            g->module_state = 1;
            return;
        }
    }
}

int32_t silkrt_module_kernel(uint32_t k, GpudrvKernel *kernel)
{
    SilkrtGpu *g = &silkrt_state.gpu;
    const char *name = silkrt_state.program->kernels[k].name;
    if (g->module_state == 0)
        load_module(g);
    if (g->module_state < 0)
        return silkrt_fail_text(g->module_status, "%s", g->module_error);
    GpudrvError e;
    if (g->driver->module_kernel(&g->module, name, kernel, &e) == GPUDRV_OK)
        return SILKRT_OK;
    if (e.status == GPUDRV_NO_KERNEL)
        return silkrt_fail(SILKRT_MODULE_LOAD, "kernel %s is not in the %s %s", name, g->arch,
                           kind_words(g->driver->images));
    char what[160];
    snprintf(what, sizeof what, "kernel %s", name);
    return silkrt_gpu_fail(&e, what);
}
