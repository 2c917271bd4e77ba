/* arch_amd.h: the AMD rows of `silk-occ arch list` and `arch show`. */
#ifndef SILK_ARCH_AMD_H
#define SILK_ARCH_AMD_H

#include "amd.h"
#include "cli.h"

struct cJSON;
void arch_amd_list_text(const AmdTable *t, FILE *out);
void arch_amd_list_json(struct cJSON *o, const AmdTable *t);
/* `arch show NAME` for an AMD target or product: EXIT_OK, or -1 when the
 * name is neither. */
int arch_amd_show(const AmdTable *t, const char *name, OutputFormat format);

#endif
