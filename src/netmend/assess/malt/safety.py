"""The evaluator's six safety rules, restated as an independent checker.

The rules run in the evaluator's order and the first failure is the verdict.
As in the original, ``type`` may be a list of kinds or one string, ``in`` tests
are membership on lists and substring tests on strings, and a rule that raises
on malformed input fails with the exception's text. An empty graph is unsafe
here; the original crashes on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress, repeat
from operator import ne
from typing import Any

import networkx as nx

from netmend.assess.malt.graphs import Reading, read

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


def _node_types(node_items: Iterable) -> str:
    valid = set(VALID_NODE_TYPES)
    for node, attrs in node_items:
        if not attrs.get("type"):
            return f"node {node!r} has no 'type'"
        for kind in _as_list(attrs["type"]):
            if kind not in valid:
                return f"node {node!r} has invalid type {kind!r}"
    return ""


def _edge_types(edges: Iterable) -> str:
    for source, target, attrs in edges:
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


def _hierarchy(nodes: Any, edges: Iterable) -> str:
    verdicts: dict = {}  # the verdict depends only on the two type values
    for source, target, attrs in edges:
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


def _isolated(isolated: list) -> str:
    if isolated:
        shown = ", ".join(repr(node) for node in isolated[:5])
        more = f" and {len(isolated) - 5} more" if len(isolated) > 5 else ""
        return f"{len(isolated)} isolated node(s): {shown}{more}"
    return ""


def _port_capacity(node_items: Iterable) -> str:
    for node, attrs in node_items:
        if "EK_PORT" in attrs["type"]:
            if "physical_capacity_bps" not in attrs:
                return f"port {node!r} has no physical_capacity_bps"
            if attrs["physical_capacity_bps"] == 0:
                return f"port {node!r} has physical_capacity_bps 0"
    return ""


def _switch_has_port(graph: Reading, node_items: Iterable) -> str:
    nodes = graph.nodes
    for node, attrs in node_items:
        if "EK_PACKET_SWITCH" in attrs["type"] and not any(
            "EK_PORT" in nodes[succ]["type"] for succ in graph.successors(node)
        ):
            return f"packet switch {node!r} has no port"
    return ""


def node_types(graph: Reading) -> str:
    """Rule 1: every node has a non-empty ``type`` made of the ten EK_ kinds."""
    return _node_types(graph.node_items())


def edge_types(graph: Reading) -> str:
    """Rule 2: every edge has a ``type`` containing RK_CONTAINS or RK_CONTROLS."""
    return _edge_types(graph.edges())


def hierarchy(graph: Reading) -> str:
    """Rule 3: every RK_CONTAINS edge goes from a kind to a kind it may contain."""
    return _hierarchy(graph.nodes, graph.edges())


def no_isolated_nodes(graph: Reading) -> str:
    """Rule 4: no node without edges."""
    return _isolated(graph.isolates())


def port_capacity(graph: Reading) -> str:
    """Rule 5: every port has a non-zero ``physical_capacity_bps``."""
    return _port_capacity(graph.node_items())


def switch_has_port(graph: Reading) -> str:
    """Rule 6: every packet switch has at least one port among its successors."""
    return _switch_has_port(graph, graph.node_items())


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
    reading = read(graph)
    for rule in RULES:
        try:
            problem = rule(reading)
        except Exception as exc:  # malformed input fails the rule, as in the original
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            return SafetyVerdict(False, rule.__name__, problem)
    return SAFE


_MISSING = object()


def _differing(mapping: dict, baseline: dict) -> list:
    """Keys of ``mapping`` whose value is new or differs (``!=``) from ``baseline``'s.

    Written with map and compress so that the loop over every node runs in C.
    """
    before = map(baseline.get, mapping, repeat(_MISSING))
    return list(compress(mapping, map(ne, before, mapping.values())))


class BaselineChecker:
    """The six rules for graphs that differ little from one safe baseline.

    A graph that differs from a safe baseline can only break a rule where it
    differs, so only those places are checked: nodes whose attributes are new
    or changed, edges out of nodes whose successor dicts changed, edges into
    and out of changed nodes, nodes that may have lost their last edge, and
    switches whose successors changed. When nothing there breaks a rule the
    graph is safe; otherwise (and whenever the shortcut does not apply) the
    full :func:`check` gives the verdict and its message.

    Examples
    --------
    >>> g = nx.DiGraph()
    >>> g.add_node('sw', type=['EK_PACKET_SWITCH']); g.add_node('p', type=['EK_PORT'], physical_capacity_bps=5)
    >>> g.add_edge('sw', 'p', type='RK_CONTAINS')
    >>> checker = BaselineChecker(g)
    >>> h = g.copy(); h.remove_node('p')
    >>> checker.check(h) == check(h), checker.check(h).rule
    (True, 'no_isolated_nodes')
    """

    def __init__(self, baseline: Any):
        # The baseline must not change afterwards; callers pass a private graph.
        self._baseline = baseline
        self._usable = type(baseline) is nx.DiGraph and not hasattr(baseline, "_graph")
        self.baseline_verdict = check(baseline)

    def check(self, graph: Any) -> SafetyVerdict:
        """The same verdict as :func:`check` (graph)."""
        if not (self._usable and self.baseline_verdict.ok and isinstance(graph, nx.Graph)):
            return check(graph)
        reading = read(graph)
        if not reading.fast or len(reading.nodes) == 0:
            return check(graph)
        try:
            suspect = self._suspect(reading)
        except Exception:  # malformed values: let the full rules report them
            return check(graph)
        return check(graph) if suspect else SAFE

    def _suspect(self, reading: Reading) -> bool:
        """Whether any place where ``reading`` differs from the baseline breaks a rule."""
        nodes, succ = reading.nodes, reading.succ
        base_nodes, base_succ, base_pred = (
            self._baseline._node,
            self._baseline._succ,
            self._baseline._pred,
        )
        changed = _differing(nodes, base_nodes)
        moved = _differing(succ, base_succ)
        removed = base_nodes.keys() - nodes.keys()
        if not changed and not moved and not removed:
            return False

        def incoming(node: Any) -> list:
            # Edges into ``node``: kept baseline ones, plus any from a moved node.
            sources = [
                src for src in base_pred.get(node, ()) if src in succ and node in succ[src]
            ]
            sources += [src for src in moved if node in succ[src]]
            return sources

        changed_items = [(node, nodes[node]) for node in changed]
        edges = [(u, v, succ[u][v]) for u in moved for v in succ[u]]
        if _node_types(changed_items) or _edge_types(edges):
            return True
        touching = list(edges)
        for node in changed:
            touching += [(node, v, succ[node][v]) for v in succ[node]]
            touching += [(u, node, succ[u][node]) for u in incoming(node)]
        if _hierarchy(nodes, touching):
            return True
        candidates = set(changed) | set(moved)
        for node in moved:
            candidates.update(succ[node])
            candidates.update(base_succ.get(node, ()))
        for node in removed:
            candidates.update(base_succ[node])
            candidates.update(base_pred[node])
        for node in candidates:
            if node in nodes and not succ[node] and not incoming(node):
                return True
        if _port_capacity(changed_items):
            return True
        switches = set(changed) | set(moved)
        for node in changed:
            switches.update(incoming(node))
        return bool(_switch_has_port(reading, ((n, nodes[n]) for n in switches if n in nodes)))
