/*
 * backend.c: the list of the compiler's backends (backend.h).  The next
 * target is one more entry here.
 */
#include "backend.h"

#include <stddef.h>
#include <stdint.h>

static const Backend *const BACKENDS[] = {&backend_ptx, &backend_cpu, &backend_amdgpu};

const Backend *backend_find(const char *arch)
{
    for (size_t i = 0; i < sizeof BACKENDS / sizeof BACKENDS[0]; i++)
        if (BACKENDS[i]->knows(arch))
            return BACKENDS[i];
    return NULL;
}

uint64_t backend_shared_limit(const char *arch)
{
    if (arch) {
        const Backend *b = backend_find(arch);
        return b ? b->shared_limit(arch) : 0;
    }
    uint64_t lowest = 0;
    for (size_t i = 0; i < sizeof BACKENDS / sizeof BACKENDS[0]; i++) {
        uint64_t limit = BACKENDS[i]->shared_limit(NULL);
        if (limit && (!lowest || limit < lowest))
            lowest = limit;
    }
    return lowest;
}

void backend_report(Diag *diag, const IrFunc *f, const IrInst *in, const char *message)
{
    Span at = in ? in->span : (Span){0, 0, 0};
    if (at.start != 0 || at.end != 0)
        diag_error(diag, at, "%s", message);
    else /* built IR has no spans: name the function instead */
        diag_error(diag, (Span){UINT32_MAX, 0, 0}, "in @%s: %s", f->name, message);
}
