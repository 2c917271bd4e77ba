/*
 * report_amd.h: the AMD targets of `silk-occ report` (--arch sm_90,gfx942):
 * each kernel of each file compiled for each AMD target through the
 * compiler's AMDGPU backend (llc, ld.lld; a .hsaco file read as it is),
 * its figures from the code object's metadata, and the AMD engine's
 * waves per SIMD at the kernel's flat-work-group-size, printed beside the
 * NVIDIA report: a section of the text, an "amd" array of the JSON.
 */
#ifndef SILK_REPORT_AMD_H
#define SILK_REPORT_AMD_H

#include "amd.h"
#include "arena.h"
#include "cli.h"
#include "usage.h"

enum { REPORT_AMD_MAX_TARGETS = 16 };

typedef struct ReportAmdRow {
    const char *file, *kernel;
    const AmdTarget *target;
    int threads;          /* the flat-work-group-size maximum */
    KernelUsage usage;
    AmdResult result;
    AmdNextStep next;
    bool have_work;       /* --work, else the launch block's constant grid */
    uint64_t work;
    bool work_from_launch;
} ReportAmdRow;

typedef struct ReportAmd {
    AmdTable table;
    const AmdTarget *targets[REPORT_AMD_MAX_TARGETS];
    int n_targets;
    /* --gpu's AMD products; none: every product of each target */
    const AmdProduct *products[REPORT_AMD_MAX_TARGETS];
    int n_products;
    bool have_work; /* --work N (1-D) */
    bool work_2d;   /* --work COLSxROWS: the NVIDIA side's; no AMD tail */
    uint64_t work;
    bool from_objects; /* no --arch, --gpu, --all: .hsaco files on their own targets */
    ReportAmdRow *rows;
    int n_rows, cap_rows;
} ReportAmd;

/* With amd->table loaded (target_load_tables), moves the AMD names of the comma-separated
 * `list` (--arch) into amd->targets, leaving the others, in order, in
 * `list` (empty when none remain).  False after one error line. */
bool report_amd_take_targets(char *list, ReportAmd *amd);

/* The same for --gpu: an AMD product's name selects its target (once)
 * and its row of the tail. */
bool report_amd_take_gpus(char *list, ReportAmd *amd);

/* Given no target and only .hsaco files (amd->table loaded): sets
 * amd->from_objects, so that each code object is reported on its own
 * target (as cubins are); nothing when another file is among them.
 * False after one error line. */
bool report_amd_from_objects(char *const files[], int n, ReportAmd *amd);

/* Whether a file is one the AMD targets read (.silk, .hsaco) and the
 * NVIDIA targets (all but .hsaco): a file of one vendor's code keeps the
 * other vendor's report. */
bool report_amd_reads(const char *path);
bool report_nvidia_reads(const char *path);

/* Every kernel of the n files on every AMD target; no kernels at all is
 * an error, as on the NVIDIA side.  A file of NVIDIA code (.ptx, .cu,
 * .cubin) is a warning when `nvidia` (the NVIDIA targets report it),
 * else an error.  EXIT_OK, or the exit status after the reasons were
 * said. */
int report_amd_measure(ReportAmd *amd, char *const files[], int n, bool nvidia, Arena *arena);

void report_amd_write_text(const ReportAmd *amd, FILE *out);
struct cJSON;
void report_amd_add_json(struct cJSON *root, const ReportAmd *amd);

void report_amd_free(ReportAmd *amd);

#endif
