"""MALT topologies: textproto and node-link JSON in and out, and a synthetic generator.

The graph conventions are the NetArena evaluator's, exactly:

* one ``networkx.DiGraph`` node per entity *name* (entities of several kinds
  that share a name become one node whose ``type`` lists every kind, in the
  order they first appear);
* node attributes ``name``, ``type`` (a list) and the entity's attribute
  messages flattened one level (``port_attr { physical_capacity_bps: 1e9 }``
  becomes ``physical_capacity_bps``; a nested message stays a dict);
* numbers are floats, as the evaluator's textproto reader makes them;
* one edge per relationship with attribute ``type``; a later relationship
  between the same two names overwrites the earlier one's ``type``.

Pure functions parse text; :func:`load` and :func:`write_node_link` are the
only ones that touch files.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from pathlib import Path

import networkx as nx

from netmend.malt import kinds as K


class TopologyError(ValueError):
    """A topology file or text could not be read; the message says what was expected."""


# ---------------------------------------------------------------- textproto

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|\#[^\n]*)
  | (?P<punct>[{}:,])
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_]))
  | (?P<ident>[A-Za-z_\-][A-Za-z0-9_+\-]*)
    """,
    re.VERBOSE,
)
_ESCAPES = {"\\": "\\", "/": "/", '"': '"', "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_KEYWORDS = {"true": True, "false": False, "null": None}


def _unquote(raw: str) -> str:
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        elif nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            raise TopologyError(f"unknown escape \\{nxt} in string {raw!r}")
    return "".join(out)


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    end = len(text)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None:
            line = text.count("\n", 0, pos) + 1
            raise TopologyError(
                f"line {line}: unexpected character {text[pos]!r}; expected a field name, "
                "a value, '{', '}' or ':'"
            )
        kind = m.lastgroup
        if kind != "ws":
            tokens.append((kind, m.group(), pos))
        pos = m.end()
    return tokens


def parse_textproto(text: str) -> dict[str, list]:
    """Parse protobuf text format into nested dicts; every field maps to a LIST of values.

    Scalars: quoted strings, numbers (as float), identifiers (enum names, as str),
    ``true``/``false``/``null``.

    >>> parse_textproto('entity { id { kind: EK_PORT name: "p" } port_attr { physical_capacity_bps: 5 } }')
    {'entity': [{'id': [{'kind': ['EK_PORT'], 'name': ['p']}], 'port_attr': [{'physical_capacity_bps': [5.0]}]}]}
    """
    tokens = _tokenize(text)
    n = len(tokens)

    def where(i: int) -> str:
        pos = tokens[i][2] if i < n else len(text)
        return f"line {text.count(chr(10), 0, pos) + 1}"

    def message(i: int, closing: bool) -> tuple[dict[str, list], int]:
        fields: dict[str, list] = {}
        while i < n:
            kind, value, _ = tokens[i]
            if kind == "punct" and value == "}":
                if not closing:
                    raise TopologyError(f"{where(i)}: unmatched '}}'")
                return fields, i + 1
            if kind == "punct" and value == ",":
                i += 1
                continue
            if kind != "ident":
                raise TopologyError(f"{where(i)}: expected a field name, found {value!r}")
            key = value
            i += 1
            if i < n and tokens[i][:2] == ("punct", ":"):
                i += 1
                if i >= n:
                    raise TopologyError(f"{where(i)}: expected a value after '{key}:'")
                vkind, vtext, _ = tokens[i]
                if vkind == "punct" and vtext == "{":
                    sub, i = message(i + 1, True)
                    fields.setdefault(key, []).append(sub)
                    continue
                if vkind == "string":
                    val: object = _unquote(vtext)
                elif vkind == "number":
                    val = float(vtext)
                elif vkind == "ident":
                    val = _KEYWORDS.get(vtext, vtext)
                else:
                    raise TopologyError(f"{where(i)}: expected a value after '{key}:', found {vtext!r}")
                fields.setdefault(key, []).append(val)
                i += 1
            elif i < n and tokens[i][:2] == ("punct", "{"):
                sub, i = message(i + 1, True)
                fields.setdefault(key, []).append(sub)
            else:
                raise TopologyError(f"{where(i)}: expected ':' or '{{' after field '{key}'")
        if closing:
            raise TopologyError(f"{where(i)}: missing '}}' at end of input")
        return fields, i

    parsed, _ = message(0, False)
    return parsed


def _one(fields: dict[str, list], key: str, context: str):
    values = fields.get(key)
    if not values:
        raise TopologyError(f"{context}: missing required field '{key}'")
    return values[-1]


def _flatten(value):
    """A parsed message as plain Python values, repeated fields collapsed as the evaluator sees them."""
    if isinstance(value, dict):
        return {k: _flatten(v[0] if len(v) == 1 else v) for k, v in value.items()}
    if isinstance(value, list):
        return [_flatten(v) for v in value]
    return value


def graph_from_textproto(text: str) -> nx.DiGraph:
    """Build the evaluator-convention graph from MALT textproto text."""
    parsed = parse_textproto(text)
    graph = nx.DiGraph()
    nodes = graph.nodes
    for index, entity in enumerate(parsed.get("entity", [])):
        if not isinstance(entity, dict):
            raise TopologyError(f"entity #{index + 1}: expected a message, found {entity!r}")
        ident = _one(entity, "id", f"entity #{index + 1}")
        if not isinstance(ident, dict):
            raise TopologyError(f"entity #{index + 1}: 'id' must be a message")
        name = _one(ident, "name", f"entity #{index + 1} id")
        kind = _one(ident, "kind", f"entity #{index + 1} id")
        if not isinstance(name, str) or not isinstance(kind, str):
            raise TopologyError(f"entity #{index + 1}: id.name and id.kind must be text")
        if name in graph:
            nodes[name]["type"].append(kind)
        else:
            graph.add_node(name, type=[kind], name=name)
        attrs = nodes[name]
        for key, values in entity.items():
            if key == "id":
                continue
            for value in values:
                if not isinstance(value, dict):
                    raise TopologyError(
                        f"entity {name!r}: attribute '{key}' must be a message, found {value!r}"
                    )
                for attr, attr_values in value.items():
                    attrs[attr] = _flatten(attr_values[0] if len(attr_values) == 1 else attr_values)
    for index, relation in enumerate(parsed.get("relationship", [])):
        context = f"relationship #{index + 1}"
        if not isinstance(relation, dict):
            raise TopologyError(f"{context}: expected a message")
        a = _one(relation, "a", context)
        z = _one(relation, "z", context)
        a_name = _one(a, "name", f"{context} a")
        z_name = _one(z, "name", f"{context} z")
        graph.add_edge(a_name, z_name, type=_one(relation, "kind", context))
    return graph


# ---------------------------------------------------------------- node-link JSON


def to_node_link(graph: nx.Graph) -> dict:
    """The graph as node-link JSON data (``edges`` key), as networkx writes it."""
    return nx.node_link_data(graph, edges="edges")


def from_node_link(data: dict) -> nx.DiGraph:
    """A graph from node-link JSON data, accepting either the ``edges`` or the older ``links`` key."""
    if not isinstance(data, dict) or "nodes" not in data:
        raise TopologyError("node-link JSON must be an object with a 'nodes' list")
    key = "edges" if "edges" in data else "links"
    if key not in data:
        raise TopologyError("node-link JSON must have an 'edges' (or 'links') list")
    try:
        graph = nx.node_link_graph(data, edges=key)
    except (KeyError, TypeError, nx.NetworkXError) as exc:
        raise TopologyError(f"invalid node-link JSON: {exc}") from exc
    if not graph.is_directed():
        graph = graph.to_directed()
    return graph


def loads(text: str) -> nx.DiGraph:
    """Parse a topology from text: node-link JSON if it starts with '{', else MALT textproto."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TopologyError(f"invalid JSON at line {exc.lineno}: {exc.msg}") from exc
        return from_node_link(data)
    return graph_from_textproto(text)


def load(path: str | Path) -> nx.DiGraph:
    """Load a topology file (MALT textproto or node-link JSON)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TopologyError(f"cannot read topology file {str(path)!r}: {exc.strerror}") from exc
    try:
        return loads(text)
    except TopologyError as exc:
        raise TopologyError(f"{path.name}: {exc}") from exc


def write_node_link(graph: nx.Graph, path: str | Path) -> None:
    """Write the graph as node-link JSON (sorted keys, so the file is deterministic)."""
    Path(path).write_text(json.dumps(to_node_link(graph), sort_keys=True, indent=1) + "\n")


# ---------------------------------------------------------------- synthetic topologies

CAPACITIES_BPS: tuple[float, ...] = (1e9, 2e9, 4e9, 5e9, 10e9)


def _entity(graph: nx.DiGraph, name: str, kind: str, **attrs) -> None:
    if name in graph:
        graph.nodes[name]["type"].append(kind)
    else:
        graph.add_node(name, type=[kind], name=name)
    graph.nodes[name].update(attrs)


def synthetic(
    seed: int = 0,
    *,
    superblocks: int = 2,
    agg_blocks: int = 2,
    spine_blocks: int = 2,
    switches_per_block: int = 4,
    ports_per_switch: int = 4,
) -> nx.DiGraph:
    """A MALT-schema topology with the real one's naming, shape and quirks, of any size.

    The shape follows the public MALT graph: a jupiter holds superblocks
    (``ju1.a1``) and spine blocks (``ju1.s1``); superblocks hold aggregation
    blocks (``ju1.a1.m1``); aggregation and spine blocks hold packet switches
    (``ju1.a1.m1.s2c1``, ``ju1.s1.s1c1``) with ports (``...p1``) of seeded
    capacities. Each switch is also a chassis and a control point of the same
    name (one node of three kinds); racks (``ju1.a1.m1rack``) hold the
    chassis, and control domains (``ju1.a1.dom``) hold the control points.

    >>> g = synthetic(seed=1)
    >>> g.nodes['ju1.a1.m1.s2c1']['type']
    ['EK_PACKET_SWITCH', 'EK_CHASSIS', 'EK_CONTROL_POINT']
    >>> synthetic(seed=1).nodes(data=True) == g.nodes(data=True) or list(synthetic(1).nodes(data=True)) == list(g.nodes(data=True))
    True
    """
    for label, value in (
        ("superblocks", superblocks),
        ("agg_blocks", agg_blocks),
        ("spine_blocks", spine_blocks),
        ("switches_per_block", switches_per_block),
        ("ports_per_switch", ports_per_switch),
    ):
        if not isinstance(value, int) or value < 1:
            raise TopologyError(f"{label} must be a whole number >= 1, got {value!r}")
    rng = random.Random(seed)
    graph = nx.DiGraph()
    jupiter = "ju1"
    _entity(graph, jupiter, K.JUPITER, jupiter_type="JDT_COLO")
    blocks: list[tuple[str, str, str, str]] = []  # (block, switch prefix, rack, domain)
    for a in range(1, superblocks + 1):
        sb = f"{jupiter}.a{a}"
        _entity(graph, sb, K.SUPERBLOCK, index_within_jupiter=float(a))
        for m in range(1, agg_blocks + 1):
            blocks.append((f"{sb}.m{m}", f"{sb}.m{m}.s2c", f"{sb}.m{m}rack", f"{sb}.dom"))
    for s in range(1, spine_blocks + 1):
        sp = f"{jupiter}.s{s}"
        blocks.append((sp, f"{sp}.s{s}c", f"{sp}rack", f"{sp}.dom"))

    relationships: list[tuple[str, str, str]] = []
    for a in range(1, superblocks + 1):
        relationships.append((K.CONTAINS, jupiter, f"{jupiter}.a{a}"))
    for s in range(1, spine_blocks + 1):
        relationships.append((K.CONTAINS, jupiter, f"{jupiter}.s{s}"))
    for block, prefix, _rack, _domain in blocks:
        is_spine = block.count(".") == 1
        kind = K.SPINEBLOCK if is_spine else K.AGG_BLOCK
        _entity(graph, block, kind)
        if not is_spine:
            relationships.append((K.CONTAINS, block.rsplit(".", 1)[0], block))
        for c in range(1, switches_per_block + 1):
            switch = f"{prefix}{c}"
            _entity(graph, switch, K.PACKET_SWITCH, switch_loc={"stage": 2.0})
            relationships.append((K.CONTAINS, block, switch))
            for p in range(1, ports_per_switch + 1):
                port = f"{switch}.p{p}"
                # Most ports are 1 Gb/s, a seeded few are faster, as in the real graph.
                capacity = CAPACITIES_BPS[0] if rng.random() < 0.9 else rng.choice(CAPACITIES_BPS)
                _entity(graph, port, K.PORT, physical_capacity_bps=capacity)
                relationships.append((K.CONTAINS, switch, port))
    for _block, prefix, rack, domain in blocks:
        _entity(graph, rack, K.RACK)
        if domain not in graph:
            _entity(graph, domain, K.CONTROL_DOMAIN)
        for c in range(1, switches_per_block + 1):
            switch = f"{prefix}{c}"
            _entity(graph, switch, K.CHASSIS)
            _entity(graph, switch, K.CONTROL_POINT)
            relationships += [
                (K.CONTAINS, rack, switch),
                (K.CONTAINS, switch, switch),  # chassis contains its packet switch
                (K.CONTAINS, switch, switch),  # chassis contains its control point
                (K.CONTROLS, switch, switch),  # the control point controls the switch
                (K.CONTAINS, domain, switch),
            ]
    for kind, a, z in relationships:
        graph.add_edge(a, z, type=kind)
    return graph


def default() -> nx.DiGraph:
    """The built-in topology used when no file is given: ``synthetic(seed=0)`` at its default size."""
    return synthetic(seed=0)


def names_by_kind(graph: nx.Graph) -> dict[str, list[str]]:
    """Node names grouped by their FIRST kind, in graph order (how task generators pick names)."""
    groups: dict[str, list[str]] = {}
    for _, attrs in graph.nodes(data=True):
        node_kinds = K.kinds_of(attrs)
        if node_kinds:
            groups.setdefault(node_kinds[0], []).append(attrs.get("name"))
    return groups


def iter_names(graph: nx.Graph) -> Iterable[str]:
    """Every node name in graph order."""
    for _, name in graph.nodes(data="name"):
        if isinstance(name, str):
            yield name
