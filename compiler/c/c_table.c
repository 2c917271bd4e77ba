/*
 * c_table.c: the kernels inside the program: the CPU backend's module (its
 * C as the backend wrote it: the step of every kernel, their tables, the
 * silk_cpu_module the runtime's CPU backend runs), the PTX of every
 * NVIDIA target as a string literal, the code object of every AMD target
 * as a byte array (16 bytes a line, in hex), and the SilkrtProgram table
 * that names them all for the runtime.  For each kernel the table gives what a
 * launch is checked against (its user parameters, its fixed CTA size,
 * @smem) and, for a @persistent one, the resident CTAs per SM the CPU
 * backend starts (c_occupancy.c).
 */
#include "c_internal.h"

#include <inttypes.h>
#include <string.h>

/* "sm_90a" -> "silk_ptx_sm_90a", "gfx942" -> "silk_hsaco_gfx942"
 * (targets are identifiers already). */
static void array_name(const char *prefix, const char *arch, FILE *out)
{
    fputs(prefix, out);
    for (; *arch; arch++)
        fputc((*arch >= 'a' && *arch <= 'z') || (*arch >= '0' && *arch <= '9') ? *arch : '_', out);
}

/* The PTX as one literal of a line per line. */
static void ptx_literal(const BuildTarget *t, FILE *out)
{
    fputs("static const char ", out);
    array_name("silk_ptx_", t->arch, out);
    fputs("[] =\n", out);
    for (const char *p = t->code, *end = t->code + t->code_len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        fputs("    ", out);
        escape_fputs_c_string(p, len, out);
        fputc('\n', out);
        p += len;
    }
    fputs("    \"\";\n\n", out);
}

/* The code object as a byte array (aligned as an ELF file's reader may
 * want its header: 8 bytes). */
static void code_object_array(const CCodeObject *o, FILE *out)
{
    fprintf(out, "/* %zu bytes */\n_Alignas(8) static const unsigned char ", o->size);
    array_name("silk_hsaco_", o->arch, out);
    fputs("[] = {\n", out);
    for (size_t i = 0; i < o->size; i++)
        fprintf(out, "%s0x%02x,%s", i % 16 == 0 ? "    " : " ", o->bytes[i],
                i % 16 == 15 || i + 1 == o->size ? "\n" : "");
    fputs("};\n\n", out);
}

void c_kernel_code(const CProgram *p, FILE *out)
{
    const BuildTarget *cpu = &p->build->targets[p->cpu];
    fputs("/* ---- the kernels for the CPU backend, as it writes them ------------------------ */\n\n"
          "/* The backend labels every block of a kernel, declares every register at\n"
          " * the top of its step (set to 0, so that a stop can save it), lists the\n"
          " * module's shared arrays for its messages whether a kernel has any or not,\n"
          " * and holds its headers' helpers whether a kernel calls them or not: by\n"
          " * design, so those warnings are off for its module (and for c_prelude.h's\n"
          " * helpers after it). */\n"
          "#pragma GCC diagnostic push\n"
          "#pragma GCC diagnostic ignored \"-Wunused-label\"\n"
          "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n"
          "#pragma GCC diagnostic ignored \"-Wunused-const-variable\"\n"
          "#pragma GCC diagnostic ignored \"-Wunused-function\"\n",
          out);
    fwrite(cpu->code, 1, cpu->code_len, out);
    fputs("\n/* ---- the kernels for GPUs: PTX for each target, which the driver compiles ------- */\n\n",
          out);
    for (int i = 0; i < p->n_ptx; i++)
        ptx_literal(&p->build->targets[p->ptx[i]], out);
    if (!p->n_code_objects)
        return;
    fputs("/* ---- the kernels for AMD GPUs: an AMDHSA code object for each target ------------ */\n\n",
          out);
    for (int i = 0; i < p->n_code_objects; i++)
        code_object_array(&p->code_objects[i], out);
}

/* The device the CPU backend emulates, read from the products table: the
 * SILK_EMULATED_PRODUCT row's SM count (ctx.sms) and its architecture's
 * limits (the resident CTAs of a @persistent kernel). */
typedef struct Emulated {
    ArchTable table;
    bool loaded;
    const ArchLimits *arch; /* NULL: no row; a persistent kernel then gets 1 CTA per SM */
    int sms;
} Emulated;

static void load_emulated(Emulated *d)
{
    OccError err;
    d->loaded = arch_table_load_builtin(&d->table, &err) == 0; /* the built-in tables are tested */
    const GpuProduct *g = d->loaded ? arch_table_find_product(&d->table, SILK_EMULATED_PRODUCT) : NULL;
    d->arch = g ? arch_table_product_arch(&d->table, g) : NULL;
    /* The constant is the same row, taken at build time (check_arch tests it) */
    d->sms = g ? g->sm_count : SILK_EMULATED_SMS;
}

static void kernel_rows(const CProgram *p, const ArchLimits *arch, FILE *out)
{
    const IrModule *m = p->build->module;
    fputs("static const SilkrtKernel silk_program_kernels[] = {\n"
          "    /* name, parameters, fixed CTA size (0: the workspace), @smem bytes, @persistent,\n"
          "     * its resident CTAs per SM on the emulated " SILK_EMULATED_ARCH " (the CPU backend) */\n",
          out);
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const IrFunc *f = m->funcs[i];
        bool persistent = c_is_persistent(f);
        fprintf(out, "    {\"%s\", %" PRIu32 ", %d, %" PRIu64 ", %s, %" PRIu32 "},\n", f->name,
                f->n_params - (persistent ? 1 : 0), f->reqntid, f->dynamic_smem,
                persistent ? "true" : "false",
                persistent ? c_resident_ctas(arch, f, p->emulated) : 0);
    }
    fputs("};\n\n", out);
}

void c_program_table(CEmit *e, const CProgram *p, FILE *out)
{
    (void)e;
    uint32_t n_kernels = p->build->module->n_funcs;
    Emulated device;
    load_emulated(&device);
    fputs("/* ---- the program, for the runtime -------------------------------------------- */\n\n",
          out);
    if (n_kernels)
        kernel_rows(p, device.arch, out);
    if (p->n_ptx) {
        fputs("static const SilkrtPtx silk_program_ptx[] = {\n", out);
        for (int i = 0; i < p->n_ptx; i++) {
            fprintf(out, "    {\"%s\", ", p->build->targets[p->ptx[i]].arch);
            array_name("silk_ptx_", p->build->targets[p->ptx[i]].arch, out);
            fputs("},\n", out);
        }
        fputs("};\n\n", out);
    }
    if (p->n_code_objects) {
        fputs("static const SilkrtCodeObject silk_program_code_objects[] = {\n", out);
        for (int i = 0; i < p->n_code_objects; i++) {
            fprintf(out, "    {\"%s\", ", p->code_objects[i].arch);
            array_name("silk_hsaco_", p->code_objects[i].arch, out);
            fprintf(out, ", %zu},\n", p->code_objects[i].size);
        }
        fputs("};\n\n", out);
    }
    fprintf(out,
            "static const SilkrtProgram silk_program = {\n"
            "    .abi_version = SILKRT_ABI_VERSION,\n"
            "    .n_kernels = %" PRIu32 ",\n"
            "    .kernels = %s,\n"
            "    .n_ptx = %d,\n"
            "    .ptx = %s,\n"
            "    .cpu = &silk_cpu_module,\n"
            "    .cpu_sms = %d,\n"
            "    .n_code_objects = %d,\n"
            "    .code_objects = %s,\n"
            "};\n\n",
            n_kernels, n_kernels ? "silk_program_kernels" : "NULL", p->n_ptx,
            p->n_ptx ? "silk_program_ptx" : "NULL", device.sms, p->n_code_objects,
            p->n_code_objects ? "silk_program_code_objects" : "NULL");
    if (device.loaded)
        arch_table_free(&device.table);
}
