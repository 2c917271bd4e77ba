/*
 * ptx.h: the PTX backend: one IR module as one PTX module for one target.
 *
 * The output is what NVIDIA's ptxas assembles: the lowest PTX ISA .version
 * the target needs (so the PTX also loads on the oldest driver that knows
 * the target), its .target, 64-bit addresses, the module's shared arrays,
 * then each kernel as a .visible .entry with its launch bounds (.reqntid,
 * .minnctapersm, .maxnreg) and each helper function as a .visible .func.
 * The IR must have passed ir_verify; what PTX cannot express (a store to a
 * kernel parameter, an atomic on a sub-word type) is reported to `diag`.
 * Output is deterministic: the same module gives the same bytes.
 */
#ifndef SILK_PTX_H
#define SILK_PTX_H

#include "diag.h"
#include "ir.h"

#include <stdbool.h>
#include <stdio.h>

/* The lowest PTX ISA version ("7.8") that can name `target` ("sm_90") in
 * .target; NULL when the backend does not know the target. */
const char *ptx_isa_version(const char *target);

/* Writes `m` as PTX for `target` to `out`.  Returns false, with the reasons
 * reported to `diag`, when the target is unknown or an instruction has no
 * PTX form; `out` then holds a partial module to be discarded. */
bool ptx_emit_module(const IrModule *m, const char *target, FILE *out, Diag *diag);

#endif
