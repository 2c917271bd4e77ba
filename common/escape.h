/*
 * escape.h: names from input files made safe to print on a terminal.
 *
 * A kernel name in a cubin's symbol table, a device or kernel name in a
 * verify record, is whatever bytes the file holds: a newline in it could
 * forge a line of the report ("0 disagree"), an escape sequence could
 * recolour or clear the terminal.  Every text writer that prints such a
 * name prints it through escape_text.  JSON output needs none of this:
 * cJSON escapes control characters itself.
 *
 * Generated code is a sink too: a path or a source line written into a
 * comment of the C that silkc build compiles could end the comment with
 * a star-slash and add code of its own (a constructor that runs before
 * main), a string could end its literal.  The code writers (the host C, the CPU backend's
 * C) write such text only through escape_fputs_comment and
 * escape_fputs_c_string.
 */
#ifndef SILK_ESCAPE_H
#define SILK_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether `text` would print as it is: no control character (C0, DEL,
 * C1), no backslash and no byte that is not part of valid UTF-8. */
bool escape_is_plain(const char *text);

/* `text` with \n, \r, \t and \\ for newline, carriage return, tab and
 * backslash, and \xHH for every other control character, DEL, C1 control
 * (U+0080..U+009F) and byte that is not valid UTF-8; other UTF-8 is kept.
 * Written to buf as snprintf writes (cut to size - 1 bytes, never inside
 * an escape); returns the length the whole would take. */
size_t escape_text(const char *text, char *buf, size_t size);

/* `text` itself when it is plain (the usual case, however long), else
 * its escape_text written to buf (cut to size as escape_text cuts). */
const char *escape_if_needed(const char *text, char *buf, size_t size);

/* escape_text's text, written to `out`, however long. */
void escape_fputs(const char *text, FILE *out);

/* The same for text of several lines made by the program (host code with
 * a kernel's name in it): each newline stays a line break and is followed
 * by `indent`, and a backslash stays (the code's own "\n"); everything
 * else is escaped as above. */
void escape_fputs_lines(const char *text, const char *indent, FILE *out);

/* `len` bytes of outside text (a path, a line of the source) as the body
 * of a comment in generated code: a C block comment, or a line comment of
 * C or PTX (//) or LLVM IR (;), which nothing in it can end.  A newline,
 * carriage return or tab is written as a space, the '/' of a star-slash
 * as \/, a backslash as \x5c (one at the end of a // line would join the
 * next line to the comment), and every other control character, DEL and
 * byte that is not valid UTF-8 as \xHH.  The caller writes no '*' just
 * before it and no '/' just after it. */
void escape_fputs_comment(const char *text, size_t len, FILE *out);

/* `len` bytes as a C string literal, quotes included: '"', '\\' and the
 * second '?' of a pair escaped (no trigraph), \n and \t, and every other
 * byte outside printable ASCII as an octal escape (always three digits,
 * so a digit after it stays a digit). */
void escape_fputs_c_string(const char *text, size_t len, FILE *out);

/* The first len bytes of a tool's message, as escape_fputs_lines writes
 * them with no indent: ptxas quotes the input's token where it stopped,
 * ESC and all, and its lines stay lines. */
void escape_fputs_message(const char *text, size_t len, FILE *out);

/* A name for a writer's printf: escape_if_needed into a buffer that lives
 * to the end of the enclosing block, so that a print call only wraps its
 * argument, ESCAPED(r->kernel).  A hostile name is cut at the buffer's
 * size; a plain one is never copied, however long. */
enum { ESCAPE_BUFFER = 1024 };
#define ESCAPED(text) escape_if_needed((text), (char[ESCAPE_BUFFER]){0}, ESCAPE_BUFFER)

/* An option's value quoted in an error message: its first
 * ESCAPE_QUOTE_BYTES bytes (cut at a character's start) escaped as above,
 * then "..." when there was more, so that a 120 KB value gives one short
 * line.  Written to buf (ESCAPE_QUOTE_SIZE bytes); returns buf. */
enum { ESCAPE_QUOTE_BYTES = 60, ESCAPE_QUOTE_SIZE = ESCAPE_QUOTE_BYTES * 4 + 8 };
const char *escape_quote(const char *text, char *buf);
/* The same into a buffer that lives to the end of the enclosing block:
 * cli_error(..., "'%s'", QUOTED(value)). */
#define QUOTED(text) escape_quote((text), (char[ESCAPE_QUOTE_SIZE]){0})

/* How a diagnostic shows the source character at p, as clang does: a
 * control character other than tab as "<U+001B>", a byte that is not valid
 * UTF-8 as "<FF>".  Writes that form to out (at least 12 bytes) and
 * returns its length, or returns 0 when the character prints as it is;
 * *used is how many bytes the character takes (1 for a bad byte). */
size_t escape_source_at(const char *p, char *out, size_t *used);

#endif
