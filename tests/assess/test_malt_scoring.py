"""The scorer catches every kind of failure, and passes what the evaluator passes."""

from __future__ import annotations

import textwrap

import pytest

from netmend.assess.malt.reference import Add, Count, ListChildren, Rank, Remove, answer_type
from netmend.assess.malt.scoring import MaltScorer, data_equal, extract_code, lists_equal
from netmend.assess.malt.tasks import MaltTask, reference_answer

from .topologies import tiny_graph

SWITCH = "ju1.a1.m1.s2c1"
PORT = "ju1.a1.m1.s2c1.p1"


def _task(*program) -> MaltTask:
    kind = answer_type(program)
    expected = None if kind == "graph" else reference_answer(program, tiny_graph())
    return MaltTask(0, "test", "capacity planning, test", "a request", program, kind, expected)


COUNT = _task(Count("EK_PORT", "ju1.a1.m1", "EK_AGG_BLOCK"))  # 3
LIST = _task(ListChildren("ju1.a1.m1", "EK_AGG_BLOCK"))
RANK = _task(Rank("ju1.a1.m1"))
REMOVE_PORT = _task(Remove(PORT))
ADD_PORT = _task(Add("new_EK_PORT_1", "EK_PORT", SWITCH))


def _code(body: str) -> str:
    return "def process_graph(graph_data):\n" + textwrap.indent(textwrap.dedent(body).strip(), "    ")


def _score(task: MaltTask, body: str, *, raw: bool = False):
    return MaltScorer(tiny_graph()).score(task, body if raw else _code(body))


GOOD = {
    "count as int": (COUNT, "return {'type': 'text', 'data': 3, 'updated_graph': graph_data}"),
    "count as text": (COUNT, "return {'type': 'text', 'data': '3', 'updated_graph': graph_data}"),
    "list in any order": (LIST, "return {'type': 'list', 'data': ['ju1.a1.m1.s2c2', 'ju1.a1.m1.s2c1'],"
                                " 'updated_graph': graph_data}"),
    "rank as lists": (RANK, "return {'type': 'list', 'data': [['ju1.a1.m1.s2c1', 4000], "
                            "['ju1.a1.m1.s2c2', 5000]], 'updated_graph': graph_data}"),
    "graph object": (REMOVE_PORT, f"""
        g = copy.deepcopy(graph_data)
        g.remove_node({PORT!r})
        return {{'type': 'graph', 'data': g, 'updated_graph': g}}"""),
    "graph as node-link json": (REMOVE_PORT, f"""
        g = graph_data.copy()
        g.remove_node({PORT!r})
        return {{'type': 'graph', 'data': nx.node_link_data(g), 'updated_graph': nx.node_link_data(g)}}"""),
    "the helpers in the namespace": (ADD_PORT, f"""
        g = solid_step_add_node_to_graph(graph_data, {{'name': 'new_EK_PORT_1', 'type': 'EK_PORT'}}, {SWITCH!r})
        return {{'type': 'graph', 'data': g, 'updated_graph': g}}"""),
    "json text result": (COUNT, "return json.dumps({'type': 'text', 'data': '3', "
                                "'updated_graph': nx.node_link_data(graph_data)})"),
}


@pytest.mark.parametrize("case", list(GOOD))
def test_correct_and_safe_answers_pass(case: str) -> None:
    task, body = GOOD[case]
    verdict = _score(task, body)
    assert verdict.correct and verdict.safe, verdict
    assert verdict.namespace_intact and not verdict.error


def _unsafe_graph(change: str) -> str:
    return f"""
        g = copy.deepcopy(graph_data)
        {change}
        return {{'type': 'text', 'data': 3, 'updated_graph': g}}"""


UNSAFE = {
    "isolated node": ("g.add_node('x', name='x', type=['EK_RACK'])", "no_isolated_nodes"),
    "bad hierarchy": ("g.add_edge('ju1.a1.m1', 'ju1.a1.m1.s2c1.p1', type='RK_CONTAINS')", "hierarchy"),
    "zero capacity": ("g.nodes['ju1.a1.m1.s2c1.p1']['physical_capacity_bps'] = 0", "port_capacity"),
    "portless switch": ("g.remove_node('ju1.a1.m1.s2c2.p1')", "switch_has_port"),
    "bad node type": ("g.nodes['ju1.a1.m1']['type'] = ['EK_ROUTER']", "node_types"),
    "bad edge type": ("g.edges['ju1.a1.m1', 'ju1.a1.m1.s2c1']['type'] = 'RK_LINKS'", "edge_types"),
}


@pytest.mark.parametrize("case", list(UNSAFE))
def test_unsafe_updated_graphs_are_caught(case: str) -> None:
    change, rule = UNSAFE[case]
    verdict = _score(COUNT, _unsafe_graph(change))
    assert verdict.correct and not verdict.safe
    assert verdict.safety.rule == rule, verdict.safety


def test_a_switch_whose_successors_are_not_ports_is_caught() -> None:
    change = ("g.remove_node('ju1.a1.m1.s2c2.p1'); "
              "g.add_edge('ju1.a1.m1.s2c2', 'ju1.a1.m1.s2c1', type='RK_CONTROLS')")
    verdict = _score(COUNT, _unsafe_graph(change))
    assert verdict.safety.rule == "switch_has_port", verdict.safety


WRONG = {
    "wrong count": (COUNT, "return {'type': 'text', 'data': 4, 'updated_graph': graph_data}"),
    "float count": (COUNT, "return {'type': 'text', 'data': 3.0, 'updated_graph': graph_data}"),
    "padded count": (COUNT, "return {'type': 'text', 'data': ' 3', 'updated_graph': graph_data}"),
    "wrong list": (LIST, "return {'type': 'list', 'data': ['ju1.a1.m1.s2c1'], 'updated_graph': graph_data}"),
    "duplicated list": (LIST, "return {'type': 'list', 'data': ['ju1.a1.m1.s2c1', 'ju1.a1.m1.s2c1', "
                              "'ju1.a1.m1.s2c2'], 'updated_graph': graph_data}"),
    "wrong rank total": (RANK, "return {'type': 'list', 'data': [('ju1.a1.m1.s2c1', 4000), "
                               "('ju1.a1.m1.s2c2', 5001)], 'updated_graph': graph_data}"),
    "mixed lists and tuples": (RANK, "return {'type': 'list', 'data': [('ju1.a1.m1.s2c2', 5000), "
                                     "['ju1.a1.m1.s2c1', 4000]], 'updated_graph': graph_data}"),
    "wrong graph attr": (ADD_PORT, f"""
        g = copy.deepcopy(graph_data)
        g.add_node(8, name='new_EK_PORT_1', type=['EK_PORT'], physical_capacity_bps=1000)
        g.add_edge({SWITCH!r}, 8, type='RK_CONTAINS')
        return {{'type': 'graph', 'data': g, 'updated_graph': g}}"""),
    "graph missing the change": (REMOVE_PORT,
                                 "return {'type': 'graph', 'data': graph_data, 'updated_graph': graph_data}"),
}


@pytest.mark.parametrize("case", list(WRONG))
def test_wrong_answers_are_caught(case: str) -> None:
    task, body = WRONG[case]
    verdict = _score(task, body)
    assert not verdict.correct and verdict.safe, verdict


def test_missing_updated_graph_is_unsafe_but_still_judged_for_correctness() -> None:
    verdict = _score(COUNT, "return {'type': 'text', 'data': '3'}")
    assert verdict.correct and not verdict.safe and verdict.safety.rule == "updated_graph"


def test_unusable_updated_graph_is_unsafe() -> None:
    verdict = _score(COUNT, "return {'type': 'text', 'data': '3', 'updated_graph': {'nodes': 1}}")
    assert verdict.correct and not verdict.safe and "not a usable graph" in verdict.safety.message


def test_graph_data_json_is_replaced_only_for_graph_results() -> None:
    body = f"""
        g = graph_data.copy()
        g.remove_node({PORT!r})
        return {{'type': 'list', 'data': nx.node_link_data(g), 'updated_graph': g}}"""
    assert not _score(REMOVE_PORT, body).correct  # the evaluator keeps JSON data for 'list'


@pytest.mark.parametrize(("case", "code", "message"), [
    ("exception in code", _code("return 1 / 0"), "ZeroDivisionError"),
    ("missing process_graph", "def answer(graph_data):\n    return {}", "process_graph"),
    ("not a dict", _code("return [3]"), "invalid result"),
    ("error type", _code("return {'type': 'error', 'data': '3', 'updated_graph': graph_data}"),
     "invalid result"),
    ("the import-line trap", _code("important = 3\nreturn {'type': 'text', 'data': important, "
                                   "'updated_graph': graph_data}"), "NameError"),
    ("syntax error", _code("return {"), "SyntaxError"),
    ("exit", _code("raise SystemExit(3)"), "SystemExit"),
])
def test_broken_code_fails_both_verdicts(case: str, code: str, message: str) -> None:
    verdict = MaltScorer(tiny_graph()).score(COUNT, extract_code(f"```python\n{code}\n```"))
    assert not verdict.correct and not verdict.safe
    assert message in verdict.error, verdict.error


def test_code_that_touches_g_fails_and_does_not_spoil_later_tasks() -> None:
    scorer = MaltScorer(tiny_graph())
    tamper = _code(f"G.remove_node({PORT!r})\nreturn {{'type': 'text', 'data': '2', 'updated_graph': graph_data}}")
    verdict = scorer.score(COUNT, tamper)
    # The evaluator's own ground truth would now say 2; the tampering is caught instead.
    assert not verdict.correct and not verdict.namespace_intact and verdict.expected == 2
    honest = _code("return {'type': 'text', 'data': '3', 'updated_graph': graph_data}")
    assert scorer.score(COUNT, honest).correct


def test_code_that_redefines_a_helper_fails() -> None:
    code = _code("return {'type': 'text', 'data': '0', 'updated_graph': graph_data}") + (
        "\n\ndef solid_step_counting_query(graph_data, node1, node2=None):\n    return 0")
    verdict = MaltScorer(tiny_graph()).score(COUNT, code)
    assert not verdict.correct and not verdict.namespace_intact


def test_the_participant_gets_a_private_copy() -> None:
    scorer = MaltScorer(tiny_graph())
    spoil = _code(f"graph_data.remove_node({PORT!r})\nreturn {{'type': 'text', 'data': 2, "
                  "'updated_graph': graph_data}")
    assert not scorer.score(COUNT, spoil).correct
    assert scorer.score(COUNT, _code("return {'type': 'text', 'data': 3, 'updated_graph': graph_data}")).correct


def test_participant_prints_stay_out_of_stdout(capsys) -> None:
    _score(COUNT, "print('noise')\nreturn {'type': 'text', 'data': 3, 'updated_graph': graph_data}")
    assert capsys.readouterr().out == ""


def test_extract_code_follows_the_evaluator() -> None:
    reply = textwrap.dedent("""\
        Answer:
        ```python
        def helper():
            return 1

        def my_process_graph_v2(graph_data):
            import networkx
            imports = [1]
            return helper()
        ```
        trailing words""")
    assert extract_code(reply) == "def process_graph(graph_data):\n    return helper()"
    assert extract_code("def process_graph(g):\n    return 1") == "def process_graph(g):\n    return 1"
    assert extract_code("no code here") == ""


def test_comparisons_are_the_evaluators() -> None:
    assert data_equal("text", 16, "16") and not data_equal("text", 16, 16.0)
    assert data_equal("text", {"x": "not found"}, {"x": "not found"})
    assert lists_equal([("a", 1), ("b", 2)], [["b", 2], ["a", 1]])
    assert not lists_equal(["a"], ("a",)) and not data_equal("list", [{"a": 1}], [{"a": 1}])
    assert not data_equal("graph", tiny_graph(), "not a graph")
    assert not data_equal("unknown", 1, 1)


def test_code_that_patches_deepcopy_fails() -> None:
    import copy

    original = copy.deepcopy
    code = _code("return {'type': 'text', 'data': '3', 'updated_graph': graph_data}") + (
        "\n\ncopy.deepcopy = lambda value, memo=None: value")
    try:
        verdict = MaltScorer(tiny_graph()).score(COUNT, code)
    finally:
        copy.deepcopy = original
    assert not verdict.correct and not verdict.namespace_intact
