/*
 * parse.h: Silk's parser.  Hand-written recursive descent, with precedence
 * climbing for binary operators; the grammar rule is written above each
 * function that parses it.  It recovers at statement and declaration
 * boundaries, so one run reports every independent syntax error and no
 * cascade from one mistake.
 */
#ifndef SILK_PARSE_H
#define SILK_PARSE_H

#include "ast.h"

/* The ND_FILE of one file's tokens.  Never NULL: with syntax errors (which
 * go to `diag`) the tree holds what could be parsed. */
Node *parse_file(const TokenArray *tokens, const SourceMap *sources, Diag *diag, Arena *arena);

#endif
