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


def violations(graph: nx.Graph) -> Iterator[Violation]:
    """Every violation of the six rules, rule by rule, lazily."""
    nodes = graph.nodes
    for node, attrs in nodes(data=True):
        kinds = attrs.get("type")
        if not kinds:
            yield Violation("node-type", str(node), f"node {node!r} has no 'type'")
            continue
        bad = [k for k in _types(kinds) if k not in K.ENTITY_KINDS]
        if bad:
            yield Violation("node-type", str(node), f"node {node!r} has invalid kind(s) {bad}")
    for a, z, attrs in graph.edges(data=True):
        kind = attrs.get("type")
        if kind is None or not any(valid in kind for valid in K.RELATIONSHIP_KINDS):
            yield Violation("edge-type", str((a, z)),
                            f"edge {a!r} -> {z!r} has invalid type {kind!r}")
    for a, z, attrs in graph.edges(data=True):
        kind = attrs.get("type")
        if kind is None or K.CONTAINS not in kind:
            continue
        parent_kinds = _types(nodes[a].get("type") or [])
        child_kinds = _types(nodes[z].get("type") or [])
        if not any(p in K.HIERARCHY and any(c in K.HIERARCHY[p] for c in child_kinds)
                   for p in parent_kinds):
            yield Violation(
                "hierarchy", str((a, z)),
                f"{nodes[a].get('name', a)!r} ({'/'.join(map(str, parent_kinds))}) cannot "
                f"contain {nodes[z].get('name', z)!r} ({'/'.join(map(str, child_kinds))})")
    for node in nx.isolates(graph):
        yield Violation("isolated", str(node), f"node {nodes[node].get('name', node)!r} has no edges")
    for node, attrs in nodes(data=True):
        if K.PORT not in (attrs.get("type") or []):
            continue
        if K.CAPACITY_ATTR not in attrs:
            yield Violation("capacity", str(node), f"port {attrs.get('name', node)!r} has no capacity")
        elif attrs[K.CAPACITY_ATTR] == 0:
            yield Violation("capacity", str(node), f"port {attrs.get('name', node)!r} has 0 bps")
    successors = graph.successors if graph.is_directed() else graph.neighbors
    for node, attrs in nodes(data=True):
        if K.PACKET_SWITCH in (attrs.get("type") or []) and not any(
            K.PORT in (nodes[n].get("type") or []) for n in successors(node)
        ):
            yield Violation("port-exists", str(node),
                            f"packet switch {attrs.get('name', node)!r} has no port")


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
