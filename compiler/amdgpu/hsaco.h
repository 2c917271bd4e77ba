/*
 * hsaco.h: what each kernel of an AMDHSA code object (.hsaco) uses, read
 * from the file itself: the AMDGPU metadata note (ELF note owner "AMDGPU",
 * type NT_AMDGPU_METADATA = 32, code object version 3 and later), a
 * MessagePack map decoded with msgpack-c, whose "amdhsa.kernels" list
 * holds per kernel (AMDGPUUsage, "Code Object V3 Metadata"):
 *   .name, .symbol                  the kernel and its descriptor symbol
 *   .vgpr_count, .agpr_count        VGPRs (on gfx90a and gfx942 the
 *                                   unified file's total) and AGPRs
 *   .sgpr_count                     SGPRs
 *   .group_segment_fixed_size       static LDS, bytes per workgroup
 *   .private_segment_fixed_size     scratch, bytes per work-item
 *   .wavefront_size                 32 or 64
 *   .vgpr_spill_count, .sgpr_spill_count
 *   .max_flat_workgroup_size        the flat-work-group-size maximum
 * into the KernelUsage fields usage.h names for AMD.
 *
 * Every offset and size read is checked against the file: a truncated,
 * corrupt or hostile file, one that is not an AMDGPU ELF, one with no
 * metadata note or with a note that is not the MessagePack map expected
 * gives one line of error text, never a crash or a read outside the data.
 * Nothing here prints.
 */
#ifndef SILK_HSACO_H
#define SILK_HSACO_H

#include "arena.h"
#include "usage.h"

#include <stddef.h>

/* Every kernel of the `len` bytes of a code object into *out (source
 * USAGE_BINARY; arch the metadata's target processor, "gfx942", without
 * its features).  Returns 0; or -1 with *out holding no kernels and
 * out->errors one line saying what is wrong ("not an ELF file"). */
int amdgpu_code_object_parse(const unsigned char *data, size_t len, Arena *arena, UsageReport *out);

/* The same for the file at `path` (read_file's code limit); a file that
 * cannot be read is -1 too, out->errors saying why.  Messages do not name
 * the path: the caller puts it in front. */
int amdgpu_code_object_usage(const char *path, Arena *arena, UsageReport *out);

#endif
