/*
 * ast.h: the abstract syntax tree.  One node type (Node) for every kind;
 * nodes.def says which fields each kind uses.  Every node carries its
 * source span; the checker fills in types and symbols.
 */
#ifndef SILK_AST_H
#define SILK_AST_H

#include "lex.h"

#include <stdint.h>
#include <stdio.h>

typedef enum NodeKind {
#define NODE(e, name, fields) ND_##e,
#include "nodes.def"
#undef NODE
    ND_COUNT
} NodeKind;

enum NodeFlags {
    NF_KERNEL = 1 << 0,  /* `kernel` */
    NF_DEVICE = 1 << 1,  /* attr(device=gpu) */
    NF_ASYNC = 1 << 2,
    NF_TASK = 1 << 3,
    NF_VARARGS = 1 << 4, /* a `...` parameter: parsed to be rejected */
    NF_THROWS = 1 << 5,  /* a typed error: parsed to be rejected */
    NF_MUTABLE = 1 << 6, /* var; a mutable parameter (an error) */
    NF_VALUE = 1 << 7,   /* a launch block in value position */
    NF_PARENS = 1 << 8,  /* an expression written in parentheses */
    NF_SEMI = 1 << 9,    /* a statement ended by a written ';' (not a newline) */
};

typedef struct Node Node;
typedef struct Type Type;
typedef struct Symbol Symbol;

typedef struct NodeList {
    Node **items;
    uint32_t count;
} NodeList;

/* The fields are ordered and packed to keep the node small: a program has
 * about four nodes a line, and they are most of what a compilation holds. */
struct Node {
    Span span;
    Span name_span;
    NodeKind kind : 8;
    TokenKind op : 8;
    LiteralSuffix suffix : 4;
    bool overflow : 1;
    uint8_t folded : 2; /* constant evaluation: 0 not yet, 1 constant (in int_value), 2 not constant */
    uint8_t flexible : 2; /* the checker's sema_is_flexible: 0 not yet, 1 yes, 2 no */
    uint32_t flags;
    uint32_t str_len;
    union {
        const char *name; /* names and declarations */
        const char *str;  /* ND_STRING's value, ND_IMPORT's path (str_len bytes) */
    };
    Node *a, *b, *c, *d;
    NodeList list, list2;
    NodeList *attrs; /* ND_ATTR nodes, or NULL: most nodes have none */
    union {
        uint64_t int_value; /* ND_INT, ND_BOOL; a folded constant's bits */
        double float_value; /* ND_FLOAT */
    };
    Type *type;     /* set by the checker */
    Symbol *symbol; /* set by name resolution */
};

Node *ast_new(Arena *arena, NodeKind kind, Span span);

/* Appends to a list, growing it in the arena. */
void ast_push(Arena *arena, NodeList *list, Node *node);

const char *ast_kind_name(NodeKind kind);

/* Calls `visit` on every node of the tree at `root` in preorder (a node,
 * then the trees of a, b, c, d, list, list2), with a stack in `scratch`,
 * not the C stack: a chain of binary operators is as deep as it is long. */
void ast_walk(Node *root, Arena *scratch, void (*visit)(Node *n, void *data), void *data);

/* What a search's visitor says of a node. */
typedef enum { AST_DESCEND, AST_SKIP, AST_FOUND } AstSearch;

/* ast_walk's order, but the visitor may skip a node's trees (AST_SKIP)
 * or end the search (AST_FOUND); whether it was ended. */
bool ast_search(Node *root, Arena *scratch, AstSearch (*visit)(Node *n, void *data), void *data);

/* The stable text form used by golden tests (silkc check --dump-ast):
 * one node a line, indented, with its kind, fields and line:col span. */
void ast_dump(const Node *node, const SourceMap *sources, FILE *out);

#endif
