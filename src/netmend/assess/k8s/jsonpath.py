"""kubectl's jsonpath templates (``-o jsonpath=...``) for the simulated cluster.

The dialect of ``k8s.io/client-go/util/jsonpath`` as ``kubectl get`` uses it:
text outside braces is copied; ``{.a.b}``, ``{.a[*].b}``, ``{.a[0]}``,
``{.a[-1]}``, ``{.a[1:3]}``, ``{..name}``, ``{.a[?(@.k=="v")]}``, quoted
literals ``{"\\t"}``, and ``{range ...}...{end}``. Missing keys print
nothing (kubectl allows missing template keys). Several results of one
expression are joined by a space; maps and lists print as compact JSON
with sorted keys and HTML-escaped ``<``, ``>``, ``&``, as Go's encoder does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any


class JSONPathError(ValueError):
    """A template kubectl would refuse to parse or run."""


_MISSING = object()


@dataclass(frozen=True)
class _Text:
    text: str


@dataclass(frozen=True)
class _Expr:
    steps: tuple


@dataclass(frozen=True)
class _Range:
    steps: tuple
    body: tuple


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_FILTER = re.compile(r"^@((?:\.[\w\-/]+)*)\s*(==|!=|<=|>=|<|>)\s*(.+)$")


def _unquote(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _parse_steps(path: str) -> tuple:
    """``.a[*].b`` -> steps: ("key", a) ("all",) ("key", b) ..."""
    steps: list[tuple] = []
    i = 0
    if path.startswith(("$", "@")):
        i = 1
    while i < len(path):
        if path.startswith("..", i):
            m = re.match(r"[\w\-/]+", path[i + 2 :])
            if not m:
                raise JSONPathError(f"unrecognized identifier in {path!r}")
            steps.append(("descend", m.group(0)))
            i += 2 + m.end()
        elif path[i] == ".":
            m = re.match(r"[\w\-/]*", path[i + 1 :])
            name = m.group(0) if m else ""
            if name:
                steps.append(("key", name))
            i += 1 + len(name)
        elif path[i] == "[":
            depth, j = 0, i
            while j < len(path):
                if path[j] == "[":
                    depth += 1
                elif path[j] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(path):
                raise JSONPathError(f"unterminated array notation in {path!r}")
            steps.append(_index_step(path[i + 1 : j].strip(), path))
            i = j + 1
        else:
            raise JSONPathError(f"unrecognized character in action: {path[i]!r} in {path!r}")
    return tuple(steps)


def _index_step(inner: str, path: str) -> tuple:
    if inner == "*":
        return ("all",)
    if inner.startswith("?(") and inner.endswith(")"):
        m = _FILTER.match(inner[2:-1].strip())
        if not m:
            raise JSONPathError(f"unsupported filter {inner!r} in {path!r}")
        keys = tuple(k for k in m.group(1).split(".") if k)
        raw = m.group(3).strip()
        if raw[:1] in "'\"" and raw[-1:] == raw[:1]:
            value: Any = raw[1:-1]
        else:
            try:
                value = json.loads(raw)
            except json.JSONDecodeError:
                raise JSONPathError(f"unsupported filter value {raw!r} in {path!r}") from None
        return ("filter", keys, m.group(2), value)
    if ":" in inner:
        parts = inner.split(":")
        try:
            nums = [int(p) if p.strip() else None for p in parts[:2]]
        except ValueError:
            raise JSONPathError(f"invalid array index {inner!r} in {path!r}") from None
        return ("slice", nums[0], nums[1] if len(nums) > 1 else None)
    if "," in inner:
        names = tuple(p.strip().strip("'\"") for p in inner.split(","))
        return ("union", names)
    if inner[:1] in "'\"":
        return ("key", inner[1:-1])
    try:
        return ("index", int(inner))
    except ValueError:
        raise JSONPathError(f"invalid array index {inner!r} in {path!r}") from None


def parse_template(template: str) -> tuple:
    """Parse a template into text, expression and range nodes."""
    nodes: list = []
    stack: list[tuple[tuple, list]] = []
    current = nodes
    i = 0
    while i < len(template):
        start = template.find("{", i)
        if start < 0:
            current.append(_Text(template[i:]))
            break
        if start > i:
            current.append(_Text(template[i:start]))
        end, in_quote = start + 1, False
        while end < len(template):
            ch = template[end]
            if ch == "\\" and in_quote:
                end += 2
                continue
            if ch == '"':
                in_quote = not in_quote
            elif ch == "}" and not in_quote:
                break
            end += 1
        if end >= len(template):
            raise JSONPathError(f"unclosed action in template {template!r}")
        body = template[start + 1 : end].strip()
        i = end + 1
        if body.startswith('"') and body.endswith('"') and len(body) >= 2:
            current.append(_Text(_unquote(body[1:-1])))
        elif body.startswith("range "):
            stack.append((_parse_steps(body[6:].strip()), current))
            current = []
        elif body == "end":
            if not stack:
                raise JSONPathError("not in range, nothing to end")
            steps, parent = stack.pop()
            parent.append(_Range(steps, tuple(current)))
            current = parent
        elif body:
            current.append(_Expr(_parse_steps(body)))
    if stack:
        raise JSONPathError("unclosed range")
    return tuple(nodes)


def _compare(left: Any, op: str, right: Any) -> bool:
    try:
        return {
            "==": left == right,
            "!=": left != right,
            "<": left < right,
            ">": left > right,
            "<=": left <= right,
            ">=": left >= right,
        }[op]
    except TypeError:
        return False


def _walk(values: list, steps: tuple) -> list:
    for step in steps:
        out: list = []
        for value in values:
            kind = step[0]
            if kind == "key":
                if isinstance(value, dict) and step[1] in value:
                    out.append(value[step[1]])
            elif kind == "all":
                if isinstance(value, list):
                    out.extend(value)
                elif isinstance(value, dict):
                    out.extend(value[k] for k in sorted(value))
            elif kind == "index":
                if isinstance(value, list) and -len(value) <= step[1] < len(value):
                    out.append(value[step[1]])
                elif isinstance(value, list):
                    raise JSONPathError(f"array index out of bounds: index {step[1]}, length {len(value)}")
            elif kind == "slice":
                if isinstance(value, list):
                    out.extend(value[step[1] : step[2]])
            elif kind == "union":
                if isinstance(value, dict):
                    out.extend(value[k] for k in step[1] if k in value)
            elif kind == "descend":
                out.extend(_descend(value, step[1]))
            elif kind == "filter":
                items = value if isinstance(value, list) else []
                for item in items:
                    got = _walk([item], tuple(("key", k) for k in step[1]))
                    if got and _compare(got[0], step[2], step[3]):
                        out.append(item)
        values = out
    return values


def _descend(value: Any, name: str) -> list:
    out = []
    if isinstance(value, dict):
        if name in value:
            out.append(value[name])
        for key in sorted(value):
            out.extend(_descend(value[key], name))
    elif isinstance(value, list):
        for item in value:
            out.extend(_descend(item, name))
    return out


def format_value(value: Any) -> str:
    """One result as kubectl prints it."""
    if isinstance(value, dict | list):
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "<nil>"
    return str(value)


def _render(nodes: tuple, data: Any) -> str:
    out: list[str] = []
    for node in nodes:
        if isinstance(node, _Text):
            out.append(node.text)
        elif isinstance(node, _Expr):
            out.append(" ".join(format_value(v) for v in _walk([data], node.steps)))
        else:
            items = _walk([data], node.steps)
            # range over one list iterates its elements
            if len(items) == 1 and isinstance(items[0], list):
                items = items[0]
            for item in items:
                out.append(_render(node.body, item))
    return "".join(out)


def render(template: str, data: Any) -> str:
    """Run a kubectl jsonpath template over ``data``."""
    return _render(parse_template(template), data)
