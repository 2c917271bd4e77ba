/*
 * escape.c: control characters and broken UTF-8 written as C escapes
 * (escape.h).  Valid UTF-8 is kept, so "NVIDIA GeForce RTX 4090" and a
 * name in any script print as they are; only what a terminal would act
 * on, or could not show, is spelled out.
 */
#include "escape.h"

#include <stdint.h>
#include <string.h>

/* The length of the valid UTF-8 sequence that starts at p (1 for ASCII),
 * or 0 when it is not one: a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, or cut short (by a NUL, or by the end of the
 * `avail` bytes there). */
static size_t utf8_length(const unsigned char *p, size_t avail)
{
    if (p[0] < 0x80)
        return 1;
    size_t n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || n > avail || p[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

static const char hex[] = "0123456789abcdef";

/* The escape for the byte or sequence at p, of `avail` bytes (SIZE_MAX:
 * up to a NUL), written to `out` (at least 5 bytes); 0 when it prints as
 * it is.  *used is how many bytes it covers. */
static size_t escape_at(const unsigned char *p, size_t avail, char *out, size_t *used)
{
    size_t n = utf8_length(p, avail);
    *used = n ? n : 1;
    bool c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
    if (n > 1 && !c1)
        return 0;
    if (c1)
        *used = 1; /* each byte of a C1 control as \xHH: \xc2\x9b */
    unsigned char c = p[0];
    const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                      : c == '\\' ? "\\\\" : NULL;
    if (named) {
        memcpy(out, named, 2);
        return 2;
    }
    if (n == 1 && c >= 0x20 && c != 0x7f)
        return 0;
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[c >> 4];
    out[3] = hex[c & 15];
    return 4;
}

bool escape_is_plain(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    char scratch[8];
    size_t used;
    for (; *p; p += used)
        if (escape_at(p, SIZE_MAX, scratch, &used))
            return false;
    return true;
}

size_t escape_text(const char *text, char *buf, size_t size)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t total = 0, kept = 0;
    bool full = false;
    for (size_t used; *p; p += used) {
        char piece[8];
        size_t n = escape_at(p, SIZE_MAX, piece, &used);
        size_t len = n ? n : used;
        full = full || total + len >= size;
        if (!full) {
            memcpy(buf + total, n ? piece : (const char *)p, len);
            kept = total + len;
        }
        total += len;
    }
    if (size)
        buf[kept] = '\0';
    return total;
}

/* Writes the first len bytes of text, escaped; a newline is written as a
 * line break and `indent` when `indent` is not NULL. */
static void write_escaped(const char *text, size_t len, const char *indent, FILE *out)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    for (size_t used; p < end && *p; p += used) {
        char piece[8];
        size_t n = escape_at(p, SIZE_MAX, piece, &used);
        if (*p == '\n' && indent) {
            fputc('\n', out);
            fputs(indent, out);
        } else if (*p == '\\' && indent) {
            fputc('\\', out); /* code's own escapes ("\n" in a printf) stay */
        } else {
            fwrite(n ? piece : (const char *)p, 1, n ? n : used, out);
        }
    }
}

void escape_fputs(const char *text, FILE *out)
{
    write_escaped(text, strlen(text), NULL, out);
}

void escape_fputs_lines(const char *text, const char *indent, FILE *out)
{
    write_escaped(text, strlen(text), indent, out);
}

void escape_fputs_message(const char *text, size_t len, FILE *out)
{
    write_escaped(text, len, "", out);
}

const char *escape_if_needed(const char *text, char *buf, size_t size)
{
    if (escape_is_plain(text))
        return text;
    escape_text(text, buf, size);
    return buf;
}

void escape_fputs_comment(const char *text, size_t len, FILE *out)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0, used; i < len; i += used) {
        char piece[8];
        size_t n = escape_at(p + i, len - i, piece, &used);
        if (p[i] == '\n' || p[i] == '\r' || p[i] == '\t')
            fputc(' ', out);
        else if (p[i] == '\\')
            fputs("\\x5c", out);
        else if (p[i] == '/' && i > 0 && p[i - 1] == '*')
            fputs("\\/", out);
        else
            fwrite(n ? piece : (const char *)p + i, 1, n ? n : used, out);
    }
}

void escape_fputs_c_string(const char *text, size_t len, FILE *out)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c == '\\' || (c == '?' && i > 0 && text[i - 1] == '?'))
            fprintf(out, "\\%c", c);
        else if (c == '\n' || c == '\t')
            fputs(c == '\n' ? "\\n" : "\\t", out);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\%03o", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

const char *escape_quote(const char *text, char *buf)
{
    size_t n = strnlen(text, ESCAPE_QUOTE_BYTES + 1);
    bool cut = n > ESCAPE_QUOTE_BYTES;
    if (cut) { /* back to a character's first byte: never half a UTF-8 sequence */
        n = ESCAPE_QUOTE_BYTES;
        while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
            n--;
    }
    char head[ESCAPE_QUOTE_BYTES + 1];
    memcpy(head, text, n);
    head[n] = '\0';
    size_t len = escape_text(head, buf, ESCAPE_QUOTE_SIZE - 4);
    if (cut)
        memcpy(buf + len, "...", 4);
    return buf;
}

size_t escape_source_at(const char *p, char *out, size_t *used)
{
    static const char upper[] = "0123456789ABCDEF";
    const unsigned char *u = (const unsigned char *)p;
    size_t n = utf8_length(u, SIZE_MAX);
    *used = n ? n : 1;
    if (n == 0) /* clang's form for a byte that starts no character */
        return (size_t)snprintf(out, 12, "<%c%c>", upper[u[0] >> 4], upper[u[0] & 15]);
    unsigned code = n == 1 ? u[0] : n == 2 ? (unsigned)(u[0] & 0x1f) << 6 | (u[1] & 0x3f) : 0xa0;
    if ((code >= 0x20 && code < 0x7f) || code >= 0xa0 || code == '\t')
        return 0;
    return (size_t)snprintf(out, 12, "<U+%04X>", code);
}
