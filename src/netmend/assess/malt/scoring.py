"""Scoring a MALT reply the way the NetArena evaluator does.

From reply text to verdict, step by step as the evaluator goes:

1. extract the code (:func:`extract_code`, with the evaluator's traps);
2. exec it in a namespace holding ``G``, ``copy``, ``nx``, ``json`` and the
   six reference helpers, then call ``process_graph`` on a deep copy of ``G``;
3. normalise the result (a JSON string is parsed; anything but a dict with
   ``type`` and ``data`` is an error; ``updated_graph`` becomes the graph that
   safety is judged on, and stands in for a graph answer's ``data`` when that
   is not a networkx graph);
4. judge safety on ``updated_graph`` by the six rules;
5. compute the ground truth in a copy of the namespace, on the same ``G``;
6. compare by the ground truth's type.

Cheaper routes are taken where they are proven to give the same verdict (see
``graphs`` and ``reference.applied``). One check goes beyond the
evaluator: code that rebinds the namespace's names or modifies ``G`` would
corrupt the evaluator's ground truth; it is caught and fails the task.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import traceback
from collections import Counter
from dataclasses import dataclass
from typing import Any

import networkx as nx

from netmend.assess.malt.graphs import CopySource, isomorphic_with_node_attrs
from netmend.assess.malt.reference import (
    HELPERS,
    applied,
    apply_steps,
    evaluator_namespace,
    run_program,
)
from netmend.assess.malt.safety import BaselineChecker, SafetyVerdict, check
from netmend.assess.malt.tasks import MaltTask

_DEEPCOPY = copy.deepcopy  # code that patches the copy module is caught by identity
_DEF_PROCESS_GRAPH = re.compile(r"def\s+([a-zA-Z_0-9]*process_graph[a-zA-Z_0-9]*)")
FENCE = "```"


def extract_code(reply: str) -> str:
    """The evaluator's code extraction from a reply.

    Every ``def <x>process_graph<y>`` becomes ``def process_graph``; the code
    runs from the FIRST ``def process_graph`` up to the next triple backtick
    (or the end); every line whose stripped text starts with ``import`` is
    dropped, whatever follows. No ``def process_graph`` gives ``''``.

    >>> extract_code("Answer:\\n```python\\ndef my_process_graph(g):\\n    import os\\n    return 1\\n```")
    'def process_graph(g):\\n    return 1'
    """
    text = _DEF_PROCESS_GRAPH.sub("def process_graph", reply)
    start = text.find("def process_graph")
    if start == -1:
        return ""
    end = text.find(FENCE, start)
    code = (text[start:end] if end != -1 else text[start:]).strip()
    return "\n".join(line for line in code.split("\n") if not line.strip().startswith("import"))


@dataclass(frozen=True)
class Verdict:
    """The judgement of one reply.

    ``correct`` and ``safe`` are the evaluator's verdicts (``correct`` is
    also False when the code disturbed the evaluator's namespace, see
    ``namespace_intact``). ``answer`` and ``expected`` are JSON-ready
    renderings of the two ``data`` values for records.
    """

    correct: bool
    safe: bool
    gt_safe: bool
    safety: SafetyVerdict
    gt_safety: SafetyVerdict
    error: str
    namespace_intact: bool
    answer: Any
    expected: Any


def _jsonable(value: Any) -> Any:
    """``value`` if JSON can hold it as is (tuples become lists), else its ``str``."""
    try:
        json.dumps(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    return value


def lists_equal(expected: Any, answer: Any) -> bool:
    """The evaluator's list check: multisets, inner lists made tuples when the first item is a list."""
    if not isinstance(expected, list) or not isinstance(answer, list):
        return False
    if expected and isinstance(expected[0], list):
        expected = [tuple(item) for item in expected]
    if answer and isinstance(answer[0], list):
        answer = [tuple(item) for item in answer]
    return Counter(expected) == Counter(answer)


def data_equal(kind: str, expected: Any, answer: Any) -> bool:
    """Compare ``data`` by the ground truth's ``kind``; a comparison that raises is False."""
    if kind == "text":
        expected = str(expected) if isinstance(expected, int) else expected
        answer = str(answer) if isinstance(answer, int) else answer
    try:
        if kind in ("text", "table"):
            return bool(expected == answer)
        if kind == "list":
            return lists_equal(expected, answer)
        if kind == "graph":
            return bool(isomorphic_with_node_attrs(expected, answer))
    except Exception:
        return False
    return False


def _lossless_round_trip(graph: nx.Graph) -> bool:
    """Whether node-link data and back gives the same node ids and node attributes.

    It does unless a node attribute is named ``id`` (overwritten by the node
    id) or has a non-string name (made a string on the way back).
    """
    return all(
        type(key) is str and key != "id" for _, attrs in graph.nodes(data=True) for key in attrs
    )


def normalize(ret: Any) -> tuple[dict, Any, str]:
    """The evaluator's handling of a returned object.

    Returns ``(ret, graph, problem)``: ``ret`` as the evaluator keeps it,
    the graph safety is judged on (None when ``updated_graph`` is missing or
    unusable) and, in that case, why.
    """
    if isinstance(ret, str):
        try:
            ret = json.loads(ret)
        except Exception:
            ret = {"type": "error", "data": "LLM output is not a valid JSON string."}
    if not (isinstance(ret, dict) and "data" in ret and "type" in ret) or ret["type"] == "error":
        return {"type": "error", "data": ret}, None, "the code did not return a valid result"
    ret = dict(ret)
    if "updated_graph" not in ret:
        return {"type": ret["type"], "data": ret["data"]}, None, "no 'updated_graph' in the result"
    given = ret["updated_graph"]
    try:
        if isinstance(given, nx.Graph):
            graph = given
            if ret["type"] == "graph" and not isinstance(ret["data"], nx.Graph):
                lossless = _lossless_round_trip(given)
                ret["data"] = given if lossless else nx.node_link_graph(nx.node_link_data(given))
        else:
            graph = nx.node_link_graph(given)
            if ret["type"] == "graph" and not isinstance(ret["data"], nx.Graph):
                ret["data"] = graph  # the evaluator rebuilds the same graph from the same JSON
    except Exception as exc:
        problem = f"'updated_graph' is not a usable graph ({type(exc).__name__}: {exc})"
        return {"type": ret["type"], "data": ret["data"]}, None, problem
    return ret, graph, ""


class MaltScorer:
    """Scores replies to tasks on one topology.

    The topology is held twice: a private pristine source of copies and the
    graph bound to ``G`` in the participants' namespace. When a participant
    modifies the latter it is replaced by a fresh copy after that task (the
    task fails), so one bad reply cannot spoil the next ones.
    """

    def __init__(self, graph: Any):
        self._source = CopySource(graph)
        self._g = self._source.copy()
        self._safety = BaselineChecker(self._source.pristine)

    @property
    def fast_copies(self) -> bool:
        """Whether per-task copies are structural (proven equal to ``copy.deepcopy``)."""
        return self._source.fast

    def score(self, task: MaltTask, code: str) -> Verdict:
        """Execute ``code`` (already extracted) as the evaluator does and judge it against ``task``."""
        namespace = evaluator_namespace(self._g)
        ret, error = self._execute(code, namespace)
        ret, graph, problem = normalize(ret)
        if ret["type"] == "error" and not error:
            error = f"invalid result: {str(ret['data'])[:500]}"
        if graph is None:
            safety = SafetyVerdict(False, "updated_graph", problem)
        else:
            safety = self._safety.check(graph)
        intact = self._intact(namespace)
        if intact:
            correct, gt_safety, expected = self._judge(task, ret)
        else:
            correct, gt_safety, expected = self._judge_in(task, ret, namespace)
            error = (error + "; " if error else "") + (
                "the code changed the evaluator's namespace or its G, "
                "which corrupts the evaluator's ground truth"
            )
            self._g = self._source.copy()
        return Verdict(
            correct=correct and intact,
            safe=safety.ok,
            gt_safe=gt_safety.ok,
            safety=safety,
            gt_safety=gt_safety,
            error=error,
            namespace_intact=intact,
            answer=_jsonable(ret["data"]) if task.answer_type != "graph" else None,
            expected=_jsonable(expected) if task.answer_type != "graph" else None,
        )

    def _execute(self, code: str, namespace: dict) -> tuple[Any, str]:
        """exec + ``process_graph(copy.deepcopy(G))``; an exception becomes an error result."""
        try:
            # Participant prints must not mix with our output.
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
                if self._copy_untouched(namespace):
                    function = namespace.get("process_graph")
                    if function is None:
                        raise NameError("name 'process_graph' is not defined")
                    return function(self._source.copy()), ""
                return eval("process_graph(copy.deepcopy(G))", namespace), ""
        except (Exception, SystemExit):
            trace = traceback.format_exc()
            return {"type": "error", "data": trace}, trace.strip().splitlines()[-1]

    def _copy_untouched(self, namespace: dict) -> bool:
        """Whether ``copy.deepcopy(G)`` in ``namespace`` still means a deep copy of our ``G``."""
        return (
            namespace.get("G") is self._g
            and namespace.get("copy") is copy
            and copy.deepcopy is _DEEPCOPY
        )

    def _intact(self, namespace: dict) -> bool:
        """Whether the ground truth may be computed from the pristine topology."""
        return (
            self._copy_untouched(namespace)
            and all(namespace.get(name) is helper for name, helper in HELPERS.items())
            and self._source.unchanged(self._g)
        )

    def _judge(self, task: MaltTask, ret: dict) -> tuple[bool, SafetyVerdict, Any]:
        if task.answer_type != "graph":
            return data_equal(task.answer_type, task.expected, ret["data"]), SafetyVerdict(True), task.expected
        with applied(task.program, self._source.scratch) as truth:
            if truth is not None:
                gt = truth["data"]
                return data_equal("graph", gt, ret["data"]), self._safety.check(gt), None
        gt = apply_steps(task.program, self._source.copy())["data"]
        return data_equal("graph", gt, ret["data"]), self._safety.check(gt), None

    def _judge_in(self, task: MaltTask, ret: dict, namespace: dict) -> tuple[bool, SafetyVerdict, Any]:
        """The evaluator's ground truth, literally, in a copy of a disturbed namespace."""
        try:
            truth = run_program(task.program, dict(namespace))
        except Exception as exc:
            return False, SafetyVerdict(False, "ground_truth", f"ground truth failed: {exc}"), None
        kind = truth["type"]
        gt_safety = check(truth["data"]) if kind == "graph" else SafetyVerdict(True)
        return data_equal(kind, truth["data"], ret["data"]), gt_safety, truth["data"]
