/*
 * hip_driver.h: libsilkrt's HIP driver: an AMD GPU found and made the
 * calling thread's device, a code object loaded (hipModuleLoadData), a
 * kernel launched (hipModuleLaunchKernel) and synchronised, and device
 * memory, through the HIP runtime API, as the driver table of
 * gpu_driver.h (hipdrv_driver).
 *
 * HIP is not linked: the first call loads it with dlopen, from
 * $SILK_HIP_LIBRARY when that is set (the test double,
 * tests/runtime/fake_hip.c, is loaded so), else the first of
 * libamdhip64.so.6, libamdhip64.so.5 and libamdhip64.so that opens, once
 * per process (pthread_once), and resolves the entry points of
 * hip_entries.def.  It is never unloaded.
 *
 * The device's gfx name ("gfx942:sramecc+:xnack-"), whose part before
 * the first ':' picks the code object to load, is read from
 * hipDeviceProp_tR0600.gcnArchName, at the offset hip_constants.def
 * gives, through hipGetDevicePropertiesR0600 (HIP 6 and later) into a
 * buffer larger than the struct.  HIP has no device attribute for it, and
 * the struct's layout changes between versions, so the read is checked:
 * the struct's multiProcessorCount must equal
 * hipDeviceAttributeMultiprocessorCount's answer and the name must start
 * "gfx" within its 256 bytes; otherwise (and on HIP 5, which lacks the
 * entry point) the name is "" and the table ranks every code object
 * alike, so that each is tried in the program's order: HIP refuses those
 * for another ISA.
 */
#ifndef SILK_HIP_DRIVER_H
#define SILK_HIP_DRIVER_H

#include "gpu_driver.h"

/* The table, for the runtime's GPU backend. */
extern const GpudrvDriver hipdrv_driver;

#endif
