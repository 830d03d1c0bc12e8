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


def diff(before: nx.Graph, after: nx.Graph) -> Change:
    """The change from ``before`` to ``after``, by node id, in deterministic order."""
    added = [n for n in after.nodes if n not in before]
    removed = [n for n in before.nodes if n not in after]
    added_edges = [(a, z) for a, z in after.edges if not before.has_edge(a, z)]
    removed_edges = [(a, z) for a, z in before.edges if not after.has_edge(a, z)]
    changed = []
    for node, attrs in after.nodes(data=True):
        if node not in before:
            continue
        old = before.nodes[node]
        if old is attrs or old == attrs:
            continue
        for key in sorted(set(old) | set(attrs), key=str):
            if old.get(key) != attrs.get(key):
                changed.append((_label(after, node), key, old.get(key), attrs.get(key)))
    return Change(
        added_nodes=tuple(_label(after, n) for n in added),
        removed_nodes=tuple(_label(before, n) for n in removed),
        added_edges=tuple((_label(after, a), _label(after, z)) for a, z in added_edges),
        removed_edges=tuple((_label(before, a), _label(before, z)) for a, z in removed_edges),
        changed_attributes=tuple(changed),
    )


def working_copy(topology: nx.DiGraph) -> nx.DiGraph:
    """A copy the request may change, with the original's orders, predecessors included.

    The evaluator runs the code on ``copy.deepcopy(G)``, which keeps every
    adjacency order; ``DiGraph.copy`` rebuilds predecessors in node order, and
    walks up the containment tree (parents, ancestors) would then list nodes in
    another order than in the evaluator. Attribute dicts are copied one level
    deep: the runtime sets attributes but never changes a value in place.

    >>> g = nx.DiGraph(); g.add_edge('b', 'x'); g.add_edge('a', 'x')
    >>> list(working_copy(g).pred['x']), list(g.copy().pred['x'])
    (['b', 'a'], ['a', 'b'])
    """
    if type(topology) is not nx.DiGraph:
        return copy.deepcopy(topology)
    work = nx.DiGraph()
    work.graph.update(topology.graph)
    work.add_nodes_from((node, dict(attrs)) for node, attrs in topology.nodes(data=True))
    # The adjacency dicts themselves (the public views are read-only), filled in order.
    succ, pred = work._succ, work._pred
    for source, targets in topology.succ.items():
        mine = succ[source]
        for target, attrs in targets.items():
            mine[target] = dict(attrs)
    for target, sources in topology.pred.items():
        mine = pred[target]
        for source in sources:
            mine[source] = succ[source][target]
    return work


def plan(query: Query, topology: nx.DiGraph) -> Plan:
    """Plan ``query`` over ``topology`` (left untouched) and verify the commit.

    >>> from netmend.malt.topology import synthetic
    >>> from netmend.malt.parser import parse
    >>> p = plan(parse("remove ju1.a1.m1.s2c1"), synthetic())
    >>> p.requested_verdict.ok, p.committed_verdict.ok, len(p.change.removed_nodes)
    (False, True, 5)
    """
    work = working_copy(topology)
    result = execute(query, work)
    notes = [describe_note(note, work, topology) for note in result["notes"]]
    committed = result["updated_graph"]
    requested = work  # the runtime changed ``work`` exactly as asked (a graph answer IS it)
    requested_verdict = safety.check(requested)
    committed_verdict = safety.check(committed)
    if not committed_verdict.ok:
        base_verdict = safety.check(topology)
        if base_verdict.ok:
            notes.append("the proposed commit broke a safety rule, so nothing was committed: "
                         + committed_verdict.violations[0].message)
        else:
            notes.append("the topology already broke a safety rule before the request, so "
                         "nothing was committed: " + base_verdict.violations[0].message)
        committed = topology
        committed_verdict = base_verdict
    return Plan(
        query=query,
        answer_type=result["type"],
        data=result["data"],
        requested_graph=requested,
        committed_graph=committed,
        change=diff(topology, committed),
        notes=tuple(notes),
        requested_verdict=requested_verdict,
        committed_verdict=committed_verdict,
    )
