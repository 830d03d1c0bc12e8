"""Evaluator-ready ``process_graph`` source, built from literals and checked after generation.

The emitted function is always the same two parts:

* the runtime (:func:`netmend.malt.runtime.run_plan`), inlined verbatim as a
  nested function, so nothing is defined outside ``process_graph`` and the
  evaluator's namespace (its ``G``, its helpers) is never touched;
* ``return run_plan(graph_data, <plan>)`` where ``<plan>`` is a literal of
  tuples, strings, numbers and ``None`` written by :func:`literal`.

:func:`emit` re-parses what it wrote and accepts it only if the syntax tree
is exactly that: the runtime's own tree, then a return whose plan argument
``ast.literal_eval``-s to the intended plan. No text from a request can
therefore become code. The runtime itself is audited once (:func:`audit_runtime`):
no imports, no globals, only local names and a fixed set of builtins.

The text also survives the evaluator's extraction: the function is first in
the fence, no other ``def`` mentions ``process_graph``, no line starts with
``import`` and no string holds three backticks.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import math
import textwrap
from functools import lru_cache

from netmend.malt import runtime
from netmend.malt.ir import Query

ENTRY = "process_graph"
ARGUMENT = "graph_data"
RUNTIME_NAME = runtime.run_plan.__name__

# Builtins the runtime may use; anything else is a finding.
SAFE_BUILTINS: frozenset[str] = frozenset(
    {"len", "str", "repr", "set", "list", "dict", "tuple", "isinstance", "any", "all", "sum",
     "enumerate", "sorted", "range", "ValueError", "True", "False", "None"}
)


class CodegenError(RuntimeError):
    """Emitted code failed its own check: a bug, never shipped."""


def _escape_string(value: str) -> str:
    text = repr(value)
    # Backticks would end the evaluator's code fence early; "process_graph" inside a
    # string would be rewritten by its renaming regex. Escapes keep the value the same.
    return text.replace("`", "\\x60").replace(ENTRY, "process\\x5fgraph")


def literal(value) -> str:
    """Python source for a plan value: tuples, strings, ints, finite floats, None.

    >>> literal((('remove', "a'b`c"),))
    '((\\'remove\\', "a\\'b\\\\x60c"),)'
    """
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CodegenError(f"cannot emit the non-finite number {value!r}")
        return repr(value)
    if isinstance(value, str):
        return _escape_string(value)
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise CodegenError(f"cannot emit a literal of type {type(value).__name__}")


@lru_cache(maxsize=1)
def _runtime_source() -> str:
    return textwrap.dedent(inspect.getsource(runtime.run_plan))


@lru_cache(maxsize=1)
def _prefix() -> str:
    """Everything before the plan: the signature and the runtime, comments and docstring removed.

    Built and fully verified once; every emission reuses it byte for byte.
    """
    audit_runtime()
    func = ast.parse(_runtime_source()).body[0]
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        func.body = body[1:]
    compact = ast.unparse(func)
    prefix = f"def {ENTRY}({ARGUMENT}):\n" + textwrap.indent(compact, "    ") + "\n"
    tree = ast.parse(prefix + "    return None\n")
    outer = tree.body[0]
    if (len(tree.body) != 1 or not isinstance(outer, ast.FunctionDef) or outer.name != ENTRY
            or [a.arg for a in outer.args.args] != [ARGUMENT] or len(outer.body) != 2
            or ast.dump(outer.body[0]) != ast.dump(func)):
        raise CodegenError("the emitted prefix is not the audited runtime")
    _check_text(prefix)
    if prefix.count(ENTRY) != 1:
        raise CodegenError(f"{ENTRY!r} must appear exactly once")
    return prefix


def _check_text(text: str) -> None:
    if "```" in text or any(line.strip().startswith("import") for line in text.split("\n")):
        raise CodegenError("emitted code would not survive the evaluator's extraction")


def audit_runtime() -> None:
    """Check the runtime can run anywhere: no imports, no globals, only local names and safe builtins."""
    tree = ast.parse(_runtime_source())
    func = tree.body[0]
    local: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            raise CodegenError(f"runtime uses {type(node).__name__} at line {node.lineno}")
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            if isinstance(node, ast.FunctionDef):
                local.add(node.name)
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
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in local and node.id not in SAFE_BUILTINS:
                raise CodegenError(f"runtime refers to outside name {node.id!r}")
            if node.id not in local and not hasattr(builtins, node.id):
                raise CodegenError(f"runtime refers to unknown builtin {node.id!r}")
    if ENTRY in _runtime_source():
        raise CodegenError(f"runtime text mentions {ENTRY!r}")


def emit(query: Query) -> str:
    """The ``process_graph`` source answering ``query``; verified before it is returned."""
    plan = query.to_plan()
    call = f"    return {RUNTIME_NAME}({ARGUMENT}, {literal(plan)})\n"
    verify_call(call, plan)
    return _prefix() + call


def verify_call(call: str, plan: tuple) -> None:
    """Accept the final line only if it is the runtime call with exactly ``plan`` as a literal.

    The prefix before it is constant and verified once in :func:`_prefix`, so
    checking this line checks the whole emitted function.
    """
    try:
        tree = ast.parse(call.strip())
    except SyntaxError as exc:
        raise CodegenError(f"emitted call does not parse: {exc}") from exc
    ret = tree.body[0] if len(tree.body) == 1 else None
    if not (
        isinstance(ret, ast.Return)
        and isinstance(ret.value, ast.Call)
        and isinstance(ret.value.func, ast.Name)
        and ret.value.func.id == RUNTIME_NAME
        and len(ret.value.args) == 2
        and not ret.value.keywords
        and isinstance(ret.value.args[0], ast.Name)
        and ret.value.args[0].id == ARGUMENT
    ):
        raise CodegenError("emitted function must end with the runtime call")
    try:
        emitted_plan = ast.literal_eval(ret.value.args[1])
    except ValueError as exc:
        raise CodegenError("emitted plan is not a pure literal") from exc
    if emitted_plan != plan or type(emitted_plan) is not tuple:
        raise CodegenError("emitted plan differs from the intended plan")
    if call.count("\n") != 1 or ENTRY in call:
        raise CodegenError("emitted call must be one line that does not mention the entry point")
    _check_text(call)


def fenced(source: str) -> str:
    """The reply text carrying ``source``: one python code fence."""
    return f"```python\n{source}```\n"
