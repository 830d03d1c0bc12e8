"""The evaluator's six safety rules, restated as an independent checker.

The rules run in the evaluator's order and the first failure is the verdict.
As in the original, ``type`` may be a list of kinds or one string, ``in`` tests
are membership on lists and substring tests on strings, and a rule that raises
on malformed input fails with the exception's text. An empty graph is unsafe
here; the original crashes on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx

VALID_NODE_TYPES: tuple[str, ...] = (
    "EK_SUPERBLOCK",
    "EK_CHASSIS",
    "EK_RACK",
    "EK_AGG_BLOCK",
    "EK_JUPITER",
    "EK_PORT",
    "EK_SPINEBLOCK",
    "EK_PACKET_SWITCH",
    "EK_CONTROL_POINT",
    "EK_CONTROL_DOMAIN",
)
VALID_EDGE_TYPES: tuple[str, ...] = ("RK_CONTAINS", "RK_CONTROLS")
# parent kind -> kinds an RK_CONTAINS edge may lead to.
HIERARCHY: dict[str, tuple[str, ...]] = {
    "EK_JUPITER": ("EK_SPINEBLOCK", "EK_SUPERBLOCK"),
    "EK_SPINEBLOCK": ("EK_PACKET_SWITCH",),
    "EK_SUPERBLOCK": ("EK_AGG_BLOCK",),
    "EK_AGG_BLOCK": ("EK_PACKET_SWITCH",),
    "EK_CHASSIS": ("EK_CONTROL_POINT", "EK_PACKET_SWITCH"),
    "EK_CONTROL_POINT": ("EK_PACKET_SWITCH",),
    "EK_RACK": ("EK_CHASSIS",),
    "EK_PACKET_SWITCH": ("EK_PORT",),
    "EK_CONTROL_DOMAIN": ("EK_CONTROL_POINT", "EK_PACKET_SWITCH"),
}


@dataclass(frozen=True)
class SafetyVerdict:
    """Outcome of the safety rules: ``rule`` and ``message`` name the first violation."""

    ok: bool
    rule: str = ""
    message: str = ""


SAFE = SafetyVerdict(True)


def _as_list(kinds: Any) -> Any:
    return [kinds] if isinstance(kinds, str) else kinds


# The same iteration as the public API (node order, then adjacency order),
# read straight from a plain DiGraph's dicts because the views cost more than
# the checks on a 5,000-node graph.
def _nodes(graph: Any) -> Any:
    return graph._node.items() if type(graph) is nx.DiGraph else graph.nodes(data=True)


def _edges(graph: Any) -> Any:
    if type(graph) is nx.DiGraph:
        return ((u, v, attrs) for u, nbrs in graph._succ.items() for v, attrs in nbrs.items())
    return graph.edges(data=True)


def _attrs(graph: Any) -> Any:
    return graph._node if type(graph) is nx.DiGraph else graph.nodes


def node_types(graph: Any) -> str:
    """Rule 1: every node has a non-empty ``type`` made of the ten EK_ kinds."""
    valid = set(VALID_NODE_TYPES)
    for node, attrs in _nodes(graph):
        if not attrs.get("type"):
            return f"node {node!r} has no 'type'"
        for kind in _as_list(attrs["type"]):
            if kind not in valid:
                return f"node {node!r} has invalid type {kind!r}"
    return ""


def edge_types(graph: Any) -> str:
    """Rule 2: every edge has a ``type`` containing RK_CONTAINS or RK_CONTROLS."""
    for source, target, attrs in _edges(graph):
        if "type" not in attrs:
            return f"edge {source!r} -> {target!r} has no 'type'"
        kind = attrs["type"]
        if type(kind) is str and kind in VALID_EDGE_TYPES:
            continue  # the common case, decided without the substring scan
        if not any(valid in kind for valid in VALID_EDGE_TYPES):
            return f"edge {source!r} -> {target!r} has invalid type {kind!r}"
    return ""


def _may_contain(parent_kinds: Any, child_kinds: Any) -> bool:
    parent_kinds, child_kinds = _as_list(parent_kinds), _as_list(child_kinds)
    return any(
        kind in HIERARCHY and any(child in HIERARCHY[kind] for child in child_kinds)
        for kind in parent_kinds
    )


def _kinds_key(kinds: Any) -> Any:
    """A hashable stand-in for a ``type`` value: equal keys give equal verdicts."""
    return tuple(kinds) if type(kinds) is list else kinds


def hierarchy(graph: Any) -> str:
    """Rule 3: every RK_CONTAINS edge goes from a kind to a kind it may contain."""
    nodes = _attrs(graph)
    verdicts: dict = {}  # the verdict depends only on the two type values
    for source, target, attrs in _edges(graph):
        if "RK_CONTAINS" not in attrs["type"]:
            continue
        parent_kinds, child_kinds = nodes[source]["type"], nodes[target]["type"]
        try:
            key = (_kinds_key(parent_kinds), _kinds_key(child_kinds))
            allowed = verdicts.get(key)
        except TypeError:  # unhashable kinds: decide without the memo
            key, allowed = None, None
        if allowed is None:
            allowed = _may_contain(parent_kinds, child_kinds)
            if key is not None:
                verdicts[key] = allowed
        if not allowed:
            parent = nodes[source].get("name", source)
            child = nodes[target].get("name", target)
            return (
                f"{parent!r} ({_as_list(parent_kinds)}) may not contain "
                f"{child!r} ({_as_list(child_kinds)})"
            )
    return ""


def no_isolated_nodes(graph: Any) -> str:
    """Rule 4: no node without edges."""
    if type(graph) is nx.DiGraph:
        succ, pred = graph._succ, graph._pred
        isolated = [node for node in graph._node if not succ[node] and not pred[node]]
    else:
        isolated = list(nx.isolates(graph))
    if isolated:
        shown = ", ".join(repr(node) for node in isolated[:5])
        more = f" and {len(isolated) - 5} more" if len(isolated) > 5 else ""
        return f"{len(isolated)} isolated node(s): {shown}{more}"
    return ""


def port_capacity(graph: Any) -> str:
    """Rule 5: every port has a non-zero ``physical_capacity_bps``."""
    for node, attrs in _nodes(graph):
        if "EK_PORT" in attrs["type"]:
            if "physical_capacity_bps" not in attrs:
                return f"port {node!r} has no physical_capacity_bps"
            if attrs["physical_capacity_bps"] == 0:
                return f"port {node!r} has physical_capacity_bps 0"
    return ""


def switch_has_port(graph: Any) -> str:
    """Rule 6: every packet switch has at least one port among its successors."""
    nodes = _attrs(graph)
    for node, attrs in _nodes(graph):
        if "EK_PACKET_SWITCH" in attrs["type"] and not any(
            "EK_PORT" in nodes[succ]["type"] for succ in graph.successors(node)
        ):
            return f"packet switch {node!r} has no port"
    return ""


RULES = (node_types, edge_types, hierarchy, no_isolated_nodes, port_capacity, switch_has_port)
"""The six rules in the evaluator's order; each returns '' or a violation."""


def check(graph: Any) -> SafetyVerdict:
    """Judge ``graph`` by the six rules; the first violation decides.

    Examples
    --------
    >>> g = nx.DiGraph()
    >>> g.add_node('sw', type=['EK_PACKET_SWITCH']); g.add_node('p', type=['EK_PORT'], physical_capacity_bps=5)
    >>> g.add_edge('sw', 'p', type='RK_CONTAINS')
    >>> check(g).ok
    True
    >>> g.nodes['p']['physical_capacity_bps'] = 0
    >>> check(g).rule
    'port_capacity'
    """
    if graph is None or not isinstance(graph, nx.Graph):
        return SafetyVerdict(False, "graph", "no graph to check")
    if len(graph) == 0:
        return SafetyVerdict(False, "graph", "empty graph (the evaluator crashes on it)")
    for rule in RULES:
        try:
            problem = rule(graph)
        except Exception as exc:  # malformed input fails the rule, as in the original
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            return SafetyVerdict(False, rule.__name__, problem)
    return SAFE
