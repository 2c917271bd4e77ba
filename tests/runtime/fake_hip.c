/*
 * fake_hip.c: a test double of the HIP runtime API (libamdhip64), for make
 * check only: a shared object that libsilkrt loads in place of
 * libamdhip64.so.6 through SILK_HIP_LIBRARY=path.  It defines every entry
 * point of std/runtime/hip_entries.def on host memory, with one device,
 * and records what it was asked, as fake_cuda.c does for the CUDA driver.
 *
 * - Memory: hipMalloc is malloc; copies check that they fall inside one
 *   live allocation (else hipErrorInvalidValue); freeing an address that
 *   is not a live allocation's is an error too.
 * - A launch runs nothing, so the buffers come back as they were
 *   uploaded.  It records the geometry, the dynamic LDS bytes and the
 *   parameters, each read as the u64 the launchable ABI passes.
 * - hipModuleLoadData takes the test's code objects, text that begins
 *   "silk fake code object for GFX\n" with a line ".kernel NAME N" per
 *   kernel of N parameters and ends with the line ".end" (no NUL after
 *   it: a program carries a code object's bytes alone, and HIP is given
 *   no size, so the end is the double's to find; runtime_fixture.c
 *   writes them), and real
 *   AMDHSA code objects (ELF64, EM_AMDGPU, as ld.lld links them): their
 *   target from e_flags' EF_AMDGPU_MACH field, their kernels from the
 *   "NAME.kd" descriptor symbols of .dynsym (the parameters of those are
 *   not logged: only HIP's metadata reader knows their count).  One for
 *   another target than the device's is refused with
 *   hipErrorNoBinaryForGpu, anything else with hipErrorInvalidImage (the
 *   double's choices, which the runtime passes through as it would any).
 * - hipGetDevicePropertiesR0600 writes the name, multiProcessorCount and
 *   gcnArchName at hip_constants.def's offsets, and nothing else.
 *
 * Environment:
 *   FAKE_HIP_LOG=FILE     at unload, what was called and asked (below)
 *   FAKE_HIP_ARCH=gfx942:sramecc+:xnack-  the device's gcnArchName
 *   FAKE_HIP_CUS=304      compute units
 *   FAKE_HIP_DEVICES=1    devices
 *   FAKE_HIP_OCCUPANCY=2  what hipModuleOccupancyMaxActiveBlocksPerMultiprocessor answers
 *   FAKE_HIP_BAD_LAYOUT=1 the properties' multiProcessorCount is not the attribute's
 *   FAKE_HIP_FAIL=hipModuleLaunchKernel:719[,NAME:CODE...]  every call of NAME fails with CODE
 *   FAKE_HIP_FAIL_GRID=X:CODE  a launch of gridDim.x X fails with CODE
 *   FAKE_HIP_FAULT_GRID=X:CODE a launch of gridDim.x X succeeds, and the next
 *                         hipDeviceSynchronize fails with CODE (once)
 *
 * Every entry point may be called from any thread, one at a time: the
 * runtime calls HIP under its one lock (which TSan checks).
 *
 * The log, one fact a line, in this order: `call NAME N` for each entry
 * point called (N times); `target T` per module loaded; `set_device D`
 * per hipSetDevice; `occupancy threads=T shared=S`, in the order asked;
 * `launch KERNEL grid=X,Y,Z block=X,Y,Z shared=S params=P,...` per launch
 * (the first MAX_LAUNCHES; `launches N` counts them all when there were
 * more), each parameter a live allocation's number (`@1` for the first
 * allocated) or its value in hex; `allocs N`, `frees N`, `live N`
 * (allocations never freed), `bad_frees N`.
 */
#include "hip_abi.h"

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prototypes of what this file defines, as HIP declares them. */
#define HIPDRV_ENTRY(result, symbol, params, required) result symbol params;
#include "hip_entries.def"
#undef HIPDRV_ENTRY

enum { MAX_ALLOCS = 256, MAX_LAUNCHES = 8, MAX_MODULES = 8, MAX_KERNELS = 16, MAX_NOTES = 8 };

/* The calls counted, in hip_entries.def's order. */
enum {
#define HIPDRV_ENTRY(result, symbol, params, required) CALL_##symbol,
#include "hip_entries.def"
#undef HIPDRV_ENTRY
    N_CALLS
};
static const char *const call_names[] = {
#define HIPDRV_ENTRY(result, symbol, params, required) #symbol,
#include "hip_entries.def"
#undef HIPDRV_ENTRY
};

static const char MAGIC[] = "silk fake code object for ";
static const char END[] = "\n.end\n";

enum { MAX_TEXT = 4096 };

typedef struct Alloc {
    unsigned char *base;
    size_t bytes;
    int number; /* 1, 2, ... in the order allocated */
} Alloc;

typedef struct Function {
    char name[128];
    int n_params;             /* -1: unknown (an ELF code object's) */
} Function;

typedef struct Module {
    char target[32];
    Function kernels[MAX_KERNELS];
    int n_kernels;
    int loaded;
} Module;

static struct {
    unsigned long calls[N_CALLS];
    Alloc allocs[MAX_ALLOCS];
    int n_allocs, n_frees, bad_frees;
    char *launches[MAX_LAUNCHES];
    int n_launches;
    unsigned long all_launches;
    int fault;   /* the hipError_t the next hipDeviceSynchronize gives (FAKE_HIP_FAULT_GRID) */
    Module modules[MAX_MODULES];
    int n_modules;
    char notes[MAX_NOTES][100]; /* set_device and occupancy, in order */
    int n_notes;
} fake;

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

static const char *device_arch(void)
{
    const char *v = getenv("FAKE_HIP_ARCH");
    return v && *v ? v : "gfx942:sramecc+:xnack-";
}

static void note(const char *fmt, int a, size_t b)
{
    if (fake.n_notes < MAX_NOTES)
        snprintf(fake.notes[fake.n_notes++], sizeof fake.notes[0], fmt, a, b);
}

/* The hipError_t FAKE_HIP_FAIL gives `call`, or 0; the call counted. */
static int enter(int call)
{
    fake.calls[call]++;
    const char *spec = getenv("FAKE_HIP_FAIL");
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

/* ---- errors and devices ------------------------------------------------------------------ */

int hipInit(unsigned int flags)
{
    ENTER(hipInit);
    return flags == 0 ? HIPDRV_SUCCESS : HIPDRV_ERROR_INVALID_VALUE;
}

/* HIP's names and words of the codes the tests use; HIP answers
 * "hipErrorUnknown" for a code it does not know, and so does this. */
static const struct {
    int code;
    const char *name, *words;
} errors[] = {
    {HIPDRV_SUCCESS, "hipSuccess", "no error"},
    {HIPDRV_ERROR_INVALID_VALUE, "hipErrorInvalidValue", "invalid argument"},
    {HIPDRV_ERROR_OUT_OF_MEMORY, "hipErrorOutOfMemory", "out of memory"},
    {HIPDRV_ERROR_NO_DEVICE, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {HIPDRV_ERROR_INVALID_DEVICE, "hipErrorInvalidDevice", "invalid device ordinal"},
    {HIPDRV_ERROR_INVALID_IMAGE, "hipErrorInvalidImage", "device kernel image is invalid"},
    {HIPDRV_ERROR_NO_BINARY_FOR_GPU, "hipErrorNoBinaryForGpu", "no kernel image is available for "
                                                               "execution on the device"},
    {HIPDRV_ERROR_NOT_FOUND, "hipErrorNotFound", "named symbol not found"},
    {HIPDRV_ERROR_ILLEGAL_ADDRESS, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {HIPDRV_ERROR_LAUNCH_OUT_OF_RESOURCES, "hipErrorLaunchOutOfResources", "too many resources "
                                                                           "requested for launch"},
    {HIPDRV_ERROR_LAUNCH_FAILURE, "hipErrorLaunchFailure", "unspecified launch failure"},
    {HIPDRV_ERROR_UNKNOWN, "hipErrorUnknown", "unknown error"},
};

static int error_index(int code)
{
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
        if (errors[i].code == code)
            return (int)i;
    return (int)(sizeof errors / sizeof *errors) - 1;
}

const char *hipGetErrorName(int error)
{
    fake.calls[CALL_hipGetErrorName]++;
    return errors[error_index(error)].name;
}

const char *hipGetErrorString(int error)
{
    fake.calls[CALL_hipGetErrorString]++;
    return errors[error_index(error)].words;
}

int hipGetDeviceCount(int *count)
{
    ENTER(hipGetDeviceCount);
    *count = env_int("FAKE_HIP_DEVICES", 1);
    return *count ? HIPDRV_SUCCESS : HIPDRV_ERROR_NO_DEVICE; /* as HIP answers without one */
}

int hipSetDevice(int device)
{
    ENTER(hipSetDevice);
    if (device < 0 || device >= env_int("FAKE_HIP_DEVICES", 1))
        return HIPDRV_ERROR_INVALID_DEVICE;
    note("set_device %d", device, 0);
    return HIPDRV_SUCCESS;
}

int hipDeviceGetAttribute(int *value, int attribute, int device)
{
    ENTER(hipDeviceGetAttribute);
    if (device < 0 || device >= env_int("FAKE_HIP_DEVICES", 1))
        return HIPDRV_ERROR_INVALID_DEVICE;
    if (attribute != HIPDRV_ATTR_CU_COUNT)
        return HIPDRV_ERROR_INVALID_VALUE;
    *value = env_int("FAKE_HIP_CUS", 304);
    return HIPDRV_SUCCESS;
}

int hipDeviceGetName(char *name, int len, int device)
{
    ENTER(hipDeviceGetName);
    (void)device;
    snprintf(name, (size_t)len, "Fake HIP device");
    return HIPDRV_SUCCESS;
}

int hipGetDevicePropertiesR0600(void *properties, int device)
{
    ENTER(hipGetDevicePropertiesR0600);
    (void)device;
    unsigned char *p = properties;
    int cus = env_int("FAKE_HIP_CUS", 304) + (env_int("FAKE_HIP_BAD_LAYOUT", 0) ? 1 : 0);
    memset(p, 0, HIPDRV_PROP_R0600_SIZE);
    snprintf((char *)p + HIPDRV_PROP_R0600_NAME, HIPDRV_PROP_R0600_STRING_BYTES, "Fake HIP device");
    memcpy(p + HIPDRV_PROP_R0600_CU_COUNT, &cus, sizeof cus);
    snprintf((char *)p + HIPDRV_PROP_R0600_GCN_ARCH_NAME, HIPDRV_PROP_R0600_STRING_BYTES, "%s",
             device_arch());
    return HIPDRV_SUCCESS;
}

int hipDeviceSynchronize(void)
{
    ENTER(hipDeviceSynchronize);
    int fault = fake.fault;
    fake.fault = 0;
    return fault;
}

/* ---- modules ------------------------------------------------------------------------- */

/* EF_AMDGPU_MACH (e_flags & 0xff) of the targets silkc knows: LLVM's
 * llvm/include/llvm/BinaryFormat/ELF.h (EF_AMDGPU_MACH_AMDGCN_GFX90A ...),
 * as readelf shows llc-19's code objects. */
static const struct {
    unsigned mach;
    const char *target;
} machs[] = {{0x03f, "gfx90a"}, {0x04c, "gfx942"}, {0x041, "gfx1100"}, {0x04e, "gfx1201"}};

/* A real code object: its target and kernels; false when it is not one. */
static int read_elf(Module *m, const unsigned char *image)
{
    if (memcmp(image, ELFMAG, SELFMAG) != 0) /* first: a text code object may be shorter than a header */
        return 0;
    Elf64_Ehdr h;
    memcpy(&h, image, sizeof h);
    if (h.e_ident[EI_CLASS] != ELFCLASS64 ||
        h.e_machine != EM_AMDGPU || h.e_shentsize != sizeof(Elf64_Shdr))
        return 0;
    snprintf(m->target, sizeof m->target, "gfx-mach-0x%x", h.e_flags & 0xffu);
    for (size_t i = 0; i < sizeof machs / sizeof *machs; i++)
        if (machs[i].mach == (h.e_flags & 0xffu))
            snprintf(m->target, sizeof m->target, "%s", machs[i].target);
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(const void *)(image + h.e_shoff);
    for (unsigned s = 0; s < h.e_shnum; s++) {
        if (sections[s].sh_type != SHT_DYNSYM || sections[s].sh_link >= h.e_shnum)
            continue;
        const Elf64_Sym *symbols = (const Elf64_Sym *)(const void *)(image + sections[s].sh_offset);
        const char *names = (const char *)image + sections[sections[s].sh_link].sh_offset;
        for (size_t k = 0; k < sections[s].sh_size / sizeof *symbols && m->n_kernels < MAX_KERNELS; k++) {
            const char *name = names + symbols[k].st_name;
            size_t len = strlen(name);
            if (ELF64_ST_TYPE(symbols[k].st_info) != STT_OBJECT || len < 4 ||
                strcmp(name + len - 3, ".kd") != 0 || len - 3 >= sizeof m->kernels[0].name)
                continue;
            Function *f = &m->kernels[m->n_kernels++];
            snprintf(f->name, sizeof f->name, "%.*s", (int)(len - 3), name);
            f->n_params = -1;
        }
    }
    return 1;
}

/* The kernels of a code object's text, one ".kernel NAME N" a line. */
static void read_kernels(Module *m, const char *text)
{
    for (const char *line = strstr(text, "\n.kernel "); line && m->n_kernels < MAX_KERNELS;
         line = strstr(line + 1, "\n.kernel ")) {
        Function *f = &m->kernels[m->n_kernels];
        if (sscanf(line, "\n.kernel %127s %d", f->name, &f->n_params) == 2)
            m->n_kernels++;
    }
}

/* A text code object copied, NUL-terminated, up to its END line, read a
 * byte at a time so that nothing past it is touched; false without one. */
static int copy_text(const char *image, char *text)
{
    for (size_t n = 0; n + 1 < MAX_TEXT; n++) {
        text[n] = image[n];
        text[n + 1] = '\0';
        if (n + 1 >= sizeof END - 1 && strcmp(text + n + 1 - (sizeof END - 1), END) == 0)
            return 1;
    }
    return 0;
}

int hipModuleLoadData(void **module, const void *image)
{
    ENTER(hipModuleLoadData);
    static char text[MAX_TEXT];
    if (!image)
        return HIPDRV_ERROR_INVALID_VALUE;
    if (fake.n_modules == MAX_MODULES)
        return HIPDRV_ERROR_OUT_OF_MEMORY;
    Module *m = &fake.modules[fake.n_modules];
    *m = (Module){0};
    bool elf = read_elf(m, image);
    if (!elf && (!copy_text(image, text) || strncmp(text, MAGIC, sizeof MAGIC - 1) != 0 ||
                 sscanf(text + sizeof MAGIC - 1, "%31s", m->target) != 1))
        return HIPDRV_ERROR_INVALID_IMAGE;
    const char *arch = device_arch();
    size_t n = strcspn(arch, ":");
    if (strlen(m->target) != n || strncmp(m->target, arch, n) != 0)
        return HIPDRV_ERROR_NO_BINARY_FOR_GPU;
    if (!elf)
        read_kernels(m, text);
    m->loaded = 1;
    fake.n_modules++;
    *module = m;
    return HIPDRV_SUCCESS;
}

int hipModuleGetFunction(void **function, void *module, const char *name)
{
    ENTER(hipModuleGetFunction);
    Module *m = module;
    if (!m || !m->loaded)
        return HIPDRV_ERROR_INVALID_HANDLE;
    for (int i = 0; i < m->n_kernels; i++)
        if (strcmp(m->kernels[i].name, name) == 0) {
            *function = &m->kernels[i];
            return HIPDRV_SUCCESS;
        }
    return HIPDRV_ERROR_NOT_FOUND;
}

int hipModuleUnload(void *module)
{
    ENTER(hipModuleUnload);
    Module *m = module;
    if (!m || !m->loaded)
        return HIPDRV_ERROR_INVALID_HANDLE;
    m->loaded = 0;
    return HIPDRV_SUCCESS;
}

int hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, void *function, int threads,
                                                       size_t dynamic_shared)
{
    ENTER(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor);
    if (!function)
        return HIPDRV_ERROR_INVALID_HANDLE;
    note("occupancy threads=%d shared=%zu", threads, dynamic_shared);
    *blocks = env_int("FAKE_HIP_OCCUPANCY", 2);
    return HIPDRV_SUCCESS;
}

/* ---- memory ---------------------------------------------------------------------------- */

static Alloc *find_alloc(uintptr_t address, size_t bytes)
{
    for (int i = 0; i < fake.n_allocs; i++) {
        Alloc *a = &fake.allocs[i];
        uintptr_t base = (uintptr_t)a->base;
        if (a->base && address >= base && address - base <= a->bytes && bytes <= a->bytes - (address - base))
            return a;
    }
    return NULL;
}

int hipMalloc(void **address, size_t bytes)
{
    ENTER(hipMalloc);
    if (fake.n_allocs == MAX_ALLOCS)
        return HIPDRV_ERROR_OUT_OF_MEMORY;
    unsigned char *p = malloc(bytes ? bytes : 1);
    if (!p)
        return HIPDRV_ERROR_OUT_OF_MEMORY;
    fake.allocs[fake.n_allocs] = (Alloc){p, bytes, fake.n_allocs + 1};
    fake.n_allocs++;
    *address = p;
    return HIPDRV_SUCCESS;
}

int hipFree(void *address)
{
    ENTER(hipFree);
    for (int i = 0; i < fake.n_allocs; i++)
        if (fake.allocs[i].base && fake.allocs[i].base == address) {
            free(fake.allocs[i].base);
            fake.allocs[i].base = NULL;
            fake.n_frees++;
            return HIPDRV_SUCCESS;
        }
    fake.bad_frees++;
    return HIPDRV_ERROR_INVALID_VALUE;
}

int hipMemcpyHtoD(void *to, void *from, size_t bytes)
{
    ENTER(hipMemcpyHtoD);
    if (!find_alloc((uintptr_t)to, bytes))
        return HIPDRV_ERROR_INVALID_VALUE;
    memcpy(to, from, bytes);
    return HIPDRV_SUCCESS;
}

int hipMemcpyDtoH(void *to, void *from, size_t bytes)
{
    ENTER(hipMemcpyDtoH);
    if (!find_alloc((uintptr_t)from, bytes))
        return HIPDRV_ERROR_INVALID_VALUE;
    memcpy(to, from, bytes);
    return HIPDRV_SUCCESS;
}

/* ---- launches ---------------------------------------------------------------------------- */

/* The parameters of `f`, each a u64, as the log shows them: an
 * allocation's number, or hex; false when one is missing. */
static int show_params(const Function *f, void **params, char *out, size_t room)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < f->n_params; i++) {
        if (!params || !params[i] || used + 32 >= room)
            return 0;
        uint64_t v;
        memcpy(&v, params[i], sizeof v);
        const Alloc *a = find_alloc((uintptr_t)v, 0);
        used += (size_t)snprintf(out + used, room - used, i ? "," : "");
        if (a && (uintptr_t)a->base == v)
            used += (size_t)snprintf(out + used, room - used, "@%d", a->number);
        else
            used += (size_t)snprintf(out + used, room - used, "0x%llx", (unsigned long long)v);
    }
    return 1;
}

/* The CODE of a FAKE_HIP_..._GRID=X:CODE setting when X is `grid`, else 0. */
static int grid_code(const char *setting, unsigned int grid)
{
    const char *v = getenv(setting);
    unsigned int x;
    int code;
    return v && sscanf(v, "%u:%d", &x, &code) == 2 && x == grid ? code : 0;
}

int hipModuleLaunchKernel(void *function, unsigned int gx, unsigned int gy, unsigned int gz,
                          unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                          void *stream, void **params, void **extra)
{
    ENTER(hipModuleLaunchKernel);
    const Function *f = function;
    char shown[2048];
    if (!f || stream || extra || (f->n_params >= 0 && !show_params(f, params, shown, sizeof shown)))
        return HIPDRV_ERROR_INVALID_VALUE;
    if (!gx || !gy || !gz || !bx || !by || !bz || (uint64_t)bx * by * bz > 1024)
        return HIPDRV_ERROR_INVALID_VALUE;
    int refused = grid_code("FAKE_HIP_FAIL_GRID", gx);
    if (refused)
        return refused;
    if (!fake.fault)
        fake.fault = grid_code("FAKE_HIP_FAULT_GRID", gx);
    if (fake.all_launches++ >= MAX_LAUNCHES)
        return HIPDRV_SUCCESS;
    char line[2300];
    snprintf(line, sizeof line, "launch %s grid=%u,%u,%u block=%u,%u,%u shared=%u%s%s", f->name,
             gx, gy, gz, bx, by, bz, shared, f->n_params >= 0 ? " params=" : "",
             f->n_params >= 0 ? shown : "");
    fake.launches[fake.n_launches++] = strdup(line);
    return HIPDRV_SUCCESS;
}

/* ---- the log ------------------------------------------------------------------------------ */

__attribute__((destructor)) static void write_fake_log(void)
{
    const char *path = getenv("FAKE_HIP_LOG");
    FILE *out = path && *path ? fopen(path, "w") : NULL;
    int live = 0;
    for (int i = 0; i < fake.n_allocs; i++)
        live += fake.allocs[i].base != NULL;
    for (int c = 0; out && c < N_CALLS; c++)
        if (fake.calls[c])
            fprintf(out, "call %s %lu\n", call_names[c], fake.calls[c]);
    for (int m = 0; out && m < fake.n_modules; m++)
        fprintf(out, "target %s\n", fake.modules[m].target);
    for (int i = 0; out && i < fake.n_notes; i++)
        fprintf(out, "%s\n", fake.notes[i]);
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
    for (int i = 0; i < fake.n_allocs; i++)
        free(fake.allocs[i].base);
}
