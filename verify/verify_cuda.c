/*
 * verify_cuda.c: the CUDA Runtime API as verify's runtime.
 *
 * configure links libcudart_static.a when it finds the toolkit, so this
 * needs no CUDA library at run time; on a machine without a driver (or
 * without a device) cudaGetDeviceCount says so, and that text is what the
 * user sees.  Kernels are loaded with cudaLibraryLoadData (PTX is JIT-
 * compiled by the driver for the device) and their cudaKernel_t handles
 * are used where the API takes a function (the runtime accepts them as
 * `const void *`).  Without the runtime, open() explains that this build
 * cannot talk to a device.
 *
 * Resident clusters are asked with cudaOccupancyMaxActiveClusters, whose
 * launch configuration is the one a cluster launch would use: a grid of
 * whole clusters, and the cluster's dimension as a launch attribute unless
 * the kernel was compiled with its own (the runtime refuses both).
 */
#include "verify_engine.h"

#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CUDART

#include <cuda_runtime_api.h>
#include <dlfcn.h>

bool verify_have_cuda(void)
{
    return true;
}

static bool failed(cudaError_t e, const char *call, char *error, size_t size)
{
    if (e == cudaSuccess)
        return false;
    snprintf(error, size, "%s: %s", call, cudaGetErrorString(e));
    return true;
}

static void copy_props(const struct cudaDeviceProp *p, DeviceProps *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", p->name);
    out->major = p->major;
    out->minor = p->minor;
    out->sm_count = p->multiProcessorCount;
    out->warp_size = p->warpSize;
    out->max_threads_per_block = p->maxThreadsPerBlock;
    out->max_threads_per_sm = p->maxThreadsPerMultiProcessor;
    out->max_blocks_per_sm = p->maxBlocksPerMultiProcessor;
    out->regs_per_sm = p->regsPerMultiprocessor;
    out->regs_per_block = p->regsPerBlock;
    out->smem_per_sm = (int64_t)p->sharedMemPerMultiprocessor;
    out->smem_per_block = (int64_t)p->sharedMemPerBlock;
    out->smem_per_block_optin = (int64_t)p->sharedMemPerBlockOptin;
    out->reserved_smem_per_block = (int64_t)p->reservedSharedMemPerBlock;
    for (int i = 0; i < 3; i++)
        out->max_grid[i] = p->maxGridSize[i];
}

/* The runtime answers "driver version is insufficient" both for an old
 * driver and for none at all (it cannot load libcuda.so.1); a machine with
 * no driver is told so, naming the library it looked for. */
static void driver_error(cudaError_t e, char *error, size_t size)
{
    void *driver = e == cudaErrorInsufficientDriver ? dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)
                                                    : NULL;
    const char *why = driver ? NULL : dlerror(); /* read once: a call clears it */
    if (e == cudaErrorInsufficientDriver && !driver)
        snprintf(error, size, "the NVIDIA driver (libcuda.so.1) cannot be loaded: %s",
                 why ? why : "not found");
    else
        snprintf(error, size, "%s", cudaGetErrorString(e));
    if (driver)
        dlclose(driver);
}

static bool cuda_open(VerifyRuntime *rt, int device, DeviceProps *props, char *error, size_t size)
{
    (void)rt;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        driver_error(e, error, size);
        return false;
    }
    if (device >= count) {
        snprintf(error, size, "--device %d: this machine has %d device%s", device, count,
                 count == 1 ? "" : "s");
        return false;
    }
    struct cudaDeviceProp p;
    if (failed(cudaSetDevice(device), "cudaSetDevice", error, size) ||
        failed(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties", error, size))
        return false;
    copy_props(&p, props);
    return true;
}

static bool read_attributes(cudaKernel_t kernel, VerifyKernel *k, char *error, size_t size)
{
    struct cudaFuncAttributes a;
    const char *name = NULL;
    if (failed(cudaFuncGetName(&name, (const void *)kernel), "cudaFuncGetName", error, size) ||
        failed(cudaFuncGetAttributes(&a, (const void *)kernel), "cudaFuncGetAttributes", error,
               size))
        return false;
    snprintf(k->name, sizeof k->name, "%s", name);
    k->handle = (void *)kernel;
    k->attrs = (FuncAttrs){
        .num_regs = a.numRegs,
        .static_smem = (int64_t)a.sharedSizeBytes,
        .local_bytes = (int64_t)a.localSizeBytes,
        .const_bytes = (int64_t)a.constSizeBytes,
        .max_threads_per_block = a.maxThreadsPerBlock,
        .max_dynamic_smem = a.maxDynamicSharedSizeBytes,
        .cluster_dims = {a.requiredClusterWidth, a.requiredClusterHeight, a.requiredClusterDepth},
    };
    return true;
}

/* Every kernel of the image, in the order the library lists them. */
static bool cuda_load(VerifyRuntime *rt, const void *image, const char *origin,
                      VerifyKernel **kernels, int *n, char *error, size_t size)
{
    (void)rt;
    cudaLibrary_t library;
    unsigned count = 0;
    if (failed(cudaLibraryLoadData(&library, image, NULL, NULL, 0, NULL, NULL, 0),
               "cudaLibraryLoadData", error, size) ||
        failed(cudaLibraryGetKernelCount(&count, library), "cudaLibraryGetKernelCount", error,
               size))
        return false;
    cudaKernel_t *handles = calloc(count + 1, sizeof *handles);
    VerifyKernel *grown = realloc(*kernels, ((size_t)*n + count + 1) * sizeof *grown);
    if (grown)
        *kernels = grown;
    bool ok = handles && grown &&
              !failed(cudaLibraryEnumerateKernels(handles, count, library),
                      "cudaLibraryEnumerateKernels", error, size);
    for (unsigned i = 0; ok && i < count; i++) {
        VerifyKernel *k = &(*kernels)[(*n)++];
        memset(k, 0, sizeof *k);
        k->origin = origin;
        ok = read_attributes(handles[i], k, error, size);
    }
    free(handles);
    if (!handles || !grown)
        snprintf(error, size, "out of memory");
    return ok;
}

/* The function attributes a query is asked under. */
static bool configure(const void *f, const VerifyQuery *q, VerifyAnswer *out)
{
    return !failed(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)q->max_dynamic_smem),
                   "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)", out->error,
                   sizeof out->error) &&
           !failed(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        q->carveout),
                   "cudaFuncSetAttribute(PreferredSharedMemoryCarveout)", out->error,
                   sizeof out->error);
}

/* cudaOccupancyMaxPotentialBlockSize is a C++ template in cuda_runtime.h,
 * not part of the C API; this is its algorithm (CUDA 13), asking the
 * runtime for each block size from the largest down in warp steps and
 * keeping the first that gives the most resident threads. */
static cudaError_t max_potential_block_size(const void *f, size_t dynamic_smem, int *min_grid,
                                            int *block)
{
    int device, threads_per_sm, warp, device_block_limit, sms;
    struct cudaFuncAttributes attr;
    cudaError_t e;
    if ((e = cudaGetDevice(&device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                                    device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&device_block_limit, cudaDevAttrMaxThreadsPerBlock,
                                    device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
        (e = cudaFuncGetAttributes(&attr, f)) != cudaSuccess)
        return e;
    int limit = device_block_limit < attr.maxThreadsPerBlock ? device_block_limit
                                                              : attr.maxThreadsPerBlock;
    int best_block = 0, best_blocks = 0, best_threads = 0;
    for (int aligned = (limit + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
        int size = limit < aligned ? limit : aligned;
        int blocks = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, size, dynamic_smem);
        if (e != cudaSuccess)
            return e;
        if (size * blocks > best_threads) {
            best_block = size;
            best_blocks = blocks;
            best_threads = size * blocks;
        }
        if (best_threads == threads_per_sm)
            break;
    }
    *min_grid = best_blocks * sms;
    *block = best_block;
    return cudaSuccess;
}

/* cudaOccupancyMaxActiveClusters for a cluster of q->cluster_size CTAs
 * along x (or the kernel's own cluster), q->block_size threads each. */
static cudaError_t max_active_clusters(const void *f, const VerifyKernel *k, const VerifyQuery *q,
                                       int *clusters)
{
    const int *own = k->attrs.cluster_dims;
    bool compiled_in = own[0] > 0;
    unsigned cx = compiled_in ? (unsigned)own[0] : (unsigned)q->cluster_size;
    unsigned cy = compiled_in ? (unsigned)own[1] : 1, cz = compiled_in ? (unsigned)own[2] : 1;
    int device, sms;
    cudaError_t e;
    if ((e = cudaGetDevice(&device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess)
        return e;
    /* Above the portable 8 CTAs the kernel must opt in first. */
    if (cx * cy * cz > 8 &&
        (e = cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) !=
            cudaSuccess)
        return e;
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cx;
    attr.val.clusterDim.y = cy;
    attr.val.clusterDim.z = cz;
    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    /* One cluster per SM's worth of grid: any whole number of clusters
     * would do, since the query counts what is resident at once. */
    config.gridDim.x = cx * (unsigned)sms;
    config.gridDim.y = cy;
    config.gridDim.z = cz;
    config.blockDim.x = (unsigned)q->block_size;
    config.blockDim.y = 1;
    config.blockDim.z = 1;
    config.dynamicSmemBytes = (size_t)q->dynamic_smem;
    config.attrs = compiled_in ? NULL : &attr;
    config.numAttrs = compiled_in ? 0 : 1;
    return cudaOccupancyMaxActiveClusters(clusters, f, &config);
}

static void cuda_ask(VerifyRuntime *rt, VerifyKernel *k, const VerifyQuery *q, VerifyAnswer *out)
{
    (void)rt;
    memset(out, 0, sizeof *out);
    const void *f = k->handle;
    if (!configure(f, q, out))
        return;
    cudaError_t e = cudaErrorInvalidValue;
    if (q->kind == VQ_ACTIVE_BLOCKS) {
        int blocks = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, q->block_size,
                                                          (size_t)q->dynamic_smem);
        out->value = blocks;
    } else if (q->kind == VQ_BLOCK_SIZE) {
        int min_grid = 0, block = 0;
        e = max_potential_block_size(f, (size_t)q->dynamic_smem, &min_grid, &block);
        out->value = block;
        out->min_grid = min_grid;
    } else if (q->kind == VQ_DYNAMIC_SMEM) {
        size_t bytes = 0;
        e = cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, f, q->num_blocks, q->block_size);
        out->value = (int64_t)bytes;
    } else if (q->kind == VQ_ACTIVE_CLUSTERS) {
        int clusters = 0;
        e = max_active_clusters(f, k, q, &clusters);
        out->value = clusters;
    }
    out->ok = !failed(e, verify_query_call(q->kind), out->error, sizeof out->error);
}

static void cuda_close(VerifyRuntime *rt)
{
    (void)rt;
}

#else /* no CUDA runtime in this build */

bool verify_have_cuda(void)
{
    return false;
}

static bool cuda_open(VerifyRuntime *rt, int device, DeviceProps *props, char *error, size_t size)
{
    (void)rt, (void)device, (void)props;
    snprintf(error, size, "this silk-occ was built without the CUDA runtime "
                          "(configure did not find libcudart_static.a)");
    return false;
}

static bool cuda_load(VerifyRuntime *rt, const void *image, const char *origin,
                      VerifyKernel **kernels, int *n, char *error, size_t size)
{
    (void)rt, (void)image, (void)origin, (void)kernels, (void)n;
    snprintf(error, size, "built without the CUDA runtime");
    return false;
}

static void cuda_ask(VerifyRuntime *rt, VerifyKernel *k, const VerifyQuery *q, VerifyAnswer *out)
{
    (void)rt, (void)k, (void)q;
    memset(out, 0, sizeof *out);
    snprintf(out->error, sizeof out->error, "built without the CUDA runtime");
}

static void cuda_close(VerifyRuntime *rt)
{
    (void)rt;
}

#endif

void verify_runtime_cuda(VerifyRuntime *rt)
{
    *rt = (VerifyRuntime){cuda_open, cuda_load, cuda_ask, cuda_close, NULL};
}
