/*
 * fake_cuda.c: a test double of the CUDA Driver API, for make check only:
 * a shared object that libsilkrt loads in place of libcuda.so.1 through
 * SILK_CUDA_LIBRARY=path.  It defines every entry point of
 * std/runtime/cuda_entries.def on host memory, with one device, and
 * records what it was asked.
 *
 * - Memory: cuMemAlloc is malloc; copies check that they fall inside one
 *   live allocation (else CUDA_ERROR_INVALID_VALUE); freeing an address
 *   that is not a live allocation's is an error too.
 * - A launch runs nothing, so the buffers come back as they were
 *   uploaded.  It records the geometry, the dynamic shared bytes and the
 *   parameters, each read with the size its .param declares in the PTX
 *   the module was loaded from (the layout the real driver uses).
 * - cuModuleLoadDataEx reads the PTX's .target, writes a line into the
 *   JIT's information log, and on an injected failure FAKE_CUDA_JIT_ERROR
 *   into its error log.
 *
 * Environment:
 *   FAKE_CUDA_LOG=FILE    at unload, what was called and asked (below)
 *   FAKE_CUDA_CC=90       the compute capability, major * 10 + minor
 *   FAKE_CUDA_SMS=132     multiprocessors
 *   FAKE_CUDA_DEVICES=1   devices
 *   FAKE_CUDA_OCCUPANCY=2 what cuOccupancyMaxActiveBlocksPerMultiprocessor answers
 *   FAKE_CUDA_FAIL=cuLaunchKernel:719[,NAME:CODE...]  every call of NAME fails with CODE
 *   FAKE_CUDA_JIT_ERROR=TEXT  the error log of a failed module load
 *   FAKE_CUDA_FAIL_GRID=X:CODE  a launch of gridDim.x X fails with CODE
 *   FAKE_CUDA_FAULT_GRID=X:CODE a launch of gridDim.x X succeeds, and the next
 *                         cuCtxSynchronize fails with CODE (once: a real driver's
 *                         context stays broken, which a test could not go on after)
 *
 * Every entry point may be called from any thread, one at a time: the
 * runtime calls the driver under its one lock (which TSan checks).
 *
 * The log, one fact a line, in this order: `call NAME N` for each entry
 * point called (N times); `target T` per module loaded; `attribute
 * KERNEL max_dynamic_shared=S` and `occupancy threads=T shared=S`, in the
 * order asked; `launch KERNEL grid=X,Y,Z block=X,Y,Z shared=S
 * params=P,...` per launch (the first MAX_LAUNCHES; `launches N` counts
 * them all when there were more), each parameter a live allocation's number
 * (`@1` for the first allocated) or its value in hex; `allocs N`, `frees
 * N`, `live N` (allocations never freed), `bad_frees N`.
 */
#include "cuda_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prototypes of what this file defines, as the driver declares them. */
#define CUDADRV_ENTRY(symbol, params) CUDADRV_T_RESULT symbol params;
#include "cuda_entries.def"
#undef CUDADRV_ENTRY

enum { MAX_ALLOCS = 256, MAX_LAUNCHES = 8, MAX_PARAMS = 64, MAX_MODULES = 8 };

/* The calls counted, in cuda_entries.def's order. */
enum {
#define CUDADRV_ENTRY(symbol, params) CALL_##symbol,
#include "cuda_entries.def"
#undef CUDADRV_ENTRY
    N_CALLS
};
static const char *const call_names[] = {
#define CUDADRV_ENTRY(symbol, params) #symbol,
#include "cuda_entries.def"
#undef CUDADRV_ENTRY
};

typedef struct Alloc {
    unsigned char *base;
    size_t bytes;
    int number; /* 1, 2, ... in the order allocated */
} Alloc;

typedef struct Module {
    char *ptx;
    char target[32];
} Module;

typedef struct Function {
    const Module *module;
    char name[128];
} Function;

static struct {
    unsigned long calls[N_CALLS];
    Alloc allocs[MAX_ALLOCS];
    int n_allocs, n_frees, bad_frees;
    char *launches[MAX_LAUNCHES];
    int n_launches;
    unsigned long all_launches;
    int fault;   /* the CUresult the next cuCtxSynchronize gives (FAKE_CUDA_FAULT_GRID) */
    Module modules[MAX_MODULES];
    int n_modules;
    Function functions[MAX_MODULES];
    int n_functions;
    char occupancy[MAX_MODULES][200]; /* the attributes and occupancy questions, in order */
    int n_occupancy;
    int context; /* what a context handle points at */
} fake;

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

/* The CUresult FAKE_CUDA_FAIL gives `call`, or 0; the call counted. */
static int enter(int call)
{
    fake.calls[call]++;
    const char *spec = getenv("FAKE_CUDA_FAIL");
    size_t len = strlen(call_names[call]);
    for (const char *p = spec; p && *p;) {
        if (strncmp(p, call_names[call], len) == 0 && p[len] == ':')
            return atoi(p + len + 1);
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    return 0;
}

#define ENTER(symbol)                                                                        \
    do {                                                                                     \
        int injected_ = enter(CALL_##symbol);                                                \
        if (injected_)                                                                       \
            return injected_;                                                                \
    } while (0)

/* ---- errors, devices, contexts -------------------------------------------------------- */

int cuInit(unsigned int flags)
{
    ENTER(cuInit);
    return flags == 0 ? CUDADRV_SUCCESS : CUDADRV_ERROR_INVALID_VALUE;
}

int cuGetErrorName(int error, const char **name)
{
    static const struct {
        int code;
        const char *name;
    } names[] = {
#define CUDADRV_CONSTANT(ours, cuda_name, value) {value, #cuda_name},
#include "cuda_constants.def"
#undef CUDADRV_CONSTANT
    };
    ENTER(cuGetErrorName);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].code == error && strncmp(names[i].name, "CUDA_", 5) == 0) {
            *name = names[i].name;
            return CUDADRV_SUCCESS;
        }
    *name = NULL; /* as the driver does for a code it does not know */
    return CUDADRV_ERROR_INVALID_VALUE;
}

/* The words of the codes the runtime's tests use, as the driver has them. */
int cuGetErrorString(int error, const char **words)
{
    static const struct {
        int code;
        const char *words;
    } table[] = {
        {CUDADRV_ERROR_INVALID_VALUE, "invalid argument"},
        {CUDADRV_ERROR_OUT_OF_MEMORY, "out of memory"},
        {CUDADRV_ERROR_NO_DEVICE, "no CUDA-capable device is detected"},
        {CUDADRV_ERROR_INVALID_PTX, "a PTX JIT compilation failed"},
        {CUDADRV_ERROR_NOT_FOUND, "named symbol not found"},
        {CUDADRV_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"},
        {CUDADRV_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch"},
        {CUDADRV_ERROR_LAUNCH_FAILED, "unspecified launch failure"},
        {CUDADRV_ERROR_UNKNOWN, "unknown error"},
    };
    ENTER(cuGetErrorString);
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i].code == error) {
            *words = table[i].words;
            return CUDADRV_SUCCESS;
        }
    *words = NULL;
    return CUDADRV_ERROR_INVALID_VALUE;
}

int cuDeviceGetCount(int *count)
{
    ENTER(cuDeviceGetCount);
    *count = env_int("FAKE_CUDA_DEVICES", 1);
    return CUDADRV_SUCCESS;
}

int cuDeviceGet(int *device, int ordinal)
{
    ENTER(cuDeviceGet);
    if (ordinal < 0 || ordinal >= env_int("FAKE_CUDA_DEVICES", 1))
        return CUDADRV_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDADRV_SUCCESS;
}

int cuDeviceGetAttribute(int *value, int attribute, int device)
{
    ENTER(cuDeviceGetAttribute);
    (void)device;
    int cc = env_int("FAKE_CUDA_CC", 90);
    if (attribute == CUDADRV_ATTR_CC_MAJOR)
        *value = cc / 10;
    else if (attribute == CUDADRV_ATTR_CC_MINOR)
        *value = cc % 10;
    else if (attribute == CUDADRV_ATTR_SM_COUNT)
        *value = env_int("FAKE_CUDA_SMS", 132);
    else
        return CUDADRV_ERROR_INVALID_VALUE;
    return CUDADRV_SUCCESS;
}

int cuDeviceGetName(char *name, int len, int device)
{
    ENTER(cuDeviceGetName);
    (void)device;
    snprintf(name, (size_t)len, "Fake CUDA device");
    return CUDADRV_SUCCESS;
}

int cuDevicePrimaryCtxRetain(void **context, int device)
{
    ENTER(cuDevicePrimaryCtxRetain);
    (void)device;
    *context = &fake.context;
    return CUDADRV_SUCCESS;
}

int cuDevicePrimaryCtxRelease_v2(int device)
{
    ENTER(cuDevicePrimaryCtxRelease_v2);
    (void)device;
    return CUDADRV_SUCCESS;
}

int cuCtxSetCurrent(void *context)
{
    ENTER(cuCtxSetCurrent);
    return context == &fake.context ? CUDADRV_SUCCESS : CUDADRV_ERROR_INVALID_CONTEXT;
}

int cuCtxSynchronize(void)
{
    ENTER(cuCtxSynchronize);
    int fault = fake.fault;
    fake.fault = 0;
    return fault;
}

/* ---- modules ------------------------------------------------------------------------- */

/* The value of option `which` among the JIT options, or NULL. */
static void *option(unsigned int n, const int *options, void **values, int which)
{
    for (unsigned int i = 0; i < n; i++)
        if (options[i] == which)
            return values[i];
    return NULL;
}

static void write_log(unsigned int n, int *options, void **values, int buffer, int size,
                      const char *text)
{
    char *log = option(n, options, values, buffer);
    size_t room = (size_t)(uintptr_t)option(n, options, values, size);
    if (log && room)
        snprintf(log, room, "%s", text);
}

int cuModuleLoadDataEx(void **module, const void *image, unsigned int n, int *options, void **values)
{
    int injected = enter(CALL_cuModuleLoadDataEx);
    if (injected) {
        const char *why = getenv("FAKE_CUDA_JIT_ERROR");
        write_log(n, options, values, CUDADRV_JIT_ERROR_LOG_BUFFER,
                  CUDADRV_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, why ? why : "");
        return injected;
    }
    if (fake.n_modules == MAX_MODULES)
        return CUDADRV_ERROR_OUT_OF_MEMORY;
    Module *m = &fake.modules[fake.n_modules++];
    m->ptx = strdup(image);
    const char *t = strstr(m->ptx, "\n.target ");
    if (!t || sscanf(t, "\n.target %31s", m->target) != 1)
        return CUDADRV_ERROR_INVALID_PTX;
    char info[128];
    snprintf(info, sizeof info, "fake JIT: %zu bytes of PTX for %s", strlen(m->ptx), m->target);
    write_log(n, options, values, CUDADRV_JIT_INFO_LOG_BUFFER, CUDADRV_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
              info);
    *module = m;
    return CUDADRV_SUCCESS;
}

int cuModuleGetFunction(void **function, void *module, const char *name)
{
    ENTER(cuModuleGetFunction);
    const Module *m = module;
    char entry[160];
    snprintf(entry, sizeof entry, ".entry %s(", name);
    if (!m || !strstr(m->ptx, entry))
        return CUDADRV_ERROR_NOT_FOUND;
    if (fake.n_functions == MAX_MODULES)
        return CUDADRV_ERROR_OUT_OF_MEMORY;
    Function *f = &fake.functions[fake.n_functions++];
    f->module = m;
    snprintf(f->name, sizeof f->name, "%s", name);
    *function = f;
    return CUDADRV_SUCCESS;
}

int cuModuleUnload(void *module)
{
    ENTER(cuModuleUnload);
    Module *m = module;
    free(m->ptx);
    m->ptx = NULL;
    return CUDADRV_SUCCESS;
}

int cuFuncSetAttribute(void *function, int attribute, int value)
{
    ENTER(cuFuncSetAttribute);
    const Function *f = function;
    if (!f || attribute != CUDADRV_FUNC_ATTR_MAX_DYNAMIC_SHARED || value < 0)
        return CUDADRV_ERROR_INVALID_VALUE;
    if (fake.n_occupancy < MAX_MODULES)
        snprintf(fake.occupancy[fake.n_occupancy++], sizeof fake.occupancy[0],
                 "attribute %s max_dynamic_shared=%d", f->name, value);
    return CUDADRV_SUCCESS;
}

int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, void *function, int threads,
                                                size_t dynamic_shared)
{
    ENTER(cuOccupancyMaxActiveBlocksPerMultiprocessor);
    (void)function;
    if (fake.n_occupancy < MAX_MODULES)
        snprintf(fake.occupancy[fake.n_occupancy++], sizeof fake.occupancy[0],
                 "occupancy threads=%d shared=%zu", threads, dynamic_shared);
    *blocks = env_int("FAKE_CUDA_OCCUPANCY", 2);
    return CUDADRV_SUCCESS;
}

/* ---- memory ---------------------------------------------------------------------------- */

static Alloc *find_alloc(unsigned long long address, size_t bytes)
{
    for (int i = 0; i < fake.n_allocs; i++) {
        Alloc *a = &fake.allocs[i];
        uintptr_t base = (uintptr_t)a->base;
        if (a->base && address >= base && address - base <= a->bytes && bytes <= a->bytes - (address - base))
            return a;
    }
    return NULL;
}

int cuMemAlloc_v2(unsigned long long *address, size_t bytes)
{
    ENTER(cuMemAlloc_v2);
    if (bytes == 0)
        return CUDADRV_ERROR_INVALID_VALUE;
    if (fake.n_allocs == MAX_ALLOCS)
        return CUDADRV_ERROR_OUT_OF_MEMORY;
    unsigned char *p = malloc(bytes);
    if (!p)
        return CUDADRV_ERROR_OUT_OF_MEMORY;
    fake.allocs[fake.n_allocs] = (Alloc){p, bytes, fake.n_allocs + 1};
    fake.n_allocs++;
    *address = (uintptr_t)p;
    return CUDADRV_SUCCESS;
}

int cuMemFree_v2(unsigned long long address)
{
    ENTER(cuMemFree_v2);
    for (int i = 0; i < fake.n_allocs; i++)
        if (fake.allocs[i].base && (uintptr_t)fake.allocs[i].base == address) {
            free(fake.allocs[i].base);
            fake.allocs[i].base = NULL;
            fake.n_frees++;
            return CUDADRV_SUCCESS;
        }
    fake.bad_frees++;
    return CUDADRV_ERROR_INVALID_VALUE;
}

int cuMemcpyHtoD_v2(unsigned long long to, const void *from, size_t bytes)
{
    ENTER(cuMemcpyHtoD_v2);
    if (!find_alloc(to, bytes))
        return CUDADRV_ERROR_INVALID_VALUE;
    memcpy((void *)(uintptr_t)to, from, bytes);
    return CUDADRV_SUCCESS;
}

int cuMemcpyDtoH_v2(void *to, unsigned long long from, size_t bytes)
{
    ENTER(cuMemcpyDtoH_v2);
    if (!find_alloc(from, bytes))
        return CUDADRV_ERROR_INVALID_VALUE;
    memcpy(to, (const void *)(uintptr_t)from, bytes);
    return CUDADRV_SUCCESS;
}

/* ---- launches ---------------------------------------------------------------------------- */

/* The bytes of a PTX parameter type: ".u32" 4. */
static size_t param_bytes(const char *type)
{
    int bits = atoi(type + 2); /* ".u32", ".b16", ".f64", ".u8" */
    return bits >= 8 ? (size_t)bits / 8 : 0;
}

/* One parameter as the log shows it: an allocation's number, or hex. */
static int show_param(char *out, size_t room, const void *p, size_t bytes)
{
    uint64_t v = 0;
    memcpy(&v, p, bytes); /* little-endian: the low bytes */
    const Alloc *a = bytes == 8 ? find_alloc(v, 0) : NULL;
    if (a && (uintptr_t)a->base == v)
        return snprintf(out, room, "@%d", a->number);
    return snprintf(out, room, "0x%llx", (unsigned long long)v);
}

/* The parameters of `f`, read with their PTX sizes; false if the PTX's
 * declaration cannot be read. */
static int show_params(const Function *f, void **params, char *out, size_t room)
{
    char entry[160];
    snprintf(entry, sizeof entry, ".entry %s(", f->name);
    const char *p = strstr(f->module->ptx, entry) + strlen(entry);
    const char *end = strchr(p, ')');
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; end && i < MAX_PARAMS; i++) {
        const char *decl = strstr(p, ".param ");
        if (!decl || decl > end)
            return 1;
        char type[16];
        if (sscanf(decl, ".param %15s", type) != 1 || !param_bytes(type) || !params || !params[i])
            return 0;
        if (used + 32 >= room)
            return 0;
        used += (size_t)snprintf(out + used, room - used, i ? "," : "");
        used += (size_t)show_param(out + used, room - used, params[i], param_bytes(type));
        p = decl + 7;
    }
    return 1;
}

/* The CODE of a FAKE_CUDA_..._GRID=X:CODE setting when X is `grid`, else 0. */
static int grid_code(const char *setting, unsigned int grid)
{
    const char *v = getenv(setting);
    unsigned int x;
    int code;
    return v && sscanf(v, "%u:%d", &x, &code) == 2 && x == grid ? code : 0;
}

int cuLaunchKernel(void *function, unsigned int gx, unsigned int gy, unsigned int gz,
                   unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                   void *stream, void **params, void **extra)
{
    ENTER(cuLaunchKernel);
    const Function *f = function;
    char shown[2048];
    if (!f || stream || extra || !show_params(f, params, shown, sizeof shown))
        return CUDADRV_ERROR_INVALID_VALUE;
    if (!gx || !gy || !gz || !bx || !by || !bz || (uint64_t)bx * by * bz > 1024)
        return CUDADRV_ERROR_INVALID_VALUE;
    int refused = grid_code("FAKE_CUDA_FAIL_GRID", gx);
    if (refused)
        return refused;
    if (!fake.fault)
        fake.fault = grid_code("FAKE_CUDA_FAULT_GRID", gx);
    if (fake.all_launches++ >= MAX_LAUNCHES)
        return CUDADRV_SUCCESS;
    char line[2300];
    snprintf(line, sizeof line, "launch %s grid=%u,%u,%u block=%u,%u,%u shared=%u params=%s", f->name,
             gx, gy, gz, bx, by, bz, shared, shown);
    fake.launches[fake.n_launches++] = strdup(line);
    return CUDADRV_SUCCESS;
}

/* ---- the log ------------------------------------------------------------------------------ */

__attribute__((destructor)) static void write_fake_log(void)
{
    const char *path = getenv("FAKE_CUDA_LOG");
    FILE *out = path && *path ? fopen(path, "w") : NULL;
    int live = 0;
    for (int i = 0; i < fake.n_allocs; i++)
        live += fake.allocs[i].base != NULL;
    for (int c = 0; out && c < N_CALLS; c++)
        if (fake.calls[c])
            fprintf(out, "call %s %lu\n", call_names[c], fake.calls[c]);
    for (int m = 0; out && m < fake.n_modules; m++)
        fprintf(out, "target %s\n", fake.modules[m].target);
    for (int i = 0; out && i < fake.n_occupancy; i++)
        fprintf(out, "%s\n", fake.occupancy[i]);
    for (int l = 0; out && l < fake.n_launches; l++)
        fprintf(out, "%s\n", fake.launches[l]);
    if (out && fake.all_launches > MAX_LAUNCHES)
        fprintf(out, "launches %lu\n", fake.all_launches);
    if (out) {
        fprintf(out, "allocs %d\nfrees %d\nlive %d\nbad_frees %d\n", fake.n_allocs, fake.n_frees, live,
                fake.bad_frees);
        fclose(out);
    }
    for (int l = 0; l < fake.n_launches; l++)
        free(fake.launches[l]);
    for (int m = 0; m < fake.n_modules; m++)
        free(fake.modules[m].ptx);
    for (int i = 0; i < fake.n_allocs; i++)
        free(fake.allocs[i].base);
}
