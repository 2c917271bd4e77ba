/*
 * backend.h: what a target of the compiler provides, in the manner of
 * QBE's Target: each backend lives in a folder of its own (compiler/ptx/
 * for NVIDIA GPUs) and is reached only through this table of functions,
 * so that the front end, the IR, the passes and the build pipeline
 * (build.h) never include a target's header.
 *
 * A backend emits one IR module as the target's code (PTX text), and
 * measures what each kernel of that code uses: with the target's
 * assembler when one is installed (its binary kept, so that one run gives
 * both the figures and the file a build ships), else with the compiler's
 * estimate.
 */
#ifndef SILK_BACKEND_H
#define SILK_BACKEND_H

#include "diag.h"
#include "ir.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct Build Build;
typedef struct BuildTarget BuildTarget;
typedef enum BuildStatus BuildStatus;

typedef struct Backend {
    const char *name;          /* "ptx" */
    const char *target_range;  /* for messages: "sm_75 to sm_121" */
    /* Whether a target's binary (target->binary_path, made by measure) is an
     * AMDHSA code object, which a program carries for the HIP runtime
     * (hipModuleLoadData); false: the program carries the code (PTX). */
    bool hip_code_object;

    /* The words of its tools' failures (build_exit_status): the code they
     * are given ("PTX"), the `silkc compile --emit=` kind that writes it
     * ("ptx"), and for a tool that is missing, whose targets need it
     * ("AMD"), where it comes from ("LLVM 19") and how to get it. */
    const char *code_name, *emit_name;
    const char *vendor, *tools_from, *tools_help;

    /* Whether `arch` ("sm_90") is one of this backend's targets. */
    bool (*knows)(const char *arch);

    /* The static shared memory one kernel may have on `arch`, in bytes,
     * from the target's row of the built-in tables: an NVIDIA
     * architecture's shared memory per CTA without opt-in (ptxas refuses
     * more; only dynamic shared memory may pass it), an AMD target's LDS
     * per workgroup.  For arch NULL, the lowest of the backend's targets.
     * 0 when the tables have no row for it. */
    uint64_t (*shared_limit)(const char *arch);

    /* The assembler that measures (and assembles) the code, as found now;
     * NULL when none is installed, and figures will be estimated. */
    const char *(*assembler)(void);

    /* Writes `m` for `arch` to `out`; false, with the reasons reported to
     * `diag`, when an instruction has no form on the target. */
    bool (*emit)(const IrModule *m, const char *arch, FILE *out, Diag *diag);

    /* Every kernel's figures on each of the n targets (code emitted):
     * target->usage, and target->binary_path when the assembler ran.
     * BUILD_TOOL_FAILED leaves each target's usage.exit_status and
     * usage.errors saying what happened in the tool's driver's terms, and
     * target->failure in build.h's (ToolFailure), target->tool naming the
     * tool; b->tool names the first failure's. */
    BuildStatus (*measure)(Build *b, BuildTarget *const targets[], int n);

    /* The same at register caps: caps[i][k], when not 0, is the cap of
     * b->module->funcs[k] on targets[i]; target->at_caps gets the figures
     * of the capped kernels.  A failure leaves at_caps empty: the caps
     * are then not advised. */
    void (*measure_at_caps)(Build *b, BuildTarget *const targets[], int *const caps[], int n);
} Backend;

/* The backends, each defined in its folder. */
extern const Backend backend_ptx; /* NVIDIA GPUs: sm_75 ... (compiler/ptx/) */
extern const Backend backend_cpu; /* this machine's cores: "cpu" (compiler/cpu/) */
extern const Backend backend_amdgpu; /* AMD GPUs: gfx90a ... (compiler/amdgpu/) */

/* Reports that instruction `in` of `f` (NULL: the function as a whole)
 * has no form on a backend's target: at the instruction's Silk source
 * span, or, for IR built without spans, naming the function. */
void backend_report(Diag *diag, const IrFunc *f, const IrInst *in, const char *message);

/* The backend whose target `arch` is; NULL when none knows it. */
const Backend *backend_find(const char *arch);

/* Backend.shared_limit of `arch`'s backend (0: no backend knows it); for
 * arch NULL, the lowest any backend's target allows. */
uint64_t backend_shared_limit(const char *arch);

#endif
