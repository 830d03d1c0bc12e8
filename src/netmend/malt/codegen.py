"""Evaluator-ready ``process_graph`` source, built from literals and checked after generation.

The emitted function has two parts:

* the pieces of the runtime (:func:`netmend.malt.runtime.run_plan`) that the
  plan's calls reach, copied statement by statement (the same syntax trees,
  without comments or docstrings), so nothing is defined outside
  ``process_graph`` and the evaluator's namespace (its ``G``, its helpers) is
  never touched. Replies carry them compact: identifiers renamed to short
  ones by a one-to-one renaming, one space a level; ``emit(..., compact=False)``
  keeps the runtime's names;
* the plan's straight-line calls (:func:`netmend.malt.runtime.program`), each
  argument a program variable (a node set chosen earlier) or a literal of
  tuples, strings, numbers, booleans and ``None`` written by :func:`literal`,
  ending in ``return finish(...)``.

In process the same pieces run the same calls (``run_plan`` ends by running
the program), so there is one implementation of the semantics.

Nothing is shipped unchecked. Each prefix is re-parsed and, renamed back,
must be exactly the runtime's statements (once per set of pieces). The calls
are checked as a template with placeholders for the literals: each line,
parsed on its own, must be exactly its intended call (once per line), and the
whole function becomes a *form* per program shape, a format with one place
per literal (nothing in it comes from a request). Per request only the
literals are written and checked: each string must be one printable,
single-line string literal made of ``repr``'s escapes that decodes back to
exactly the intended value, each number one number token of that value
(:func:`checked_literal`; tests hold this grammar against the syntax tree).
No text from a request can therefore become code. The runtime itself is
audited once (:func:`audit_runtime`): no imports, no globals, only local
names and a fixed set of builtins.

The text also survives the evaluator's extraction: the function is first in
the fence, no other ``def`` mentions ``process_graph``, no line starts with
``import`` and no string holds three backticks.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import itertools
import keyword
import math
import re
import string
import textwrap
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache

from netmend.malt import runtime
from netmend.malt.ir import Query

ENTRY = "process_graph"
_PROGRAM_VARIABLE = re.compile(r"m[0-9]+")
GRAPH = "graph"  # the runtime's graph parameter, and the emitted function's
DATA = "data"
FINISH = "finish"

# Builtins the runtime may use; anything else is a finding.
SAFE_BUILTINS: frozenset[str] = frozenset(
    {"len", "str", "repr", "set", "list", "dict", "tuple", "isinstance", "any", "all", "sum",
     "enumerate", "sorted", "range", "bool", "ValueError", "True", "False", "None"}
)


class CodegenError(RuntimeError):
    """Emitted code failed its own check: a bug, never shipped."""


class UnwritableValue(CodegenError):
    """A request's value has no Python literal the evaluator can read back (a non-finite
    number, an integer longer than the interpreter converts): the request, not the code,
    is at fault, so it is refused."""


# Python (3.11 and later) refuses to convert integers of more digits than this to or from
# text, in ``repr`` and in source alike; the evaluator runs with the default limit.
MAX_INTEGER_DIGITS = 4300
_INTEGER_LIMIT = 10 ** MAX_INTEGER_DIGITS


def _integer_literal(value: int) -> str:
    if -_INTEGER_LIMIT < value < _INTEGER_LIMIT:
        return repr(value)
    raise UnwritableValue(f"cannot emit an integer of more than {MAX_INTEGER_DIGITS} digits")


def _escape_string(value: str) -> str:
    text = repr(value)
    # Backticks would end the evaluator's code fence early; "process_graph" inside a
    # string would be rewritten by its renaming regex. Escapes keep the value the same.
    return text.replace("`", "\\x60").replace(ENTRY, "process\\x5fgraph")


def literal(value) -> str:
    """Python source for a plan value: tuples, strings, ints, finite floats, booleans, None.

    >>> literal((('remove', "a'b`c"),))
    '((\\'remove\\', "a\\'b\\\\x60c"),)'
    """
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return _integer_literal(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnwritableValue(f"cannot emit the non-finite number {value!r}")
        return repr(value)
    if isinstance(value, str):
        return _escape_string(value)
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise CodegenError(f"cannot emit a literal of type {type(value).__name__}")


# ---------------------------------------------------------------- the runtime, as pieces


@lru_cache(maxsize=1)
def _runtime_source() -> str:
    return textwrap.dedent(inspect.getsource(runtime.run_plan))


@cache
def _runtime_tree() -> ast.FunctionDef:
    tree = ast.parse(_runtime_source())
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    return func


def _piece_name(statement: ast.stmt) -> str:
    if isinstance(statement, ast.FunctionDef):
        return statement.name
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        return statement.targets[0].id
    raise CodegenError(f"runtime statement at line {statement.lineno} is not a piece "
                       "(a one-name assignment or a function)")


@cache
def _pieces() -> tuple[tuple[str, ast.stmt, frozenset[str]], ...]:
    """``(name, statement, pieces it refers to)`` for each piece, in runtime order."""
    audit_runtime()
    body = _runtime_tree().body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    *statements, last = body
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Call)
            and isinstance(last.value.func, ast.Name)
            and last.value.func.id == runtime.run_program.__name__):
        raise CodegenError("the runtime must end by running its program")
    names = [_piece_name(s) for s in statements]
    if len(set(names)) != len(names):
        raise CodegenError("a runtime piece is defined twice")
    known = set(names)
    table = []
    for name, statement in zip(names, statements, strict=True):
        refs = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load) and n.id in known and n.id != name}
        table.append((name, statement, frozenset(refs)))
    dispatch = last.value.args[0] if last.value.args else None
    listed = ({k.value for k in dispatch.keys if isinstance(k, ast.Constant)}
              if isinstance(dispatch, ast.Dict) else set())
    callable_pieces = {name for name, _ in runtime.OPERATIONS.values()} | {
        name for name, _ in runtime.COMMIT_PASSES} | {
        "remember", "select", "select_named", "where", "count_all", "pruned", "restored", FINISH}
    if listed != callable_pieces or not listed <= known:
        raise CodegenError("the runtime's dispatch table must list exactly the callable pieces")
    return tuple(table)


def _reach(roots: frozenset[str]) -> list[tuple[str, ast.stmt]]:
    """The pieces ``roots`` need, transitively, in runtime order."""
    table = {name: refs for name, _, refs in _pieces()}
    needed: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in needed:
            continue
        if name not in table:
            raise CodegenError(f"the program calls {name!r}, which the runtime does not define")
        needed.add(name)
        stack.extend(table[name])
    return [(name, statement) for name, statement, _ in _pieces() if name in needed]


def _reindent(source: str, width: int) -> str:
    """``width`` spaces per indentation level instead of the four ``ast.unparse`` writes."""
    if width == 4:
        return source
    lines = []
    for line in source.split("\n"):
        stripped = line.lstrip(" ")
        depth, rest = divmod(len(line) - len(stripped), 4)
        if rest:
            raise CodegenError("unexpected indentation in the unparsed runtime")
        lines.append(" " * (depth * width) + stripped)
    return "\n".join(lines)


# ---------------------------------------------------------------- short identifiers

_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | SAFE_BUILTINS | frozenset(
    dir(builtins)) | {"G", "nx", "copy", "json"}


def _short_names():
    letters = string.ascii_lowercase + string.ascii_uppercase
    for size in range(1, 4):
        for chars in itertools.product(letters, repeat=size):
            name = "".join(chars)
            if name not in _RESERVED:
                yield name


class _Renamer(ast.NodeTransformer):
    """Renames every local identifier (names, parameters, function names) by ``mapping``."""

    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.mapping.get(node.id, node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.mapping.get(node.arg, node.arg)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.name = self.mapping.get(node.name, node.name)
        self.generic_visit(node)
        return node


def _rename(tree: ast.AST, mapping: dict[str, str]) -> ast.AST:
    return _Renamer(mapping).visit(copy.deepcopy(tree))


def _identifier_mapping(statements: list[ast.stmt]) -> dict[str, str]:
    """Short names for the identifiers the emitted code binds, the most used shortest.

    Every bound name is renamed, in every scope alike, so the mapping is a
    consistent injective renaming; builtins and the names the evaluator's
    namespace holds are never produced.
    """
    uses: Counter[str] = Counter({GRAPH: 1, DATA: 1})
    bound: set[str] = {GRAPH, DATA}
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name):
                uses[node.id] += 1
                if not isinstance(node.ctx, ast.Load):
                    bound.add(node.id)
            elif isinstance(node, ast.arg):
                uses[node.arg] += 1
                bound.add(node.arg)
            elif isinstance(node, ast.FunctionDef):
                uses[node.name] += 1
                bound.add(node.name)
    ordered = sorted(bound, key=lambda name: (-uses[name], name))
    return dict(zip(ordered, _short_names(), strict=False))


@dataclass(frozen=True)
class _Prefix:
    """The verified text before the program, and the names the program must use."""

    text: str
    names: dict[str, str]  # runtime identifier -> identifier in the text
    indent: str
    key: tuple = ()  # what it was built from: (roots, compact)


@lru_cache(maxsize=512)
def _prefix(roots: frozenset[str], compact: bool) -> _Prefix:
    """The signature and the pieces ``roots`` reach, verified once per set of roots and style.

    Compact text renames identifiers and indents by one space; readable text
    keeps the runtime's names and four spaces.
    """
    chosen = [statement for _, statement in _reach(roots)]
    names = _identifier_mapping(chosen) if compact else {}
    width = 1 if compact else 4
    shown = [_rename(statement, names) for statement in chosen] if compact else chosen
    body = "\n".join(_reindent(ast.unparse(statement), width) for statement in shown)
    indent = " " * width
    graph = names.get(GRAPH, GRAPH)
    text = f"def {ENTRY}({graph}):\n" + textwrap.indent(body, indent) + "\n"
    tree = ast.parse(text + indent + "return None\n")
    outer = tree.body[0]
    if (len(tree.body) != 1 or not isinstance(outer, ast.FunctionDef) or outer.name != ENTRY
            or [a.arg for a in outer.args.args] != [graph] or outer.decorator_list
            or len(outer.body) != len(chosen) + 1):
        raise CodegenError("the emitted prefix is not one function of the audited runtime")
    inverse = {short: name for name, short in names.items()}
    if len(inverse) != len(names):
        raise CodegenError("the identifier renaming is not one to one")
    for got, want in zip(outer.body, chosen, strict=False):
        if ast.dump(_rename(got, inverse)) != ast.dump(want):
            raise CodegenError("the emitted prefix is not the audited runtime")
    _check_text(text)
    if text.count(ENTRY) != 1:
        raise CodegenError(f"{ENTRY!r} must appear exactly once")
    return _Prefix(text, names, indent, (roots, compact))


def _check_text(text: str) -> None:
    if "```" in text or any(line.strip().startswith("import") for line in text.split("\n")):
        raise CodegenError("emitted code would not survive the evaluator's extraction")


def audit_runtime() -> None:
    """Check the runtime can run anywhere: no imports, no globals, only local names and safe builtins.

    Its last statement (which runs the program in process) is the one exception:
    it names :func:`netmend.malt.runtime.run_program` and is never emitted.
    """
    func = _runtime_tree()
    body = func.body[:-1]
    local: set[str] = {a.arg for a in func.args.args}
    nodes = [n for statement in body for n in ast.walk(statement)]
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef,
                             ast.AsyncFunctionDef, ast.Await, ast.Yield, ast.YieldFrom)):
            raise CodegenError(f"runtime uses {type(node).__name__} at line {node.lineno}")
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            if isinstance(node, ast.FunctionDef):
                local.add(node.name)
                if node.decorator_list:
                    raise CodegenError(f"runtime function {node.name!r} is decorated")
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                local.add(arg.arg)
            for arg in (args.vararg, args.kwarg):
                if arg is not None:
                    local.add(arg.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            local.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise CodegenError(f"runtime reaches private attribute {node.attr!r}")
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in local and node.id not in SAFE_BUILTINS:
                raise CodegenError(f"runtime refers to outside name {node.id!r}")
            if node.id not in local and not hasattr(builtins, node.id):
                raise CodegenError(f"runtime refers to unknown builtin {node.id!r}")
    if ENTRY in _runtime_source():
        raise CodegenError(f"runtime text mentions {ENTRY!r}")
    clash = sorted(name for name in local if _PROGRAM_VARIABLE.fullmatch(name)
                   or (name.startswith(PLACEHOLDER) and name[len(PLACEHOLDER):].isdigit()))
    if clash:
        raise CodegenError(f"runtime names {clash} look like program variables (m1, m2, ...)")


# ---------------------------------------------------------------- emission


PLACEHOLDER = "_p"  # _p0, _p1, ...: where the literals go in a program's template
_PLACEHOLDERS = re.compile(rf"\b{PLACEHOLDER}([0-9]+)\b")


@dataclass(frozen=True)
class EmittedCalls:
    """A plan's emitted calls: ``template`` lines with placeholders ``_p0, _p1, ...``
    for the literal arguments, the ``literals`` (text, value) that fill them, and the
    finished ``lines``."""

    template: tuple[str, ...]
    literals: tuple[tuple[str, object], ...]
    lines: tuple[str, ...]


def _render(calls: runtime.Program, names: dict[str, str]) -> EmittedCalls:
    """Template, literals and lines of ``calls``, built from the same parts."""
    literals: list[tuple[str, object]] = []

    def argument(value) -> tuple[str, str]:
        if type(value) is runtime.Ref:
            name = names.get(value, str(value))
            return name, name
        marker = f"{PLACEHOLDER}{len(literals)}"
        text = literal(value)
        literals.append((text, value))
        return marker, text

    def call(piece: str, args: tuple) -> tuple[str, str]:
        parts = [argument(a) for a in args]
        head = names.get(piece, piece)
        return (f"{head}({', '.join(m for m, _ in parts)})",
                f"{head}({', '.join(t for _, t in parts)})")

    pairs: list[tuple[str, str]] = []
    for target, piece, args in calls.changes:
        marked, text = call(piece, args)
        if target is not None:
            lhs = names.get(target, target)
            marked, text = f"{lhs} = {marked}", f"{lhs} = {text}"
        pairs.append((marked, text))
    data = names.get(DATA, DATA)
    if calls.read is not None:
        marked, text = call(*calls.read)
        pairs.append((f"{data} = {marked}", f"{data} = {text}"))
    pairs += [(f"{names.get(name, name)}()",) * 2 for name in calls.commit]
    committed = f"{names.get('pruned', 'pruned')}()" if calls.pruned else names.get(GRAPH, GRAPH)
    if calls.restored:
        committed = f"{names.get('restored', 'restored')}({committed})"
    result = data if calls.read is not None else names.get(GRAPH, GRAPH)
    kind, kind_text = argument(calls.answer_type)
    finish = names.get(FINISH, FINISH)
    pairs.append((f"return {finish}({kind}, {result}, {committed})",
                  f"return {finish}({kind_text}, {result}, {committed})"))
    return EmittedCalls(tuple(m for m, _ in pairs), tuple(literals), tuple(t for _, t in pairs))


def program_lines(plan: tuple[tuple, ...], names: dict[str, str] | None = None) -> list[str]:
    """The emitted calls of ``plan``, one statement a line, unindented (names renamed by ``names``).

    >>> program_lines((('remove', 'a.b'), ('list', 'a')))
    ["remove('a.b')", "data = children('a')", 'cascade()', "return finish('list', data, pruned())"]
    >>> program_lines((('nodes', ('a', None, 'children', ())),))
    ["m1 = select('a', None, 'children')", 'data = list_nodes(m1)', "return finish('list', data, graph)"]
    """
    return list(_render(runtime.program(plan), names or {}).lines)


def emit(query: Query, *, compact: bool = True) -> str:
    """The ``process_graph`` source answering ``query``; verified before it is returned.

    ``compact`` (the default, what replies carry) renames identifiers to short
    ones and indents by one space; otherwise the runtime's own names and
    four-space indentation are kept, for reading.
    """
    calls = runtime.program(query.to_plan())
    key, values = _split(calls)
    form = _FORMS.get((key, compact))
    if form is None:
        form = _build_form(calls, key, compact)
    texts = tuple(checked_literal(value) for value in values)
    if len(texts) != form.slots:
        raise CodegenError("the program's literals do not fit its verified form")
    return form.text % texts


def emit_verified(query: Query, *, compact: bool = True) -> str:
    """What :func:`emit` returns, built the long way: every call rendered and the whole
    program checked with :func:`verify_program` (each literal parsed as a syntax tree).
    For tests, which require the two to agree."""
    calls = runtime.program(query.to_plan())
    prefix = _prefix(calls.pieces(), compact)
    rendered = _render(calls, prefix.names)
    verify_program(rendered, calls, prefix)
    return prefix.text + "".join(f"{prefix.indent}{line}\n" for line in rendered.lines)


# ---------------------------------------------------------------- verified forms
#
# A *form* is the whole emitted function of one program shape (its pieces, calls,
# variables and where each literal goes, but no literal), verified once: the prefix as
# in :func:`_prefix`, each call line as a syntax tree (:func:`_verified_line`), then
# turned into a ``%``-format with one ``%s`` per literal. A request then only has its
# literals written and checked (:func:`checked_literal`) and dropped into their places.
# Nothing in a form comes from a request: it is keyed by the shape alone.


@dataclass(frozen=True)
class _Form:
    text: str  # the function with ``%s`` where the literals go (other ``%`` doubled)
    slots: int


_FORMS: dict[tuple, _Form] = {}
_MAX_FORMS = 4096


def _split(calls: runtime.Program) -> tuple[tuple, list]:
    """The shape of ``calls`` (each literal argument replaced by ``None``) and the literal
    values in the order the emitted text holds them (the answer type last)."""
    values: list = []

    def shaped(args: tuple) -> tuple:
        found = []
        for arg in args:
            if type(arg) is runtime.Ref:
                found.append(arg)
            else:
                found.append(None)
                values.append(arg)
        return tuple(found)

    changes = tuple((target, piece, shaped(args)) for target, piece, args in calls.changes)
    read = None if calls.read is None else (calls.read[0], shaped(calls.read[1]))
    values.append(calls.answer_type)
    return (changes, read, calls.commit, calls.pruned, calls.restored), values


def _build_form(calls: runtime.Program, key: tuple, compact: bool) -> _Form:
    """Render and verify the form of ``calls``'s shape; remember it under ``key``."""
    prefix = _prefix(calls.pieces(), compact)
    rendered = _render(calls, prefix.names)
    _verify_template(rendered.template, _shape(calls, prefix.names), prefix.names)
    body = "".join(f"{prefix.indent}{line}\n" for line in rendered.template).replace("%", "%%")
    slots = [int(number) for number in _PLACEHOLDERS.findall(body)]
    if slots != list(range(len(rendered.literals))):
        raise CodegenError("each literal must have one place in the program, in order")
    form = _Form(prefix.text.replace("%", "%%") + _PLACEHOLDERS.sub("%s", body), len(slots))
    if len(_FORMS) >= _MAX_FORMS:
        _FORMS.clear()
    _FORMS[(key, compact)] = form
    return form


def clear_caches() -> None:
    """Forget every verified prefix, line and form (for cold-start measurements)."""
    _FORMS.clear()
    for cached in (_prefix, _verified_line, _verified_return):
        cached.cache_clear()


# A Python string literal's body as ``repr`` writes it (and :func:`_escape_string` then
# escapes): characters other than its quote and the backslash, or the escapes below.
_ESCAPES = r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\\'\"ntr])"
_STRING_BODY = {
    "'": re.compile(rf"(?:[^'\\]++|{_ESCAPES})*+"),
    '"': re.compile(rf'(?:[^"\\]++|{_ESCAPES})*+'),
}
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))")
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_FLOAT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:e[+-][0-9]+)?")


def _unescape(match: re.Match) -> str:
    code = match.group(1) or match.group(2) or match.group(3)
    return chr(int(code, 16)) if code else _SIMPLE_ESCAPES[match.group(4)]


def _string_value(text: str) -> str | None:
    """The value of ``text`` if it is exactly one printable, single-line string literal
    made only of the escapes ``repr`` writes, else ``None``."""
    quote = text[:1]
    if (quote not in _STRING_BODY or len(text) < 2 or text[-1] != quote
            or not text.isprintable()):
        return None
    body = text[1:-1]
    if "\\" not in body:
        return None if quote in body else body
    if _STRING_BODY[quote].fullmatch(body) is None:
        return None
    try:
        return _ESCAPE.sub(_unescape, body)
    except ValueError:  # a code point past U+10FFFF
        return None


def _integer_text(text: str, value: int) -> bool:
    """Whether ``text`` is one decimal integer token (maybe negated) of ``value``."""
    digits = text[1:] if text[:1] == "-" else text
    return (digits.isascii() and digits.isdigit() and (digits == "0" or digits[0] != "0")
            and int(text) == value)


def checked_literal(value) -> str:
    """:func:`literal`'s text for ``value``, each atom checked on the way.

    A string's text must be one string literal as ``repr`` writes it (one printable
    line, only ``repr``'s escapes) that decodes back to exactly the value; a number's,
    one number token (a minus, then digits, a point, an exponent) that reads back to
    it; a tuple is those joined by commas in parentheses. Any such text is one literal
    argument wherever a template has a placeholder, so no text from a request becomes
    code. (Tests hold this against the syntax tree, as :func:`_literal_value` reads it.)
    """
    kind = type(value)
    if kind is str:
        text = _escape_string(value)
        if _string_value(text) != value or ENTRY in text or "```" in text:
            raise CodegenError(f"emitted literal {text[:80]!r} is not the intended string")
        return text
    if value is None or kind is bool:
        return repr(value)
    if kind is int:
        text = _integer_literal(value)
        if not _integer_text(text, value):
            raise CodegenError(f"emitted literal {text[:80]!r} is not the intended integer")
        return text
    if kind is float:
        text = literal(value)
        if (not _FLOAT.fullmatch(text) or ("." not in text and "e" not in text)
                or float(text) != value):
            raise CodegenError(f"emitted literal {text[:80]!r} is not the intended number")
        return text
    if kind is tuple:
        inner = ", ".join([checked_literal(v) for v in value])
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise CodegenError(f"cannot emit a literal of type {kind.__name__}")


def _arguments(call: ast.Call) -> tuple:
    """A template call's arguments: ``("slot", n)`` for placeholder ``_pn``, ``("var", name)``
    for any other name (a template holds no literals, so neither can be mistaken for one)."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        raise CodegenError("emitted calls take positional arguments only")
    found: list[object] = []
    for arg in call.args:
        if (isinstance(arg, ast.Name) and arg.id.startswith(PLACEHOLDER)
                and arg.id[len(PLACEHOLDER):].isdigit()):
            found.append(("slot", int(arg.id[len(PLACEHOLDER):])))
        elif isinstance(arg, ast.Name):
            found.append(("var", arg.id))
        else:
            raise CodegenError("an emitted argument is neither a literal nor a program variable")
    return tuple(found)


def _called(node: ast.AST | None) -> tuple[str, tuple] | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id, _arguments(node)
    return None


def _is_call(node: ast.AST, name: str, args: int) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == name and len(node.args) == args and not node.keywords)


def _same_literal(a, b) -> bool:
    """Equal values of the same types, all the way down (``True`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same_literal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _literal_value(text: str) -> tuple[bool, object]:
    """Whether ``text`` is exactly one literal argument, and its value.

    ``f(TEXT)`` must parse to a call with one positional argument that
    ``ast.literal_eval`` accepts: then ``TEXT`` in any argument place of a
    template keeps that template's syntax tree, with this literal there. It
    must also survive the evaluator's extraction (no fence, no ``import``
    line, no mention of the entry point).
    """
    if ENTRY in text or "```" in text or "\n" in text:
        return False, None
    try:
        tree = ast.parse(f"f({text})", mode="eval")
    except SyntaxError:
        return False, None
    call = tree.body
    if not (isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], ast.Starred)):
        return False, None
    try:
        return True, ast.literal_eval(call.args[0])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def verify_program(program: EmittedCalls, calls: runtime.Program, prefix: _Prefix | None = None) -> None:
    """Accept the emitted calls only if they are exactly the intended calls with literal arguments.

    The template (the calls with placeholders for the literals) must be the
    intended calls, line by line; each literal must parse as exactly one
    argument whose value is the intended one, and the lines must be the
    template with each placeholder filled. ``prefix`` (none: the runtime's own
    names) says which identifiers the emitted text uses; it is verified in
    :func:`_prefix`, so this checks the whole function.
    """
    names = prefix.names if prefix is not None else {}
    if len(program.lines) != len(program.template):
        raise CodegenError("emitted program and template differ in length")
    _verify_template(program.template, _shape(calls, names), names)
    expected = [value for _, value in _expected_literals(calls)]
    if len(program.literals) != len(expected):
        raise CodegenError("emitted program has the wrong number of literals")
    for (text, value), want in zip(program.literals, expected, strict=True):
        ok, parsed = _literal_value(text)
        if not (ok and _same_literal(parsed, want) and (value is want or _same_literal(value, want))):
            raise CodegenError(f"emitted literal {text[:80]!r} is not the intended value")
    texts = [text for text, _ in program.literals]
    used: list[int] = []

    def fill(match: re.Match) -> str:
        used.append(int(match.group(1)))
        return texts[used[-1]]

    try:  # the finished lines are the template with each placeholder filled, once, in order
        filled = _PLACEHOLDERS.sub(fill, "\n".join(program.template))
    except IndexError:
        raise CodegenError("a placeholder has no literal") from None
    if filled != "\n".join(program.lines) or used != list(range(len(texts))):
        raise CodegenError("the emitted lines are not their template filled with its literals")


def _expected_literals(calls: runtime.Program) -> list[tuple[int, object]]:
    found: list[tuple[int, object]] = []
    for _, _, args in calls.changes:
        found += [(len(found), a) for a in args if type(a) is not runtime.Ref]
    if calls.read is not None:
        found += [(len(found), a) for a in calls.read[1] if type(a) is not runtime.Ref]
    found.append((len(found), calls.answer_type))
    return found


def _shape(calls: runtime.Program, names: dict[str, str]) -> tuple:
    """What the template must say, with each literal replaced by its slot number."""
    slot = iter(range(1 << 30))

    def args(values: tuple) -> tuple:
        return tuple(("var", names.get(a, str(a))) if type(a) is runtime.Ref
                     else ("slot", next(slot)) for a in values)

    steps: list[tuple] = []
    for target, piece, values in calls.changes:
        steps.append((None if target is None else names.get(target, target),
                      names.get(piece, piece), args(values)))
    if calls.read is not None:
        steps.append((names.get(DATA, DATA), names.get(calls.read[0], calls.read[0]),
                      args(calls.read[1])))
    steps += [(None, names.get(name, name), ()) for name in calls.commit]
    tail = (next(slot), calls.read is not None, calls.pruned, calls.restored)
    return tuple(steps), tail


def _local_line(line: str, first: int, count: int) -> str:
    """``line`` with its placeholders renumbered from ``first`` to 0; every one must be
    among the ``count`` slots from ``first``."""

    def renumber(match: re.Match) -> str:
        number = int(match.group(1)) - first
        if not 0 <= number < count:
            raise CodegenError(f"emitted statement {line[:80]!r} holds another call's literal")
        return f"{PLACEHOLDER}{number}"

    return _PLACEHOLDERS.sub(renumber, line)


def _check_line(line: str) -> ast.stmt:
    """The one statement ``line`` is on its own (it must survive the evaluator's extraction)."""
    if "\n" in line or "\r" in line or ENTRY in line:
        raise CodegenError("an emitted line spans lines or mentions the entry point")
    _check_text(line)
    try:
        statements = ast.parse(line).body
    except SyntaxError as exc:
        raise CodegenError(f"emitted statement {line[:80]!r} does not parse: {exc}") from exc
    if len(statements) != 1:
        raise CodegenError(f"emitted line {line[:80]!r} must be one statement")
    return statements[0]


@lru_cache(maxsize=4096)
def _verified_line(line: str, target: str | None, piece: str, args: tuple) -> bool:
    """Check one template line (placeholders numbered from 0) is exactly
    ``[target =] piece(args)``; once per line and intent, which hold no literal."""
    statement = _check_line(line)
    want = (piece, args)
    if target is None:
        ok = isinstance(statement, ast.Expr) and _called(statement.value) == want
    else:
        ok = (isinstance(statement, ast.Assign) and len(statement.targets) == 1
              and isinstance(statement.targets[0], ast.Name)
              and statement.targets[0].id == target and _called(statement.value) == want)
    if not ok:
        raise CodegenError(f"emitted statement {line[:80]!r} is not the intended call")
    return True


@lru_cache(maxsize=1024)
def _verified_return(line: str, finish: str, result: str, graph: str, pruned: str | None,
                     restored: str | None) -> bool:
    """Check the last template line is ``return finish(_p0, result, committed)``, the
    committed graph being ``graph``, or ``pruned()``, maybe inside ``restored(...)``."""
    statement = _check_line(line)
    value = statement.value if isinstance(statement, ast.Return) else None
    ok = value is not None and _is_call(value, finish, 3)
    if ok:
        kind, found, committed = value.args
        ok = (isinstance(kind, ast.Name) and kind.id == f"{PLACEHOLDER}0"
              and isinstance(found, ast.Name) and found.id == result)
        if ok and restored is not None:
            ok = _is_call(committed, restored, 1)
            committed = committed.args[0] if ok else committed
        if ok:
            ok = (_is_call(committed, pruned, 0) if pruned is not None
                  else isinstance(committed, ast.Name) and committed.id == graph)
    if not ok:
        raise CodegenError("emitted function must end by returning finish(answer type, "
                           "result, committed graph)")
    return True


@cache
def _piece_names() -> frozenset[str]:
    return frozenset(name for name, _, _ in _pieces())


def _verify_template(template: tuple[str, ...], shape: tuple, names: dict[str, str]) -> None:
    """Check one program template against its shape; ``names`` are the identifiers it uses.

    Line by line: each line, parsed on its own, must be exactly its intended call
    (:func:`_verified_line`, remembered per line), and a program variable may only be
    used after the line that sets it and never shadows a piece. Lines that are each one
    complete statement stay those statements when joined at one indentation.
    """
    steps, (kind_slot, has_read, pruned, restored) = shape

    def named(identifier: str) -> str:
        return names.get(identifier, identifier)

    if len(template) != len(steps) + 1:
        raise CodegenError("emitted program has the wrong number of statements")
    forbidden = {named(piece) for piece in _piece_names()} | {named(GRAPH)}
    assigned: set[str] = set()
    first = 0
    for line, (target, piece, args) in zip(template, steps, strict=False):
        count = sum(1 for kind, _ in args if kind == "slot")
        local = tuple((kind, value - first) if kind == "slot" else (kind, value)
                      for kind, value in args)
        if any(kind == "var" and value not in assigned for kind, value in args):
            raise CodegenError(f"emitted statement {line[:80]!r} uses a variable not yet set")
        _verified_line(_local_line(line, first, count), target, piece, local)
        if target is not None:
            if target != named(DATA) and target in forbidden:
                raise CodegenError(f"emitted statement {line[:80]!r} shadows a piece")
            assigned.add(target)
        first += count
    if kind_slot != first:
        raise CodegenError("the answer type must be the program's last literal")
    _verified_return(_local_line(template[-1], first, 1), named(FINISH),
                     named(DATA if has_read else GRAPH), named(GRAPH),
                     named("pruned") if pruned else None, named("restored") if restored else None)


_SAMPLE_SET = ("x", None, "descendants", ())
_SAMPLE_FILTERED = ("x", None, "descendants", (("name", "prefix", "x"),))
_SAMPLE_STEPS: dict[str, tuple[tuple, ...]] = {
    "add": (("add", "x", "EK_PORT", "y"),),
    "remove": (("remove", "x"),),
    "update": (("update", "x", 1),),
    "for_each_add": (("for_each_add", "EK_AGG_BLOCK", "EK_PORT"),),
    "remove_all": (("remove_all", _SAMPLE_SET), ("remove_all", _SAMPLE_FILTERED)),
    "update_all": (("update_all", _SAMPLE_SET, 1), ("update_all", _SAMPLE_FILTERED, 1)),
    "count": (("count", "EK_PORT", "x"), ("count", "EK_PORT", None)),
    "list": (("list", "x"),),
    "rank": (("rank", "x"),),
    "nodes": (("nodes", _SAMPLE_SET), ("nodes", _SAMPLE_FILTERED)),
    "capacity": (("capacity", "x"), ("capacity", "x", False)),
    "aggregate": (("aggregate", "sum", _SAMPLE_SET), ("aggregate", "sum", _SAMPLE_FILTERED),
                  ("aggregate", "sum", (("x", "y"), None, "named", ()))),
    "top": (("top", _SAMPLE_SET, ("capacity",), 1, True),
            ("top", _SAMPLE_FILTERED, ("capacity",), 1, True)),
}


def warm() -> None:
    """Build and verify the form of every plan made of one kind of change and one read
    (what requests say), so no request pays for it; plans of more steps reuse their
    verified lines."""
    if set(_SAMPLE_STEPS) != set(runtime.OPERATIONS):
        raise CodegenError("every plan operation needs a sample step to warm")
    changes = [(), *(_SAMPLE_STEPS[op] for op, (_, answers) in runtime.OPERATIONS.items()
                     if answers is None)]
    reads = [(), *(_SAMPLE_STEPS[op] for op, (_, answers) in runtime.OPERATIONS.items()
                   if answers is not None)]
    for change_samples in changes:
        for read_samples in reads:
            for change in change_samples or (None,):
                for read in read_samples or (None,):
                    steps = tuple(step for step in (change, read) if step is not None)
                    if steps:
                        calls = runtime.program(steps)
                        _build_form(calls, _split(calls)[0], True)


def fenced(source: str) -> str:
    """The reply text carrying ``source``: one python code fence."""
    return f"```python\n{source}```\n"
