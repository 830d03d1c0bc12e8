"""Writing repairs back into policy files, keeping their comments and layout.

A policy file is read with ruamel.yaml's round-trip loader, so comments, key
order, quoting and flow/block style survive; JSON Patch operations (what the
repair planner emits) are applied to the loaded documents in place; only the
documents' text is rebuilt. Files no patch touches are never rewritten.
Pure: text in, text out.
"""

from __future__ import annotations

import copy
import difflib
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from netmend.k8s.errors import K8sError
from netmend.k8s.model import ADMIN_KINDS

_KEY_LINE = re.compile(r"^(?P<indent> *)[^\s#-][^:]*:\s*(#.*)?$")
_DASH_LINE = re.compile(r"^(?P<indent> *)- ")


class WritebackError(K8sError, ValueError):
    """A patch does not apply to the document as written, or the file cannot be round-tripped."""


@dataclass(frozen=True)
class Layout:
    """How a YAML file indents: mappings, sequences, and the dash's offset inside them."""

    mapping: int = 2
    sequence: int = 2
    offset: int = 0


def guess_layout(text: str) -> Layout:
    """The indentation a YAML text uses (the first nested mapping and the first block sequence).

    Examples
    --------
    >>> guess_layout("a:\\n  b:\\n  - x\\n")
    Layout(mapping=2, sequence=2, offset=0)
    >>> guess_layout("a:\\n    b:\\n      - x\\n")
    Layout(mapping=4, sequence=4, offset=2)
    """
    mapping = offset = None
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    for above, below in zip(lines, lines[1:], strict=False):
        parent = _KEY_LINE.match(above)
        if parent is None:
            continue
        depth = len(parent["indent"])
        dash = _DASH_LINE.match(below)
        if dash is not None and offset is None:
            offset = len(dash["indent"]) - depth
        elif dash is None and mapping is None:
            inner = len(below) - len(below.lstrip(" "))
            if inner > depth:
                mapping = inner - depth
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    offset = max(offset or 0, 0)
    return Layout(mapping=mapping, sequence=max(offset + 2, mapping if offset else 2), offset=offset)


def _json_layout(text: str) -> Layout:
    """The indentation of a JSON text: its first indented line's."""
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if stripped and len(stripped) < len(line):
            return Layout(mapping=len(line) - len(stripped))
    return Layout()


def _yaml(layout: Layout) -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096  # never re-wrap long lines
    y.brace_single_entry_mapping_in_flow_sequence = True  # keep [{port: x}] as written
    y.indent(mapping=layout.mapping, sequence=layout.sequence, offset=layout.offset)
    return y


@dataclass
class PolicyFile:
    """One file's documents as loaded, and how to write them back."""

    path: str
    text: str
    documents: list
    is_json: bool
    layout: Layout
    explicit_start: bool

    def render(self) -> str:
        """The documents as text in the file's own style."""
        if self.is_json:  # one value per line in the file's indentation, as kubectl prints JSON
            body = [json.dumps(plain(d), indent=self.layout.mapping, ensure_ascii=False) for d in self.documents]
            return "\n".join(body) + "\n"
        y = _yaml(self.layout)
        y.explicit_start = self.explicit_start
        out = io.StringIO()
        y.dump_all(self.documents, out)
        return out.getvalue()


def load_policy_file(path: str, text: str) -> PolicyFile:
    """Load ``text`` (YAML, many documents, or JSON) for round-trip editing."""
    is_json = path.endswith(".json")
    layout = _json_layout(text) if is_json else guess_layout(text)
    try:
        if is_json:
            documents = [json.loads(text)]
        else:
            documents = [d for d in _yaml(layout).load_all(text) if d is not None]
    except (YAMLError, json.JSONDecodeError) as exc:
        raise WritebackError(f"{path}: expected valid YAML or JSON ({exc})") from None
    explicit = text.lstrip().startswith("---")
    return PolicyFile(path, text, documents, is_json, layout, explicit)


def plain(value: Any) -> Any:
    """A loaded value as plain dicts, lists and scalars."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if value is None or isinstance(value, bool):
        return value
    for scalar in (int, float, str):  # round-trip scalars are subclasses of these
        if isinstance(value, scalar):
            return scalar(value)
    return value


def policy_documents(file: PolicyFile) -> Iterable[tuple[str, tuple, Any]]:
    """``(namespace/name, path prefix, object)`` of every NetworkPolicy in the file,
    inside ``kind: List`` documents too."""
    for number, doc in enumerate(file.documents):
        items = [((number,), doc)]
        if isinstance(doc, dict) and doc.get("kind") == "List":
            items = [((number, "items", i), item) for i, item in enumerate(doc.get("items") or [])]
        for prefix, obj in items:
            if isinstance(obj, dict) and obj.get("kind") == "NetworkPolicy":
                meta = obj.get("metadata") or {}
                yield f"{meta.get('namespace') or 'default'}/{meta.get('name')}", prefix, obj


def admin_documents(file: PolicyFile) -> Iterable[tuple[str, tuple, Any]]:
    """``(Kind/name, path prefix, object)`` of every admin-tier policy in the file
    (ClusterNetworkPolicy, AdminNetworkPolicy, BaselineAdminNetworkPolicy)."""
    for number, doc in enumerate(file.documents):
        items = [((number,), doc)]
        if isinstance(doc, dict) and doc.get("kind") == "List":
            items = [((number, "items", i), item) for i, item in enumerate(doc.get("items") or [])]
        for prefix, obj in items:
            if isinstance(obj, dict) and obj.get("kind") in ADMIN_KINDS:
                yield f"{obj.get('kind')}/{(obj.get('metadata') or {}).get('name')}", prefix, obj


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise WritebackError(f"JSON pointer {pointer!r}: expected it to start with '/'")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _step(node: Any, token: str, pointer: str) -> Any:
    if isinstance(node, dict):
        if token not in node:
            raise WritebackError(f"{pointer}: no key {token!r}")
        return node[token]
    if isinstance(node, list):
        if not token.isdigit() or int(token) >= len(node):
            raise WritebackError(f"{pointer}: no index {token!r}")
        return node[int(token)]
    raise WritebackError(f"{pointer}: cannot descend into a scalar")


def _fresh(value: Any) -> Any:
    """A plain value as round-trip nodes (so later edits below it work the same)."""
    if isinstance(value, dict):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = _fresh(v)
        return out
    if isinstance(value, list):
        seq = CommentedSeq()
        seq.extend(_fresh(v) for v in value)
        return seq
    return copy.deepcopy(value)


def _is_flow(node: Any) -> bool:
    return isinstance(node, CommentedMap | CommentedSeq) and bool(node.fa.flow_style())


def _mimic(new: Any, like: Any) -> Any:
    """Give a new node the flow/block style of ``like``, a node of the same role nearby
    (the value it replaces, or a sibling in the same list), level by level."""
    if not isinstance(new, CommentedMap | CommentedSeq) or type(new) is not type(like):
        return new
    if _is_flow(like):
        new.fa.set_flow_style()
        return new
    new.fa.set_block_style()
    if isinstance(new, CommentedMap):
        containers = [v for v in like.values() if isinstance(v, CommentedMap | CommentedSeq)]
        for key, value in new.items():
            model = like.get(key)
            if type(model) is not type(value):
                model = next((c for c in containers if type(c) is type(value)), None)
            _mimic(value, model)
    elif like:
        for value in new:
            _mimic(value, like[0])
    return new


def apply_json_patch(obj: Any, ops: Sequence[dict]) -> None:
    """Apply RFC 6902 ``test``/``add``/``remove``/``replace`` ops to a loaded document in place.

    Raises
    ------
    WritebackError
        When a ``test`` fails or a path does not resolve; ``obj`` may then be
        partly changed, so callers apply to a copy or discard it.
    """
    for op in ops:
        kind, pointer = op.get("op"), op.get("path", "")
        tokens = _tokens(pointer)
        if kind == "test":
            node = obj
            for token in tokens:
                node = _step(node, token, pointer)
            if plain(node) != op.get("value"):
                raise WritebackError(f"{pointer}: the file holds {plain(node)!r}, the plan expected {op.get('value')!r}")
            continue
        if not tokens:
            raise WritebackError(f"{kind} of the whole document is not an edit a repair makes")
        parent = obj
        for token in tokens[:-1]:
            parent = _step(parent, token, pointer)
        last = tokens[-1]
        if kind in ("add", "replace"):
            value = _fresh(op.get("value"))
            if isinstance(parent, list) and parent:
                _mimic(value, parent[min(int(last), len(parent) - 1)] if last.isdigit() else parent[-1])
            elif isinstance(parent, dict) and kind == "replace" and last in parent:
                _mimic(value, parent[last])
            if isinstance(parent, dict):
                if kind == "replace" and last not in parent:
                    raise WritebackError(f"{pointer}: replace of a missing key")
                parent[last] = value
            elif isinstance(parent, list):
                if kind == "add" and last == "-":
                    parent.append(value)
                elif last.isdigit() and int(last) <= len(parent) - (kind == "replace"):
                    if kind == "add":
                        parent.insert(int(last), value)
                    else:
                        parent[int(last)] = value
                else:
                    raise WritebackError(f"{pointer}: index {last!r} out of range")
            else:
                raise WritebackError(f"{pointer}: parent is a scalar")
        elif kind == "remove":
            _step(parent, last, pointer)
            if isinstance(parent, dict):
                del parent[last]
            else:
                del parent[int(last)]
        else:
            raise WritebackError(f"op {kind!r}: expected test, add, remove or replace")


def unified_diff(before: str, after: str, name: str) -> str:
    """``diff -u`` of one file, ``a/NAME`` -> ``b/NAME``."""
    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    ))
