"""Topology I/O against an independent textproto reader, node-link round trips, the generator."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from netmend.malt import safety, topology
from netmend.malt.topology import TopologyError

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "malt" / "malt-graph.textproto.txt"


def _oracle_graph(text: str) -> nx.DiGraph:
    """The evaluator's construction, restated, on top of the evaluator's own textproto reader."""
    prototxt = pytest.importorskip("prototxt_parser.prototxt", reason="prototxt-parser not installed")
    parsed = prototxt.parse(text)
    as_list = lambda v: v if isinstance(v, list) else [v]  # noqa: E731
    graph = nx.DiGraph()
    for entity in as_list(parsed["entity"]):
        name, kind = entity["id"]["name"], entity["id"]["kind"]
        if name in graph:
            graph.nodes[name]["type"].append(kind)
        else:
            graph.add_node(name, type=[kind], name=name)
        for key, value in entity.items():
            if key != "id":
                graph.nodes[name].update(value)
    for rel in as_list(parsed["relationship"]):
        graph.add_edge(rel["a"]["name"], rel["z"]["name"], type=rel["kind"])
    return graph


def _same(a: nx.DiGraph, b: nx.DiGraph) -> None:
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert list(a.edges(data=True)) == list(b.edges(data=True))
    for node in a:
        assert list(a.successors(node)) == list(b.successors(node))


SMALL = """\
entity { id { kind: EK_PACKET_SWITCH name: "s1" } packet_switch_attr { switch_loc { stage: 2 } } }
entity { id { kind: EK_CHASSIS name: "s1" } }
entity { id { kind: EK_PORT name: "s1.p1" } port_attr { physical_capacity_bps: 4000000000 } }
entity { id { kind: EK_PORT name: "q\\"uote" } port_attr { physical_capacity_bps: 1.5e9 } }
relationship { kind: RK_CONTAINS a { kind: EK_PACKET_SWITCH name: "s1" } z { kind: EK_PORT name: "s1.p1" } }
relationship { kind: RK_CONTAINS a { name: "s1" } z { name: "s1" } }
relationship { kind: RK_CONTROLS a { name: "s1" } z { name: "s1" } }
relationship { kind: RK_CONTAINS a { name: "s1" } z { name: "q\\"uote" } }
"""


def test_small_textproto_matches_the_evaluators_reader() -> None:
    mine = topology.loads(SMALL)
    _same(mine, _oracle_graph(SMALL))
    assert mine.nodes["s1"]["type"] == ["EK_PACKET_SWITCH", "EK_CHASSIS"]
    assert mine.edges["s1", "s1"]["type"] == "RK_CONTROLS"  # the later relationship wins
    assert mine.nodes["s1.p1"]["physical_capacity_bps"] == 4e9
    assert isinstance(mine.nodes["s1.p1"]["physical_capacity_bps"], float)


@pytest.mark.needs_shared
def test_real_topology_matches_the_evaluators_reader() -> None:
    if not REAL.exists():
        pytest.skip("the public MALT topology is not next to the repository")
    text = REAL.read_text()
    mine = topology.loads(text)
    _same(mine, _oracle_graph(text))
    assert safety.is_safe(mine)
    assert mine.number_of_nodes() == 5493


@pytest.mark.parametrize(("text", "fragment"), [
    ('entity { id { kind: EK_PORT name: "p" }', "missing '}'"),
    ("entity { id { kind: EK_PORT } }", "missing required field 'name'"),
    ("entity { id { kind: EK_PORT name: \"p\" } } }", "unmatched '}'"),
    ("entity { id { kind EK_PORT } }", "expected ':' or '{'"),
    ("entity { id { kind: @ } }", "unexpected character '@'"),
    ('{"nodes": [}', "invalid JSON"),
    ('{"graph": {}}', "'nodes' list"),
])
def test_bad_input_says_what_was_expected(text: str, fragment: str) -> None:
    with pytest.raises(TopologyError) as info:
        topology.loads(text)
    assert fragment in str(info.value)


def test_missing_file_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(TopologyError, match="cannot read topology file"):
        topology.load(tmp_path / "nope.textproto")


def test_node_link_round_trip(tmp_path: Path) -> None:
    graph = topology.synthetic(seed=3)
    path = tmp_path / "g.json"
    topology.write_node_link(graph, path)
    again = topology.load(path)
    assert dict(again.nodes(data=True)) == dict(graph.nodes(data=True))
    assert set(again.edges(data="type")) == set(graph.edges(data="type"))
    data = json.loads(path.read_text())
    legacy = {**{k: v for k, v in data.items() if k != "edges"}, "links": data["edges"]}
    assert topology.from_node_link(legacy).number_of_edges() == graph.number_of_edges()


def test_synthetic_is_seeded_safe_and_shaped_like_malt() -> None:
    a, b, c = topology.synthetic(seed=5), topology.synthetic(seed=5), topology.synthetic(seed=6)
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert list(a.nodes(data=True)) != list(c.nodes(data=True))
    assert safety.is_safe(a)
    groups = topology.names_by_kind(a)
    assert groups["EK_JUPITER"] == ["ju1"]
    assert "ju1.a1.m1" in groups["EK_AGG_BLOCK"] and "ju1.a1.dom" in graph_names(a)
    assert "ju1.a1.m1.s2c1.p1" in groups["EK_PORT"] and "ju1.s1.s1c1" in groups["EK_PACKET_SWITCH"]
    assert "ju1.a1.m1rack" in groups["EK_RACK"]
    big = topology.synthetic(seed=1, superblocks=4, agg_blocks=4, spine_blocks=4,
                             switches_per_block=16, ports_per_switch=16)
    assert big.number_of_nodes() == 5493 and safety.is_safe(big)


def graph_names(graph: nx.DiGraph) -> set[str]:
    return set(topology.iter_names(graph))


def test_synthetic_rejects_bad_sizes() -> None:
    with pytest.raises(TopologyError, match="ports_per_switch"):
        topology.synthetic(ports_per_switch=0)
