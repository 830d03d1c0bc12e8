"""The one intermediate representation of MALT requests.

A :class:`Query` is a sequence of steps: zero or more mutations, then at
most one read (a for-each addition stands alone with its count). Every step
is a frozen dataclass holding only names, kinds and numbers; ``to_plan``
turns a query into the literal tuples :func:`netmend.malt.runtime.run_plan`
executes (and the code generator embeds with ``repr``).
"""

from __future__ import annotations

from dataclasses import dataclass

from netmend.malt import kinds as K


@dataclass(frozen=True)
class Add:
    """Add a new node ``name`` of ``kind`` under the node named ``parent``."""

    name: str
    kind: str
    parent: str

    def literal(self) -> tuple:
        return ("add", self.name, self.kind, self.parent)


@dataclass(frozen=True)
class Remove:
    """Remove the node named ``name`` (the first one, in graph order)."""

    name: str

    def literal(self) -> tuple:
        return ("remove", self.name)


@dataclass(frozen=True)
class Update:
    """Set the capacity (``physical_capacity_bps``) of the port named ``name``."""

    name: str
    value: int | float

    def literal(self) -> tuple:
        return ("update", self.name, self.value)


@dataclass(frozen=True)
class ForEachAdd:
    """Add one new node of ``kind`` under every node whose first kind is ``parent_kind``."""

    parent_kind: str
    kind: str

    def literal(self) -> tuple:
        return ("for_each_add", self.parent_kind, self.kind)


@dataclass(frozen=True)
class Count:
    """Count nodes of ``kind`` below ``container`` (breadth-first over containment), or in the whole graph."""

    kind: str
    container: str | None = None

    def literal(self) -> tuple:
        return ("count", self.kind, self.container)


@dataclass(frozen=True)
class ListChildren:
    """Names of the nodes ``parent`` directly contains."""

    parent: str

    def literal(self) -> tuple:
        return ("list", self.parent)


@dataclass(frozen=True)
class Rank:
    """Direct children of ``parent`` with their total port capacity, largest first."""

    parent: str

    def literal(self) -> tuple:
        return ("rank", self.parent)


Mutation = Add | Remove | Update | ForEachAdd
Read = Count | ListChildren | Rank
Step = Mutation | Read

MUTATIONS = (Add, Remove, Update, ForEachAdd)
READS = (Count, ListChildren, Rank)

_ANSWER_TYPES = {Count: "text", ListChildren: "list", Rank: "list"}
_OP_NAMES = {
    Add: "add",
    Remove: "remove",
    Update: "update",
    ForEachAdd: "for-each-add",
    Count: "count",
    ListChildren: "list",
    Rank: "rank",
}


@dataclass(frozen=True)
class Query:
    """A whole request: its steps in execution order."""

    steps: tuple[Step, ...]

    def __post_init__(self) -> None:
        if not self.steps:
            raise ValueError("a query needs at least one step")
        for position, step in enumerate(self.steps):
            if isinstance(step, READS) and position != len(self.steps) - 1:
                raise ValueError("a read (count, list, rank) must be the last step")
            if isinstance(step, (Add, ForEachAdd)):
                for kind in (step.kind, getattr(step, "parent_kind", K.PORT)):
                    if kind not in K.ENTITY_KINDS:
                        raise ValueError(f"unknown entity kind {kind!r}")

    @property
    def answer_type(self) -> str:
        """``'graph'``, ``'text'`` or ``'list'``: what the request returns."""
        return _ANSWER_TYPES.get(type(self.steps[-1]), "graph")

    @property
    def family(self) -> str:
        """A label in NetArena's spirit: ``level-1 add``, ``level-2 remove-list``, ``for-loop add-count``."""
        ops = [_OP_NAMES[type(step)] for step in self.steps]
        if ops[0] == "for-each-add":
            return "for-loop " + "-".join(["add", *ops[1:]])
        return f"level-{min(len(ops), 3)} " + "-".join(ops)

    def to_plan(self) -> tuple[tuple, ...]:
        """The literal plan :func:`netmend.malt.runtime.run_plan` executes."""
        return tuple(step.literal() for step in self.steps)
