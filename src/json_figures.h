/*
 * json_figures.h: the JSON of the engine's answer that calc and report
 * both write (a row of figures, the next step), and the "tool" object
 * every silk-occ JSON document starts with, written once so that the
 * commands' keys cannot drift apart.
 */
#ifndef SILK_JSON_FIGURES_H
#define SILK_JSON_FIGURES_H

#include "amd.h"
#include "occupancy.h"

#include <stdbool.h>
#include <stdint.h>

struct cJSON;

/* One configuration's figures: the block, what the kernel uses, and the
 * engine's answer in the one shape with each vendor's whole result. */
typedef struct JsonFigures {
    int threads, regs, warps_per_block;
    uint64_t static_smem, dynamic_smem;
    const OccFigures *fig;
    const OccResult *nvidia;
    const AmdResult *amd;
} JsonFigures;

/* The keys of a calc result and of a report's occupancy-table row. */
void json_add_figures(struct cJSON *o, const JsonFigures *f);

/* "next_step": the cut for one more CTA per SM (NVIDIA) or wave per SIMD
 * (AMD), the same keys for both, each vendor's own null on the other's;
 * the slack only while a group is resident. */
void json_add_next_step(struct cJSON *o, OccVendor vendor, const OccNextStep *nvidia,
                        const AmdNextStep *amd, bool resident);

/* "cluster": null when size is 0; else an object with the keys calc and
 * report share (dims, size, the architecture's portable_limit and limit,
 * nonportable), which it returns for the command's own keys. */
struct cJSON *json_add_cluster(struct cJSON *o, const int dims[3], int size, int portable_limit,
                               int limit);

/* The outside tools' versions behind a document's figures (measure.h's
 * measure_tool_versions), each NULL when the run did not use it. */
typedef struct JsonTools {
    const char *ptxas, *nvcc, *llc;
} JsonTools;

/* "tool": {"name": "silk-occ", "version": PACKAGE_VERSION, "ptxas", "nvcc",
 * "llc"}: which silk-occ made the document and with which tools, null
 * for those not run (`tools` NULL: none, as for calc and arch). */
void json_add_tool(struct cJSON *o, const JsonTools *tools);

#endif
