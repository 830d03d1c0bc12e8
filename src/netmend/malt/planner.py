"""The safe-commit planner: the requested answer, the committed graph, and why they differ.

:func:`plan` runs a query on a copy of the topology, takes the exact answer
(``data``, what was asked, even when the request itself is unsafe) and the
commit the runtime proposes, and verifies the commit with the six-rule
checker before returning it. A commit that fails the checker is never
returned: the topology is then left unchanged, and the plan says so.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import networkx as nx

from netmend.malt import kinds as K
from netmend.malt import safety
from netmend.malt.ir import Query
from netmend.malt.semantics import execute


@dataclass(frozen=True)
class Change:
    """How a committed graph differs from the topology it started from."""

    added_nodes: tuple[str, ...]
    removed_nodes: tuple[str, ...]
    added_edges: tuple[tuple[str, str], ...]
    removed_edges: tuple[tuple[str, str], ...]
    changed_attributes: tuple[tuple[str, str, Any, Any], ...]  # (node, attribute, before, after)

    @property
    def empty(self) -> bool:
        return not (self.added_nodes or self.removed_nodes or self.added_edges
                    or self.removed_edges or self.changed_attributes)

    def to_dict(self) -> dict:
        return {
            "added_nodes": list(self.added_nodes),
            "removed_nodes": list(self.removed_nodes),
            "added_edges": [list(e) for e in self.added_edges],
            "removed_edges": [list(e) for e in self.removed_edges],
            "changed_attributes": [
                {"node": n, "attribute": a, "before": b, "after": c}
                for n, a, b, c in self.changed_attributes
            ],
        }


@dataclass(frozen=True)
class Plan:
    """A planned request: the exact answer and the verified safe commit."""

    query: Query
    answer_type: str
    data: Any
    requested_graph: nx.DiGraph  # the graph exactly as requested (may be unsafe)
    committed_graph: nx.Graph  # what is safe to commit (always passes the checker)
    change: Change
    notes: tuple[str, ...]
    requested_verdict: safety.Verdict
    committed_verdict: safety.Verdict


def _label(graph: nx.Graph, node) -> str:
    name = graph.nodes[node].get("name", node)
    return name if isinstance(name, str) else repr(name)


_REASONS = {
    "isolated": "it would be left isolated",
    "portless": "a packet switch would be left without ports",
}


def describe_note(note: tuple, graph: nx.Graph, before: nx.Graph) -> str:
    """One runtime note in words; ``graph`` is the requested graph (every node it names is
    there), ``before`` the topology the request started from.

    >>> g = nx.DiGraph(); g.add_node(7, name='p9', type='EK_PORT')
    >>> describe_note(('dropped', 7, 'isolated'), g, nx.DiGraph())
    "not committed: new node 'p9', because it would be left isolated"
    """
    code = note[0]

    def name(node) -> str:
        return repr(_label(graph, node)) if node in graph else repr(node)

    if code == "no-node":
        return f"nothing changed: no node is named {note[1]!r}"
    if code == "not-port":
        return f"nothing updated: {name(note[1])} is not a port"
    if code == "kept-capacity":
        return f"kept the capacity of {name(note[1])}: a port needs a non-zero capacity"
    if code == "dropped" and note[2] == "hierarchy":
        parent = note[3]
        kinds = "/".join(K.kinds_of(graph.nodes[parent])) if parent in graph else "?"
        kind = "/".join(K.kinds_of(graph.nodes[note[1]]))
        return (f"not committed: new node {name(note[1])}, because {name(parent)} ({kinds}) "
                f"cannot contain a {kind}")
    if code == "dropped" and note[1] not in before:
        return f"not committed: new node {name(note[1])}, because {_REASONS[note[2]]}"
    if code == "dropped":
        return f"also removed {name(note[1])}, because {_REASONS[note[2]]}"
    raise ValueError(f"unknown runtime note {note!r}")


def diff(before: nx.Graph, after: nx.Graph, changed: set | None = None) -> Change:
    """The change from ``before`` to ``after``, by node id, in deterministic order.

    ``changed``, when given, must hold every node that differs between the two (see
    :func:`netmend.malt.safety.changed_nodes`; a superset is fine): only those are then
    compared, with the same result.
    """
    if changed is not None and not changed:
        return Change((), (), (), (), ())

    def scoped(nodes):
        return nodes if changed is None else [n for n in nodes if n in changed]

    added = [n for n in scoped(after.nodes) if n not in before]
    removed = [n for n in scoped(before.nodes) if n not in after]
    added_edges = [(a, z) for a in scoped(after.succ) for z in after.succ[a]
                   if not before.has_edge(a, z)]
    removed_edges = [(a, z) for a in scoped(before.succ) for z in before.succ[a]
                     if not after.has_edge(a, z)]
    changed_attributes = []
    for node in scoped(after.nodes):
        if node not in before:
            continue
        attrs, old = after.nodes[node], before.nodes[node]
        if old is attrs or old == attrs:
            continue
        for key in sorted(set(old) | set(attrs), key=str):
            if old.get(key) != attrs.get(key):
                changed_attributes.append((_label(after, node), key, old.get(key), attrs.get(key)))
    return Change(
        added_nodes=tuple(_label(after, n) for n in added),
        removed_nodes=tuple(_label(before, n) for n in removed),
        added_edges=tuple((_label(after, a), _label(after, z)) for a, z in added_edges),
        removed_edges=tuple((_label(before, a), _label(before, z)) for a, z in removed_edges),
        changed_attributes=tuple(changed_attributes),
    )


def working_copy(topology: nx.DiGraph) -> nx.DiGraph:
    """A copy the request may change, with the original's orders, predecessors included.

    The evaluator runs the code on ``copy.deepcopy(G)``, which keeps every
    adjacency order; ``DiGraph.copy`` rebuilds predecessors in node order, and
    walks up the containment tree (parents, ancestors) would then list nodes in
    another order than in the evaluator. Attribute dicts are copied one level
    deep: the runtime sets attributes but never changes a value in place.

    >>> g = nx.DiGraph(); g.add_edge('x', 'b'); g.add_edge('a', 'x'); g.add_edge('b', 'x')
    >>> list(working_copy(g).pred['x']), list(g.copy().pred['x'])
    (['a', 'b'], ['b', 'a'])
    """
    if type(topology) is not nx.DiGraph or nx.is_frozen(topology):
        return copy.deepcopy(topology)
    work = nx.DiGraph()
    work.graph.update(topology.graph)
    # The node, successor and predecessor dicts themselves (the public views are read-only),
    # each filled in the original's order: the nodes and their successors in node order as
    # ``add_nodes_from`` would, each predecessor dict in its own order, sharing the
    # successors' edge attribute dicts as networkx does.
    attrs = topology._node
    work._node.update(zip(attrs, map(dict, attrs.values()), strict=True))
    their_succ, their_pred = topology._succ, topology._pred
    succ, pred = work._succ, work._pred
    for node in attrs:
        succ[node] = {target: dict(edge) for target, edge in their_succ[node].items()}
    for node in attrs:
        pred[node] = {source: succ[source][node] for source in their_pred[node]}
    return work


def _committed_changes(topology: nx.DiGraph, work: nx.DiGraph, changed: set | None,
                       committed: nx.Graph) -> set | None:
    """The nodes that differ between ``topology`` and the commit, given those that differ
    from the working copy (``None``: not known, check in full)."""
    if changed is None or committed is work:
        return changed
    if not nx.is_frozen(committed):  # a copy (a capacity kept): compared directly
        return safety.changed_nodes(topology, committed)
    if getattr(committed, "_graph", None) is not work:
        return None
    # The working copy without the dropped nodes (an induced subgraph view): besides what
    # the request changed, the dropped nodes and their neighbours differ.
    shown = getattr(committed, "_NODE_OK", None)
    if isinstance(shown, nx.filters.show_nodes):  # the kept nodes, as a set
        dropped = [node for node in work if node not in shown.nodes]
    else:
        dropped = [node for node in work if node not in committed]
    found = set(changed).union(dropped)
    for node in dropped:
        found.update(work.succ[node])
        found.update(work.pred[node])
    return found


def plan(query: Query, topology: nx.DiGraph, *, baseline: safety.Baseline | None = None) -> Plan:
    """Plan ``query`` over ``topology`` (left untouched) and verify the commit.

    ``baseline``, the full safety check of ``topology`` (:class:`safety.Baseline`, built
    once for a topology that many requests share), lets the requested graph and the
    commit be checked and compared only where they differ from ``topology``; the plan is
    the same either way.

    >>> from netmend.malt.topology import synthetic
    >>> from netmend.malt.parser import parse
    >>> p = plan(parse("remove ju1.a1.m1.s2c1"), synthetic())
    >>> p.requested_verdict.ok, p.committed_verdict.ok, len(p.change.removed_nodes)
    (False, True, 5)
    """
    if baseline is not None and baseline.graph is not topology:
        raise ValueError("the safety baseline is of another topology")
    work = working_copy(topology)
    result = execute(query, work)
    notes = [describe_note(note, work, topology) for note in result["notes"]]
    committed = result["updated_graph"]
    requested = work  # the runtime changed ``work`` exactly as asked (a graph answer IS it)
    changed = safety.changed_nodes(topology, work) if baseline is not None else None

    def verdict(graph: nx.Graph, nodes: set | None) -> safety.Verdict:
        if baseline is None or nodes is None:
            return safety.check(graph)
        return safety.check_change(baseline, graph, nodes)

    requested_verdict = verdict(requested, changed)
    committed_changed = _committed_changes(topology, work, changed, committed)
    committed_verdict = verdict(committed, committed_changed)
    if not committed_verdict.ok:
        base_verdict = baseline.verdict if baseline is not None else safety.check(topology)
        if base_verdict.ok:
            notes.append("the proposed commit broke a safety rule, so nothing was committed: "
                         + committed_verdict.violations[0].message)
        else:
            notes.append("the topology already broke a safety rule before the request, so "
                         "nothing was committed: " + base_verdict.violations[0].message)
        committed = topology
        committed_verdict = base_verdict
        committed_changed = set()
    return Plan(
        query=query,
        answer_type=result["type"],
        data=result["data"],
        requested_graph=requested,
        committed_graph=committed,
        change=diff(topology, committed, committed_changed if baseline is not None else None),
        notes=tuple(notes),
        requested_verdict=requested_verdict,
        committed_verdict=committed_verdict,
    )
