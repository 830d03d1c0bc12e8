"""Task generation: families, phrasing, determinism and reference answers."""

from __future__ import annotations

import copy
import re

import pytest

from netmend.assess.malt.reference import apply_steps
from netmend.assess.malt.tasks import (
    FAMILIES,
    FAMILY_BY_NAME,
    TaskGenerationError,
    generate_tasks,
    select_families,
)

ENABLED = ["l1-add", "l1-rank", "l1-remove", "l1-list", "l2-remove-list", "l2-remove-rank",
           "l2-remove-count", "l3-add-list", "l3-add-rank", "l3-add-count"]
NAME = r"[\w.]+"
KIND = r"EK_[A-Z_]+"
WORD = r"(switch|port|agg block|control domain|rack|superblock|spine block)"
NAMES = rf"{NAME}(, {NAME})* and {NAME}"
PHRASING = {
    "l1-add": rf"Add new node with name new_({KIND})_\d+ type \1, to {NAME}\. Return a graph\.",
    "l1-remove": rf"Remove {NAME} from the graph\. Return a graph\.",
    "l1-list": rf"List all the child nodes of {NAME}\. Return a list of child node names\.",
    "l1-rank": rf"Rank all child nodes of {KIND} type {NAME} based on physical_capacity_bps attribute\. "
               r"Return a list of tuple, each tuple has child node name and its total physical capacity\.",
    "l1-count": rf"Count the {KIND} in the {NAME}\. Return the count number as text\.",
    "l1-update": rf"Update the physical capacity value of {NAME} to \d+\. Return a graph\.",
    "remove-list": rf"Remove {NAME} from the graph\. List direct child nodes of {NAME} in the updated graph\. "
                   r"Return a list of child nodes name\.",
    "remove-rank": rf"Remove {NAME} from the graph\. Rank direct child nodes of {NAME} in the updated graph "
                   r"based on physical_capacity_bps attribute\. Return a list of tuple, each tuple has node "
                   r"name and its total physical capacity\.",
    "remove-count": rf"Remove {NAME} from the graph\. Count the {KIND} in {NAME} in the updated graph\. "
                    r"Return the count number as text\.",
    "add-list": rf"Add new_{KIND}_\d+ to ({NAME})\. List direct child nodes of \1 in the updated graph\. "
                r"Return a list of child nodes name\.",
    "add-rank": rf"Add node with name 'new_{KIND}_\d+' to ({NAME})\. Rank direct child nodes of \1 in the "
                r"updated graph based on physical_capacity_bps attribute\. Return a list of tuple, each "
                r"tuple has node name and its total physical capacity\.",
    "add-count": rf"Add new_({KIND})_\d+ to ({NAME})\. Count the \1 in \2 in the updated graph\. "
                 r"Return the count number as text\.",
    "for-each-add-count": rf"For each ({KIND}), add a new ({KIND}) to it\. Count the total number of \2 in "
                          r"the updated graph\. Return only the counts\.",
    # netmend's own families
    "typed-children": rf"List the (ports|switches) of {WORD} {NAME}\.",
    "typed-descendants": rf"List all (ports|switches) under {WORD} {NAME}\.",
    "capacity": rf"What is the capacity of (port|switch) {NAME}\?",
    "aggregate": rf"What is the (total|average|minimum|maximum) capacity of the ports "
                 rf"(of switch|in agg block) {NAME}\?",
    "top-k": rf"List the (switch|[2-4] switches) in {WORD} {NAME} with the (most ports|fewest ports|"
             r"highest total capacity|lowest total capacity)\.",
    "filter": rf"List the ports (of switch|in agg block) {NAME} with capacity (below|above|at least|"
              r"at most) (1|2|4|10) Gbps\.",
    "ancestor": rf"Which {WORD} contains (port|switch) {NAME}\?",
    "multi-change": rf"(Remove {NAMES} from the graph|Add ports named {NAMES} to switch {NAME}|"
                    rf"Set the capacity of {NAMES} to \d+ Gbps)\.",
    "update-all": rf"Set the capacity of every port (of switch|in agg block) {NAME} to \d+ Gbps\.",
}


def test_the_enabled_families_are_netarenas_ten() -> None:
    assert [family.name for family in select_families("enabled")] == ENABLED
    assert len(select_families("all")) == 25  # NetArena's 16, then netmend's own 9
    labels = {family.label for family in FAMILIES}
    assert "capacity planning, level-2, remove-list" in labels
    assert "capacity planning, level-3, add-count" in labels


def test_family_selection() -> None:
    assert [f.name for f in select_families("all", levels=[2])] == [
        "l2-remove-list", "l2-remove-rank", "l2-remove-count", "l2-add-list", "l2-add-rank",
        "l2-add-count"]
    assert [f.name for f in select_families("l3-add-rank,l1-add")] == ["l1-add", "l3-add-rank"]
    for bad, words in [("l9-fly", "unknown family"), ("", "no families"), ("l1-add", None)]:
        with pytest.raises(TaskGenerationError, match=words or "no family"):
            select_families(bad, levels=[3] if words is None else None)
    with pytest.raises(TaskGenerationError, match="unknown level"):
        select_families("all", levels=[4])


def test_same_seed_same_tasks_other_seed_other_tasks(small_graph) -> None:
    families = select_families("all")
    first = generate_tasks(small_graph, families, 5, seed=7)
    again = generate_tasks(copy.deepcopy(small_graph), families, 5, seed=7)
    other = generate_tasks(small_graph, families, 5, seed=8)
    assert first == again
    assert [t.query for t in first] != [t.query for t in other]
    assert [t.index for t in first] == list(range(len(first)))


def test_generation_uses_a_private_random_stream(small_graph) -> None:
    import random

    random.seed(1)
    first = generate_tasks(small_graph, select_families("enabled"), 3, seed=2)
    random.seed(99)
    assert generate_tasks(small_graph, select_families("enabled"), 3, seed=2) == first


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_phrasing_labels_and_reference_answers(small_graph, family: str) -> None:
    tasks = generate_tasks(small_graph, [FAMILY_BY_NAME[family]], 6, seed=3)
    pattern = PHRASING.get(family) or PHRASING[family.split("-", 1)[1]]
    for task in tasks:
        assert re.fullmatch(pattern, task.query), task.query
        assert task.family == family and task.label == FAMILY_BY_NAME[family].label
        expected = apply_steps(task.program, copy.deepcopy(small_graph))
        assert task.answer_type == expected["type"]
        if task.answer_type == "graph":
            assert task.expected is None
        else:
            assert task.expected == expected["data"]


def test_generation_leaves_the_topology_alone(small_graph) -> None:
    before = (list(small_graph.nodes(data=True)), list(small_graph.edges(data=True)))
    generate_tasks(small_graph, select_families("all"), 3, seed=1)
    assert (list(small_graph.nodes(data=True)), list(small_graph.edges(data=True))) == before


def test_a_topology_without_a_needed_kind_is_refused(small_graph) -> None:
    graph = copy.deepcopy(small_graph)
    graph.remove_nodes_from([n for n, a in graph.nodes(data=True) if "EK_RACK" in a["type"]])
    with pytest.raises(TaskGenerationError, match="EK_RACK"):
        generate_tasks(graph, [FAMILY_BY_NAME["l1-list"]], 40, seed=0)
    with pytest.raises(TaskGenerationError, match="at least 1"):
        generate_tasks(graph, [FAMILY_BY_NAME["l1-add"]], 0, seed=0)


@pytest.mark.needs_shared
def test_real_topology_names(real_graph) -> None:
    tasks = generate_tasks(real_graph, select_families("enabled"), 3, seed=5)
    assert len(tasks) == 30
    assert all(re.search(r"ju1\.", task.query) for task in tasks)
