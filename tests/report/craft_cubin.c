/*
 * craft_cubin.c: writes a small hand-made cubin for the hostile-input
 * tests (tests/cli/hostile_occ.sh): one sm_90 entry function NAME, any
 * bytes, with 32 registers and a .maxntid or .reqntid of X x Y x Z, any
 * 32-bit values.  The layout is that of check_cubin.c's built cubin, cut
 * to what the reader needs: the ELF header, .shstrtab, .strtab, .symtab,
 * .nv.info (EIATTR_REGCOUNT), .nv.info.NAME (EIATTR_MAX_THREADS 0x05 or
 * EIATTR_REQNTID 0x10, three u32) and .text.NAME.
 *
 *   craft_cubin OUT NAME maxntid|reqntid X Y Z
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../le_bytes.h"

enum { MAX = 8192, N_SECTIONS = 7 };

static unsigned char file[MAX];
static size_t used;

/* Appends at an 8-byte boundary; returns the offset. */
static size_t append(const void *data, size_t len)
{
    used = (used + 7) & ~(size_t)7;
    if (used + len > MAX) {
        fputs("craft_cubin: the name is too long\n", stderr);
        exit(2);
    }
    size_t at = used;
    memcpy(file + at, data, len);
    used += len;
    return at;
}

static void section(size_t shoff, int i, uint32_t name, uint32_t type, size_t offset, size_t size,
                    uint32_t link, uint32_t info)
{
    unsigned char *p = file + shoff + 64 * (size_t)i;
    put32(p, name);
    put32(p + 4, type);
    put64(p + 24, offset);
    put64(p + 32, size);
    put32(p + 40, link);
    put32(p + 44, info);
}

int main(int argc, char **argv)
{
    if (argc != 7 || (strcmp(argv[3], "maxntid") && strcmp(argv[3], "reqntid"))) {
        fputs("usage: craft_cubin OUT NAME maxntid|reqntid X Y Z\n", stderr);
        return 2;
    }
    const char *name = argv[2];
    size_t n = strlen(name);
    /* .shstrtab: "\0.shstrtab\0.strtab\0.symtab\0.nv.info\0.nv.info.NAME\0.text.NAME\0" */
    char names[4096];
    size_t at_info_k = 36, at_text_k = at_info_k + 9 + n + 1;
    memcpy(names, "\0.shstrtab\0.strtab\0.symtab\0.nv.info\0", 36);
    snprintf(names + at_info_k, sizeof names - at_info_k, ".nv.info.%s", name);
    snprintf(names + at_text_k, sizeof names - at_text_k, ".text.%s", name);
    size_t names_len = at_text_k + 6 + n + 1;
    char strings[2048] = "";
    snprintf(strings + 1, sizeof strings - 1, "%s", name);

    memcpy(file, "\177ELF\002\001\001\101", 8);
    file[8] = 8;                            /* ABI version 8: EF_CUDA_SM in bits 8-15 */
    put16(file + 16, 2);                    /* ET_EXEC */
    put16(file + 18, 190);                  /* EM_CUDA */
    put32(file + 20, 1);
    put32(file + 48, 90u << 8 | 0x6000004); /* sm_90 */
    put16(file + 52, 64);
    put16(file + 58, 64);
    put16(file + 60, N_SECTIONS);
    put16(file + 62, 1);
    used = 64;
    size_t shstrtab = append(names, names_len);
    size_t strtab = append(strings, n + 2);
    unsigned char symbols[48] = {0};
    put32(symbols + 24, 1);
    symbols[24 + 4] = 0x12;                 /* global function */
    symbols[24 + 5] = 0x10;                 /* STO_CUDA_ENTRY */
    put16(symbols + 24 + 6, 6);             /* in .text.NAME */
    size_t symtab = append(symbols, sizeof symbols);
    unsigned char info[12] = {0x04, 0x2f, 8, 0, 1, 0, 0, 0, 32, 0, 0, 0}; /* REGCOUNT 32 */
    size_t global = append(info, sizeof info);
    unsigned char kinfo[16] = {0x04, strcmp(argv[3], "maxntid") == 0 ? 0x05 : 0x10, 12, 0};
    for (int i = 0; i < 3; i++)
        put32(kinfo + 4 + 4 * i, (uint32_t)strtoul(argv[4 + i], NULL, 0));
    size_t kernel = append(kinfo, sizeof kinfo);
    size_t text = append("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    used = (used + 7) & ~(size_t)7;
    size_t shoff = used;
    put64(file + 40, shoff);
    used += 64 * N_SECTIONS;
    section(shoff, 1, 1, 3, shstrtab, names_len, 0, 0);
    section(shoff, 2, 11, 3, strtab, n + 2, 0, 0);
    section(shoff, 3, 19, 2, symtab, sizeof symbols, 2, 1);
    section(shoff, 4, 27, 0x70000000, global, sizeof info, 3, 0);
    section(shoff, 5, (uint32_t)at_info_k, 0x70000000, kernel, sizeof kinfo, 3, 6);
    section(shoff, 6, (uint32_t)at_text_k, 1, text, 16, 3, 0);
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(file, 1, used, f) != used || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
