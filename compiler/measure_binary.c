/*
 * measure_binary.c: built binaries as input (measure.h): ELF executables,
 * shared objects and relocatable objects whose .nv_fatbin (nvcc -c, and
 * what links them) or __nv_relfatbin (nvcc -c -rdc=true) section holds
 * CUDA device code, static archives of such objects (every member), and
 * .fatbin files (nvcc -fatbin).  They are told by their first bytes, not
 * their names, and read with elfutils' libelf (ELF_C_READ: section
 * headers and archive member headers only, each by pread; never mmap,
 * never the whole file) and fatbin.h, which reads the fatbin an entry
 * header at a time and a payload only when a target needs it.
 *
 * A fatbin holds one container per translation unit, each with cubins
 * (SASS) for some architectures and PTX for others.  For each target and
 * each unit the report takes what the driver would load: the cubin of
 * the target's major version with the highest minor not above the
 * target's (measure_cubin_runs_on), read as a .cubin is (cubin.h); else
 * the unit's PTX of the highest architecture not above the target's,
 * assembled by ptxas for the target (the row says so: from_ptx).  A
 * target that nothing runs on is skipped with one warning naming what the
 * binary holds.  A kernel that several units define alike (an inline or
 * template kernel) is reported once per target; one they define with
 * different figures, once per figure set, as "PATH (unit N)".  Kernels keep the binary
 * as their file, "lib.a(member.o)" for an archive's member (escaped at
 * every sink: a member's name is the archive writer's).
 */
#include "measure_internal.h"

#include "escape.h"
#include "ptx/cubin.h"
#include "ptx/fatbin.h"
#include "ptx/ptxas.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ERROR_MAX = 512 };

/* One binary being read. */
typedef struct Binary {
    Measure *m;
    const char *path;
    int fd;
    uint64_t file_size;
    FatbinList list;
    const char **unit_file;  /* per unit: the file its kernels name */
    int *unit_first;         /* per unit: its first entry (entries are in unit order) */
    int n_units;
    const char *what;        /* "an ELF shared object", for the no-code message */
    bool archive, fatbin_file, any_section;
} Binary;

/* One (target, unit) pick: an entry, and the ptxas job when it is PTX. */
typedef struct Pick {
    int entry, job;
} Pick;

static const char fatbin_sections[][16] = {".nv_fatbin", "__nv_relfatbin"};

/* Units [from, list.n_units) name their kernels as in `file`. */
static void name_units(Binary *b, const char *file)
{
    int n = b->list.n_units;
    const char **names = ARENA_ARRAY(b->m->arena, const char *, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        names[i] = i < b->n_units ? b->unit_file[i] : file;
    b->unit_file = names;
    b->n_units = n;
}

/* What an ELF file is, for people: an executable (ET_EXEC, or ET_DYN with
 * an interpreter: a PIE), a shared object, a relocatable object. */
static const char *elf_what(Elf *e, const GElf_Ehdr *h)
{
    if (h->e_type == ET_REL)
        return "an ELF relocatable object";
    if (h->e_type == ET_EXEC)
        return "an ELF executable";
    size_t n = 0;
    if (h->e_type == ET_DYN && elf_getphdrnum(e, &n) == 0)
        for (size_t i = 0; i < n; i++) {
            GElf_Phdr p;
            if (gelf_getphdr(e, (int)i, &p) && p.p_type == PT_INTERP)
                return "an ELF executable";
        }
    return h->e_type == ET_DYN ? "an ELF shared object" : "an ELF file";
}

/* The fatbin sections of the ELF `e` (`limit` bytes at `base` of the
 * file), their containers listed; false after saying why. */
static bool scan_elf(Binary *b, Elf *e, uint64_t base, uint64_t limit, const char *file)
{
    size_t strings;
    GElf_Ehdr h;
    if (!gelf_getehdr(e, &h) || elf_getshdrstrndx(e, &strings) != 0) {
        measure_error(b->m, "%s: not a readable ELF file (libelf: %s)", ESCAPED(file),
                      elf_errmsg(-1));
        return false;
    }
    if (!b->what)
        b->what = elf_what(e, &h);
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, strings, sh.sh_name) : NULL;
        if (!name || sh.sh_type == SHT_NOBITS ||
            (strcmp(name, fatbin_sections[0]) != 0 && strcmp(name, fatbin_sections[1]) != 0))
            continue;
        b->any_section = true;
        if (sh.sh_offset > limit || sh.sh_size > limit - sh.sh_offset) {
            measure_error(b->m, "%s: its %s section (%llu bytes at offset %llu) lies past the end "
                                "of the file (%llu bytes)", ESCAPED(file), name,
                          (unsigned long long)sh.sh_size, (unsigned long long)sh.sh_offset,
                          (unsigned long long)limit);
            return false;
        }
        char error[ERROR_MAX];
        if (!fatbin_list(b->fd, base + sh.sh_offset, sh.sh_size, &b->list, error, sizeof error)) {
            measure_error(b->m, "%s: %s section: %s", ESCAPED(file), name, error);
            return false;
        }
    }
    name_units(b, file);
    return true;
}

/* One member of an archive, if it is an ELF file, as "lib.a(x.o)". */
static bool scan_member(Binary *b, Elf *member)
{
    Elf_Arhdr *h = elf_getarhdr(member);
    /* "/" and "//" are the symbol and name tables, no members. */
    if (!h || !h->ar_name || h->ar_name[0] == '/' || elf_kind(member) != ELF_K_ELF)
        return true;
    size_t size = strlen(b->path) + strlen(h->ar_name) + 3;
    char *file = arena_alloc(b->m->arena, size, 1);
    snprintf(file, size, "%s(%s)", b->path, h->ar_name);
    int64_t base = elf_getbase(member);
    if (base < 0) {
        measure_error(b->m, "%s: libelf: %s", ESCAPED(file), elf_errmsg(-1));
        return false;
    }
    return scan_elf(b, member, (uint64_t)base, (uint64_t)h->ar_size, file);
}

/* Every member of the archive `ar` that is an ELF file. */
static bool scan_archive(Binary *b, Elf *ar)
{
    b->archive = true;
    b->what = "a static archive";
    Elf_Cmd cmd = ELF_C_READ;
    bool ok = true;
    for (Elf *member; ok && (member = elf_begin(b->fd, cmd, ar)); elf_end(member)) {
        ok = scan_member(b, member);
        /* Only now: libelf reads a member's section headers lazily, from
         * where the archive stands, which elf_next moves on. */
        cmd = elf_next(member);
    }
    return ok;
}

/* The containers of the whole file: an ELF's sections, an archive's
 * members', or the file itself (a .fatbin). */
static bool scan(Binary *b)
{
    unsigned char magic[4] = {0};
    if (pread(b->fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
        (magic[0] | magic[1] << 8 | magic[2] << 16 | (uint32_t)magic[3] << 24) == FATBIN_MAGIC) {
        b->fatbin_file = true;
        b->what = "a fatbin";
        char error[ERROR_MAX];
        bool ok = fatbin_list(b->fd, 0, b->file_size, &b->list, error, sizeof error);
        if (!ok)
            measure_error(b->m, "%s: %s", ESCAPED(b->path), error);
        name_units(b, b->path);
        return ok;
    }
    Elf *e = elf_begin(b->fd, ELF_C_READ, NULL);
    bool ok = e && elf_kind(e) == ELF_K_AR ? scan_archive(b, e)
              : e && elf_kind(e) == ELF_K_ELF ? scan_elf(b, e, 0, b->file_size, b->path)
                                              : false;
    if (!e || (elf_kind(e) != ELF_K_AR && elf_kind(e) != ELF_K_ELF))
        measure_error(b->m, "%s: not a readable ELF file or archive (libelf: %s)",
                      ESCAPED(b->path), elf_errmsg(-1));
    elf_end(e);
    return ok;
}

/* What target t runs of unit u: the entry, or -1 (measure_binary.c's top). */
static int pick_entry(const Binary *b, int u, const Target *t, bool *ptx)
{
    int sm = t->arch->major * 10 + t->arch->minor, cubin = -1, text = -1;
    for (int i = b->unit_first[u]; i < b->unit_first[u + 1]; i++) {
        const FatbinEntry *e = &b->list.entries[i];
        if (e->kind == FATBIN_ELF && measure_cubin_runs_on(e->arch, t) &&
            (cubin < 0 || e->arch > b->list.entries[cubin].arch))
            cubin = i;
        if (e->kind == FATBIN_PTX && e->arch <= sm && (text < 0 || e->arch > b->list.entries[text].arch))
            text = i;
    }
    *ptx = cubin < 0 && text >= 0;
    return cubin >= 0 ? cubin : text;
}

/* Entry i's payload; NULL after saying why. */
static char *read_entry(const Binary *b, int i, size_t *len)
{
    const FatbinEntry *e = &b->list.entries[i];
    char error[ERROR_MAX];
    char *data = fatbin_read_entry(b->fd, e, len, error, sizeof error);
    if (!data)
        measure_error(b->m, "%s: %s", ESCAPED(b->unit_file[e->unit]), error);
    return data;
}

/* What the entries give, each read at most once (a cubin serves every
 * target it runs on, a PTX text every target it is assembled for). */
typedef struct EntryCache {
    MeasuredKernel **kernels; /* a cubin's */
    int *n_kernels;
    bool *read;
    struct MeasurePtx *ptx;   /* a PTX text's: path, text, entries */
} EntryCache;

/* The cubin entry i's kernels into the cache; false after saying why. */
static bool read_cubin(Binary *b, EntryCache *c, int i)
{
    if (c->read[i])
        return true;
    size_t len;
    char *data = read_entry(b, i, &len);
    if (!data)
        return false;
    const FatbinEntry *e = &b->list.entries[i];
    UsageReport r;
    CubinKernel *details;
    char error[ERROR_MAX];
    bool ok = cubin_read_details(data, len, b->m->arena, &r, &details, error, sizeof error);
    free(data);
    if (!ok) {
        measure_error(b->m, "%s: its cubin for sm_%d: %s", ESCAPED(b->unit_file[e->unit]), e->arch,
                      error);
        return false;
    }
    c->kernels[i] = measure_cubin_kernels(&r, details, b->unit_file[e->unit], INPUT_BINARY,
                                          b->m->arena);
    c->n_kernels[i] = r.n_kernels;
    c->read[i] = true;
    return true;
}

/* The PTX entry i written for ptxas and scanned; false after saying why. */
static bool read_ptx(Binary *b, EntryCache *c, int i)
{
    if (c->read[i])
        return true;
    size_t len;
    char *data = read_entry(b, i, &len);
    if (!data)
        return false;
    len = strnlen(data, len); /* the payload is padded with NULs */
    struct MeasurePtx *ptx = &c->ptx[i];
    ptx->text = arena_strndup(b->m->arena, data, len);
    ptx->len = len;
    free(data);
    char stem[64];
    snprintf(stem, sizeof stem, "binary%d-%d", b->m->n_files, i);
    ptx->path = measure_write_temp(b->m, stem, ptx->text, len);
    if (!ptx->path)
        return false;
    ptx->n_entries = ptx_scan_entries(ptx->text, len, b->m->arena, &ptx->entries);
    c->read[i] = true;
    return true;
}

/* The ptxas runs the picks need. */
typedef struct Jobs {
    const char **paths, **archs;
    UsageReport *runs;
    int n;
} Jobs;

/* Target t's pick of every unit, cubins read and PTX jobs queued. */
static bool pick_target(Binary *b, EntryCache *c, const Target *t, Pick *picks, Jobs *jobs)
{
    for (int u = 0; u < b->n_units; u++) {
        bool ptx;
        int i = pick_entry(b, u, t, &ptx);
        picks[u] = (Pick){.entry = i, .job = -1};
        if (i < 0)
            continue;
        if (!ptx && !read_cubin(b, c, i))
            return false;
        if (ptx && !read_ptx(b, c, i))
            return false;
        if (ptx) {
            jobs->paths[jobs->n] = c->ptx[i].path;
            jobs->archs[jobs->n] = t->sm_name;
            picks[u].job = jobs->n++;
        }
    }
    return true;
}

/* ptxas on every queued PTX, all at once; false after saying why. */
static int run_jobs(Binary *b, Jobs *jobs)
{
    Measure *m = b->m;
    if (jobs->n == 0)
        return EXIT_OK;
    if (!m->ptxas) {
        measure_error(m, "%s: %s needs the binary's PTX assembled, and no ptxas was found (put the "
                         "CUDA toolkit's bin on PATH, or set SILK_PTXAS)", ESCAPED(b->path),
                      jobs->archs[0]);
        return EXIT_ENVIRONMENT;
    }
    m->ran.ptxas = m->ptxas;
    jobs->runs = ARENA_ARRAY(m->arena, UsageReport, (size_t)jobs->n);
    int status = ptxas_run_targets(m->ptxas, jobs->paths, jobs->archs, jobs->n, m->arena, jobs->runs);
    if (status == PTXAS_NOT_STARTED) {
        measure_error(m, "cannot start %s: %s", m->ptxas, strerror(errno));
        return EXIT_ENVIRONMENT;
    }
    for (int i = 0; status != 0 && i < jobs->n; i++)
        if (jobs->runs[i].exit_status != 0)
            return measure_ptxas_failed(m, b->path, INPUT_BINARY, &jobs->runs[i], jobs->archs[i]);
    return EXIT_OK;
}

/* A target's kernels, each alike one once (the same symbol with the same
 * figures, from several units), in a hash table of indices + 1.  A symbol
 * that units define with different figures (a template instance compiled
 * under different macros: libcurand has such) is kept once per figure
 * set, each a variant named by its unit. */
typedef struct KernelSet {
    MeasuredKernel *kernels;
    int *unit;     /* per kernel: the unit it came from */
    bool *variant; /* per kernel: another unit defines its symbol otherwise */
    int n;
    int *table;
    size_t mask;
} KernelSet;

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static bool alike(const MeasuredKernel *a, const MeasuredKernel *b)
{
    const KernelUsage *x = &a->usage, *y = &b->usage;
    return strcmp(a->name, b->name) == 0 && a->from_ptx == b->from_ptx &&
           x->registers == y->registers && x->static_smem == y->static_smem &&
           x->stack_frame == y->stack_frame && x->const_bank0 == y->const_bank0 &&
           a->maxntid == b->maxntid && a->reqntid == b->reqntid && a->maxnreg == b->maxnreg;
}

static void add_kernel(KernelSet *set, const MeasuredKernel *k, int unit)
{
    size_t slot = hash_name(k->name) & set->mask;
    bool variant = false;
    for (; set->table[slot]; slot = (slot + 1) & set->mask) {
        int i = set->table[slot] - 1;
        if (alike(&set->kernels[i], k))
            return;
        if (strcmp(set->kernels[i].name, k->name) == 0)
            variant = set->variant[i] = true;
    }
    set->unit[set->n] = unit;
    set->variant[set->n] = variant;
    set->kernels[set->n++] = *k;
    set->table[slot] = set->n;
}

/* Each variant's file, "PATH (unit 3)": the report keeps the variants
 * apart and says where each is (report_units.c). */
static void name_variants(Binary *b, KernelSet *set)
{
    for (int i = 0; i < set->n; i++)
        if (set->variant[i]) {
            char file[4096];
            int len = snprintf(file, sizeof file, "%s (unit %d)", b->unit_file[set->unit[i]],
                               set->unit[i] + 1);
            set->kernels[i].file = arena_strndup(b->m->arena, file,
                                                 len < (int)sizeof file ? (size_t)len : sizeof file - 1);
        }
}

/* The kernels of target t's picks into s. */
static void take_picks(Binary *b, EntryCache *c, const Jobs *jobs, const Pick *picks, int t,
                       MeasuredFile *s)
{
    Arena *arena = b->m->arena;
    int total = 0;
    for (int u = 0; u < b->n_units; u++) {
        int i = picks[u].entry;
        total += i < 0 ? 0 : picks[u].job < 0 ? c->n_kernels[i] : c->ptx[i].n_entries;
    }
    size_t size = 2;
    while (size < 2 * (size_t)total)
        size *= 2;
    KernelSet set = {.kernels = ARENA_ARRAY(arena, MeasuredKernel, (size_t)total + 1),
                     .unit = ARENA_ARRAY(arena, int, (size_t)total + 1),
                     .variant = ARENA_ARRAY(arena, bool, (size_t)total + 1),
                     .table = ARENA_ARRAY(arena, int, size), .mask = size - 1};
    memset(set.table, 0, size * sizeof *set.table);
    for (int u = 0; u < b->n_units; u++) {
        int i = picks[u].entry, job = picks[u].job;
        if (i >= 0 && job < 0)
            for (int k = 0; k < c->n_kernels[i]; k++)
                add_kernel(&set, &c->kernels[i][k], u);
        if (i < 0 || job < 0)
            continue;
        const struct MeasurePtx *ptx = &c->ptx[i];
        if (!s->ptx[t].path) /* the first PTX a target reads: its caps can be checked */
            s->ptx[t] = *ptx;
        for (int k = 0; k < ptx->n_entries; k++) {
            MeasuredKernel kernel = measure_kernel_from_entry(&ptx->entries[k], b->unit_file[u],
                                                              INPUT_BINARY);
            kernel.from_ptx = b->list.entries[i].arch;
            const KernelUsage *usage = usage_kernel(&jobs->runs[job], kernel.name);
            if (usage)
                kernel.usage = *usage;
            add_kernel(&set, &kernel, u);
        }
    }
    name_variants(b, &set);
    s->kernels[t] = set.kernels;
    s->n_kernels[t] = set.n;
}

/* "sm_80 and sm_90 cubins and compute_90 PTX": what the binary holds. */
static void describe(const Binary *b, char *buf, size_t size)
{
    char lists[2][256] = {"", ""};
    for (int kind = 0; kind < 2; kind++)
        for (int arch = 1, last = 0; arch; last = arch) {
            arch = 0; /* the next architecture above `last`, ascending */
            for (int i = 0; i < b->list.n; i++) {
                const FatbinEntry *e = &b->list.entries[i];
                if ((e->kind == FATBIN_ELF) == (kind == 0) && e->arch > last && (!arch || e->arch < arch))
                    arch = e->arch;
            }
            size_t used = strlen(lists[kind]);
            if (arch)
                snprintf(lists[kind] + used, sizeof lists[kind] - used, "%s%s_%d", used ? ", " : "",
                         kind == 0 ? "sm" : "compute", arch);
        }
    snprintf(buf, size, "%s%s%s%s%s", lists[0], lists[0][0] ? " cubins" : "",
             lists[0][0] && lists[1][0] ? " and " : "", lists[1], lists[1][0] ? " PTX" : "");
}

/* Marks the targets nothing in the binary runs on, with one warning (an
 * error when that is every target). */
static bool match_targets(Binary *b, const Target *targets, int n, Pick *const picks[],
                          MeasuredFile *s)
{
    char names[512] = "", holds[600];
    int kept = 0;
    s->skipped = ARENA_ARRAY(b->m->arena, bool, (size_t)n + 1);
    for (int t = 0; t < n; t++) {
        bool any = false;
        for (int u = 0; u < b->n_units && !any; u++)
            any = picks[t][u].entry >= 0;
        s->skipped[t] = !any;
        kept += any;
        size_t used = strlen(names);
        if (!any)
            snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", targets[t].sm_name);
    }
    describe(b, holds, sizeof holds);
    if (kept == 0)
        measure_error(b->m, "%s: nothing in it runs on %s (it holds %s)", ESCAPED(b->path), names,
                      holds);
    else if (kept < n && !b->m->options->own_targets)
        measure_warning(b->m, "%s: nothing in it runs on %s (it holds %s): not reported there",
                        ESCAPED(b->path), names, holds);
    return kept > 0;
}

/* The picks of every target, their cubins read and PTX assembled, the
 * kernels taken. */
static int measure_targets(Binary *b, const Target *targets, int n, MeasuredFile *s)
{
    Arena *arena = b->m->arena;
    size_t entries = (size_t)b->list.n + 1, slots = (size_t)n * (size_t)b->n_units + 1;
    EntryCache c = {.kernels = ARENA_ARRAY(arena, MeasuredKernel *, entries),
                    .n_kernels = ARENA_ARRAY(arena, int, entries),
                    .read = ARENA_ARRAY(arena, bool, entries),
                    .ptx = ARENA_ARRAY(arena, struct MeasurePtx, entries)};
    memset(c.read, 0, entries * sizeof *c.read);
    memset(c.ptx, 0, entries * sizeof *c.ptx);
    Jobs jobs = {.paths = ARENA_ARRAY(arena, const char *, slots),
                 .archs = ARENA_ARRAY(arena, const char *, slots)};
    Pick **picks = ARENA_ARRAY(arena, Pick *, (size_t)n + 1);
    for (int t = 0; t < n; t++) {
        picks[t] = ARENA_ARRAY(arena, Pick, (size_t)b->n_units + 1);
        if (!pick_target(b, &c, &targets[t], picks[t], &jobs))
            return EXIT_USAGE;
    }
    if (!match_targets(b, targets, n, picks, s))
        return EXIT_USAGE;
    int rc = run_jobs(b, &jobs);
    for (int t = 0; rc == EXIT_OK && t < n; t++) {
        memset(&s->ptx[t], 0, sizeof s->ptx[t]);
        take_picks(b, &c, &jobs, picks[t], t, s);
    }
    return rc;
}

/* Opens `path` for reading a binary: its descriptor, its size in *size;
 * -1 after saying why. */
static int open_binary(Measure *m, const char *path, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        measure_error(m, "%s: cannot read: %s", ESCAPED(path), strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        measure_error(m, "%s: not a regular file (a binary is read at offsets)", ESCAPED(path));
        close(fd);
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

/* The entries of unit u start at unit_first[u]. */
static void index_units(Binary *b)
{
    b->unit_first = ARENA_ARRAY(b->m->arena, int, (size_t)b->n_units + 2);
    for (int u = 0, i = 0; u <= b->n_units; u++) {
        while (i < b->list.n && b->list.entries[i].unit < u)
            i++;
        b->unit_first[u] = i;
    }
}

/* The file read and listed, or false after saying why (no CUDA code: one line). */
static bool read_binary(Binary *b)
{
    elf_version(EV_CURRENT);
    if (!scan(b))
        return false;
    if (b->list.n > 0) {
        index_units(b);
        return true;
    }
    if (b->fatbin_file)
        measure_error(b->m, "%s: a fatbin with no PTX or cubin entry", ESCAPED(b->path));
    else if (b->archive)
        measure_error(b->m, "%s: a static archive with no CUDA device code (no member has a "
                            ".nv_fatbin or __nv_relfatbin section)", ESCAPED(b->path));
    else if (b->any_section)
        measure_error(b->m, "%s: %s whose fatbin holds no PTX or cubin entry", ESCAPED(b->path),
                      b->what);
    else
        measure_error(b->m, "%s: %s with no CUDA device code (no .nv_fatbin or __nv_relfatbin "
                            "section)", ESCAPED(b->path), b->what);
    return false;
}

int measure_load_binary(Measure *m, const char *path, const Target *targets, int n, MeasuredFile *s)
{
    Binary b = {.m = m, .path = path};
    b.fd = open_binary(m, path, &b.file_size);
    if (b.fd < 0)
        return EXIT_USAGE;
    int rc = read_binary(&b) ? measure_targets(&b, targets, n, s) : EXIT_USAGE;
    s->measured = rc == EXIT_OK;
    fatbin_free(&b.list);
    close(b.fd);
    return rc;
}

MeasureSniff measure_sniff(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    unsigned char head[8] = {0};
    if (fd < 0)
        return MEASURE_SNIFF_OTHER;
    MeasureSniff kind = MEASURE_SNIFF_OTHER;
    ssize_t got = pread(fd, head, sizeof head, 0);
    if (got >= 4 && (head[0] | head[1] << 8 | head[2] << 16 | (uint32_t)head[3] << 24) == FATBIN_MAGIC)
        kind = MEASURE_SNIFF_BINARY;
    else if (got == 8 && memcmp(head, "!<arch>\n", 8) == 0)
        kind = MEASURE_SNIFF_BINARY;
    else if (got >= 4 && memcmp(head, ELFMAG, SELFMAG) == 0) {
        elf_version(EV_CURRENT);
        Elf *e = elf_begin(fd, ELF_C_READ, NULL);
        GElf_Ehdr h;
        kind = !e || !gelf_getehdr(e, &h) ? MEASURE_SNIFF_BINARY /* the loader says why */
               : h.e_machine == EM_CUDA   ? MEASURE_SNIFF_CUBIN
               : h.e_machine == EM_AMDGPU ? MEASURE_SNIFF_HSACO
                                          : MEASURE_SNIFF_BINARY;
        elf_end(e);
    }
    close(fd);
    return kind;
}

/* Says nothing: a binary that does not read is said by its loader. */
static void quiet(void *context, MeasureSeverity severity, const char *message)
{
    (void)context, (void)severity, (void)message;
}

bool measure_binary_archs(const char *path, char *buf, size_t size)
{
    MeasureOptions o = {.say = quiet};
    Measure m = {.options = &o, .arena = arena_new()};
    Binary b = {.m = &m, .path = path};
    b.fd = open_binary(&m, path, &b.file_size);
    bool ok = b.fd >= 0 && read_binary(&b);
    buf[0] = '\0';
    bool cubins = false;
    for (int i = 0; ok && i < b.list.n; i++)
        cubins |= b.list.entries[i].kind == FATBIN_ELF;
    for (int last = 0, arch = 1; ok && arch; last = arch) {
        arch = 0; /* the next above `last`: ascending, each once */
        for (int i = 0; i < b.list.n; i++) {
            const FatbinEntry *e = &b.list.entries[i];
            if ((e->kind == FATBIN_ELF) == cubins && e->arch > last && (!arch || e->arch < arch))
                arch = e->arch;
        }
        size_t used = strlen(buf);
        if (arch)
            snprintf(buf + used, size - used, "%ssm_%d", used ? "," : "", arch);
    }
    fatbin_free(&b.list);
    if (b.fd >= 0)
        close(b.fd);
    arena_free(m.arena);
    return ok && buf[0];
}
