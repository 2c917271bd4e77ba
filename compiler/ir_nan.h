/*
 * ir_nan.h: an analysis both the CPU and the AMDGPU backends need (so it
 * is the IR's, not one backend's): which float results' bits a kernel
 * can observe, where a NaN must be made PTX's canonical one.
 */
#ifndef SILK_IR_NAN_H
#define SILK_IR_NAN_H

#include "ir.h"

#include <stdbool.h>

/* For each register of `f`, whether its bits can be seen (stored,
 * bitcast, ...), so that an f32 or f64 arithmetic result there must be
 * made canonical when it is a NaN; in m's arena. */
bool *ir_nan_seen(const IrModule *m, const IrFunc *f);

#endif
