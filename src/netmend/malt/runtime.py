"""The one implementation of MALT plan semantics, runnable anywhere.

:func:`run_plan` executes a plan (a tuple of literal step tuples, see
:mod:`netmend.malt.ir`) over a networkx graph and returns the evaluator's
result shape plus notes:

``{'type': 'graph'|'text'|'list', 'data': ..., 'updated_graph': <graph>, 'notes': [...]}``

* ``data`` is exactly what the request asks for, computed with the reference
  semantics, quirks included (integer ids for new nodes, the port a new
  switch gets, per-edge BFS counting, stable descending rank). For a graph
  answer it is the graph object itself.
* ``updated_graph`` is the graph that is safe to commit: the same object when
  the request is safe; otherwise a view or copy without the unsafe part (an
  addition under a parent of the wrong kind, nodes a removal would orphan or
  leave portless, a zero capacity).
* ``notes`` are short tuples (a code, then node ids or names) saying how the
  commit differs from the request; :mod:`netmend.malt.planner` puts them in words.

The body of :func:`run_plan` is a set of *pieces*: constant and state
assignments and nested functions, each needed by some steps. Its last
statement runs the plan by way of :func:`program`, the straight-line list of
piece calls a plan stands for. The code generator emits the same thing
without that last statement: only the pieces the plan's calls reach, then
the calls themselves, written as literals. In process and in the evaluator
the very same piece code runs, in the same order, with the same arguments.

So the pieces must stay self-contained: no module-level names, no imports,
only builtins and each other. The code generator checks this (see
:mod:`netmend.malt.codegen`).
"""

from __future__ import annotations

from typing import Any

# plan operation -> (piece that performs it, answer type for reads or None for changes)
OPERATIONS: dict[str, tuple[str, str | None]] = {
    "add": ("add", None),
    "remove": ("remove", None),
    "update": ("update", None),
    "for_each_add": ("for_each_add", None),
    "remove_all": ("remove_all", None),
    "update_all": ("update_all", None),
    "count": ("count", "text"),
    "list": ("children", "list"),
    "rank": ("rank", "list"),
    "nodes": ("list_nodes", "list"),
    "capacity": ("read_capacity", "text"),
    "aggregate": ("aggregate", "text"),
    "top": ("top", "list"),
}
# Safe-commit passes run as statements, in this order, when the plan has one of the changes.
COMMIT_PASSES: tuple[tuple[str, frozenset[str]], ...] = (
    ("check_additions", frozenset({"add", "for_each_add"})),
    ("cascade", frozenset({"add", "for_each_add", "remove", "remove_all"})),
)
PRUNING = frozenset({"add", "for_each_add", "remove", "remove_all"})
RESTORING = frozenset({"update", "update_all"})


class Ref(str):
    """A program variable used as an argument (a node set chosen earlier), not a literal."""

    __slots__ = ()


# Plan operations whose first argument is a node set: (root, kind, axis, filters).
SET_OPERATIONS = frozenset({"remove_all", "update_all", "nodes", "aggregate", "top"})
SET_ARGUMENT = {"remove_all": 0, "update_all": 0, "nodes": 0, "aggregate": 1, "top": 0}


class Program:
    """The straight-line piece calls one plan stands for.

    ``changes`` are ``(target, piece, args)`` calls run first, in order: a
    ``target`` names the program variable the call's value goes to (a node
    set, written ``m1``, ``m2``, ...) and an argument may be such a variable
    (a :class:`Ref`). ``read`` is the call whose value is the answer (None for
    a graph answer); ``commit`` the safe-commit passes. The committed graph
    is ``graph``, or ``pruned()`` when something may have to be dropped,
    passed through ``restored(...)`` when a capacity may have to be kept;
    ``finish`` returns the result with ``answer_type``.
    """

    __slots__ = ("changes", "read", "commit", "pruned", "restored", "answer_type")

    def __init__(self, changes, read, commit, pruned, restored, answer_type):
        self.changes: tuple[tuple[str | None, str, tuple], ...] = changes
        self.read: tuple[str, tuple] | None = read
        self.commit: tuple[str, ...] = commit
        self.pruned: bool = pruned
        self.restored: bool = restored
        self.answer_type: str = answer_type

    def pieces(self) -> frozenset[str]:
        """The pieces the calls name directly."""
        called = {piece for _, piece, _ in self.changes} | set(self.commit) | {"finish"}
        if self.read is not None:
            called.add(self.read[0])
        if self.pruned:
            called.add("pruned")
        if self.restored:
            called.add("restored")
        return frozenset(called)


def program(steps: tuple[tuple, ...]) -> Program:
    """The calls that execute ``steps``.

    >>> p = program((('remove', 'a.b'), ('nodes', ('a', 'EK_PORT', 'children', ()))))
    >>> p.changes, p.read, p.commit, p.pruned, p.restored, p.answer_type
    (((None, 'remove', ('a.b',)), ('m1', 'select', ('a', 'EK_PORT', 'children'))), ('list_nodes', ('m1',)), ('cascade',), True, False, 'list')
    """
    # A for-each loop runs over the nodes of the topology as it was given, before any
    # step of the request changed it (the reference fixes its list the same way).
    loops = [step[1] for step in steps if step[0] == "for_each_add"]
    changes: list[tuple[str | None, str, tuple]] = (
        [(None, "remember", (kind,)) for kind in dict.fromkeys(loops)] if loops else [])
    variables = 0  # calls so far whose value goes to a variable (m1, m2, ...)
    read = None
    answer_type = "graph"
    for step in steps:
        operation = step[0]
        if operation not in OPERATIONS:
            raise ValueError(f"unknown plan step {operation!r}")
        piece, answers = OPERATIONS[operation]
        args = tuple(step[1:])
        if operation == "count" and args[1] is None:
            piece, args = "count_all", args[:1]
        if operation in SET_OPERATIONS:
            # The set is chosen (and filtered) first, into a variable the call then uses.
            at = SET_ARGUMENT[operation]
            root, kind, axis, rules = args[at]
            variables += 1
            variable = Ref(f"m{variables}")
            changes.append((variable, "select_named" if axis == "named" else "select",
                            (root, kind, axis)))
            if rules:
                variables += 1
                changes.append((variable, "where", (variable, rules)))
            args = args[:at] + (variable,) + args[at + 1:]
        if answers is None:
            if read is not None:
                raise ValueError("a change after the read")
            changes.append((None, piece, args))
        else:
            if read is not None:
                raise ValueError("a plan has at most one read")
            read, answer_type = (piece, args), answers
    ops = {step[0] for step in steps}
    commit = tuple([name for name, needed_by in COMMIT_PASSES if ops & needed_by])
    return Program(tuple(changes), read, commit, bool(ops & PRUNING), bool(ops & RESTORING),
                   answer_type)


def run_program(pieces: dict[str, Any], graph: Any, steps: tuple[tuple, ...]) -> dict:
    """Run ``steps`` by calling ``pieces`` exactly as the emitted code calls them."""
    plan = program(steps)
    variables: dict[str, Any] = {}

    def value(arg: Any) -> Any:
        return variables[arg] if type(arg) is Ref else arg

    for target, name, args in plan.changes:
        result = pieces[name](*(value(a) for a in args))
        if target is not None:
            variables[target] = result
    data = graph if plan.read is None else pieces[plan.read[0]](*(value(a) for a in plan.read[1]))
    for name in plan.commit:
        pieces[name]()
    committed = pieces["pruned"]() if plan.pruned else graph
    if plan.restored:
        committed = pieces["restored"](committed)
    return pieces["finish"](plan.answer_type, data, committed)


def run_plan(graph, steps):
    """Execute ``steps`` over ``graph`` (mutated in place) and plan the safe commit."""
    contains = 'RK_CONTAINS'
    port_kind = 'EK_PORT'
    switch_kind = 'EK_PACKET_SWITCH'
    capacity = 'physical_capacity_bps'
    nodes = graph.nodes
    succ = graph.succ
    pred = graph.pred
    added = []
    touched = set()
    original = {}
    loop_parents = {}
    notes = []
    work = []
    drop = set()

    def has_kind(node, kind):
        # A type may be a list (membership) or a plain string (substring), as in the reference.
        value = nodes[node].get('type')
        return bool(value) and kind in value

    def find(name):
        # The reference semantics take the FIRST node, in graph order, whose name matches.
        for node, node_name in graph.nodes(data='name'):
            if node_name == name:
                return node
        return None

    def add(name, kind, parent_name):
        new_id = len(nodes) + 1
        attrs = {'name': name, 'type': kind}
        if port_kind in kind:
            attrs[capacity] = 1000
        if kind == switch_kind:
            port_id = len(nodes) + 2
            graph.add_node(new_id, name=name, type=kind)
            graph.add_node(port_id, name=str(attrs) + '.p1', type=port_kind,
                           physical_capacity_bps=1000)
            graph.add_edge(new_id, port_id, type=contains)
            added.append(port_id)
        graph.add_node(new_id, **attrs)
        added.append(new_id)
        parent = find(parent_name)
        if parent is not None:
            graph.add_edge(parent, new_id, type=contains)

    def remember(parent_kind):
        loop_parents[parent_kind] = [attrs['name'] for _, attrs in graph.nodes(data=True)
                                     if attrs['type'] and attrs['type'][0] == parent_kind]

    def for_each_add(parent_kind, kind):
        for number, parent_name in enumerate(loop_parents[parent_kind], 1):
            add('new_' + kind + '_' + str(number), kind, parent_name)

    def remove_node(node):
        touched.update(succ[node])
        touched.update(pred[node])
        touched.discard(node)
        graph.remove_node(node)

    def remove(name):
        node = find(name)
        if node is None:
            notes.append(('no-node', name))
        else:
            remove_node(node)

    def set_capacity(node, value):
        if not has_kind(node, port_kind):
            notes.append(('not-port', node))
            return
        attrs = nodes[node]
        if node not in original:
            original[node] = (capacity in attrs, attrs.get(capacity))
        attrs[capacity] = value

    def update(name, value):
        node = find(name)
        if node is None:
            notes.append(('no-node', name))
        else:
            set_capacity(node, value)

    def related(start, axis):
        # Breadth-first over RK_CONTAINS edges, down or up, one level or all; each node once.
        links = succ if axis in ('children', 'descendants') else pred
        found = []
        seen = {start}
        frontier = [start]
        while frontier:
            following = []
            for current in frontier:
                for other, edge in links[current].items():
                    if edge.get('type') == contains and other not in seen:
                        seen.add(other)
                        found.append(other)
                        following.append(other)
            frontier = following if axis in ('descendants', 'ancestors') else []
        return found

    def capacity_of(node):
        # A port's own capacity, plus that of every port below the node.
        members = [node] + related(node, 'descendants')
        return sum(sorted(nodes[n].get(capacity) or 0 for n in members if has_kind(n, port_kind)))

    def measure(node, metric):
        if metric[0] == 'capacity':
            return capacity_of(node)
        return sum(1 for n in related(node, 'descendants') if has_kind(n, metric[1]))

    def passes(node, rule):
        if rule[0] == 'name':
            name = nodes[node].get('name')
            if not isinstance(name, str):
                return False
            if rule[1] == 'prefix':
                return name.startswith(rule[2])
            if rule[1] == 'suffix':
                return name.endswith(rule[2])
            return rule[2] in name
        value = measure(node, rule[1])
        limit = rule[3]
        if rule[2] == '<':
            return value < limit
        if rule[2] == '<=':
            return value <= limit
        if rule[2] == '>':
            return value > limit
        if rule[2] == '>=':
            return value >= limit
        return value == limit

    def select_named(names, kind, axis):
        # The first node called each name, in the order given, each once.
        members = []
        for name in names:
            node = find(name)
            if node is not None and node not in members and (kind is None or has_kind(node, kind)):
                members.append(node)
        return members

    def select(root, kind, axis):
        if root is None:
            members = list(nodes)
        else:
            start = find(root)
            members = [] if start is None else related(start, axis)
        if kind is not None:
            members = [n for n in members if has_kind(n, kind)]
        return members

    def where(members, rules):
        for rule in rules:
            members = [n for n in members if passes(n, rule)]
        return members

    def remove_all(members):
        for node in members:
            remove_node(node)

    def update_all(members, value):
        for node in members:
            set_capacity(node, value)

    def count_all(kind):
        return sum(1 for _, attrs in graph.nodes(data=True) if kind in attrs['type'])

    def count(kind, container):
        start = find(container)
        if start is None:
            return {container: 'not found'}
        total = 0
        queue = [start]
        visited = set()
        head = 0
        while head < len(queue):
            current = queue[head]
            head += 1
            if current in visited:
                continue
            visited.add(current)
            for child, edge in succ[current].items():
                if edge['type'] == contains:
                    if kind in nodes[child]['type']:
                        total += 1
                    queue.append(child)
        return total

    def children(parent_name):
        parent = find(parent_name)
        if parent is None:
            return []
        return [nodes[child]['name'] for child, edge in succ[parent].items()
                if edge['type'] == contains]

    def rank(parent_name, descending=True):
        parent = find(parent_name)
        if parent is None:
            return []
        ranked = []
        for child, edge in succ[parent].items():
            if edge['type'] == contains:
                # its own capacity if a port, then its port children's, added in edge order
                own = nodes[child].get(capacity, 0) if port_kind in nodes[child]['type'] else 0
                ranked.append((nodes[child]['name'], sum(
                    (nodes[g].get(capacity, 0) for g, e in succ[child].items()
                     if e['type'] == contains and port_kind in nodes[g]['type']), own)))
        ranked.sort(key=lambda pair: pair[1], reverse=descending)
        return ranked

    def list_nodes(members):
        return [nodes[n].get('name') for n in members]

    def read_capacity(name, total=True):
        # Without "total", only a port (its own) or a switch (its ports') has a capacity.
        node = find(name)
        if node is None or not (total or has_kind(node, port_kind) or has_kind(node, switch_kind)):
            return None
        return capacity_of(node)

    def aggregate(function, members):
        if function == 'count':
            return len(members)
        values = sorted(capacity_of(n) for n in members)
        if function == 'sum':
            return sum(values)
        if not values:
            return None
        if function == 'min':
            return values[0]
        if function == 'max':
            return values[-1]
        return sum(values) / len(values)

    def top(members, metric, limit, descending):
        # Ties keep the order the set was found in, either way (the sort is stable).
        scored = [(nodes[n].get('name'), measure(n, metric)) for n in members]
        scored.sort(key=lambda pair: pair[1], reverse=descending)
        return scored if limit is None else scored[:limit]

    # ---- the safe commit: drop what the request would leave unsafe, nothing else.

    def check_additions():
        # A new node's kind is an entity kind (the IR checks it), its edges are RK_CONTAINS
        # and a new port has capacity 1000; what can still be wrong is where it was put.
        # The MALT containment hierarchy: parent kind -> the kinds it may contain (EK_ omitted).
        hierarchy = {'JUPITER': 'SPINEBLOCK SUPERBLOCK', 'SPINEBLOCK': 'PACKET_SWITCH',
                     'SUPERBLOCK': 'AGG_BLOCK', 'AGG_BLOCK': 'PACKET_SWITCH',
                     'CHASSIS': 'CONTROL_POINT PACKET_SWITCH', 'CONTROL_POINT': 'PACKET_SWITCH',
                     'RACK': 'CHASSIS', 'PACKET_SWITCH': 'PORT',
                     'CONTROL_DOMAIN': 'CONTROL_POINT PACKET_SWITCH'}
        for node in added:
            if node not in nodes or node in drop:
                continue
            wrong = [parent for parent in pred[node] if not any(
                has_kind(parent, 'EK_' + k) and any(has_kind(node, 'EK_' + c) for c in v.split())
                for k, v in hierarchy.items())]
            if wrong:
                drop.add(node)
                notes.append(('dropped', node, 'hierarchy', wrong[0]))
                work.extend([*succ[node], *pred[node]])
            else:
                work.append(node)

    def cascade():
        work.extend(sorted(touched, key=str, reverse=True))
        while work:
            node = work.pop()
            if node in drop or node not in nodes:
                continue
            linked = [*succ[node], *pred[node]]
            if all(n in drop for n in linked):
                reason = 'isolated'
            elif has_kind(node, switch_kind) and not any(
                    has_kind(n, port_kind) for n in succ[node] if n not in drop):
                reason = 'portless'
            else:
                continue
            drop.add(node)
            notes.append(('dropped', node, reason))
            work.extend(linked)

    def pruned():
        return graph.subgraph([node for node in nodes if node not in drop]) if drop else graph

    def restored(committed):
        # A port updated to capacity zero keeps the capacity it had.
        lost = [(node, before) for node, before in original.items()
                if node in nodes and node not in drop and not nodes[node].get(capacity)]
        if lost:
            committed = committed.copy()
        for node, (had, value) in lost:
            notes.append(('kept-capacity', node))
            if had:
                committed.nodes[node][capacity] = value
            else:
                del committed.nodes[node][capacity]
        return committed

    def finish(answer_type, data, committed):
        return {'type': answer_type, 'data': data, 'updated_graph': committed, 'notes': notes}

    return run_program({
        'add': add, 'remember': remember, 'for_each_add': for_each_add, 'remove': remove,
        'update': update, 'select': select, 'select_named': select_named, 'where': where, 'remove_all': remove_all,
        'update_all': update_all, 'count': count, 'count_all': count_all,
        'children': children, 'rank': rank, 'list_nodes': list_nodes,
        'read_capacity': read_capacity, 'aggregate': aggregate, 'top': top,
        'check_additions': check_additions, 'cascade': cascade, 'pruned': pruned,
        'restored': restored, 'finish': finish,
    }, graph, steps)
