"""The emitted code, run the way the evaluator runs it, against the reference semantics.

For every family and seeded random instances, on the synthetic topology and on
the real one: the request text parses to the intended plan, the emitted
``process_graph`` (executed with the reference helpers in the namespace and
again without them) returns the reference answer, its ``updated_graph`` passes
the six rules, and the namespace (its ``G`` and helpers) is left untouched.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from netmend.agent import respond
from netmend.malt import topology
from netmend.malt.parser import parse

from . import evaluator
from .instances import FAMILIES, instances

REAL = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "malt" / "malt-graph.textproto.txt"


@pytest.fixture(scope="module")
def real_graph():
    if not REAL.exists():
        pytest.skip(f"the public MALT topology is not next to the repository ({REAL.name})")
    return topology.load(REAL)


def _check(graph, text: str, plan: tuple, *, helpers: bool) -> None:
    assert parse(text).to_plan() == plan
    before = copy.deepcopy(graph)
    reply = respond(text)
    result, ns = evaluator.run_reply(reply, graph, helpers=helpers)
    assert ns["G"] is graph
    assert evaluator.same_graph(before, graph) and dict(graph.nodes(data=True)) == dict(
        before.nodes(data=True)), "the evaluator's G must be untouched"
    kind, expected = evaluator.ground_truth(plan, graph)
    assert evaluator.correct(kind, expected, result), (text, result["data"] if kind != "graph" else "")
    assert evaluator.safe(result), text


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("helpers", [True, False], ids=["helpers", "no-helpers"])
def test_synthetic(family: str, helpers: bool) -> None:
    for seed in range(3):
        graph = topology.synthetic(seed=seed, switches_per_block=3 + seed, ports_per_switch=2 + seed)
        for text, plan in instances(graph, family, 8, seed):
            _check(graph, text, plan, helpers=helpers)


@pytest.mark.needs_shared
@pytest.mark.parametrize("family", FAMILIES)
def test_real_topology(real_graph, family: str) -> None:
    for index, (text, plan) in enumerate(instances(real_graph, family, 4, seed=11)):
        _check(real_graph, text, plan, helpers=index % 2 == 0)


def test_bare_and_enveloped_requests_get_the_same_code() -> None:
    text = "Remove ju1.a1.m1.s2c1 from the graph. Return a graph."
    envelope = ("Here are examples.\nQuestion: Count the EK_PORT in the ju1.a1.dom.\nAnswer: ...\n"
                "Begin! Remember to ensure that you generate valid Python code in the following "
                f"format:\n\nQuestion: {text}\n\nAnswer:\n```python\n${{Code}}\n```\n")
    assert respond(envelope) == respond(text)
