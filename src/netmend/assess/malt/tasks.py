"""Seeded MALT task generation with reference answers.

Families, their NetArena labels and their generator phrasing are data (the
``FAMILIES`` table); each generator draws from a private ``random.Random`` in
a fixed order, so the same topology, families, count and seed give the same
tasks. Every task carries its reference program (the ground truth) and, for
text and list answers, the answer that program gives on the topology.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from netmend.assess.malt.graphs import fast_copy
from netmend.assess.malt.reference import (
    Add,
    Aggregate,
    CapacityOf,
    Count,
    ListChildren,
    ListNodes,
    Nodes,
    Rank,
    Remove,
    SetCapacities,
    Step,
    TopK,
    Update,
    answer_type,
    applied,
    apply_steps,
)
from netmend.malt import topology

AGG = "EK_AGG_BLOCK"
DOM = "EK_CONTROL_DOMAIN"
RACK = "EK_RACK"
SUPER = "EK_SUPERBLOCK"
SPINE = "EK_SPINEBLOCK"
SWITCH = "EK_PACKET_SWITCH"
PORT = "EK_PORT"
CHILD_KINDS = (SWITCH, PORT)
CONTAINER_KINDS = (AGG, DOM)


class TaskGenerationError(ValueError):
    """The request cannot be turned into tasks (unknown family, unusable topology, ...)."""


@dataclass(frozen=True)
class MaltTask:
    """One generated request with its ground truth.

    Attributes
    ----------
    index : position in the generated sequence (stable id).
    family : short family name, e.g. ``l2-remove-list``.
    label : the NetArena task label, e.g. ``capacity planning, level-2, remove-list``.
    query : the request text in the generator's phrasing.
    program : the reference program the ground truth runs.
    answer_type : ``text``, ``list`` or ``graph``.
    expected : the reference answer for text and list tasks (None for graphs,
        which are computed when scored rather than held in memory).
    """

    index: int
    family: str
    label: str
    query: str
    program: tuple[Step, ...]
    answer_type: str
    expected: Any = None


class _Draw:
    """The generator's random draws over the topology's names by kind."""

    def __init__(self, rng: random.Random, names: dict[str, list[str]]):
        self.rng = rng
        self.names = names

    def kind(self, kinds: Sequence[str]) -> str:
        return self.rng.choice(list(kinds))

    def name(self, kind: str, family: str) -> str:
        pool = self.names.get(kind)
        if not pool:
            raise TaskGenerationError(f"family {family!r} needs {kind} nodes; the topology has none")
        return self.rng.choice(pool)

    def new_name(self, kind: str) -> str:
        return f"new_{kind}_{self.rng.randint(1, 100)}"

    def parent_for(self, child: str) -> str:
        # A new port goes under a switch, a new switch under a container.
        return SWITCH if child == PORT else self.kind(CONTAINER_KINDS)


def _prefix(name: str) -> str:
    return ".".join(name.split(".")[:-1])


# Each generator returns (query, program). Phrasing is the public generator's.
def _l1_add(d: _Draw, fam: str):
    child = d.kind(CHILD_KINDS)
    parent_kind = d.parent_for(child)
    new, parent = d.new_name(child), d.name(parent_kind, fam)
    text = f"Add new node with name {new} type {child}, to {parent}. Return a graph."
    return text, (Add(new, child, parent),)


def _l1_remove(d: _Draw, fam: str):
    name = d.name(d.kind(CHILD_KINDS), fam)
    return f"Remove {name} from the graph. Return a graph.", (Remove(name),)


def _l1_count(d: _Draw, fam: str):
    parent_kind, child = d.kind(CONTAINER_KINDS), d.kind(CHILD_KINDS)
    parent = d.name(parent_kind, fam)
    text = f"Count the {child} in the {parent}. Return the count number as text."
    return text, (Count(child, parent, parent_kind),)


def _l1_list(d: _Draw, fam: str):
    parent_kind = d.kind((AGG, DOM, RACK, SWITCH))
    parent = d.name(parent_kind, fam)
    text = f"List all the child nodes of {parent}. Return a list of child node names."
    return text, (ListChildren(parent, parent_kind),)


def _l1_update(d: _Draw, fam: str):
    port = d.name(PORT, fam)
    value = d.rng.randint(1, 100)
    text = f"Update the physical capacity value of {port} to {value}. Return a graph."
    return text, (Update(port, value),)


def _l1_rank(d: _Draw, fam: str):
    parent_kind = d.kind(CONTAINER_KINDS)
    parent = d.name(parent_kind, fam)
    text = (
        f"Rank all child nodes of {parent_kind} type {parent} based on physical_capacity_bps "
        "attribute. Return a list of tuple, each tuple has child node name and its total "
        "physical capacity."
    )
    return text, (Rank(parent),)


_LIST_TAIL = "List direct child nodes of {p} in the updated graph. Return a list of child nodes name."
_RANK_TAIL = (
    "Rank direct child nodes of {p} in the updated graph based on physical_capacity_bps "
    "attribute. Return a list of tuple, each tuple has node name and its total physical capacity."
)
_COUNT_TAIL = "Count the {t} in {p} in the updated graph. Return the count number as text."


def _add_count(d: _Draw, fam: str):
    child = d.kind(CHILD_KINDS)
    parent_kind = d.parent_for(child)
    new, parent = d.new_name(child), d.name(parent_kind, fam)
    text = f"Add {new} to {parent}. " + _COUNT_TAIL.format(t=child, p=parent)
    return text, (Add(new, child, parent), Count(child, parent, parent_kind))


def _add_list(d: _Draw, fam: str):
    # Here the parent is a container for BOTH kinds (a port under an agg
    # block is an invalid hierarchy: the safety test inside the task).
    child, parent_kind = d.kind(CHILD_KINDS), d.kind(CONTAINER_KINDS)
    new, parent = d.new_name(child), d.name(parent_kind, fam)
    text = f"Add {new} to {parent}. " + _LIST_TAIL.format(p=parent)
    return text, (Add(new, child, parent), ListChildren(parent, parent_kind))


def _add_rank(d: _Draw, fam: str):
    child, parent_kind = d.kind(CHILD_KINDS), d.kind(CONTAINER_KINDS)
    new, parent = d.new_name(child), d.name(parent_kind, fam)
    text = f"Add node with name '{new}' to {parent}. " + _RANK_TAIL.format(p=parent)
    return text, (Add(new, child, parent), Rank(parent))


def _removal(d: _Draw, fam: str) -> tuple[str, str, str, str]:
    child, parent_kind = d.kind(CHILD_KINDS), d.kind(CONTAINER_KINDS)
    name = d.name(child, fam)
    return child, parent_kind, name, _prefix(name)


def _remove_count(d: _Draw, fam: str):
    child, parent_kind, name, parent = _removal(d, fam)
    text = f"Remove {name} from the graph. " + _COUNT_TAIL.format(t=child, p=parent)
    return text, (Remove(name), Count(child, parent, parent_kind))


def _remove_list(d: _Draw, fam: str):
    _, parent_kind, name, parent = _removal(d, fam)
    text = f"Remove {name} from the graph. " + _LIST_TAIL.format(p=parent)
    return text, (Remove(name), ListChildren(parent, parent_kind))


def _remove_rank(d: _Draw, fam: str):
    _, _, name, parent = _removal(d, fam)
    text = f"Remove {name} from the graph. " + _RANK_TAIL.format(p=parent)
    return text, (Remove(name), Rank(parent))


def _for_each_add_count(d: _Draw, fam: str):
    parent_kind, child = d.kind(CONTAINER_KINDS), d.kind(CHILD_KINDS)
    parents = d.names.get(parent_kind) or []
    if not parents:
        raise TaskGenerationError(f"family {fam!r} needs {parent_kind} nodes; the topology has none")
    text = (
        f"For each {parent_kind}, add a new {child} to it. Count the total number of {child} "
        "in the updated graph. Return only the counts."
    )
    # New names do not change a count by kind; they only need to be distinct.
    adds = tuple(Add(f"new_{child}_{i}", child, p) for i, p in enumerate(parents, 1))
    return text, (*adds, Count(child))


# ---- netmend's own families (plain phrasing; their ground truth is reference.py's)

_WORD = {SWITCH: "switch", PORT: "port", AGG: "agg block", DOM: "control domain", RACK: "rack",
         SUPER: "superblock", SPINE: "spine block"}
_PLURAL = {SWITCH: "switches", PORT: "ports"}
_GBPS = 10**9


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _typed_children(d: _Draw, fam: str):
    parent_kind, child = d.rng.choice([(SWITCH, PORT), (AGG, SWITCH), (RACK, SWITCH), (DOM, SWITCH)])
    parent = d.name(parent_kind, fam)
    text = f"List the {_PLURAL[child]} of {_WORD[parent_kind]} {parent}."
    return text, (ListNodes(Nodes(parent, child, "children")),)


def _typed_descendants(d: _Draw, fam: str):
    parent_kind, child = d.rng.choice(
        [(AGG, PORT), (SUPER, SWITCH), (SUPER, PORT), (RACK, PORT), (DOM, PORT), (SPINE, PORT)])
    parent = d.name(parent_kind, fam)
    text = f"List all {_PLURAL[child]} under {_WORD[parent_kind]} {parent}."
    return text, (ListNodes(Nodes(parent, child, "descendants")),)


def _capacity(d: _Draw, fam: str):
    kind = d.kind((PORT, SWITCH))
    name = d.name(kind, fam)
    return f"What is the capacity of {_WORD[kind]} {name}?", (CapacityOf(name),)


def _scope(d: _Draw, fam: str) -> tuple[str, str]:
    """A switch or an agg block, and how a request names the ports below it."""
    kind = d.kind((SWITCH, AGG))
    name = d.name(kind, fam)
    return name, (f"of switch {name}" if kind == SWITCH else f"in agg block {name}")


def _aggregate(d: _Draw, fam: str):
    function, word = d.rng.choice(
        [("sum", "total"), ("average", "average"), ("min", "minimum"), ("max", "maximum")])
    name, where = _scope(d, fam)
    text = f"What is the {word} capacity of the ports {where}?"
    return text, (Aggregate(function, Nodes(name, PORT)),)


def _top_k(d: _Draw, fam: str):
    parent_kind = d.kind((AGG, SPINE, DOM))
    parent = d.name(parent_kind, fam)
    k = d.rng.randint(1, 4)
    metric, descending, words = d.rng.choice([
        (("count", PORT), True, "the most ports"), (("count", PORT), False, "the fewest ports"),
        ("capacity", True, "the highest total capacity"),
        ("capacity", False, "the lowest total capacity")])
    what = "switch" if k == 1 else f"{k} switches"
    text = f"List the {what} in {_WORD[parent_kind]} {parent} with {words}."
    return text, (TopK(Nodes(parent, SWITCH), metric, k, descending),)


_COMPARISONS = (("<", "below"), (">", "above"), (">=", "at least"), ("<=", "at most"))


def _filter(d: _Draw, fam: str):
    name, where = _scope(d, fam)
    op, words = d.rng.choice(_COMPARISONS)
    value = d.rng.choice((1, 2, 4, 10))
    text = f"List the ports {where} with capacity {words} {value} Gbps."
    return text, (ListNodes(Nodes(name, PORT, filters=(("capacity", op, value * _GBPS),))),)


def _ancestor(d: _Draw, fam: str):
    child = d.kind((PORT, SWITCH))
    container = d.kind((AGG, RACK, DOM, SUPER) + ((SWITCH,) if child == PORT else ()))
    name = d.name(child, fam)
    text = f"Which {_WORD[container]} contains {_WORD[child]} {name}?"
    return text, (ListNodes(Nodes(name, container, "ancestors")),)


def _multi_change(d: _Draw, fam: str):
    how_many = d.rng.randint(2, 4)
    change = d.rng.choice(("remove", "add", "update"))
    if change == "add":
        switch = d.name(SWITCH, fam)
        names = [f"new_port_{i}_{d.rng.randint(1, 100)}" for i in range(1, how_many + 1)]
        text = f"Add ports named {_listing(names)} to switch {switch}."
        return text, tuple(Add(new, PORT, switch) for new in names)
    kind = PORT if change == "update" else d.kind(CHILD_KINDS)
    names = list(dict.fromkeys(d.name(kind, fam) for _ in range(how_many)))
    if change == "remove":
        return f"Remove {_listing(names)} from the graph.", tuple(Remove(n) for n in names)
    value = d.rng.choice((10, 25, 40, 100))
    text = f"Set the capacity of {_listing(names)} to {value} Gbps."
    return text, tuple(Update(n, value * _GBPS) for n in names)


def _update_all(d: _Draw, fam: str):
    name, where = _scope(d, fam)
    value = d.rng.choice((10, 25, 40, 100))
    text = f"Set the capacity of every port {where} to {value} Gbps."
    return text, (SetCapacities(Nodes(name, PORT), value * _GBPS),)


@dataclass(frozen=True)
class Family:
    """A task family: its CLI name, level, NetArena label, generator and default status."""

    name: str
    level: int
    label: str
    generate: Callable[[_Draw, str], tuple[str, tuple[Step, ...]]]
    enabled: bool


def _family(level: int, op: str, generate, enabled: bool, label_op: str | None = None) -> Family:
    label = f"capacity planning, level-{level}, {label_op or op}"
    return Family(f"l{level}-{op}", level, label, generate, enabled)


# Order is the public generator's (level 1, then 2, then 3), then netmend's own families.
FAMILIES: tuple[Family, ...] = (
    _family(1, "add", _l1_add, True),
    _family(1, "rank", _l1_rank, True),
    _family(1, "remove", _l1_remove, True),
    _family(1, "list", _l1_list, True),
    _family(1, "count", _l1_count, False),
    _family(1, "update", _l1_update, False),
    _family(2, "remove-list", _remove_list, True),
    _family(2, "remove-rank", _remove_rank, True),
    _family(2, "remove-count", _remove_count, True),
    _family(2, "add-list", _add_list, False),
    _family(2, "add-rank", _add_rank, False),
    _family(2, "add-count", _add_count, False),
    _family(3, "add-list", _add_list, True),
    _family(3, "add-rank", _add_rank, True),
    _family(3, "add-count", _add_count, True),
    _family(3, "for-each-add-count", _for_each_add_count, False, "for-each add-count"),
    # netmend's own families, beyond NetArena's generator.
    _family(1, "typed-children", _typed_children, False),
    _family(1, "typed-descendants", _typed_descendants, False),
    _family(1, "capacity", _capacity, False),
    _family(1, "aggregate", _aggregate, False),
    _family(1, "top-k", _top_k, False),
    _family(1, "filter", _filter, False),
    _family(1, "ancestor", _ancestor, False),
    _family(1, "multi-change", _multi_change, False),
    _family(1, "update-all", _update_all, False),
)
FAMILY_BY_NAME: dict[str, Family] = {family.name: family for family in FAMILIES}


def select_families(spec: str = "enabled", levels: Iterable[int] | None = None) -> tuple[Family, ...]:
    """Families named by ``spec`` (``enabled``, ``all`` or a comma list of names), in table order.

    Raises
    ------
    TaskGenerationError
        For an unknown name or level, or when nothing is left.
    """
    words = [word.strip() for word in spec.split(",") if word.strip()]
    if not words:
        raise TaskGenerationError("no families given; expected 'enabled', 'all' or family names")
    chosen: set[str] = set()
    for word in words:
        if word == "all":
            chosen.update(FAMILY_BY_NAME)
        elif word == "enabled":
            chosen.update(f.name for f in FAMILIES if f.enabled)
        elif word in FAMILY_BY_NAME:
            chosen.add(word)
        else:
            known = ", ".join(["enabled", "all", *FAMILY_BY_NAME])
            raise TaskGenerationError(f"unknown family {word!r}; expected one of: {known}")
    wanted_levels = set(levels) if levels is not None else {1, 2, 3}
    if not wanted_levels <= {1, 2, 3}:
        raise TaskGenerationError(f"unknown level(s) {sorted(wanted_levels - {1, 2, 3})}; expected 1, 2 or 3")
    families = tuple(f for f in FAMILIES if f.name in chosen and f.level in wanted_levels)
    if not families:
        raise TaskGenerationError(f"no family of {spec!r} is at level(s) {sorted(wanted_levels)}")
    return families


def generate_tasks(
    graph: Any, families: Sequence[Family], per_type: int, seed: int
) -> tuple[MaltTask, ...]:
    """``per_type`` tasks of each family, drawn with ``random.Random(seed)``.

    ``graph`` is not modified. Text and list answers are computed here by the
    reference program on the topology.
    """
    if per_type < 1:
        raise TaskGenerationError(f"per-type must be at least 1, got {per_type}")
    draw = _Draw(random.Random(seed), topology.names_by_kind(graph))
    work = fast_copy(graph)  # reference runs mutate and restore this private copy
    tasks: list[MaltTask] = []
    for family in families:
        for _ in range(per_type):
            query, program = family.generate(draw, family.name)
            kind = answer_type(program)
            expected = None if kind == "graph" else reference_answer(program, work)
            tasks.append(
                MaltTask(len(tasks), family.name, family.label, query, program, kind, expected)
            )
    return tuple(tasks)


def reference_answer(program: tuple[Step, ...], graph: Any) -> Any:
    """The ``data`` of the ground truth of a text or list program on ``graph`` (restored)."""
    with applied(program, graph) as result:
        if result is not None:
            return result["data"]
    return apply_steps(program, fast_copy(graph))["data"]
