"""formula.py: the size formulas of a tuning space ("(BLOCK_M+BLOCK_N)*32*2*STAGES"),
read as silk-occ's size expressions read them (common/size_expr.h):
whole numbers (with K/KiB or M/MiB, as 12K), the space's parameter names,
+ - * and / (integer division, as // also writes it) and parentheses.
Nothing is ever passed to eval: the text is parsed with ast and only
those nodes are walked, in integers, so a formula cannot call, index or
import anything.  Errors name the formula's column, counted from 1 as
silk-occ's messages count it.
"""
import ast
import re

_SUFFIX = re.compile(r"(\d+)(KiB|MiB|K|M|B)\b", re.IGNORECASE)
_NAME = re.compile(r"(?<![0-9A-Za-z_])[A-Za-z_][A-Za-z0-9_]*")
_SCALE = {"k": 1024, "kib": 1024, "m": 1024 * 1024, "mib": 1024 * 1024, "b": 1}
_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv)


class Formula:
    """One formula, parsed once and evaluated for each configuration."""

    def __init__(self, text, names, what):
        self.text, self.what = text, what
        if not isinstance(text, str) or not text.strip():
            raise ValueError("%s: a formula is a non-empty string" % what)
        self._check_names(names)
        rewritten = _SUFFIX.sub(lambda m: "(%s*%d)" % (m.group(1), _SCALE[m.group(2).lower()]), text)
        try:
            tree = ast.parse(rewritten.strip(), mode="eval")
        except SyntaxError as e:
            raise ValueError("%s: '%s' is not a size formula (%s)" % (what, text, e.msg)) from None
        self._check(tree.body)
        self._tree = tree.body
        self.names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})

    def _check_names(self, names):
        for m in _NAME.finditer(self.text):
            if m.group(0) not in names:
                known = ", ".join(sorted(names)) or "none"
                raise ValueError("%s: 1:%d: unknown name '%s' (known: %s)"
                                 % (self.what, m.start() + 1, m.group(0), known))

    def _check(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, _OPS):
            self._check(node.left)
            self._check(node.right)
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            pass
        elif not isinstance(node, ast.Name):
            raise ValueError("%s: '%s' is not a size formula: only whole numbers, parameter "
                             "names, + - * / and parentheses" % (self.what, self.text))

    def __call__(self, values):
        return self._eval(self._tree, values)

    def _eval(self, node, values):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return values[node.id]
        a, b = self._eval(node.left, values), self._eval(node.right, values)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Sub):
            if a < b:
                raise ValueError("%s: %d - %d is negative" % (self.what, a, b))
            return a - b
        if b == 0:
            raise ValueError("%s: division by zero (%d / 0)" % (self.what, a))
        return a // b


def value_of(spec, names, what):
    """A space's value: a whole number, or a Formula of the names."""
    if isinstance(spec, bool) or spec is None:
        return spec
    if isinstance(spec, int):
        if spec < 0:
            raise ValueError("%s: %d is negative" % (what, spec))
        return spec
    if isinstance(spec, str):
        return Formula(spec, names, what)
    if isinstance(spec, float) and spec.is_integer() and spec >= 0:
        return int(spec)
    raise ValueError("%s: %r is neither a whole number nor a formula" % (what, spec))
