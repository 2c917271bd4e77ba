/*
 * parse_decl.c: declarations, attributes and types.
 *
 *   declaration = import | { attribute } function | ";"
 *   import      = "import" "{" import-name { "," import-name } [","] "}"
 *                 "from" STRING end
 *   import-name = IDENT [ "as" IDENT ]
 *   attribute   = "@" IDENT [ "(" [ expr { "," expr } ] ")" ]
 *               | "attr" "(" IDENT "=" value { "," IDENT "=" value } ")"
 *   function    = "kernel" IDENT [generics] params [ "->" type ] block
 *               | [ "async" ] [ "task" ] "fn" IDENT [ "." IDENT ] [generics] params
 *                 [ "->" type [ "!" type ] ] ( block | end )
 *   struct      = "struct" IDENT "{" [ IDENT ":" type { "," IDENT ":" type } [","] ] "}"
 *
 * The standard library's declarations file (std/gpu.silk) uses three forms
 * that user code may not: `struct`, functions without a body, and methods
 * (`fn Buffer.alloc(...)`).  They are parsed everywhere and rejected by the
 * checker outside the standard library.
 *   generics    = "<" IDENT { "," IDENT } ">"
 *   params      = "(" [ param { "," param } [","] ] ")"
 *   param       = [ "var" ] IDENT ":" type [ "..." ] [ "=" expr ]
 *   type        = IDENT [ "<" type { "," type } ">" ] [ "[" expr { "," expr } "]" ]
 *
 * Generics, defaults, varargs, mutable parameters and typed errors are not
 * part of the language; they are parsed here so that the checker can say
 * why they are rejected instead of a syntax error saying nothing.
 */
#include "parse_internal.h"

#include "arena.h"

#include <stdio.h>
#include <string.h>

/* Attributes end their line without ending anything: an inserted ';'
 * between an attribute and what it applies to is dropped. */
static void skip_inserted_semicolons(Parser *p)
{
    while (parse_at(p, TK_SEMI) && parse_peek(p)->implicit)
        parse_advance(p);
}

static Node *parse_name(Parser *p, const char *what)
{
    const Token *t = parse_expect(p, TK_IDENT, what);
    if (!t)
        return NULL;
    Node *n = parse_new_node(p, ND_NAME, t->span);
    n->name = parse_keep_text(p, t);
    n->name_span = t->span;
    return n;
}

/* type = IDENT [ "<" type { "," type } ">" ] [ "[" expr { "," expr } "]" ] */
Node *parse_type(Parser *p)
{
    const Token *t = parse_expect(p, TK_IDENT, "a type");
    if (!t || !parse_enter(p, t->span))
        return NULL;
    Node *type = parse_new_node(p, ND_TYPE, t->span);
    type->name = parse_keep_text(p, t);
    type->name_span = t->span;
    if (parse_accept(p, TK_LT)) {
        do
            parse_push(p, &type->list, parse_type(p));
        while (!p->recovering && parse_accept(p, TK_COMMA));
        parse_expect(p, TK_GT, "'>' after the type arguments");
    }
    if (!p->recovering && parse_accept(p, TK_LBRACKET)) {
        do
            parse_push(p, &type->list2, parse_expression(p));
        while (!p->recovering && parse_accept(p, TK_COMMA));
        parse_expect(p, TK_RBRACKET, "']' after the extents");
    }
    type->span = source_span_join(type->span, parse_previous_span(p));
    parse_leave(p);
    return type;
}

/* "attr" "(" IDENT "=" value { "," IDENT "=" value } ")"; the value may be
 * the keyword gpu, as in attr(device=gpu). */
static void parse_attr_arguments(Parser *p, Node *attr)
{
    if (!parse_expect(p, TK_LPAREN, "'(' after attr"))
        return;
    do {
        if (parse_at(p, TK_RPAREN))
            break;
        Node *key = parse_name(p, "an attribute name");
        if (!key || !parse_expect(p, TK_ASSIGN, "'=' after the attribute name"))
            return;
        Node *arg = parse_new_node(p, ND_ATTR_ARG, key->span);
        arg->name = key->name;
        arg->name_span = key->span;
        if (parse_at(p, TK_GPU)) {
            arg->a = parse_new_node(p, ND_NAME, parse_advance(p)->span);
            arg->a->name = "gpu";
        } else {
            arg->a = parse_expression(p);
        }
        arg->span = source_span_join(arg->span, parse_previous_span(p));
        parse_push(p, &attr->list, arg);
    } while (!p->recovering && parse_accept(p, TK_COMMA));
    parse_expect(p, TK_RPAREN, "')' after the attribute arguments");
}

/* attribute = "@" IDENT [ "(" args ")" ] | "attr" "(" key=value... ")" */
Node *parse_attribute(Parser *p)
{
    Span start = parse_peek(p)->span;
    Node *attr = parse_new_node(p, ND_ATTR, start);
    if (parse_accept(p, TK_ATTR)) {
        attr->name = "attr";
        attr->name_span = start;
        parse_attr_arguments(p, attr);
    } else {
        parse_advance(p); /* '@' */
        Node *name = parse_name(p, "an attribute name after '@'");
        if (!name)
            return NULL;
        attr->name = name->name;
        attr->name_span = name->span;
        if (parse_accept(p, TK_LPAREN)) {
            while (!p->recovering && !parse_at(p, TK_RPAREN)) {
                parse_push(p, &attr->list, parse_expression(p));
                if (!parse_accept(p, TK_COMMA))
                    break;
            }
            parse_expect(p, TK_RPAREN, "')' after the attribute arguments");
        }
    }
    attr->span = source_span_join(start, parse_previous_span(p));
    skip_inserted_semicolons(p);
    return attr;
}

/* import = "import" "{" import-name { "," import-name } [","] "}" "from" STRING end */
static Node *parse_import(Parser *p)
{
    Node *import = parse_new_node(p, ND_IMPORT, parse_advance(p)->span);
    if (!parse_expect(p, TK_LBRACE, "'{' after import"))
        return import;
    while (!p->recovering && !parse_at(p, TK_RBRACE)) {
        Node *name = parse_name(p, "a name to import");
        if (!name)
            break;
        Node *item = parse_new_node(p, ND_IMPORT_NAME, name->span);
        item->name = name->name;
        item->name_span = name->span;
        if (parse_accept(p, TK_AS))
            item->a = parse_name(p, "a name after 'as'");
        item->span = source_span_join(item->span, parse_previous_span(p));
        parse_push(p, &import->list, item);
        if (!parse_accept(p, TK_COMMA))
            break;
    }
    parse_expect(p, TK_RBRACE, "'}' after the imported names");
    if (!p->recovering && parse_expect(p, TK_FROM, "'from' after the imported names")) {
        const Token *path = parse_expect(p, TK_STRING, "the path of the module, a string");
        if (path) {
            import->str = parse_keep_text(p, path);
            import->str_len = path->text_len;
        }
    }
    import->span = source_span_join(import->span, parse_previous_span(p));
    if (!p->recovering)
        parse_end_statement(p);
    return import;
}

/* param = [ "var" ] IDENT ":" type [ "..." ] [ "=" expr ] */
static Node *parse_param(Parser *p)
{
    Span start = parse_peek(p)->span;
    bool mutable = parse_accept(p, TK_VAR);
    Node *name = parse_name(p, "a parameter name");
    if (!name)
        return NULL;
    Node *param = parse_new_node(p, ND_PARAM, start);
    param->name = name->name;
    param->name_span = name->span;
    if (mutable)
        param->flags |= NF_MUTABLE;
    if (parse_expect(p, TK_COLON, "':' and the parameter's type"))
        param->a = parse_type(p);
    if (parse_at(p, TK_DOTDOT) && parse_peek_at(p, 1)->kind == TK_DOT) {
        parse_advance(p);
        parse_advance(p);
        param->flags |= NF_VARARGS;
    }
    if (parse_accept(p, TK_ASSIGN))
        param->b = parse_expression(p);
    param->span = source_span_join(start, parse_previous_span(p));
    return param;
}

/* params = "(" [ param { "," param } [","] ] ")" */
static void parse_params(Parser *p, Node *fn)
{
    if (!parse_expect(p, TK_LPAREN, "'(' and the parameters"))
        return;
    while (!p->recovering && !parse_at(p, TK_RPAREN)) {
        parse_push(p, &fn->list, parse_param(p));
        if (!parse_accept(p, TK_COMMA))
            break;
    }
    parse_expect(p, TK_RPAREN, "')' after the parameters");
}

/* generics = "<" IDENT { "," IDENT } ">" */
static void parse_generics(Parser *p, Node *fn)
{
    if (!parse_accept(p, TK_LT))
        return;
    do
        parse_push(p, &fn->list2, parse_name(p, "a type parameter"));
    while (!p->recovering && parse_accept(p, TK_COMMA));
    parse_expect(p, TK_GT, "'>' after the type parameters");
}

/* The head's keywords: kernel, or [async] [task] fn. */
static bool parse_function_keywords(Parser *p, Node *fn)
{
    if (parse_accept(p, TK_KERNEL)) {
        fn->flags |= NF_KERNEL;
        return true;
    }
    if (parse_accept(p, TK_ASYNC))
        fn->flags |= NF_ASYNC;
    if (parse_accept(p, TK_TASK))
        fn->flags |= NF_TASK;
    if (parse_accept(p, TK_FN))
        return true;
    parse_error_expected(p, fn->attrs ? "'kernel' or 'fn' after the attributes"
                                      : "a declaration (kernel, fn, import)");
    return false;
}

/* attr(device=gpu) marks a GPU function; other attr keys are kept. */
static void mark_device(Node *fn)
{
    for (uint32_t i = 0; fn->attrs && i < fn->attrs->count; i++) {
        Node *attr = fn->attrs->items[i];
        if (strcmp(attr->name, "attr") != 0)
            continue;
        for (uint32_t j = 0; j < attr->list.count; j++) {
            Node *arg = attr->list.items[j];
            if (strcmp(arg->name, "device") == 0 && arg->a && arg->a->kind == ND_NAME &&
                strcmp(arg->a->name, "gpu") == 0)
                fn->flags |= NF_DEVICE;
        }
    }
}

static Node *parse_function(Parser *p, NodeList attrs, Span start)
{
    Node *fn = parse_new_node(p, ND_FUNC, start);
    fn->attrs = parse_keep_attributes(p, attrs);
    if (!parse_function_keywords(p, fn))
        return NULL;
    Node *name = parse_name(p, "the function's name");
    if (!name)
        return NULL;
    fn->name = name->name;
    fn->name_span = name->span;
    if (parse_accept(p, TK_DOT)) { /* a method: Type.name */
        Node *method = parse_name(p, "the method's name");
        if (!method)
            return NULL;
        size_t len = strlen(name->name) + strlen(method->name) + 2;
        char *full = arena_alloc(p->arena, len, 1);
        snprintf(full, len, "%s.%s", name->name, method->name);
        fn->name = full;
        fn->name_span = source_span_join(name->span, method->span);
    }
    parse_generics(p, fn);
    parse_params(p, fn);
    if (!p->recovering && parse_accept(p, TK_ARROW)) {
        fn->a = parse_type(p);
        if (!p->recovering && parse_accept(p, TK_BANG)) {
            fn->c = parse_type(p);
            fn->flags |= NF_THROWS;
        }
    }
    mark_device(fn);
    if (p->recovering)
        return fn;
    if (parse_at(p, TK_SEMI)) { /* a declaration without a body */
        fn->span = source_span_join(start, parse_previous_span(p));
        parse_advance(p);
        return fn;
    }
    fn->b = parse_block(p);
    fn->span = source_span_join(start, parse_previous_span(p));
    return fn;
}

/* struct = "struct" IDENT "{" [ field { "," field } [","] ] "}" */
static Node *parse_struct(Parser *p)
{
    Node *st = parse_new_node(p, ND_STRUCT, parse_advance(p)->span);
    Node *name = parse_name(p, "the struct's name");
    if (!name || !parse_expect(p, TK_LBRACE, "'{' and the fields"))
        return st;
    st->name = name->name;
    st->name_span = name->span;
    while (!p->recovering && !parse_at(p, TK_RBRACE)) {
        while (parse_accept(p, TK_SEMI))
            ;
        if (parse_at(p, TK_RBRACE))
            break;
        parse_push(p, &st->list, parse_param(p));
        if (!parse_accept(p, TK_COMMA))
            parse_accept(p, TK_SEMI);
    }
    parse_expect(p, TK_RBRACE, "'}' after the fields");
    st->span = source_span_join(st->span, parse_previous_span(p));
    return st;
}

Node *parse_declaration(Parser *p)
{
    if (parse_at(p, TK_SEMI)) {
        parse_advance(p);
        return NULL;
    }
    if (parse_at(p, TK_IMPORT))
        return parse_import(p);
    if (parse_token_is_word(parse_peek(p), "struct"))
        return parse_struct(p);
    Span start = parse_peek(p)->span;
    NodeList attrs = {0};
    while (!p->recovering && (parse_at(p, TK_AT) || parse_at(p, TK_ATTR)))
        parse_push(p, &attrs, parse_attribute(p));
    if (p->recovering)
        return NULL;
    return parse_function(p, attrs, start);
}
