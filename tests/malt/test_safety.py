"""The six rules, one violation each, with the evidence naming the node or edge at fault."""

from __future__ import annotations

import networkx as nx
import pytest

from netmend.malt import safety


def base() -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_node("agg", name="agg", type=["EK_AGG_BLOCK"])
    g.add_node("sw", name="sw", type=["EK_PACKET_SWITCH"])
    g.add_node("p", name="p", type=["EK_PORT"], physical_capacity_bps=1e9)
    g.add_edge("agg", "sw", type="RK_CONTAINS")
    g.add_edge("sw", "p", type="RK_CONTAINS")
    return g


def broken(change) -> nx.DiGraph:
    g = base()
    change(g)
    return g


CASES = {
    "node-type": (lambda g: g.nodes["sw"].update(type=["EK_TOASTER"]), "sw"),
    "edge-type": (lambda g: g.edges["agg", "sw"].update(type="RK_LIKES"), "('agg', 'sw')"),
    "hierarchy": (lambda g: g.add_edge("p", "agg", type="RK_CONTAINS"), "('p', 'agg')"),
    "isolated": (lambda g: g.add_node("lonely", name="lonely", type="EK_RACK"), "lonely"),
    "capacity": (lambda g: g.nodes["p"].update(physical_capacity_bps=0), "p"),
    "port-exists": (lambda g: g.remove_edge("sw", "p") or g.add_edge("agg", "p", type="RK_CONTROLS"),
                    "sw"),
}


def test_base_is_safe() -> None:
    verdict = safety.check(base())
    assert verdict.ok and safety.is_safe(base()) and "all six rules hold" in verdict.summary()


@pytest.mark.parametrize("rule", list(CASES))
def test_each_rule_names_its_offender(rule: str) -> None:
    change, subject = CASES[rule]
    verdict = safety.check(broken(change))
    assert not verdict.ok
    assert rule in verdict.by_rule()
    assert any(v.subject == subject for v in verdict.by_rule()[rule])
    assert not safety.is_safe(broken(change))


def test_string_types_match_as_the_evaluator_matches_them() -> None:
    g = base()
    g.add_node(7, name="new", type="EK_PORT", physical_capacity_bps=1000)
    g.add_edge("sw", 7, type="RK_CONTAINS")
    assert safety.is_safe(g)
    g.nodes[7]["physical_capacity_bps"] = 0
    assert [v.rule for v in safety.check(g).violations] == ["capacity"]


def test_first_only_stops_early_and_summary_is_bounded() -> None:
    g = base()
    for i in range(20):
        g.add_node(f"x{i}", name=f"x{i}", type=["EK_RACK"])
    assert len(safety.check(g, first_only=True).violations) == 1
    summary = safety.check(g).summary(limit=3)
    assert "20 violation(s)" in summary and "and 17 more" in summary
