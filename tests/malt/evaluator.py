"""A restatement of how the NetArena evaluator treats a MALT reply, for tests.

Written from the evaluator's documented behaviour: extraction of
``process_graph`` from the reply, ``exec`` in a namespace holding ``G``,
``copy``, ``nx``, ``json`` (and, normally, the six reference helpers), the call
on a deep copy of ``G``, the correctness comparison by answer type, and the
safety verdict on ``updated_graph``. The ground truth is computed with the
reference helpers of :mod:`netmend.assess.malt.reference`, a restatement
written independently of the runtime under test.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter

import networkx as nx

from netmend.assess.malt import reference as ref
from netmend.malt import safety


def extract(reply: str) -> str:
    reply = re.sub(r"def\s+([a-zA-Z_0-9]*process_graph[a-zA-Z_0-9]*)", "def process_graph", reply)
    start = reply.find("def process_graph")
    if start == -1:
        return ""
    end = reply.find("```", start)
    code = reply[start:end].strip() if end != -1 else reply[start:].strip()
    return "\n".join(line for line in code.split("\n") if not line.strip().startswith("import"))


def namespace(graph: nx.DiGraph, *, helpers: bool) -> dict:
    ns = ref.evaluator_namespace(graph)
    if not helpers:
        for name in list(ns):
            if name.startswith("solid_step_"):
                del ns[name]
    return ns


def run_reply(reply: str, graph: nx.DiGraph, *, helpers: bool = True) -> tuple[dict, dict]:
    """Exec the reply as the evaluator does; return (result, namespace after the run)."""
    ns = namespace(graph, helpers=helpers)
    exec(extract(reply), ns)  # noqa: S102 - this IS the evaluator's behaviour under test
    result = eval("process_graph(copy.deepcopy(G))", ns)  # noqa: S307
    return result, ns


class Incomparable(Exception):
    """The reference itself breaks on this plan (the evaluator could not score any answer)."""


def ground_truth(plan: tuple, graph: nx.DiGraph) -> tuple[str, object]:
    """The reference answer for a plan, step by step with the reference helpers."""
    g = copy.deepcopy(graph)
    answer: tuple[str, object] = ("graph", g)
    for step in plan:
        op = step[0]
        if op == "add":
            g = ref.solid_step_add_node_to_graph(g, {"name": step[1], "type": step[2]}, step[3])
            answer = ("graph", g)
        elif op == "remove":
            g = ref.solid_step_remove_node_from_graph(g, step[1])
            answer = ("graph", g)
        elif op == "update":
            g = ref.solid_step_update_node_value(g, step[1], step[2])
            if not isinstance(g, nx.Graph):  # the reference returns a tuple for unknown names
                raise Incomparable(f"update of unknown node {step[1]!r}")
            answer = ("graph", g)
        elif op == "for_each_add":
            parents = [a["name"] for _, a in graph.nodes(data=True) if a["type"][0] == step[1]]
            for number, parent in enumerate(parents, 1):
                g = ref.solid_step_add_node_to_graph(
                    g, {"name": f"new_{step[2]}_{number}", "type": step[2]}, parent)
            answer = ("graph", g)
        elif op == "count":
            if step[2] is None:
                answer = ("text", ref.solid_step_counting_query(g, {"type": step[1], "name": None}))
            else:
                answer = ("text", ref.solid_step_counting_query(
                    g, {"type": "EK_AGG_BLOCK", "name": step[2]}, {"type": step[1], "name": None}))
        elif op == "list":
            answer = ("list", ref.solid_step_list_child_nodes(g, {"name": step[1]}))
        elif op == "rank":
            answer = ("list", ref.solid_step_rank_child_nodes(g, step[1]))
        else:  # netmend's own families: the reference statement in assess
            own = _reference_step(step)
            data = ref.apply_steps((own,), g)["data"]
            answer = ("graph", g) if op in ("remove_all", "update_all") else (
                "text" if op in ("capacity", "aggregate") else "list", data)
    return answer


def _nodes(selection: tuple) -> ref.Nodes:
    root, kind, axis, rules = selection
    filters = []
    for rule in rules:
        if rule[0] == "name":
            filters.append(rule)
        else:
            _, metric, op, value = rule
            filters.append(("capacity" if metric == ("capacity",) else metric, op, value))
    return ref.Nodes(root, kind, axis, tuple(filters))


def _reference_step(step: tuple):
    op = step[0]
    if op == "nodes":
        return ref.ListNodes(_nodes(step[1]))
    if op == "capacity":
        return ref.CapacityOf(step[1], total=len(step) == 2 or step[2])
    if op == "aggregate":
        return ref.Aggregate(step[1], _nodes(step[2]))
    if op == "top":
        _, selection, metric, limit, descending = step
        return ref.TopK(_nodes(selection), "capacity" if metric == ("capacity",) else metric,
                        limit, descending)
    if op == "remove_all":
        return ref.RemoveNodes(_nodes(step[1]))
    if op == "update_all":
        return ref.SetCapacities(_nodes(step[1]), step[2])
    raise ValueError(f"no reference for plan step {step!r}")


def _attr_key(attrs: dict) -> str:
    return json.dumps(attrs, sort_keys=True, default=repr)


def same_graph(a: nx.Graph, b: nx.Graph) -> bool:
    """Isomorphism of the undirected graphs with exact node attributes.

    When every node's attributes are distinct in both graphs, the only possible
    isomorphism pairs equal attribute dicts, so checking that pairing is exact;
    otherwise fall back to networkx's general matcher.
    """
    ua, ub = nx.Graph(a), nx.Graph(b)
    if ua.number_of_nodes() != ub.number_of_nodes() or ua.number_of_edges() != ub.number_of_edges():
        return False
    keys_a = {n: _attr_key(d) for n, d in ua.nodes(data=True)}
    keys_b = {n: _attr_key(d) for n, d in ub.nodes(data=True)}
    if len(set(keys_a.values())) == len(keys_a) and len(set(keys_b.values())) == len(keys_b):
        by_key = {k: n for n, k in keys_b.items()}
        mapping = {n: by_key.get(k) for n, k in keys_a.items()}
        if None in mapping.values():
            return False
        return all(ub.has_edge(mapping[x], mapping[y]) for x, y in ua.edges)
    return nx.is_isomorphic(ua, ub, node_match=lambda x, y: x == y)


def correct(kind: str, expected, result: dict) -> bool:
    """The evaluator's comparison for the ground truth's answer type."""
    data = result.get("data")
    if kind == "text":
        expected = str(expected) if isinstance(expected, int) else expected
        data = str(data) if isinstance(data, int) else data
        return expected == data
    if kind == "list":
        if not isinstance(data, list) or not isinstance(expected, list):
            return False
        norm = [tuple(x) if isinstance(x, list) else x for x in data]
        return Counter(norm) == Counter(expected)
    if not isinstance(data, nx.Graph):
        updated = result.get("updated_graph")
        data = updated if isinstance(updated, nx.Graph) else nx.node_link_graph(updated)
    return same_graph(expected, data)


def safe(result: dict) -> bool:
    """Safety as the evaluator judges it: the six rules on ``updated_graph``."""
    updated = result.get("updated_graph")
    if updated is None:
        return False
    if not isinstance(updated, nx.Graph):
        updated = nx.node_link_graph(updated)
    if updated.number_of_nodes() == 0:
        return False
    return safety.is_safe(updated)
