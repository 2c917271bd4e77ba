/*
 * backend.c: the list of the compiler's backends (backend.h).  The next
 * target is one more entry here.
 */
#include "backend.h"

#include <stddef.h>

static const Backend *const BACKENDS[] = {&backend_ptx, &backend_cpu, &backend_amdgpu};

const Backend *backend_find(const char *arch)
{
    for (size_t i = 0; i < sizeof BACKENDS / sizeof BACKENDS[0]; i++)
        if (BACKENDS[i]->knows(arch))
            return BACKENDS[i];
    return NULL;
}
