"""Small hand-built MALT graphs for the assessment tests."""

from __future__ import annotations

import networkx as nx


def tiny_graph() -> nx.DiGraph:
    """A safe six-node MALT graph: an agg block and a domain holding one switch with two ports."""
    graph = nx.DiGraph()
    graph.add_node("ju1.a1.m1", name="ju1.a1.m1", type=["EK_AGG_BLOCK"])
    graph.add_node("ju1.a1.dom", name="ju1.a1.dom", type=["EK_CONTROL_DOMAIN"])
    graph.add_node("ju1.a1.m1.s2c1", name="ju1.a1.m1.s2c1", type=["EK_PACKET_SWITCH"])
    graph.add_node("ju1.a1.m1.s2c1.p1", name="ju1.a1.m1.s2c1.p1", type=["EK_PORT"],
                   physical_capacity_bps=1000)
    graph.add_node("ju1.a1.m1.s2c1.p2", name="ju1.a1.m1.s2c1.p2", type=["EK_PORT"],
                   physical_capacity_bps=3000)
    graph.add_node("ju1.a1.m1.s2c2", name="ju1.a1.m1.s2c2", type=["EK_PACKET_SWITCH"])
    graph.add_node("ju1.a1.m1.s2c2.p1", name="ju1.a1.m1.s2c2.p1", type=["EK_PORT"],
                   physical_capacity_bps=5000)
    for parent, child in [("ju1.a1.m1", "ju1.a1.m1.s2c1"), ("ju1.a1.m1", "ju1.a1.m1.s2c2"),
                          ("ju1.a1.dom", "ju1.a1.m1.s2c1"), ("ju1.a1.dom", "ju1.a1.m1.s2c2"),
                          ("ju1.a1.m1.s2c1", "ju1.a1.m1.s2c1.p1"),
                          ("ju1.a1.m1.s2c1", "ju1.a1.m1.s2c1.p2"),
                          ("ju1.a1.m1.s2c2", "ju1.a1.m1.s2c2.p1")]:
        graph.add_edge(parent, child, type="RK_CONTAINS")
    return graph
