/*
 * run_kernels.c: runs the six reference kernels on the GPU, each built
 * twice — by silkc (examples/K.silk) and by nvcc (bench/codegen/K.cu) —
 * on generated inputs, checks both against a reference computed here on
 * the CPU, times both, and prints one table row per kernel.
 *
 *   run_kernels --arch        print the device's target (sm_90), exit 0
 *   run_kernels DIR           run DIR/K.silk.ptx and DIR/K.nvcc.ptx
 *
 * tests/gpu/run-kernels.sh builds it and the PTX, then runs it.  It uses
 * the CUDA driver API only (no runtime library): the PTX text is loaded
 * with cuModuleLoadDataEx and JIT-compiled by the driver.  The kernel
 * parameter ABI is the same for both builds: every parameter is a u64 —
 * a tensor is its device address, a scalar extent its value — in
 * declaration order.
 *
 * Correctness: integer kernels (histogram) and pure data movement
 * (transpose) must match exactly.  Float kernels must be within a
 * relative tolerance of a double-precision reference, relative to the
 * sum of the magnitudes of the terms (so cancellation does not make the
 * bound meaningless): saxpy 1e-6, stencil 1e-6, reduce 1e-6 (atomics add
 * the CTAs' sums in any order), sgemm 1e-5.
 *
 * Timing: one warm-up launch, then LAUNCHES launches each between two
 * events; the median.  Exit 0 when every build is correct, 1 when one is
 * wrong or fails to load or launch, 77 when there is no usable GPU.
 */
#include <cuda.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LAUNCHES = 15, MAX_PARAMS = 6, MAX_BUFS = 4, THREADS = 256 };

/* One device buffer: its size, what it starts with (NULL: zeros). */
typedef struct Buf {
    size_t bytes;
    void *init;
    CUdeviceptr dev;
} Buf;

typedef enum Compare { EXACT, FLOAT_REL } Compare;

/* One kernel run: its buffers, parameters (a buffer index or a value),
 * grid, and what its output buffer must hold. */
typedef struct Case {
    const char *name;
    unsigned ctas;
    Buf bufs[MAX_BUFS];
    int n_bufs;
    int param_buf[MAX_PARAMS]; /* >= 0: the buffer's address; -1: param_value */
    uint64_t param_value[MAX_PARAMS];
    int n_params;
    int out;                  /* the buffer checked */
    Compare compare;
    double tolerance;         /* FLOAT_REL: |got - want| <= tolerance * scale */
    size_t n_out;             /* elements compared (4 bytes each) */
    void *want;               /* uint32_t[] or float[] */
    double *scale;            /* FLOAT_REL: per element sum of |terms| */
} Case;

typedef struct Timing {
    int ok;    /* 1 correct, 0 wrong, -1 did not load or run */
    double ms; /* median launch time */
    char why[2400]; /* room for a path and the start of a JIT log */
} Timing;

#define CU(call)                                                                             \
    do {                                                                                     \
        CUresult cu_status = (call);                                                         \
        if (cu_status != CUDA_SUCCESS) {                                                     \
            const char *cu_text = "?";                                                       \
            cuGetErrorString(cu_status, &cu_text);                                           \
            snprintf(t->why, sizeof t->why, "%s: %s", #call, cu_text);                       \
            return -1;                                                                       \
        }                                                                                    \
    } while (0)

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "run_kernels: out of memory\n");
        exit(1);
    }
    return p;
}

/* A small deterministic generator, so that every run sees the same input. */
static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

static float random_unit(uint64_t *state) /* in [-1, 1) */
{
    return (float)next_random(state) / 1073741824.0f - 1.0f;
}

static int add_buf(Case *c, size_t bytes, void *init)
{
    c->bufs[c->n_bufs] = (Buf){bytes, init, 0};
    return c->n_bufs++;
}

static void add_param(Case *c, int buf, uint64_t value)
{
    c->param_buf[c->n_params] = buf;
    c->param_value[c->n_params] = value;
    c->n_params++;
}

/* ---- the six cases: inputs and CPU references ------------------------------------------ */

static void case_saxpy(Case *c)
{
    size_t n = (size_t)1 << 24;
    float *a = xcalloc(1, sizeof *a), *x = xcalloc(n, sizeof *x), *y = xcalloc(n, sizeof *y);
    float *want = xcalloc(n, sizeof *want);
    double *scale = xcalloc(n, sizeof *scale);
    uint64_t s = 1;
    a[0] = 2.5f;
    for (size_t i = 0; i < n; i++) {
        x[i] = random_unit(&s);
        y[i] = random_unit(&s);
        want[i] = (float)((double)a[0] * x[i] + y[i]);
        scale[i] = fabs((double)a[0] * x[i]) + fabs(y[i]);
    }
    *c = (Case){.name = "saxpy", .ctas = (unsigned)(n / THREADS), .compare = FLOAT_REL,
                .tolerance = 1e-6, .n_out = n, .want = want, .scale = scale};
    add_param(c, -1, n);
    add_param(c, add_buf(c, sizeof *a, a), 0);
    add_param(c, add_buf(c, n * sizeof *x, x), 0);
    c->out = add_buf(c, n * sizeof *y, y);
    add_param(c, c->out, 0);
}

static void case_reduce(Case *c)
{
    size_t n = (size_t)1 << 24;
    float *x = xcalloc(n, sizeof *x), *want = xcalloc(1, sizeof *want);
    double *scale = xcalloc(1, sizeof *scale), sum = 0;
    uint64_t s = 2;
    for (size_t i = 0; i < n; i++) {
        x[i] = random_unit(&s);
        sum += x[i];
        scale[0] += fabs(x[i]);
    }
    want[0] = (float)sum;
    *c = (Case){.name = "reduce", .ctas = 1024, .compare = FLOAT_REL, .tolerance = 1e-6,
                .n_out = 1, .want = want, .scale = scale};
    add_param(c, -1, n);
    add_param(c, add_buf(c, n * sizeof *x, x), 0);
    c->out = add_buf(c, sizeof(float), NULL);
    add_param(c, c->out, 0);
}

static void case_transpose(Case *c)
{
    size_t rows = 2048, cols = 4096;
    float *in = xcalloc(rows * cols, sizeof *in), *want = xcalloc(rows * cols, sizeof *want);
    for (size_t r = 0; r < rows; r++)
        for (size_t k = 0; k < cols; k++) {
            in[r * cols + k] = (float)(r * cols + k);
            want[k * rows + r] = in[r * cols + k];
        }
    *c = (Case){.name = "transpose", .ctas = (unsigned)((rows / 32) * (cols / 32)),
                .compare = EXACT, .n_out = rows * cols, .want = want};
    add_param(c, -1, rows);
    add_param(c, -1, cols);
    add_param(c, add_buf(c, rows * cols * sizeof *in, in), 0);
    c->out = add_buf(c, rows * cols * sizeof(float), NULL);
    add_param(c, c->out, 0);
}

static void case_stencil(Case *c)
{
    size_t rows = 4096, cols = 4096, n = rows * cols;
    float *in = xcalloc(n, sizeof *in), *want = xcalloc(n, sizeof *want);
    double *scale = xcalloc(n, sizeof *scale);
    uint64_t s = 3;
    for (size_t i = 0; i < n; i++)
        in[i] = random_unit(&s);
    for (size_t r = 0; r < rows; r++)
        for (size_t k = 0; k < cols; k++) {
            size_t i = r * cols + k;
            if (r == 0 || k == 0 || r == rows - 1 || k == cols - 1) {
                want[i] = in[i];
                scale[i] = fabs(in[i]);
                continue;
            }
            double terms[4] = {in[i - cols], in[i + cols], in[i - 1], in[i + 1]};
            want[i] = (float)(0.25 * (terms[0] + terms[1] + terms[2] + terms[3]));
            scale[i] = 0.25 * (fabs(terms[0]) + fabs(terms[1]) + fabs(terms[2]) + fabs(terms[3]));
        }
    *c = (Case){.name = "stencil", .ctas = (unsigned)((rows / 8) * (cols / 32)),
                .compare = FLOAT_REL, .tolerance = 1e-6, .n_out = n, .want = want,
                .scale = scale};
    add_param(c, -1, rows);
    add_param(c, -1, cols);
    add_param(c, add_buf(c, n * sizeof *in, in), 0);
    c->out = add_buf(c, n * sizeof(float), NULL);
    add_param(c, c->out, 0);
}

static void case_histogram(Case *c)
{
    size_t n = (size_t)1 << 24;
    uint8_t *data = xcalloc(n, 1);
    uint32_t *want = xcalloc(256, sizeof *want);
    uint64_t s = 4;
    for (size_t i = 0; i < n; i++) {
        /* skewed, so some bins are hot and the atomics contend */
        uint32_t r = next_random(&s);
        data[i] = (uint8_t)((r & 1) ? (r >> 8) & 0xff : (r >> 8) & 0x0f);
        want[data[i]]++;
    }
    *c = (Case){.name = "histogram", .ctas = 1024, .compare = EXACT, .n_out = 256,
                .want = want};
    add_param(c, -1, n);
    add_param(c, add_buf(c, n, data), 0);
    c->out = add_buf(c, 256 * sizeof(uint32_t), NULL);
    add_param(c, c->out, 0);
}

static void case_sgemm(Case *c)
{
    size_t m = 1024, n = 1024, k = 1024;
    float *a = xcalloc(m * k, sizeof *a), *b = xcalloc(k * n, sizeof *b);
    float *want = xcalloc(m * n, sizeof *want);
    double *scale = xcalloc(m * n, sizeof *scale), *row = xcalloc(n, sizeof *row);
    uint64_t s = 5;
    for (size_t i = 0; i < m * k; i++)
        a[i] = random_unit(&s);
    for (size_t i = 0; i < k * n; i++)
        b[i] = random_unit(&s);
    for (size_t i = 0; i < m; i++) {
        memset(row, 0, n * sizeof *row);
        for (size_t p = 0; p < k; p++)
            for (size_t j = 0; j < n; j++) {
                row[j] += (double)a[i * k + p] * b[p * n + j];
                scale[i * n + j] += fabs((double)a[i * k + p] * b[p * n + j]);
            }
        for (size_t j = 0; j < n; j++)
            want[i * n + j] = (float)row[j];
    }
    free(row);
    *c = (Case){.name = "sgemm", .ctas = (unsigned)((m / 32) * (n / 32)),
                .compare = FLOAT_REL, .tolerance = 1e-5, .n_out = m * n, .want = want,
                .scale = scale};
    add_param(c, -1, m);
    add_param(c, -1, n);
    add_param(c, -1, k);
    add_param(c, add_buf(c, m * k * sizeof *a, a), 0);
    add_param(c, add_buf(c, k * n * sizeof *b, b), 0);
    c->out = add_buf(c, m * n * sizeof(float), NULL);
    add_param(c, c->out, 0);
}

/* ---- running one build ------------------------------------------------------------------- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = xcalloc((size_t)size + 1, 1);
    size_t got = fread(text, 1, (size_t)size, f);
    fclose(f);
    text[got] = '\0';
    return text;
}

/* Loads PTX text; on failure the JIT's log goes into t->why. */
static int load_module(const char *path, CUmodule *module, Timing *t)
{
    char *ptx = read_text(path);
    if (!ptx) {
        snprintf(t->why, sizeof t->why, "cannot read %s", path);
        return -1;
    }
    char log[4096] = "";
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    CUresult status = cuModuleLoadDataEx(module, ptx, 2, options, values);
    free(ptx);
    if (status != CUDA_SUCCESS) {
        const char *text = "?";
        cuGetErrorString(status, &text);
        snprintf(t->why, sizeof t->why, "loading %s: %s %.80s", path, text, log);
        return -1;
    }
    return 0;
}

/* Puts every buffer back to its initial contents. */
static int reset_buffers(Case *c, Timing *t)
{
    for (int i = 0; i < c->n_bufs; i++) {
        Buf *b = &c->bufs[i];
        if (b->init)
            CU(cuMemcpyHtoD(b->dev, b->init, b->bytes));
        else
            CU(cuMemsetD8(b->dev, 0, b->bytes));
    }
    return 0;
}

static int launch(const Case *c, CUfunction fn, Timing *t)
{
    uint64_t values[MAX_PARAMS];
    void *params[MAX_PARAMS];
    for (int i = 0; i < c->n_params; i++) {
        values[i] = c->param_buf[i] >= 0 ? (uint64_t)c->bufs[c->param_buf[i]].dev
                                         : c->param_value[i];
        params[i] = &values[i];
    }
    CU(cuLaunchKernel(fn, c->ctas, 1, 1, THREADS, 1, 1, 0, NULL, params, NULL));
    return 0;
}

/* The first element outside the tolerance, or -1. */
static long first_mismatch(const Case *c, const void *got)
{
    for (size_t i = 0; i < c->n_out; i++) {
        if (c->compare == EXACT) {
            if (((const uint32_t *)got)[i] != ((const uint32_t *)c->want)[i])
                return (long)i;
            continue;
        }
        double g = ((const float *)got)[i], w = ((const float *)c->want)[i];
        if (!(fabs(g - w) <= c->tolerance * c->scale[i] + 1e-30))
            return (long)i;
    }
    return -1;
}

static int check_output(const Case *c, Timing *t)
{
    const Buf *out = &c->bufs[c->out];
    void *got = xcalloc(out->bytes, 1);
    CUresult status = cuMemcpyDtoH(got, out->dev, out->bytes);
    long bad = status == CUDA_SUCCESS ? first_mismatch(c, got) : -2;
    if (bad == -2)
        snprintf(t->why, sizeof t->why, "copying the result back failed");
    else if (bad >= 0 && c->compare == EXACT)
        snprintf(t->why, sizeof t->why, "element %ld: got %u, want %u", bad,
                 ((uint32_t *)got)[bad], ((uint32_t *)c->want)[bad]);
    else if (bad >= 0)
        snprintf(t->why, sizeof t->why, "element %ld: got %.9g, want %.9g", bad,
                 ((float *)got)[bad], ((float *)c->want)[bad]);
    free(got);
    return bad == -1 ? 1 : 0;
}

static int compare_ms(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The median time of LAUNCHES launches, after a warm-up one. */
static int time_launches(const Case *c, CUfunction fn, Timing *t)
{
    CUevent start, stop;
    float ms[LAUNCHES];
    CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    if (launch(c, fn, t) < 0)
        return -1;
    for (int i = 0; i < LAUNCHES; i++) {
        CU(cuEventRecord(start, NULL));
        if (launch(c, fn, t) < 0)
            return -1;
        CU(cuEventRecord(stop, NULL));
        CU(cuEventSynchronize(stop));
        CU(cuEventElapsedTime(&ms[i], start, stop));
    }
    cuEventDestroy(start);
    cuEventDestroy(stop);
    qsort(ms, LAUNCHES, sizeof *ms, compare_ms);
    t->ms = ms[LAUNCHES / 2];
    return 0;
}

/* Loads one build of c, runs it once on fresh inputs, checks, times. */
static Timing run_build(Case *c, const char *dir, const char *build)
{
    Timing timing = {.ok = -1, .ms = 0, .why = ""}, *t = &timing;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s.%s.ptx", dir, c->name, build);
    CUmodule module;
    CUfunction fn;
    if (load_module(path, &module, t) < 0)
        return timing;
    if (cuModuleGetFunction(&fn, module, c->name) != CUDA_SUCCESS) {
        snprintf(t->why, sizeof t->why, "%s: no entry %s", path, c->name);
    } else if (reset_buffers(c, t) == 0 && launch(c, fn, t) == 0) {
        CUresult sync = cuCtxSynchronize();
        if (sync != CUDA_SUCCESS)
            snprintf(t->why, sizeof t->why, "the kernel failed (%d)", (int)sync);
        else if ((timing.ok = check_output(c, t)) == 1 && time_launches(c, fn, t) < 0)
            timing.ok = -1;
    }
    cuModuleUnload(module);
    return timing;
}

/* ---- the program --------------------------------------------------------------------------- */

static int alloc_buffers(Case *c)
{
    for (int i = 0; i < c->n_bufs; i++)
        if (cuMemAlloc(&c->bufs[i].dev, c->bufs[i].bytes) != CUDA_SUCCESS)
            return -1;
    return 0;
}

static void free_case(Case *c)
{
    for (int i = 0; i < c->n_bufs; i++) {
        if (c->bufs[i].dev)
            cuMemFree(c->bufs[i].dev);
        free(c->bufs[i].init);
    }
    free(c->want);
    free(c->scale);
}

static const char *verdict(const Timing *t)
{
    return t->ok == 1 ? "yes" : t->ok == 0 ? "WRONG" : "FAILED";
}

/* Runs one case with both builds and prints its row; 0 if both are right. */
static int run_case(void (*make)(Case *), const char *dir)
{
    Case c;
    make(&c);
    if (alloc_buffers(&c) < 0) {
        printf("%-10s cannot allocate device memory\n", c.name);
        free_case(&c);
        return 1;
    }
    Timing silk = run_build(&c, dir, "silk"), nvcc = run_build(&c, dir, "nvcc");
    printf("%-10s %6s/%-6s %10.4f %10.4f %8.2f\n", c.name, verdict(&silk), verdict(&nvcc),
           silk.ms, nvcc.ms, silk.ok == 1 && nvcc.ok == 1 ? silk.ms / nvcc.ms : 0.0);
    if (silk.ok != 1)
        printf("    silk: %s\n", silk.why);
    if (nvcc.ok != 1)
        printf("    nvcc: %s\n", nvcc.why);
    fflush(stdout);
    free_case(&c);
    return silk.ok == 1 && nvcc.ok == 1 ? 0 : 1;
}

/* cuInit and the first device, or exit 77 saying why. */
static CUdevice open_device(int *major, int *minor)
{
    CUdevice dev;
    CUresult status = cuInit(0);
    if (status == CUDA_SUCCESS)
        status = cuDeviceGet(&dev, 0);
    if (status != CUDA_SUCCESS) {
        const char *text = "?";
        cuGetErrorString(status, &text);
        fprintf(stderr, "run_kernels: no usable GPU: %s\n", text);
        exit(77);
    }
    cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    return dev;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: run_kernels --arch | run_kernels DIR\n");
        return 2;
    }
    int major, minor;
    CUdevice dev = open_device(&major, &minor);
    if (strcmp(argv[1], "--arch") == 0) {
        printf("sm_%d%d\n", major, minor);
        return 0;
    }
    CUcontext ctx;
    char name[256] = "?";
    cuDeviceGetName(name, sizeof name, dev);
    if (cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
        fprintf(stderr, "run_kernels: cannot create a context on %s\n", name);
        return 77;
    }
    printf("%s (sm_%d%d); median of %d launches, milliseconds\n", name, major, minor, LAUNCHES);
    printf("%-10s %13s %10s %10s %8s\n", "kernel", "correct", "silk ms", "nvcc ms", "silk/nvcc");
    void (*cases[])(Case *) = {case_saxpy,   case_reduce,    case_transpose,
                               case_stencil, case_histogram, case_sgemm};
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        failures += run_case(cases[i], argv[1]);
    cuDevicePrimaryCtxRelease(dev);
    return failures ? 1 : 0;
}
