/*
 * ir_parse.c: the IR's text form (ir.h) back into a module, the exact
 * inverse of ir_print, so that passes are tested from hand-written IR.
 *
 * A small scanner works on the file's NUL-terminated text one token at a
 * time: registers `%N`, globals `@name` (functions and blocks `@bN`),
 * symbols `$name`, words (letters, digits, '_' and '.', so `load.global`
 * and `tid.x` are one word), numbers (decimal, hexadecimal, hex floats,
 * `-inf`), punctuation, and newlines, which end every line of the form.
 * '#' starts a comment to the end of the line.  The parser is recursive
 * descent, one function per grammar rule (the rule above it).
 *
 * The parser checks what it needs to build a well-formed module: names,
 * numbers, types, suffixes, the shape of each opcode's operands, that each
 * register is defined once and used registers are defined somewhere, and
 * that branch targets are blocks of the function.  Everything else
 * (terminators, dominance, types of operands) is ir_verify's, so its
 * negative tests can be written as text too.
 *
 * Errors are reported at the offending token, and the parser skips to the
 * next line and goes on, so that one run reports every bad line; a bad
 * function header still opens a body, so its lines are checked.  Parsing
 * stops at the diagnostics' error limit.  Registers and blocks may be used
 * before the line that defines them (a phi's back edge, a forward branch):
 * they are resolved at the function's closing '}'.
 */
#include "ir.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_REG = 1 << 24, /* a register table of 2^24 entries is the most we build */
};

/* ---- the scanner --------------------------------------------------------- */

typedef enum TokKind { T_EOF, T_NL, T_WORD, T_NUM, T_REG, T_GLOBAL, T_SYM, T_PUNCT, T_ERROR } TokKind;

typedef struct Tok {
    TokKind kind;
    uint32_t start, end;
    char punct; /* T_PUNCT: the character; '>' for "->" */
} Tok;

/* What a register number is known to be while its function is parsed. */
typedef struct RegInfo {
    bool defined, used;
    IrType type;
    Span first_use;
} RegInfo;

/* A block named in the function, defined by its label or not yet. */
typedef struct BlockRef {
    uint32_t id;
    IrBlock *block;
    bool defined;
    Span first_use;
} BlockRef;

typedef struct Parser {
    const char *text;
    uint32_t file;
    Diag *diag;
    Arena *arena;
    IrModule *m;
    Tok tok;      /* the current token */
    uint32_t pos; /* where the scanner goes on */
    bool stopped; /* the error limit was reached */
    uint32_t prev_end; /* where the token before the current one ended */
    Arena *scratch;    /* the tables below, dropped when parsing ends */
    /* the function being parsed */
    IrFunc *f;
    IrBlock *block;
    RegInfo *regs;
    uint32_t n_regs, regs_capacity; /* n_regs: one past the highest register named */
    BlockRef *refs;
    uint32_t n_refs;
} Parser;

static bool is_letter(char c)
{
    return (unsigned char)(((unsigned char)c | 0x20) - 'a') < 26 || c == '_';
}

static bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

static bool is_word_char(char c)
{
    return is_letter(c) || is_digit(c) || c == '.';
}

static Span span_at(const Parser *p, uint32_t start, uint32_t end)
{
    return (Span){p->file, start, end};
}

static Span tok_span(const Parser *p)
{
    return span_at(p, p->tok.start, p->tok.end);
}

static void error_at(Parser *p, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void error_at(Parser *p, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(p->diag, at, fmt, ap);
    va_end(ap);
    if (diag_too_many(p->diag))
        p->stopped = true;
}

/* A number: an optional '-', then a digit or a letter (`-inf`), then word
 * characters; a sign may follow the exponent letter of a float. */
static uint32_t scan_number(const char *t, uint32_t i)
{
    bool hex = false;
    if (t[i] == '-')
        i++;
    if (t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X'))
        hex = true;
    for (;; i++) {
        char c = t[i];
        if (is_letter(c) || is_digit(c) || c == '.')
            continue;
        char e = t[i - 1] | 0x20;
        if ((c == '+' || c == '-') && (e == 'p' || (!hex && e == 'e')))
            continue;
        return i;
    }
}

static TokKind scan_sigil(Parser *p, uint32_t *i)
{
    const char *t = p->text;
    char sigil = t[*i];
    uint32_t from = ++*i;
    if (sigil == '%') {
        while (is_digit(t[*i]))
            ++*i;
    } else {
        while (is_letter(t[*i]) || is_digit(t[*i]))
            ++*i;
    }
    if (*i > from)
        return sigil == '%' ? T_REG : sigil == '@' ? T_GLOBAL : T_SYM;
    error_at(p, span_at(p, from - 1, from), sigil == '%' ? "expected a register number after '%%'"
                                                         : "expected a name after '%c'", sigil);
    return T_ERROR;
}

static void skip_blanks(Parser *p)
{
    const char *t = p->text;
    for (;;) {
        if (t[p->pos] == ' ' || t[p->pos] == '\t' || t[p->pos] == '\r')
            p->pos++;
        else if (t[p->pos] == '#')
            while (t[p->pos] && t[p->pos] != '\n')
                p->pos++;
        else
            return;
    }
}

static void next(Parser *p)
{
    p->prev_end = p->tok.end;
    skip_blanks(p);
    const char *t = p->text;
    uint32_t i = p->pos;
    Tok tok = {.start = i};
    char c = t[i];
    if (c == '\0')
        tok.kind = T_EOF;
    else if (c == '\n')
        tok.kind = T_NL, i++;
    else if (c == '%' || c == '@' || c == '$')
        tok.kind = scan_sigil(p, &i);
    else if (is_digit(c) || (c == '-' && (is_digit(t[i + 1]) || is_letter(t[i + 1]))))
        tok.kind = T_NUM, i = scan_number(t, i);
    else if (is_letter(c)) {
        tok.kind = T_WORD;
        while (is_word_char(t[i]))
            i++;
    } else if (c == '-' && t[i + 1] == '>')
        tok.kind = T_PUNCT, tok.punct = '>', i += 2;
    else if (strchr("()[]{},:=", c))
        tok.kind = T_PUNCT, tok.punct = c, i++;
    else {
        error_at(p, span_at(p, i, i + 1), "unexpected character '%c'", c);
        tok.kind = T_ERROR, i++;
    }
    tok.end = i;
    p->tok = tok;
    p->pos = i;
}

/* ---- token helpers ------------------------------------------------------- */

static bool tok_is(const Parser *p, const char *word)
{
    size_t len = strlen(word);
    return p->tok.kind == T_WORD && p->tok.end - p->tok.start == len &&
           memcmp(p->text + p->tok.start, word, len) == 0;
}

static bool at_punct(const Parser *p, char c)
{
    return p->tok.kind == T_PUNCT && p->tok.punct == c;
}

static bool at_line_end(const Parser *p)
{
    return p->tok.kind == T_NL || p->tok.kind == T_EOF;
}

static int tok_len(const Parser *p)
{
    return (int)(p->tok.end - p->tok.start);
}

/* Reports `what` was expected, unless the scanner already reported the token. */
static bool fail(Parser *p, const char *what)
{
    if (p->tok.kind != T_ERROR)
        error_at(p, tok_span(p), "%s", what);
    return false;
}

static bool expect_punct(Parser *p, char c, const char *what)
{
    if (!at_punct(p, c))
        return fail(p, what);
    next(p);
    return true;
}

static bool expect_line_end(Parser *p)
{
    if (!at_line_end(p))
        return fail(p, "expected the end of the line");
    return true;
}

/* After an error: on to the newline that ends the line. */
static void skip_line(Parser *p)
{
    while (!at_line_end(p))
        next(p);
}

static char *tok_name(Parser *p, uint32_t skip)
{
    return arena_strndup(p->arena, p->text + p->tok.start + skip, p->tok.end - p->tok.start - skip);
}

/* ir.h's name functions, shaped alike so that one lookup serves them all. */
typedef const char *NameFn(int);
static const char *op_at(int i) { return ir_op_name((IrOp)i); }
static const char *type_at(int i) { return ir_type_name((IrType)i); }
static const char *space_at(int i) { return ir_space_name((IrSpace)i); }
static const char *cmp_at(int i) { return ir_cmp_name((IrCmp)i); }
static const char *sreg_at(int i) { return ir_sreg_name((IrSreg)i); }
static const char *shfl_at(int i) { return ir_shfl_name((IrShfl)i); }
static const char *atom_at(int i) { return ir_atom_name((IrAtom)i); }

/* The first i in [from, to) whose name is `text[0..len)`, or -1. */
static int lookup_name(NameFn *name, int from, int to, const char *text, size_t len)
{
    for (int i = from; i < to; i++)
        if (strlen(name(i)) == len && memcmp(name(i), text, len) == 0)
            return i;
    return -1;
}

static int lookup_tok(const Parser *p, NameFn *name, int from, int to)
{
    if (p->tok.kind != T_WORD)
        return -1;
    return lookup_name(name, from, to, p->text + p->tok.start, p->tok.end - p->tok.start);
}

/* ---- registers and blocks of the function being parsed ------------------- */

static RegInfo *reg_info(Parser *p, uint32_t reg)
{
    if (reg >= p->regs_capacity) {
        uint32_t bigger = p->regs_capacity ? p->regs_capacity : 64;
        while (bigger <= reg)
            bigger *= 2;
        p->regs = arena_grow(p->scratch, p->regs, p->regs_capacity, bigger, sizeof *p->regs);
        memset(p->regs + p->regs_capacity, 0, (bigger - p->regs_capacity) * sizeof *p->regs);
        p->regs_capacity = bigger;
    }
    if (reg >= p->n_regs)
        p->n_regs = reg + 1;
    return &p->regs[reg];
}

static void define_reg(Parser *p, uint32_t reg, IrType type, Span at)
{
    RegInfo *r = reg_info(p, reg);
    if (r->defined)
        error_at(p, at, "%%%u is defined twice", reg);
    r->defined = true;
    r->type = type;
}

static void use_reg(Parser *p, uint32_t reg, Span at)
{
    RegInfo *r = reg_info(p, reg);
    if (!r->used)
        r->first_use = at;
    r->used = true;
}

/* Blocks are few per function, so a list searched from the end will do. */
static BlockRef *block_ref(Parser *p, uint32_t id, Span at)
{
    for (uint32_t i = p->n_refs; i-- > 0;)
        if (p->refs[i].id == id)
            return &p->refs[i];
    p->refs = ir_grow(p->scratch, p->refs, p->n_refs, sizeof *p->refs);
    BlockRef *r = &p->refs[p->n_refs++];
    *r = (BlockRef){.id = id, .block = ARENA_NEW(p->arena, IrBlock), .first_use = at};
    r->block->id = id;
    return r;
}

/* Digits as a number no larger than `max`; false if there are none, a
 * non-digit, or too many. */
static bool decimal(const char *text, size_t len, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!is_digit(text[i]) || v > (max - (uint64_t)(text[i] - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(text[i] - '0');
    }
    *out = v;
    return len > 0;
}

/* reg = "%" digits */
static bool reg_number(Parser *p, uint32_t *out)
{
    uint64_t v;
    if (p->tok.kind != T_REG)
        return fail(p, "expected a register");
    if (!decimal(p->text + p->tok.start + 1, (size_t)tok_len(p) - 1, MAX_REG - 1, &v)) {
        error_at(p, tok_span(p), "register number %.*s is too large", tok_len(p), p->text + p->tok.start);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* block = "@b" digits */
static bool block_name(Parser *p, BlockRef **out)
{
    const char *t = p->text + p->tok.start;
    uint64_t id;
    if (p->tok.kind != T_GLOBAL || t[1] != 'b' || !decimal(t + 2, (size_t)tok_len(p) - 2, UINT32_MAX, &id))
        return fail(p, "expected a block (@b0)");
    *out = block_ref(p, (uint32_t)id, tok_span(p));
    next(p);
    return true;
}

/* ---- types, numbers, values ---------------------------------------------- */

/* type = "i1" | "i8" | "i16" | "i32" | "i64" | "f16" | "f32" | "f64" */
static bool type(Parser *p, IrType *out)
{
    int t = lookup_tok(p, type_at, IRT_I1, IRT_F64 + 1);
    if (t < 0)
        return fail(p, "expected a type");
    *out = (IrType)t;
    next(p);
    return true;
}

/* unsigned_number = digits (decimal, no sign) */
static bool unsigned_number(Parser *p, uint64_t max, uint64_t *out)
{
    if (p->tok.kind != T_NUM)
        return fail(p, "expected a number");
    if (!decimal(p->text + p->tok.start, (size_t)tok_len(p), max, out)) {
        error_at(p, tok_span(p), "'%.*s' is not a number from 0 to %" PRIu64, tok_len(p),
                 p->text + p->tok.start, max);
        return false;
    }
    next(p);
    return true;
}

static bool is_float_type(IrType t)
{
    return t == IRT_F16 || t == IRT_F32 || t == IRT_F64;
}

static uint64_t width_mask(IrType type)
{
    int bits = ir_type_bits(type);
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Any value of `bits` bits, signed or unsigned: -2^(n-1) .. 2^n - 1. */
static bool int_constant(Parser *p, const char *text, Span at, IrType type, uint64_t *bits)
{
    bool negative = text[0] == '-';
    const char *digits = text + negative;
    int base = digits[0] == '0' && (digits[1] | 0x20) == 'x' ? 16 : 10;
    char *end;
    errno = 0;
    int64_t s = negative ? (int64_t)strtoll(text, &end, base) : 0;
    uint64_t u = negative ? (uint64_t)s : (uint64_t)strtoull(text, &end, base);
    if (*end || !is_digit(digits[0])) {
        error_at(p, at, "'%s' is not an integer", text);
        return false;
    }
    int n = ir_type_bits(type);
    bool fits = errno != ERANGE &&
                (n == 64 || (negative ? s >= -(int64_t)(1ull << (n - 1)) : u <= width_mask(type)));
    if (!fits) {
        error_at(p, at, "%s does not fit in %s", text, ir_type_name(type));
        return false;
    }
    *bits = u & width_mask(type);
    return true;
}

/* Hexadecimal without a 'p' exponent is a float's raw bits (how NaNs are
 * written); anything else goes through strtod and is rounded to the type. */
static bool float_constant(Parser *p, const char *text, Span at, IrType type, uint64_t *bits)
{
    char *end;
    if (text[0] == '0' && (text[1] | 0x20) == 'x' && !strpbrk(text, "pP.")) {
        errno = 0;
        uint64_t raw = strtoull(text, &end, 16);
        if (*end || errno == ERANGE || raw > width_mask(type)) {
            error_at(p, at, "%s is not a %s bit pattern", text, ir_type_name(type));
            return false;
        }
        *bits = raw;
        return true;
    }
    double d = strtod(text, &end);
    if (*end || end == text) {
        error_at(p, at, "'%s' is not a number", text);
        return false;
    }
    *bits = ir_float_bits(type, d);
    return true;
}

/* value = reg | constant (":" type)?
 * constant = number | "inf" | "nan" */
static bool value(Parser *p, const IrInst *in, uint32_t index, IrValue *out)
{
    if (p->tok.kind == T_REG) {
        uint32_t reg;
        if (!reg_number(p, &reg))
            return false;
        use_reg(p, reg, tok_span(p));
        *out = (IrValue){.kind = IRV_REG, .reg = reg};
        next(p);
        return true;
    }
    if (p->tok.kind != T_NUM && !tok_is(p, "inf") && !tok_is(p, "nan"))
        return fail(p, "expected a value");
    Span at = tok_span(p);
    char *text = tok_name(p, 0);
    next(p);
    IrType t = ir_operand_type(p->f, in, index);
    if (at_punct(p, ':')) {
        next(p);
        if (!type(p, &t))
            return false;
    } else if (t == IRT_VOID) {
        error_at(p, at, "the constant %s needs its type here, as in %s:i32", text, text);
        return false;
    }
    *out = (IrValue){.kind = is_float_type(t) ? IRV_FLOAT : IRV_INT, .type = t};
    return is_float_type(t) ? float_constant(p, text, at, t, &out->bits) : int_constant(p, text, at, t, &out->bits);
}

/* ---- operands ------------------------------------------------------------- */

static void add_operand(Parser *p, IrInst *in, IrValue v)
{
    in->operands = ir_grow(p->arena, in->operands, in->n_operands, sizeof *in->operands);
    in->operands[in->n_operands++] = v;
}

/* values = (value ("," value)*)? */
static bool values(Parser *p, IrInst *in)
{
    if (at_line_end(p))
        return true;
    for (;;) {
        IrValue v;
        if (!value(p, in, in->n_operands, &v))
            return false;
        add_operand(p, in, v);
        if (!at_punct(p, ','))
            return true;
        next(p);
    }
}

/* cbr_operands = value "," block "," block */
static bool cbr_operands(Parser *p, IrInst *in)
{
    IrValue v;
    BlockRef *then, *otherwise;
    if (!value(p, in, 0, &v) || !expect_punct(p, ',', "expected ','") || !block_name(p, &then) ||
        !expect_punct(p, ',', "expected ','") || !block_name(p, &otherwise))
        return false;
    add_operand(p, in, v);
    in->target[0] = then->block;
    in->target[1] = otherwise->block;
    return true;
}

/* phi_operands = arm ("," arm)*
 * arm = "[" block ":" value "]" */
static bool phi_operands(Parser *p, IrInst *in)
{
    for (;;) {
        BlockRef *from;
        IrValue v;
        if (!expect_punct(p, '[', "expected '[' and a predecessor, as in [@b0: %1]") || !block_name(p, &from) ||
            !expect_punct(p, ':', "expected ':'") || !value(p, in, in->n_operands, &v) ||
            !expect_punct(p, ']', "expected ']'"))
            return false;
        in->incoming = ir_grow(p->arena, in->incoming, in->n_operands, sizeof *in->incoming);
        in->incoming[in->n_operands] = from->block;
        add_operand(p, in, v);
        if (!at_punct(p, ','))
            return true;
        next(p);
    }
}

/* operands = symbol (addr) | symbol values (check, assigned) | block (br)
 *          | cbr_operands | phi_operands | values */
static bool operands(Parser *p, IrInst *in)
{
    BlockRef *target;
    switch (in->op) {
    case IR_ADDR: case IR_CHECK: case IR_ASSIGNED:
        if (p->tok.kind != T_SYM)
            return fail(p, "expected a symbol ($name)");
        in->symbol = tok_name(p, 1);
        next(p);
        return in->op == IR_ADDR || values(p, in);
    case IR_BR:
        if (!block_name(p, &target))
            return false;
        in->target[0] = target->block;
        return true;
    case IR_CBR: return cbr_operands(p, in);
    case IR_PHI: return phi_operands(p, in);
    default: return values(p, in);
    }
}

/* ---- instructions --------------------------------------------------------- */

/* The `len` bytes at `s` as one of `count` names from `name`; reports `what`
 * at `at` when they are none (s == NULL: the suffix is missing). */
static bool suffix_name(Parser *p, const IrInst *in, NameFn *name, int count, const char *s, size_t len,
                        Span at, const char *what, int *out)
{
    *out = s ? lookup_name(name, 0, count, s, len) : -1;
    if (*out >= 0)
        return true;
    if (s)
        error_at(p, at, "unknown %s '%.*s'", what, (int)len, s);
    else
        error_at(p, at, "'%s' needs its %s", ir_op_name(in->op), what);
    return false;
}

/* suffix = "." space (load, store, addr) | "." space "." atom_op (atom)
 *        | "." shfl_mode (shfl); other opcodes take none */
static bool op_suffix(Parser *p, IrInst *in, const char *s, size_t len, Span at)
{
    int v;
    const char *dot;
    switch (in->op) {
    case IR_LOAD: case IR_STORE: case IR_ADDR:
        if (!suffix_name(p, in, space_at, IRS_LOCAL + 1, s, len, at, "address space", &v))
            return false;
        in->space = (IrSpace)v;
        return true;
    case IR_ATOM:
        dot = s ? memchr(s, '.', len) : NULL;
        if (!suffix_name(p, in, space_at, IRS_LOCAL + 1, s, dot ? (size_t)(dot - s) : len, at, "address space", &v))
            return false;
        in->space = (IrSpace)v;
        if (!suffix_name(p, in, atom_at, IRA_CAS + 1, dot ? dot + 1 : NULL, dot ? len - (size_t)(dot + 1 - s) : 0, at,
                         "atomic operation", &v))
            return false;
        in->atom = (IrAtom)v;
        return true;
    case IR_SHFL:
        if (!suffix_name(p, in, shfl_at, IRSH_IDX + 1, s, len, at, "shuffle mode", &v))
            return false;
        in->shfl = (IrShfl)v;
        return true;
    case IR_CHECK: /* .N: the dimension */
        if (!s || len == 0 || len > 2 || strspn(s, "0123456789") < len) {
            error_at(p, at, "'check' needs its dimension, as check.0");
            return false;
        }
        in->dim = (uint32_t)atoi(s);
        return true;
    default:
        if (s)
            error_at(p, at, "'%s' takes no suffix", ir_op_name(in->op));
        return !s;
    }
}

/* A word after the opcode: cmp's predicate, sreg's register. */
static bool op_word(Parser *p, NameFn *name, int count, const char *what, int *out)
{
    *out = lookup_tok(p, name, 0, count);
    if (*out >= 0) {
        next(p);
        return true;
    }
    if (p->tok.kind == T_WORD)
        error_at(p, tok_span(p), "unknown %s '%.*s'", what, tok_len(p), p->text + p->tok.start);
    else
        fail(p, what[0] == 'p' ? "expected a predicate" : "expected a special register");
    return false;
}

/* opcode = word ("." suffix)? ; "cmp" predicate ; "sreg" special_register
 * The whole word is tried first, for "bar.sync". */
static bool opcode(Parser *p, IrInst *in)
{
    if (p->tok.kind != T_WORD)
        return fail(p, "expected an opcode");
    const char *w = p->text + p->tok.start;
    size_t len = (size_t)tok_len(p), base = len;
    int op = lookup_name(op_at, 0, IR_OP_COUNT, w, len);
    if (op < 0) {
        const char *dot = memchr(w, '.', len);
        base = dot ? (size_t)(dot - w) : len;
        op = lookup_name(op_at, 0, IR_OP_COUNT, w, base);
    }
    if (op < 0) {
        error_at(p, tok_span(p), "unknown opcode '%.*s'", (int)base, w);
        return false;
    }
    in->op = (IrOp)op;
    if (!op_suffix(p, in, base < len ? w + base + 1 : NULL, base < len ? len - base - 1 : 0, tok_span(p)))
        return false;
    next(p);
    int v;
    if (in->op == IR_CMP) {
        if (!op_word(p, cmp_at, IRC_FGE + 1, "predicate", &v))
            return false;
        in->cmp = (IrCmp)v;
    } else if (in->op == IR_SREG) {
        if (!op_word(p, sreg_at, IRR_NSMID + 1, "special register", &v))
            return false;
        in->sreg = (IrSreg)v;
    }
    return true;
}

/* result = reg ":" type "=" */
static bool result(Parser *p, IrInst *in)
{
    uint32_t reg;
    Span at = tok_span(p);
    if (!reg_number(p, &reg))
        return false;
    next(p);
    if (!expect_punct(p, ':', "expected ':' and the result's type") || !type(p, &in->type) ||
        !expect_punct(p, '=', "expected '='"))
        return false;
    /* Defined before the rest of the line is read, so that an error later
     * in it does not make every use of the register an error too. */
    define_reg(p, reg, in->type, at);
    in->result = reg;
    return true;
}

/* inst = (result)? opcode operands NL */
static bool inst(Parser *p)
{
    if (!p->block)
        return fail(p, "expected a block label (@b0:) before the first instruction");
    IrInst *in = ARENA_NEW(p->arena, IrInst);
    uint32_t start = p->tok.start;
    bool has_result = p->tok.kind == T_REG;
    if (has_result && !result(p, in))
        return false;
    Span op_at = tok_span(p);
    if (!opcode(p, in))
        return false;
    if (ir_op_defines(in->op) != has_result) {
        error_at(p, op_at, has_result ? "'%s' gives no value" : "'%s' gives a value: write %%N: T = %s ...",
                 ir_op_name(in->op), ir_op_name(in->op));
        return false;
    }
    if (!operands(p, in) || !expect_line_end(p))
        return false;
    in->span = span_at(p, start, p->prev_end);
    p->block->insts = ir_grow(p->arena, p->block->insts, p->block->n_insts, sizeof *p->block->insts);
    p->block->insts[p->block->n_insts++] = in;
    return true;
}

/* label = block ":" NL */
static bool label(Parser *p)
{
    BlockRef *ref;
    Span at = tok_span(p);
    if (!block_name(p, &ref) || !expect_punct(p, ':', "expected ':' after the block's name") || !expect_line_end(p))
        return false;
    if (ref->defined) {
        error_at(p, at, "@b%u is defined twice", ref->id);
        return false;
    }
    ref->defined = true;
    IrFunc *f = p->f;
    f->blocks = ir_grow(p->arena, f->blocks, f->n_blocks, sizeof *f->blocks);
    f->blocks[f->n_blocks++] = ref->block;
    p->block = ref->block;
    return true;
}

/* ---- functions and the module --------------------------------------------- */

/* param = reg ":" type symbol? */
static bool param(Parser *p, IrFunc *f)
{
    IrParam prm = {0};
    Span at = tok_span(p);
    if (!reg_number(p, &prm.reg))
        return false;
    next(p);
    if (!expect_punct(p, ':', "expected ':' and the parameter's type") || !type(p, &prm.type))
        return false;
    if (p->tok.kind == T_SYM) {
        prm.name = tok_name(p, 1);
        next(p);
    }
    define_reg(p, prm.reg, prm.type, at);
    f->params = ir_grow(p->arena, f->params, f->n_params, sizeof *f->params);
    f->params[f->n_params++] = prm;
    return true;
}

/* attribute = ("reqntid" | "minnctapersm" | "maxnreg") unsigned_number | "smem" unsigned_number */
static bool attribute(Parser *p, IrFunc *f)
{
    int *field = tok_is(p, "reqntid") ? &f->reqntid
               : tok_is(p, "minnctapersm") ? &f->minnctapersm
               : tok_is(p, "maxnreg") ? &f->maxnreg : NULL;
    uint64_t v;
    if (tok_is(p, "smem")) {
        next(p);
        return unsigned_number(p, UINT64_MAX, &f->dynamic_smem);
    }
    if (!field) {
        error_at(p, tok_span(p), "unknown attribute '%.*s'", tok_len(p), p->text + p->tok.start);
        return false;
    }
    next(p);
    if (!unsigned_number(p, INT32_MAX, &v))
        return false;
    *field = (int)v;
    return true;
}

/* header = ("kernel" | "func") global "(" (param ("," param)*)? ")" ("->" type)?
 *          attribute* "{" NL */
static bool header(Parser *p, IrFunc *f)
{
    f->kernel = tok_is(p, "kernel");
    next(p);
    if (p->tok.kind != T_GLOBAL)
        return fail(p, "expected the function's name (@name)");
    f->name = tok_name(p, 1);
    next(p);
    if (!expect_punct(p, '(', "expected '('"))
        return false;
    while (!at_punct(p, ')')) {
        if (!param(p, f))
            return false;
        if (!at_punct(p, ','))
            break;
        next(p);
    }
    if (!expect_punct(p, ')', "expected ',' or ')'"))
        return false;
    if (at_punct(p, '>')) {
        next(p);
        if (!type(p, &f->result))
            return false;
    }
    while (p->tok.kind == T_WORD)
        if (!attribute(p, f))
            return false;
    return expect_punct(p, '{', "expected '{'") && expect_line_end(p);
}

static void skip_newlines(Parser *p)
{
    while (p->tok.kind == T_NL)
        next(p);
}

/* At '}': blocks named but never labelled and registers used but never
 * defined are errors at their first use; register operands get their
 * definitions' types. */
static void finish_func(Parser *p)
{
    IrFunc *f = p->f;
    for (uint32_t i = 0; i < p->n_refs; i++)
        if (!p->refs[i].defined)
            error_at(p, p->refs[i].first_use, "@b%u is not a block of @%s", p->refs[i].id, f->name ? f->name : "?");
    for (uint32_t r = 0; r < p->n_regs; r++)
        if (p->regs[r].used && !p->regs[r].defined)
            error_at(p, p->regs[r].first_use, "%%%u is used but never defined", r);
    for (uint32_t b = 0; b < f->n_blocks; b++)
        for (uint32_t i = 0; i < f->blocks[b]->n_insts; i++) {
            IrInst *in = f->blocks[b]->insts[i];
            for (uint32_t k = 0; k < in->n_operands; k++)
                if (in->operands[k].kind == IRV_REG)
                    in->operands[k].type = p->regs[in->operands[k].reg].type;
        }
    f->n_regs = p->n_regs;
}

/* body = (label | inst | NL)* "}" */
static void body(Parser *p)
{
    for (;;) {
        skip_newlines(p);
        if (p->stopped)
            return;
        if (at_punct(p, '}')) {
            next(p);
            if (!expect_line_end(p))
                skip_line(p);
            return;
        }
        if (p->tok.kind == T_EOF || tok_is(p, "kernel") || tok_is(p, "func") || tok_is(p, "shared")) {
            fail(p, "expected '}' at the end of the function");
            return;
        }
        if (!(p->tok.kind == T_GLOBAL ? label(p) : inst(p)))
            skip_line(p);
    }
}

/* func = header body */
static void func(Parser *p)
{
    p->f = ir_new_func(p->m, NULL, false);
    p->block = NULL;
    p->n_regs = p->n_refs = 0;
    if (p->regs)
        memset(p->regs, 0, p->regs_capacity * sizeof *p->regs);
    if (!header(p, p->f))
        skip_line(p); /* the body is still read, so its errors are found too */
    body(p);
    if (!p->stopped)
        finish_func(p);
}

/* shared = "shared" symbol ":" type "[" unsigned_number "]" ("align" unsigned_number)? NL */
static bool shared(Parser *p)
{
    next(p);
    if (p->tok.kind != T_SYM)
        return fail(p, "expected the array's name ($name)");
    IrShared *s = ir_add_shared(p->m, tok_name(p, 1), IRT_VOID, 0);
    next(p);
    uint64_t align;
    if (!expect_punct(p, ':', "expected ':' and the element type") || !type(p, &s->elem) ||
        !expect_punct(p, '[', "expected '['") || !unsigned_number(p, UINT64_MAX, &s->count) ||
        !expect_punct(p, ']', "expected ']'"))
        return false;
    s->align = ir_natural_align(s->elem);
    if (tok_is(p, "align")) {
        next(p);
        if (!unsigned_number(p, UINT32_MAX, &align))
            return false;
        s->align = (uint32_t)align;
    }
    return expect_line_end(p);
}

/* module = (shared | func | NL)* EOF */
IrModule *ir_parse(const SourceMap *sources, uint32_t file, Diag *diag, Arena *arena)
{
    assert(file < sources->n_files);
    Parser p = {.text = sources->files[file].text, .file = file, .diag = diag, .arena = arena};
    int errors_before = diag->errors;
    p.scratch = arena_new_like(arena);
    p.m = ir_new_module(arena);
    next(&p);
    for (skip_newlines(&p); p.tok.kind != T_EOF && !p.stopped; skip_newlines(&p)) {
        if (tok_is(&p, "shared")) {
            if (!shared(&p))
                skip_line(&p);
        } else if (tok_is(&p, "kernel") || tok_is(&p, "func")) {
            func(&p);
        } else {
            fail(&p, "expected 'shared', 'kernel' or 'func'");
            skip_line(&p);
        }
    }
    arena_free(p.scratch);
    return diag->errors > errors_before || p.stopped ? NULL : p.m;
}
