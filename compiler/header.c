/*
 * header.c: `silkc compile --emit=header`, a C header that carries a
 * program's kernels into a host program built without silkc at run time:
 *
 *   - the PTX of each target as a NUL-terminated string constant
 *     (PREFIX_ptx_sm_90[]), one string literal per PTX line, escaped so
 *     that the array holds exactly the bytes silkc writes to a .ptx file;
 *     and a table of the targets (PREFIX_targets[]);
 *   - per kernel, its entry symbol (PREFIX_KERNEL_name[]), a struct of its
 *     parameters in order (PREFIX_KERNEL_args, to point kernelParams at),
 *     a table describing them (name, C type, size) and its launch bounds;
 *     and a table of the kernels (PREFIX_kernels[]);
 *   - a comment showing how to load and launch a kernel with the CUDA
 *     driver API.
 *
 * The parameter list is the IR's (IrFunc.params): what the PTX entry
 * really takes, hidden parameters included.  The source's types only
 * refine how each is described: a tensor's i64 is its address, a
 * CUdeviceptr, and an integer's signedness, which the IR keeps in its
 * opcodes, picks int32_t or uint32_t.  PREFIX is the header's file name
 * as a C identifier (k.h: k), so two headers can be included together;
 * the shared struct types are guarded by their own macro.
 */
#include "header.h"

#include "sema.h"
#include "escape.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- names ---------------------------------------------------------------------- */

/* The file's name without directory or extension, as a C identifier. */
static char *header_prefix(Compilation *c, const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    char *prefix = arena_alloc(c->arena, len + 2, 1);
    size_t n = 0;
    if (len == 0 || isdigit((unsigned char)base[0]))
        prefix[n++] = '_';
    for (size_t i = 0; i < len; i++)
        prefix[n++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    return prefix;
}

/* A parameter's name as a struct member: a C keyword gets a '_' after it. */
static const char *member_name(Compilation *c, const char *name)
{
    static const char *const KEYWORDS[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
        "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
        "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
        "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    };
    for (size_t i = 0; i < sizeof KEYWORDS / sizeof KEYWORDS[0]; i++)
        if (strcmp(name, KEYWORDS[i]) == 0) {
            size_t len = strlen(name);
            char *renamed = arena_alloc(c->arena, len + 2, 1);
            memcpy(renamed, name, len);
            renamed[len] = '_';
            return renamed;
        }
    return name;
}

/* ---- parameters ---------------------------------------------------------------- */

/* One parameter as the header describes it. */
typedef struct HeaderParam {
    const char *name;     /* the struct member */
    const char *source;   /* as the IR names it */
    const char *c_type;   /* for the table: "CUdeviceptr" for an address */
    const char *member;   /* the member's C type */
    const char *note;     /* the Silk type, or "hidden" */
    uint32_t size;
} HeaderParam;

/* The checked signature of the root package's kernel `name`; NULL if none
 * (the IR's types then speak alone). */
static const FuncInfo *find_kernel_info(const Compilation *c, const char *name)
{
    for (uint32_t i = 0; i < c->n_modules; i++) {
        const Module *m = c->modules[i];
        if (m->package != PKG_ROOT || !m->scope)
            continue;
        Symbol *s = scope_find_here(m->scope, name);
        if (s && s->kind == SYM_FUNC && s->func)
            return s->func;
    }
    return NULL;
}

/* The C type of an IR type, signed unless `is_unsigned`. */
static const char *ir_c_type(IrType type, bool is_unsigned)
{
    switch (type) {
    case IRT_I8: return is_unsigned ? "uint8_t" : "int8_t";
    case IRT_I16: return is_unsigned ? "uint16_t" : "int16_t";
    case IRT_I32: return is_unsigned ? "uint32_t" : "int32_t";
    case IRT_I64: return is_unsigned ? "uint64_t" : "int64_t";
    case IRT_F16: return "uint16_t"; /* a half's bits: C11 has no half type */
    case IRT_F32: return "float";
    case IRT_F64: return "double";
    default: return "uint8_t"; /* i1: lowering rejects it as a parameter */
    }
}

static HeaderParam describe_param(Compilation *c, const IrParam *p, const Type *t)
{
    HeaderParam h = {.name = member_name(c, p->name), .source = p->name,
                     .size = ir_natural_align(p->type), .note = "hidden"};
    bool is_address = t && t->kind == TY_TENSOR && p->type == IRT_I64;
    h.member = is_address ? "unsigned long long" : ir_c_type(p->type, t && type_is_integer(t) &&
                                                                        !type_is_signed(t));
    h.c_type = is_address ? "CUdeviceptr" : h.member;
    if (t) {
        char buf[256];
        type_name(t, buf, sizeof buf);
        h.note = arena_strndup(c->arena, buf, strlen(buf));
    }
    return h;
}

/* f's parameters: the IR's list, each matched by position and name to the
 * source's (a hidden one has no match). */
static HeaderParam *describe_params(Compilation *c, const IrFunc *f)
{
    HeaderParam *params = ARENA_ARRAY(c->arena, HeaderParam, f->n_params + 1);
    const FuncInfo *info = find_kernel_info(c, f->name);
    for (uint32_t i = 0; i < f->n_params; i++) {
        const Type *t = NULL;
        if (info && i < (uint32_t)info->n_params && info->decl &&
            i < info->decl->list.count && strcmp(info->decl->list.items[i]->name,
                                                  f->params[i].name) == 0)
            t = info->params[i];
        params[i] = describe_param(c, &f->params[i], t);
    }
    return params;
}

/* ---- the PTX ----------------------------------------------------------------------- */

/* `text` as C string literals, one per line, each byte kept: '?' is
 * escaped too, so no trigraph can form. */
static void write_string(const char *text, FILE *out)
{
    const unsigned char *p = (const unsigned char *)text;
    if (!*p)
        fputs("    \"\"", out);
    while (*p) {
        fputs("    \"", out);
        for (; *p && *p != '\n'; p++) {
            if (*p == '\\' || *p == '"' || *p == '?')
                fprintf(out, "\\%c", *p);
            else if (*p == '\t')
                fputs("\\t", out);
            else if (*p < 0x20 || *p >= 0x7f)
                fprintf(out, "\\%03o", *p); /* three digits: the escape ends there */
            else
                fputc(*p, out);
        }
        if (*p == '\n') {
            fputs("\\n", out);
            p++;
        }
        fputs(*p ? "\"\n" : "\"", out);
    }
}

static void write_ptx(const char *prefix, const char *const archs[], const char *const ptx[],
                      int n, FILE *out)
{
    for (int i = 0; i < n; i++) {
        fprintf(out, "/* The PTX for %s, NUL-terminated, for cuModuleLoadData. */\n"
                     "static const char %s_ptx_%s[] =\n", archs[i], prefix, archs[i]);
        write_string(ptx[i], out);
        fputs(";\n\n", out);
    }
    fprintf(out, "static const struct silkc_target %s_targets[] = {\n", prefix);
    for (int i = 0; i < n; i++)
        fprintf(out, "    {\"%s\", %s_ptx_%s},\n", archs[i], prefix, archs[i]);
    fprintf(out, "};\nenum { %s_n_targets = %d };\n", prefix, n);
}

/* ---- the kernels --------------------------------------------------------------------- */

static void write_bounds(const IrFunc *f, FILE *out)
{
    const char *sep = " ";
    fputs(" * launch bounds:", out);
    if (f->reqntid) {
        fprintf(out, "%s.reqntid %d, 1, 1", sep, f->reqntid);
        sep = "; ";
    }
    if (f->minnctapersm) {
        fprintf(out, "%s.minnctapersm %d", sep, f->minnctapersm);
        sep = "; ";
    }
    if (f->maxnreg)
        fprintf(out, "%s.maxnreg %d", sep, f->maxnreg);
    if (!f->reqntid && !f->minnctapersm && !f->maxnreg)
        fputs(" none (any CTA size)", out);
    if (f->dynamic_smem)
        fprintf(out, "; @smem %" PRIu64 " bytes of dynamic shared memory", f->dynamic_smem);
    fputs("\n", out);
}

static void write_kernel(Compilation *c, const char *prefix, const IrFunc *f, FILE *out)
{
    const HeaderParam *params = describe_params(c, f);
    fprintf(out, "\n/* ---- kernel %s ----\n", f->name);
    write_bounds(f, out);
    fputs(" * parameters, in order:\n", out);
    for (uint32_t i = 0; i < f->n_params; i++)
        fprintf(out, " *   %" PRIu32 "  %-16s %-12s %s\n", i, params[i].source, params[i].c_type,
                params[i].note);
    if (f->n_params == 0)
        fputs(" *   none\n", out);
    fprintf(out, " */\nstatic const char %s_%s_name[] = \"%s\";\n", prefix, f->name, f->name);
    if (f->n_params == 0)
        return;
    fprintf(out, "struct %s_%s_args {\n", prefix, f->name);
    for (uint32_t i = 0; i < f->n_params; i++)
        fprintf(out, "    %s %s; /* %s%s%s */\n", params[i].member, params[i].name,
                params[i].c_type == params[i].member ? "" : params[i].c_type,
                params[i].c_type == params[i].member ? "" : ": ", params[i].note);
    fprintf(out, "};\nstatic const struct silkc_param %s_%s_params[] = {\n", prefix, f->name);
    for (uint32_t i = 0; i < f->n_params; i++)
        fprintf(out, "    {\"%s\", \"%s\", %" PRIu32 "},\n", params[i].source, params[i].c_type,
                params[i].size);
    fputs("};\n", out);
}

static void write_kernel_table(const char *prefix, const IrModule *m, FILE *out)
{
    int n = 0;
    fprintf(out, "\nstatic const struct silkc_kernel %s_kernels[] = {\n", prefix);
    for (uint32_t k = 0; k < m->n_funcs; k++) {
        const IrFunc *f = m->funcs[k];
        if (!f->kernel)
            continue;
        n++;
        fprintf(out, "    {%s_%s_name, ", prefix, f->name);
        if (f->n_params)
            fprintf(out, "%s_%s_params, ", prefix, f->name);
        else
            fputs("0, ", out);
        fprintf(out, "%" PRIu32 ", %d, %d, %d, %" PRIu64 "},\n", f->n_params, f->reqntid,
                f->minnctapersm, f->maxnreg, f->dynamic_smem);
    }
    if (n == 0)
        fputs("    {0, 0, 0, 0, 0, 0, 0}, /* no kernels */\n", out);
    fprintf(out, "};\nenum { %s_n_kernels = %d };\n", prefix, n);
}

/* ---- the file ------------------------------------------------------------------------ */

static void write_types(FILE *out)
{
    fputs("#ifndef SILKC_HEADER_TYPES\n"
          "#define SILKC_HEADER_TYPES\n"
          "/* One kernel parameter: its name in the source, its C type (CUdeviceptr\n"
          " * for a tensor's address) and its size in bytes. */\n"
          "struct silkc_param {\n"
          "    const char *name;\n"
          "    const char *c_type;\n"
          "    unsigned size;\n"
          "};\n"
          "/* One kernel: its entry symbol, its parameters in order, its launch\n"
          " * bounds (0: not given; reqntid: the CTA size every launch must use)\n"
          " * and its dynamic shared memory in bytes. */\n"
          "struct silkc_kernel {\n"
          "    const char *name;\n"
          "    const struct silkc_param *params;\n"
          "    unsigned n_params;\n"
          "    int reqntid, minnctapersm, maxnreg;\n"
          "    unsigned long long dynamic_smem;\n"
          "};\n"
          "/* One target's PTX. */\n"
          "struct silkc_target {\n"
          "    const char *arch;\n"
          "    const char *ptx;\n"
          "};\n"
          "#endif\n\n",
          out);
}

/* The opening comment, with a driver-API example for the first kernel. */
static void write_intro(Compilation *c, const char *path, const char *prefix, const IrModule *m,
                        const char *arch, FILE *out)
{
    const IrFunc *f = NULL;
    for (uint32_t k = 0; k < m->n_funcs && !f; k++)
        if (m->funcs[k]->kernel)
            f = m->funcs[k];
    const char *name = f ? f->name : "KERNEL";
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    fputs("/*\n * ", out);
    escape_fputs_comment(base, strlen(base), out); /* the file's name: outside text */
    fputs(": generated by silkc compile --emit=header; do not edit.\n"
          " *\n * The PTX of each target, and each kernel's entry name, parameters\n"
          " * (in order, with C types) and launch bounds.  Loading and launching\n"
          " * a kernel with the CUDA driver API (error checks left out):\n *\n"
          " *   #include <cuda.h>\n *   #include \"",
          out);
    escape_fputs_comment(base, strlen(base), out);
    fprintf(out, "\"\n *\n"
                 " *   CUmodule module;\n *   CUfunction fn;\n"
                 " *   cuModuleLoadData(&module, %s_ptx_%s);\n"
                 " *   cuModuleGetFunction(&fn, module, %s_%s_name);\n",
            prefix, arch, prefix, name);
    if (f && f->n_params)
        fprintf(out, " *   struct %s_%s_args args = {...};      (a tensor: its CUdeviceptr)\n"
                     " *   void *params[] = {&args.%s, ...};    (one pointer per member)\n",
                prefix, name, member_name(c, f->params[0].name));
    fprintf(out, " *   cuLaunchKernel(fn, grid, 1, 1, %d, 1, 1, 0, NULL, %s, NULL);\n */\n",
            f && f->reqntid ? f->reqntid : 256, f && f->n_params ? "params" : "NULL");
}

void header_write(Compilation *c, const IrModule *m, const char *name,
                        const char *const archs[], const char *const ptx[], int n, FILE *out)
{
    const char *prefix = header_prefix(c, name);
    write_intro(c, name, prefix, m, archs[0], out);
    fprintf(out, "#ifndef %s_SILKC_HEADER\n#define %s_SILKC_HEADER\n\n#include <stdint.h>\n\n",
            prefix, prefix);
    write_types(out);
    write_ptx(prefix, archs, ptx, n, out);
    for (uint32_t k = 0; k < m->n_funcs; k++)
        if (m->funcs[k]->kernel)
            write_kernel(c, prefix, m->funcs[k], out);
    write_kernel_table(prefix, m, out);
    fputs("\n#endif\n", out);
}
