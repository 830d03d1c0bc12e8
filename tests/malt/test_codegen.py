"""Emitted code: built from literals, checked after generation, harmless with hostile names."""

from __future__ import annotations

import ast
import copy

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netmend.agent.malt import respond_malt
from netmend.malt import codegen, ir, runtime
from netmend.malt.codegen import CodegenError
from netmend.malt.runtime import run_plan

from . import evaluator, test_runtime

HOSTILE = [
    "a'b", 'a"b', "a\\b", "line\nbreak", "```", "x```python\nimport os", "def process_graph(g):",
    "import os", "__import__('os').system('true')", "G.clear()", "lambda", "None", "True",
    "класс", "名前", "\u202e\u2028", "${{x}}", "{'name': 1}", "process_graph", "'; G.clear(); '",
]


def _graph_with(name: str) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_node("agg", name="agg", type=["EK_AGG_BLOCK"])
    g.add_node("sw", name=name, type=["EK_PACKET_SWITCH"])
    g.add_node("p1", name="p1", type=["EK_PORT"], physical_capacity_bps=5.0)
    g.add_edge("agg", "sw", type="RK_CONTAINS")
    g.add_edge("sw", "p1", type="RK_CONTAINS")
    return g


def _queries(name: str) -> list[ir.Query]:
    return [
        ir.Query((ir.ListChildren(name),)),
        ir.Query((ir.Rank(name),)),
        ir.Query((ir.Add(name + "-new", "EK_PORT", name), ir.Count("EK_PORT", name))),
        ir.Query((ir.Remove(name),)),
        ir.Query((ir.Add(name, "EK_PACKET_SWITCH", "agg"), ir.ListChildren("agg"))),
    ]


def _run_as_evaluator(source: str, graph: nx.DiGraph) -> tuple[dict, dict, dict]:
    ns = evaluator.namespace(graph, helpers=True)
    before = dict(ns)
    exec(evaluator.extract(codegen.fenced(source)), ns)  # noqa: S102
    result = eval("process_graph(copy.deepcopy(G))", ns)  # noqa: S307
    return result, before, ns


def _assert_only_intended(name: str) -> None:
    graph = _graph_with(name)
    snapshot = copy.deepcopy(graph)
    for query in _queries(name):
        source = codegen.emit(query)
        result, before, after = _run_as_evaluator(source, graph)
        # The namespace gained process_graph and nothing else changed in it.
        assert set(after) - set(before) - {"__builtins__"} == {"process_graph"}
        assert all(after[key] is value for key, value in before.items())
        assert nx.utils.graphs_equal(graph, snapshot)
        assert dict(graph.nodes(data=True)) == dict(snapshot.nodes(data=True))
        expected = run_plan(copy.deepcopy(graph), query.to_plan())
        if query.answer_type == "graph":
            assert evaluator.same_graph(expected["data"], result["data"])
        else:
            assert result["data"] == expected["data"]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_only_run_the_intended_operation(name: str) -> None:
    _assert_only_intended(name)


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_any_name_only_runs_the_intended_operation(name: str) -> None:
    _assert_only_intended(name)


def test_calls_are_literals_on_one_line_each_and_the_runtime_is_audited() -> None:
    codegen.audit_runtime()
    for compact in (True, False):
        source = codegen.emit(ir.Query((ir.Remove("x\ny"), ir.ListChildren("p"))), compact=compact)
        assert source.count("process_graph") == 1
        assert not any(line.strip().startswith("import") for line in source.split("\n"))
    readable = codegen.emit(ir.Query((ir.Remove("x\ny"), ir.ListChildren("p"))), compact=False)
    assert readable.rstrip("\n").split("\n")[-4:] == [
        "    remove('x\\ny')", "    data = children('p')", "    cascade()",
        "    return finish('list', data, pruned())"]


def test_only_the_pieces_a_plan_reaches_are_emitted() -> None:
    read_only = codegen.emit(ir.Query((ir.ListChildren("p"),)), compact=False)
    assert "def children" in read_only and "def cascade" not in read_only
    assert "def add" not in read_only and "hierarchy" not in read_only
    update = codegen.emit(ir.Query((ir.Update("p", 5),)), compact=False)
    assert "def restored" in update and "def cascade" not in update


_CALLS = runtime.program((("remove", "x"),))
_GOOD = codegen._render(_CALLS, {})


def _tampered(template=None, literals=None, lines=None) -> codegen.EmittedCalls:
    return codegen.EmittedCalls(tuple(template or _GOOD.template), tuple(literals or _GOOD.literals),
                           tuple(lines or _GOOD.lines))


@pytest.mark.parametrize("program", [
    _tampered(literals=[("__import__('os').getcwd()", "x"), ("'graph'", "graph")],
              lines=["remove(__import__('os').getcwd())", "cascade()",
                     "return finish('graph', graph, pruned())"]),
    _tampered(literals=[("'y'", "x"), ("'graph'", "graph")],
              lines=["remove('y')", "cascade()", "return finish('graph', graph, pruned())"]),
    _tampered(literals=[("'x'), G.clear(), ('x'", "x"), ("'graph'", "graph")],
              lines=["remove('x'), G.clear(), ('x')", "cascade()",
                     "return finish('graph', graph, pruned())"]),
    _tampered(literals=[("*['x']", "x"), ("'graph'", "graph")],
              lines=["remove(*['x'])", "cascade()", "return finish('graph', graph, pruned())"]),
    _tampered(template=["remove(_p0); G.clear()", "cascade()", "return finish(_p1, graph, pruned())"],
              lines=["remove('x'); G.clear()", "cascade()", "return finish('graph', graph, pruned())"]),
    _tampered(template=["remove(_p0)", "G.clear()", "return finish(_p1, graph, pruned())"],
              lines=["remove('x')", "G.clear()", "return finish('graph', graph, pruned())"]),
    _tampered(template=["remove(_p0)", "cascade()", "return finish(_p1, G, pruned())"],
              lines=["remove('x')", "cascade()", "return finish('graph', G, pruned())"]),
    _tampered(template=["remove(_p0)", "cascade()", "return finish(_p1, graph, graph)"],
              lines=["remove('x')", "cascade()", "return finish('graph', graph, graph)"]),
    _tampered(template=["eval(_p0)", "cascade()", "return finish(_p1, graph, pruned())"],
              lines=["eval('x')", "cascade()", "return finish('graph', graph, pruned())"]),
    _tampered(template=["remove(_p0, extra=1)", "cascade()", "return finish(_p1, graph, pruned())"],
              lines=["remove('x', extra=1)", "cascade()", "return finish('graph', graph, pruned())"]),
    _tampered(lines=["remove('x')", "cascade()", "G.clear()"]),
    _tampered(literals=[("'x'", "x"), ("'list'", "list")],
              lines=["remove('x')", "cascade()", "return finish('list', graph, pruned())"]),
    _tampered(literals=[("True", "x"), ("'graph'", "graph")],
              lines=["remove(True)", "cascade()", "return finish('graph', graph, pruned())"]),
])
def test_tampered_programs_are_rejected(program: codegen.EmittedCalls) -> None:
    codegen.verify_program(_GOOD, _CALLS)
    with pytest.raises(CodegenError):
        codegen.verify_program(program, _CALLS)


_SET_CALLS = runtime.program((("nodes", ("a", None, "children", ())),))
_SET_GOOD = codegen._render(_SET_CALLS, {})


@pytest.mark.parametrize("template", [
    # the variable used before the line that sets it
    ("data = list_nodes(m1)", "m1 = select(_p0, _p1, _p2)", "return finish(_p3, data, graph)"),
    # a literal's place moved into another call
    ("m1 = select(_p0, _p1, _p3)", "data = list_nodes(m1)", "return finish(_p2, data, graph)"),
    # a variable that shadows a piece, or the graph
    ("remove = select(_p0, _p1, _p2)", "data = list_nodes(remove)", "return finish(_p3, data, graph)"),
    ("graph = select(_p0, _p1, _p2)", "data = list_nodes(graph)", "return finish(_p3, data, graph)"),
    # two statements on one line, or one statement over two
    ("m1 = select(_p0, _p1, _p2); G.clear()", "data = list_nodes(m1)",
     "return finish(_p3, data, graph)"),
    ("m1 = select(_p0, _p1,", "_p2)", "return finish(_p3, data, graph)"),
])
def test_tampered_templates_with_variables_are_rejected(template) -> None:
    shape = codegen._shape(_SET_CALLS, {})
    codegen._verify_template(_SET_GOOD.template, shape, {})
    with pytest.raises(CodegenError):
        codegen._verify_template(template, shape, {})


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text() |
                    st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=3).map(tuple), max_leaves=8))
def test_a_literal_is_exactly_one_argument_with_its_value(value) -> None:
    text = codegen.literal(value)
    ok, parsed = codegen._literal_value(text)
    assert ok and codegen._same_literal(parsed, value)
    assert "```" not in text and "process_graph" not in text


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text() |
                    st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=3).map(tuple), max_leaves=8))
def test_the_checked_literal_is_the_literal(value) -> None:
    """What replies carry (each atom checked by its token grammar) is exactly the text
    whose syntax tree is one argument of that value."""
    assert codegen.checked_literal(value) == codegen.literal(value)


_STRING_PIECES = st.sampled_from(["'", '"', "\\\\", "\\", "x", "u", "U", "0", "6", "f", "D", "n",
                                  "t", "a", "\n", " ", "`", "\x00", "\u2028", "é", "(", ")", ","])


@settings(max_examples=800, deadline=None)
@given(st.sampled_from(["'", '"']), st.lists(_STRING_PIECES, max_size=12).map("".join),
       st.sampled_from(["'", '"', ""]))
def test_a_text_the_string_check_accepts_is_one_string_of_that_value(opening, body, closing) -> None:
    """The string check is sound against the syntax tree: whatever text it accepts is
    exactly one string literal argument, whose value is the one it decoded."""
    text = opening + body + closing
    decoded = codegen._string_value(text)
    if decoded is not None:
        call = ast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords
        assert isinstance(call.args[0], ast.Constant) and call.args[0].value == decoded


@pytest.mark.parametrize("text", [
    "'a' + G.clear() + 'b'", "'a', 'b'", "'a'\n'b'", "'\\'", "'a\\q'", "'''a'''", "'a\n'",
    '"a" if G.clear() else "b"', "'a'); G.clear(); ('", "'\\U00110000'", "b'a'", "f'{G}'",
    "'\\N{BULLET}'", "'\\101'", "'a\\\nb'",
])
def test_texts_that_are_not_one_plain_string_are_refused(text: str) -> None:
    assert codegen._string_value(text) is None


@pytest.mark.parametrize("text, value", [
    ("'a'", "a"), ("''", ""), ('"it\'s"', "it's"), ("'\\x60\\n\\\\'", "`\n\\"),
    ("'\\u2028'", "\u2028"), ("'\\U0001f600'", "\U0001f600"), ("'é'", "é"),
])
def test_plain_strings_are_read_exactly(text: str, value: str) -> None:
    assert codegen._string_value(text) == value == codegen._literal_value(text)[1]


def test_forms_are_keyed_by_shape_never_by_a_request_value() -> None:
    codegen.clear_caches()
    name = "ju9.unique-name-4711"
    for query in _queries(name):
        assert codegen.emit(query) == codegen.emit_verified(query)
    assert codegen._FORMS and not any("4711" in repr(key) for key in codegen._FORMS)
    assert all("4711" not in form.text for form in codegen._FORMS.values())


def test_a_longer_plan_reuses_the_verified_lines() -> None:
    codegen.clear_caches()
    codegen.warm()
    checked = codegen._verified_line.cache_info().misses
    steps = tuple(ir.Remove(f"n{i}") for i in range(7)) + (ir.ListChildren("p"),)
    assert codegen.emit(ir.Query(steps)) == codegen.emit_verified(ir.Query(steps))
    assert codegen._verified_line.cache_info().misses == checked


def test_non_finite_numbers_are_not_emitted() -> None:
    with pytest.raises(CodegenError):
        codegen.emit(ir.Query((ir.Update("p", float("inf")),)))


def test_reply_is_one_fence_and_refusals_carry_no_code() -> None:
    reply = respond_malt("Remove ju1.a1.m1 from the graph. Return a graph.")
    assert reply.startswith("```python\ndef process_graph(") and reply.count("```") == 2
    refusal = respond_malt("Make the network faster.")
    assert "process_graph" not in refusal and "cannot" in refusal and refusal.strip()


@settings(max_examples=120, deadline=None)
@given(st.lists(test_runtime.mutations, max_size=2), st.one_of(st.none(), test_runtime.reads),
       st.booleans())
def test_emitted_code_computes_what_the_planner_computes(muts, read, compact) -> None:
    """One implementation: the reply's code, run as the evaluator runs it, gives the
    in-process runtime's answer and commit, in both emitted styles."""
    steps = tuple(muts) + ((read,) if read else ())
    if not steps:
        return
    query = ir.Query(steps)
    graph = test_runtime.BASE
    source = codegen.emit(query, compact=compact)
    assert source == codegen.emit_verified(query, compact=compact)
    result, _, _ = _run_as_evaluator(source, graph)
    expected = run_plan(copy.deepcopy(graph), query.to_plan())
    assert result["type"] == expected["type"] and result["notes"] == expected["notes"]
    if expected["type"] == "graph":
        assert evaluator.same_graph(expected["data"], result["data"])
    else:
        assert result["data"] == expected["data"]
    assert evaluator.same_graph(expected["updated_graph"], result["updated_graph"])
    assert dict(result["updated_graph"].nodes(data=True)) == dict(
        expected["updated_graph"].nodes(data=True))
