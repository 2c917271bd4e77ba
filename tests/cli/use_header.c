/*
 * use_header.c: a host program built against the header that
 * `silkc compile --emit=header` writes for tests/golden/programs/
 * histogram.silk (as hist.h, for sm_90 and sm_80); silkc_compile.sh
 * compiles and runs it with the two .ptx files silkc wrote for the same
 * targets.  No CUDA is needed: it checks the kernel's name, its parameter
 * table (names, C types, sizes, in the IR's order), its launch bounds, the
 * target table, and that each embedded PTX string is its .ptx file byte
 * for byte.  Exit status 0 when all hold.
 */
#include "hist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, printf("header: failed: %s\n", #c)))

/* Whether `ptx` (len bytes) is the file's whole content. */
static int same_as_file(const char *ptx, size_t len, const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return got == len && memcmp(buf, ptx, len) == 0;
}

static int param_is(const struct silkc_param *p, const char *name, const char *c_type,
                    unsigned size)
{
    return strcmp(p->name, name) == 0 && strcmp(p->c_type, c_type) == 0 && p->size == size;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: use_header HIST.sm_90.ptx HIST.sm_80.ptx\n", stderr);
        return 2;
    }
    CHECK(strcmp(hist_histogram_name, "histogram") == 0);
    CHECK(hist_n_kernels == 1);
    CHECK(hist_kernels[0].name == hist_histogram_name);
    CHECK(hist_kernels[0].n_params == 3);
    CHECK(hist_kernels[0].params == hist_histogram_params);
    CHECK(param_is(&hist_histogram_params[0], "n", "uint64_t", 8));
    CHECK(param_is(&hist_histogram_params[1], "data", "CUdeviceptr", 8));
    CHECK(param_is(&hist_histogram_params[2], "bins", "CUdeviceptr", 8));
    CHECK(hist_kernels[0].reqntid == 256 && hist_kernels[0].minnctapersm == 0);
    CHECK(hist_kernels[0].maxnreg == 0 && hist_kernels[0].dynamic_smem == 0);
    CHECK(sizeof(struct hist_histogram_args) == 24);
    CHECK(hist_n_targets == 2);
    CHECK(strcmp(hist_targets[0].arch, "sm_90") == 0 && hist_targets[0].ptx == hist_ptx_sm_90);
    CHECK(strcmp(hist_targets[1].arch, "sm_80") == 0 && hist_targets[1].ptx == hist_ptx_sm_80);
    CHECK(same_as_file(hist_ptx_sm_90, sizeof hist_ptx_sm_90 - 1, argv[1]));
    CHECK(same_as_file(hist_ptx_sm_80, sizeof hist_ptx_sm_80 - 1, argv[2]));
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
