"""The six MALT safety rules, as a pure checker whose verdicts carry evidence.

The rules and their exact matching behaviour are the NetArena evaluator's
(a ``type`` may be a list or a plain string; membership tests on a string
are substring tests, as there):

1. ``node-type``: every node has a non-empty ``type`` whose kinds are all MALT kinds;
2. ``edge-type``: every edge has a ``type`` naming RK_CONTAINS or RK_CONTROLS;
3. ``hierarchy``: every RK_CONTAINS edge goes from a kind that may contain the child's kind;
4. ``isolated``: no node without edges;
5. ``capacity``: every port has a non-zero ``physical_capacity_bps``;
6. ``port-exists``: every packet switch has at least one port among its successors.

Unlike the evaluator, which stops at the first failure, :func:`check`
reports every violation, each naming the node or edge at fault.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

import networkx as nx

from netmend.malt import kinds as K

RULES: tuple[str, ...] = ("node-type", "edge-type", "hierarchy", "isolated", "capacity",
                          "port-exists")


@dataclass(frozen=True)
class Violation:
    """One broken rule: which rule, the node or edge at fault, and why."""

    rule: str
    subject: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """The result of :func:`check`: ``ok`` when no rule is broken."""

    violations: tuple[Violation, ...]

    @property
    def ok(self) -> bool:
        return not self.violations

    def by_rule(self) -> dict[str, list[Violation]]:
        grouped: dict[str, list[Violation]] = {}
        for violation in self.violations:
            grouped.setdefault(violation.rule, []).append(violation)
        return grouped

    def summary(self, limit: int = 5) -> str:
        if self.ok:
            return "safe: all six rules hold"
        lines = [f"unsafe: {len(self.violations)} violation(s)"]
        lines += [f"  [{v.rule}] {v.message}" for v in self.violations[:limit]]
        if len(self.violations) > limit:
            lines.append(f"  ... and {len(self.violations) - limit} more")
        return "\n".join(lines)


def _types(value) -> list:
    return [value] if isinstance(value, str) else list(value)


# One test per rule and subject (a node, or an edge with its attributes): the violation,
# or None. The full check and the scoped one both judge each subject with these.


def _node_type(nodes, node) -> Violation | None:
    kinds = nodes[node].get("type")
    if not kinds:
        return Violation("node-type", str(node), f"node {node!r} has no 'type'")
    bad = [k for k in _types(kinds) if k not in K.ENTITY_KINDS]
    if bad:
        return Violation("node-type", str(node), f"node {node!r} has invalid kind(s) {bad}")
    return None


def _edge_type(nodes, a, z, attrs) -> Violation | None:
    kind = attrs.get("type")
    if kind is None or not any(valid in kind for valid in K.RELATIONSHIP_KINDS):
        return Violation("edge-type", str((a, z)), f"edge {a!r} -> {z!r} has invalid type {kind!r}")
    return None


def _hierarchy(nodes, a, z, attrs) -> Violation | None:
    kind = attrs.get("type")
    if kind is None or K.CONTAINS not in kind:
        return None
    parent_kinds = _types(nodes[a].get("type") or [])
    child_kinds = _types(nodes[z].get("type") or [])
    if any(p in K.HIERARCHY and any(c in K.HIERARCHY[p] for c in child_kinds)
           for p in parent_kinds):
        return None
    return Violation(
        "hierarchy", str((a, z)),
        f"{nodes[a].get('name', a)!r} ({'/'.join(map(str, parent_kinds))}) cannot "
        f"contain {nodes[z].get('name', z)!r} ({'/'.join(map(str, child_kinds))})")


def _isolated(nodes, node) -> Violation:
    return Violation("isolated", str(node), f"node {nodes[node].get('name', node)!r} has no edges")


def _capacity(nodes, node) -> Violation | None:
    attrs = nodes[node]
    if K.PORT not in (attrs.get("type") or []):
        return None
    if K.CAPACITY_ATTR not in attrs:
        return Violation("capacity", str(node), f"port {attrs.get('name', node)!r} has no capacity")
    if attrs[K.CAPACITY_ATTR] == 0:
        return Violation("capacity", str(node), f"port {attrs.get('name', node)!r} has 0 bps")
    return None


def _port_exists(nodes, successors, node) -> Violation | None:
    attrs = nodes[node]
    if K.PACKET_SWITCH in (attrs.get("type") or []) and not any(
        K.PORT in (nodes[n].get("type") or []) for n in successors(node)
    ):
        return Violation("port-exists", str(node),
                         f"packet switch {attrs.get('name', node)!r} has no port")
    return None


def _keyed(graph: nx.Graph) -> Iterator[tuple[object, Violation]]:
    """Every violation with its subject (a node, or an ``(a, z)`` edge), rule by rule, in
    graph order, lazily."""
    nodes = graph.nodes
    for node in nodes:
        if (found := _node_type(nodes, node)) is not None:
            yield node, found
    for a, z, attrs in graph.edges(data=True):
        if (found := _edge_type(nodes, a, z, attrs)) is not None:
            yield (a, z), found
    for a, z, attrs in graph.edges(data=True):
        if (found := _hierarchy(nodes, a, z, attrs)) is not None:
            yield (a, z), found
    for node in nx.isolates(graph):
        yield node, _isolated(nodes, node)
    for node in nodes:
        if (found := _capacity(nodes, node)) is not None:
            yield node, found
    successors = graph.successors if graph.is_directed() else graph.neighbors
    for node in nodes:
        if (found := _port_exists(nodes, successors, node)) is not None:
            yield node, found


def violations(graph: nx.Graph) -> Iterator[Violation]:
    """Every violation of the six rules, rule by rule, lazily."""
    return (found for _, found in _keyed(graph))


def check(graph: nx.Graph, *, first_only: bool = False) -> Verdict:
    """Check the six rules on ``graph``; with ``first_only`` stop at the first violation.

    >>> g = nx.DiGraph()
    >>> g.add_node('s', name='s', type=['EK_PACKET_SWITCH'])
    >>> [v.rule for v in check(g).violations]
    ['isolated', 'port-exists']
    """
    found = violations(graph)
    return Verdict(tuple(islice(found, 1)) if first_only else tuple(found))


def is_safe(graph: nx.Graph) -> bool:
    """True when all six rules hold."""
    return check(graph, first_only=True).ok


# ---------------------------------------------------------------- checks scoped to a change
#
# Every rule judges one subject from what lies at most one edge away: a node's own
# attributes (node-type, capacity), its edges (isolated), an edge and its two ends
# (edge-type, hierarchy), a switch and its successors (port-exists). So when a graph is
# a changed copy of a checked one, only the subjects near what changed can have another
# verdict; every other subject keeps the verdict it had.


class Baseline:
    """The full check of one graph, kept so that changed copies of it are checked only
    where they differ (:func:`check_change`). Valid while ``graph`` is not changed."""

    __slots__ = ("graph", "verdict", "_by_rule")

    def __init__(self, graph: nx.Graph) -> None:
        self.graph = graph
        found = list(_keyed(graph))
        self.verdict = Verdict(tuple(violation for _, violation in found))
        self._by_rule: dict[str, dict[object, Violation]] = {rule: {} for rule in RULES}
        for subject, violation in found:
            self._by_rule[violation.rule][subject] = violation


def changed_nodes(before: nx.Graph, after: nx.Graph) -> set | None:
    """Every node whose attributes, successors, predecessors or edge attributes differ
    between two plain directed graphs, or that only one of them holds; ``None`` when
    either is another kind of graph (a view, undirected, a multigraph).

    >>> a = nx.DiGraph([(1, 2), (2, 3)]); b = a.copy(); b.remove_edge(2, 3); b.add_node(4)
    >>> sorted(changed_nodes(a, b))
    [2, 3, 4]
    """
    if (type(before) is not nx.DiGraph or type(after) is not nx.DiGraph
            or nx.is_frozen(before) or nx.is_frozen(after)):  # a subgraph view is frozen
        return None
    old_node, old_succ, old_pred = before._node, before._succ, before._pred
    new_succ, new_pred = after._succ, after._pred
    changed = set(old_node.keys() - after._node.keys())
    get = old_node.get
    for node, attrs in after._node.items():
        old = get(node)
        # Dict equality compares nested dicts, so an edge's attributes count as well.
        if (old is None or old != attrs or old_succ[node] != new_succ[node]
                or old_pred[node] != new_pred[node]):
            changed.add(node)
    return changed


def check_change(baseline: Baseline, after: nx.DiGraph, changed: set) -> Verdict:
    """The verdict of :func:`check` on ``after``, found from ``baseline`` by judging again
    only the subjects near ``changed``, which must hold every node that differs between
    ``baseline.graph`` and ``after`` (a superset is fine; :func:`changed_nodes` gives the
    exact set). The violations and their order are the full check's."""
    nodes = after.nodes
    succ, pred = after.succ, after.pred
    present = [node for node in changed if node in nodes]
    # A switch's port-exists verdict also depends on its successors' kinds.
    switches = set(present)
    for node in present:
        switches.update(pred[node])
    judged_switches = switches | changed  # a removed switch's old verdict goes too
    edges = {(a, z): attrs for a in present for z, attrs in succ[a].items()}
    edges.update(((a, z), attrs) for z in present for a, attrs in pred[z].items())
    fresh: dict[str, list[tuple[object, Violation]]] = {rule: [] for rule in RULES}
    for node in present:
        if (found := _node_type(nodes, node)) is not None:
            fresh["node-type"].append((node, found))
        if not succ[node] and not pred[node]:
            fresh["isolated"].append((node, _isolated(nodes, node)))
        if (found := _capacity(nodes, node)) is not None:
            fresh["capacity"].append((node, found))
    for (a, z), attrs in edges.items():
        if (found := _edge_type(nodes, a, z, attrs)) is not None:
            fresh["edge-type"].append(((a, z), found))
        if (found := _hierarchy(nodes, a, z, attrs)) is not None:
            fresh["hierarchy"].append(((a, z), found))
    for node in switches:
        if (found := _port_exists(nodes, after.successors, node)) is not None:
            fresh["port-exists"].append((node, found))
    order = edge_order = None
    result: list[Violation] = []
    for rule in RULES:
        judged = judged_switches if rule == "port-exists" else changed
        if rule in ("edge-type", "hierarchy"):
            kept = [(subject, v) for subject, v in baseline._by_rule[rule].items()
                    if subject[0] not in changed and subject[1] not in changed]
        else:
            kept = [(subject, v) for subject, v in baseline._by_rule[rule].items()
                    if subject not in judged]
        found = kept + fresh[rule]
        if len(found) > 1:
            if rule in ("edge-type", "hierarchy"):
                if edge_order is None:
                    edge_order = {node: index for index, node in enumerate(succ)}
                found.sort(key=lambda item, o=edge_order: (
                    o[item[0][0]], list(succ[item[0][0]]).index(item[0][1])))
            else:
                if order is None:
                    order = {node: index for index, node in enumerate(nodes)}
                found.sort(key=lambda item, o=order: o[item[0]])
        result += [violation for _, violation in found]
    return Verdict(tuple(result))
