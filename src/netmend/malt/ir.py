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
    """Direct children of ``parent`` with their total port capacity, largest first (or smallest)."""

    parent: str
    descending: bool = True

    def literal(self) -> tuple:
        return ("rank", self.parent) if self.descending else ("rank", self.parent, False)


# ---------------------------------------------------------------- node sets

AXES: tuple[str, ...] = ("children", "descendants", "parents", "ancestors", "named")
COMPARISONS: tuple[str, ...] = ("<", "<=", ">", ">=", "==")
NAME_MATCHES: tuple[str, ...] = ("contains", "prefix", "suffix")


@dataclass(frozen=True)
class Metric:
    """A number per node: ``capacity`` (its own if a port, plus every port below it)
    or ``count`` (how many nodes of ``kind`` are below it)."""

    name: str = "capacity"
    kind: str | None = None

    def __post_init__(self) -> None:
        if self.name == "capacity" and self.kind is not None:
            raise ValueError("the capacity metric takes no kind")
        if self.name == "count" and self.kind not in K.ENTITY_KINDS:
            raise ValueError(f"a count metric needs an entity kind, got {self.kind!r}")
        if self.name not in ("capacity", "count"):
            raise ValueError(f"unknown metric {self.name!r}")

    def literal(self) -> tuple:
        return ("capacity",) if self.name == "capacity" else ("count", self.kind)


CAPACITY = Metric()


@dataclass(frozen=True)
class Where:
    """Keep nodes whose ``metric`` compares with ``value`` by ``op``."""

    metric: Metric
    op: str
    value: int | float

    def __post_init__(self) -> None:
        if self.op not in COMPARISONS:
            raise ValueError(f"unknown comparison {self.op!r}")

    def literal(self) -> tuple:
        return ("where", self.metric.literal(), self.op, self.value)


@dataclass(frozen=True)
class NameLike:
    """Keep nodes whose name contains, starts with (``prefix``) or ends with (``suffix``) ``text``."""

    mode: str
    text: str

    def __post_init__(self) -> None:
        if self.mode not in NAME_MATCHES:
            raise ValueError(f"unknown name match {self.mode!r}")

    def literal(self) -> tuple:
        return ("name", self.mode, self.text)


Filter = Where | NameLike


@dataclass(frozen=True)
class Select:
    """A set of nodes: those related to ``root`` along ``axis`` (every node of the graph
    when ``root`` is None), of ``kind`` when given, that pass every filter; in
    breadth-first order (graph order for the whole graph), each node once.

    ``children``/``parents`` follow one RK_CONTAINS edge down or up;
    ``descendants``/``ancestors`` follow them at any depth. ``named`` is the
    nodes called ``names``, in the order given (the first node of each name, as
    everywhere); its ``root`` is None.
    """

    root: str | None
    kind: str | None = None
    axis: str = "descendants"
    filters: tuple[Filter, ...] = ()
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.axis not in AXES:
            raise ValueError(f"unknown axis {self.axis!r}")
        if self.kind is not None and self.kind not in K.ENTITY_KINDS:
            raise ValueError(f"unknown entity kind {self.kind!r}")
        if (self.axis == "named") != bool(self.names) or (self.names and self.root is not None):
            raise ValueError("a set of named nodes has names and no root; no other set has names")

    @property
    def roots(self) -> tuple[str, ...]:
        """The names the set starts from: its root, or the nodes it names."""
        return self.names or (() if self.root is None else (self.root,))

    def literal(self) -> tuple:
        start = self.names if self.axis == "named" else self.root
        return (start, self.kind, self.axis, tuple(f.literal() for f in self.filters))


@dataclass(frozen=True)
class RemoveAll:
    """Remove every node of a set (chosen before any of them is removed)."""

    nodes: Select

    def literal(self) -> tuple:
        return ("remove_all", self.nodes.literal())


@dataclass(frozen=True)
class UpdateAll:
    """Set the capacity of every port in a set."""

    nodes: Select
    value: int | float

    def literal(self) -> tuple:
        return ("update_all", self.nodes.literal(), self.value)


@dataclass(frozen=True)
class ListNodes:
    """The names of the nodes of a set."""

    nodes: Select

    def literal(self) -> tuple:
        return ("nodes", self.nodes.literal())


@dataclass(frozen=True)
class CapacityOf:
    """The capacity of the node named ``name``: its own if a port, plus every port below it.

    Capacity is a port's attribute. A packet switch's capacity is its ports'
    total (what NetArena's rank calls a child's total physical capacity), so
    the plain question is defined for ports and switches only; of any other
    node only the ``total`` is (the request must say "total" or "sum"), and
    the plain question answers None.
    """

    name: str
    total: bool = False

    def literal(self) -> tuple:
        return ("capacity", self.name) if self.total else ("capacity", self.name, False)


AGGREGATES: tuple[str, ...] = ("sum", "min", "max", "average", "count")


@dataclass(frozen=True)
class Aggregate:
    """``sum``, ``min``, ``max`` or ``average`` of the capacity over a set, or its ``count``.

    Values are summed in ascending order, so the result does not depend on
    the order the set was found in; an empty set has sum 0 and no min, max
    or average (None).
    """

    function: str
    nodes: Select

    def __post_init__(self) -> None:
        if self.function not in AGGREGATES:
            raise ValueError(f"unknown aggregate {self.function!r}")

    def literal(self) -> tuple:
        return ("aggregate", self.function, self.nodes.literal())


@dataclass(frozen=True)
class Top:
    """The ``limit`` nodes of a set with the highest (or lowest) ``metric``, as
    ``(name, value)`` pairs; ties in the set's order; all of them when ``limit`` is None."""

    nodes: Select
    metric: Metric = CAPACITY
    limit: int | None = None
    descending: bool = True

    def __post_init__(self) -> None:
        if self.limit is not None and (isinstance(self.limit, bool) or self.limit < 1):
            raise ValueError("a top-k limit is a whole number of at least 1")

    def literal(self) -> tuple:
        return ("top", self.nodes.literal(), self.metric.literal(), self.limit, self.descending)


Mutation = Add | Remove | Update | ForEachAdd | RemoveAll | UpdateAll
Read = Count | ListChildren | Rank | ListNodes | CapacityOf | Aggregate | Top
Step = Mutation | Read

MUTATIONS = (Add, Remove, Update, ForEachAdd, RemoveAll, UpdateAll)
READS = (Count, ListChildren, Rank, ListNodes, CapacityOf, Aggregate, Top)

_ANSWER_TYPES = {Count: "text", ListChildren: "list", Rank: "list", ListNodes: "list",
                 CapacityOf: "text", Aggregate: "text", Top: "list"}
_OP_NAMES = {
    Add: "add",
    Remove: "remove",
    Update: "update",
    ForEachAdd: "for-each-add",
    RemoveAll: "remove-all",
    UpdateAll: "update-all",
    Count: "count",
    ListChildren: "list",
    Rank: "rank",
    ListNodes: "list-nodes",
    CapacityOf: "capacity",
    Aggregate: "aggregate",
    Top: "top",
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
                raise ValueError("a read (a count, list, rank or value) must be the last step")
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
        # Repeats of one change ("remove A, B and C") name the family once.
        ops = [op for i, op in enumerate(ops) if i == 0 or op != ops[i - 1]]
        if ops[0] == "for-each-add":
            return "for-loop " + "-".join(["add", *ops[1:]])
        return f"level-{min(len(self.steps), 3)} " + "-".join(ops)

    def to_plan(self) -> tuple[tuple, ...]:
        """The literal plan :func:`netmend.malt.runtime.run_plan` executes."""
        return tuple([step.literal() for step in self.steps])


# ---------------------------------------------------------------- conflicts between steps

def _said(step: Step) -> str:
    """A step as a request would say it, for refusals."""
    if isinstance(step, Add):
        return f"add {step.kind} {step.name!r} to {step.parent!r}"
    if isinstance(step, Remove):
        return f"remove {step.name!r}"
    if isinstance(step, Update):
        return f"set the capacity of {step.name!r} to {step.value}"
    if isinstance(step, ForEachAdd):
        return f"add a {step.kind} to every {step.parent_kind}"
    name = _OP_NAMES[type(step)]
    nodes = getattr(step, "nodes", None)
    if nodes is not None:
        return f"{name} over {nodes.kind or 'node'}s " + (
            f"of {', '.join(map(repr, nodes.roots))}" if nodes.roots else "in the graph")
    return f"{name} of {_names(step)[0]!r}" if _names(step) else name


def _names(step: Step) -> tuple[str, ...]:
    """The existing nodes a step refers to by name (not a node it adds)."""
    if isinstance(step, Add):
        return (step.parent,)
    if isinstance(step, (Remove, Update, CapacityOf)):
        return (step.name,)
    if isinstance(step, (ListChildren, Rank)):
        return (step.parent,)
    if isinstance(step, Count):
        return () if step.container is None else (step.container,)
    nodes = getattr(step, "nodes", None)
    return () if nodes is None else nodes.roots


def conflict(steps: tuple[Step, ...]) -> str | None:
    """Why two steps of one request contradict each other, or None.

    A step that refers to a node an earlier step removed, a second addition of a name
    already added, and a second capacity change of one port ask for something the
    request itself has made impossible or overridden: what was meant cannot be told. So
    does a change said twice ("We're adding a port to every agg block. Can you add a new
    port to each agg block?"): once, restated, or twice?
    """
    removed: dict[str, int] = {}
    added: dict[str, int] = {}
    updated: dict[str, int] = {}
    for at, step in enumerate(steps):
        if isinstance(step, MUTATIONS) and step in steps[:at]:
            first = steps.index(step)
            return (f"step {at + 1} ({_said(step)}) says step {first + 1} "
                    f"({_said(steps[first])}) again: whether it is done once or twice cannot "
                    "be told")
        for name in _names(step):
            if name in removed:
                first = steps[removed[name]]
                return (f"step {at + 1} ({_said(step)}) refers to {name!r}, which step "
                        f"{removed[name] + 1} ({_said(first)}) removes")
        if isinstance(step, Add):
            if step.name in added:
                return (f"step {at + 1} ({_said(step)}) adds {step.name!r}, which already "
                        f"exists after step {added[step.name] + 1} "
                        f"({_said(steps[added[step.name]])})")
            added[step.name] = at
            removed.pop(step.name, None)
        elif isinstance(step, Remove):
            removed[step.name] = at
            added.pop(step.name, None)
        elif isinstance(step, Update):
            if step.name in updated:
                return (f"step {at + 1} ({_said(step)}) changes {step.name!r} again after step "
                        f"{updated[step.name] + 1} ({_said(steps[updated[step.name]])})")
            updated[step.name] = at
    return None
