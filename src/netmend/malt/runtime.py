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

This function is shipped twice: imported in process, and inlined verbatim
as a nested function into the ``process_graph`` source the code generator
emits. So it must stay self-contained: no module-level names, no imports,
only builtins, nothing but its arguments touched. The code generator checks
this (see :mod:`netmend.malt.codegen`).
"""


def run_plan(graph, steps):
    """Execute ``steps`` over ``graph`` (mutated in place) and plan the safe commit."""
    contains = 'RK_CONTAINS'
    port_kind = 'EK_PORT'
    switch_kind = 'EK_PACKET_SWITCH'
    capacity = 'physical_capacity_bps'
    valid_kinds = ('EK_SUPERBLOCK', 'EK_CHASSIS', 'EK_RACK', 'EK_AGG_BLOCK', 'EK_JUPITER',
                   'EK_PORT', 'EK_SPINEBLOCK', 'EK_PACKET_SWITCH', 'EK_CONTROL_POINT',
                   'EK_CONTROL_DOMAIN')
    valid_edges = ('RK_CONTAINS', 'RK_CONTROLS')
    hierarchy = {
        'EK_JUPITER': ('EK_SPINEBLOCK', 'EK_SUPERBLOCK'),
        'EK_SPINEBLOCK': ('EK_PACKET_SWITCH',),
        'EK_SUPERBLOCK': ('EK_AGG_BLOCK',),
        'EK_AGG_BLOCK': ('EK_PACKET_SWITCH',),
        'EK_CHASSIS': ('EK_CONTROL_POINT', 'EK_PACKET_SWITCH'),
        'EK_CONTROL_POINT': ('EK_PACKET_SWITCH',),
        'EK_RACK': ('EK_CHASSIS',),
        'EK_PACKET_SWITCH': ('EK_PORT',),
        'EK_CONTROL_DOMAIN': ('EK_CONTROL_POINT', 'EK_PACKET_SWITCH'),
    }
    nodes = graph.nodes
    succ = graph.succ
    pred = graph.pred
    index = {}
    added = []
    touched = set()
    original = {}
    notes = []

    def kinds(attrs):
        value = attrs.get('type')
        if not value:
            return []
        if isinstance(value, str):
            return [value]
        return list(value)

    def find(name):
        # The reference semantics take the FIRST node, in graph order, whose name matches.
        if not index:
            for node, node_name in graph.nodes(data='name'):
                if node_name not in index:
                    index[node_name] = node
            # Never empty once built, even for an empty graph; cleared after a change.
            index[None] = None
        return index.get(name)

    def add(name, kind, parent_name):
        new_id = len(nodes) + 1
        collided = new_id in nodes
        attrs = {'name': name, 'type': kind}
        if port_kind in kind:
            attrs[capacity] = 1000
        if kind == switch_kind:
            port_name = str({'name': name, 'type': kind}) + '.p1'
            port_id = len(nodes) + 2
            collided = collided or port_id in nodes
            graph.add_node(new_id, name=name, type=kind)
            graph.add_node(port_id, name=port_name, type=port_kind, physical_capacity_bps=1000)
            graph.add_edge(new_id, port_id, type=contains)
            added.append(port_id)
        graph.add_node(new_id, **attrs)
        added.append(new_id)
        parent = find(parent_name)
        if parent is not None:
            graph.add_edge(parent, new_id, type=contains)
        if collided:
            index.clear()
        elif index:
            index.setdefault(name, new_id)
            if kind == switch_kind:
                index.setdefault(port_name, port_id)

    def remove(name):
        node = find(name)
        if node is None:
            notes.append('nothing removed: no node is named ' + repr(name))
            return
        touched.update(succ[node])
        touched.update(pred[node])
        touched.discard(node)
        graph.remove_node(node)
        index.clear()

    def update(name, value):
        node = find(name)
        if node is None:
            notes.append('nothing updated: no node is named ' + repr(name))
            return
        attrs = nodes[node]
        if port_kind in attrs['type']:
            if node not in original:
                original[node] = (capacity in attrs, attrs.get(capacity))
            attrs[capacity] = value
        else:
            notes.append('nothing updated: ' + repr(name) + ' is not a port')

    def count(kind, container):
        if container is None:
            return sum(1 for _, attrs in graph.nodes(data=True) if kind in attrs['type'])
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

    def rank(parent_name):
        parent = find(parent_name)
        if parent is None:
            return []
        ranked = []
        for child, edge in succ[parent].items():
            if edge['type'] != contains:
                continue
            attrs = nodes[child]
            total = 0
            if port_kind in attrs['type']:
                total += attrs.get(capacity, 0)
            for grandchild, child_edge in succ[child].items():
                if child_edge['type'] == contains and port_kind in nodes[grandchild]['type']:
                    total += nodes[grandchild].get(capacity, 0)
            ranked.append((attrs['name'], total))
        ranked.sort(key=lambda pair: pair[1], reverse=True)
        return ranked

    def nodes_of_first_kind(parent_kind):
        names = []
        for _, attrs in graph.nodes(data=True):
            value = attrs['type']
            if value and value[0] == parent_kind:
                names.append(attrs['name'])
        return names

    # A for-each loop runs over the nodes of the topology as it was given, before any
    # step of the request changed it (the reference fixes its list the same way).
    loop_parents = {}
    for step in steps:
        if step[0] == 'for_each_add' and step[1] not in loop_parents:
            loop_parents[step[1]] = nodes_of_first_kind(step[1])

    def for_each_add(parent_kind, kind):
        for number, parent_name in enumerate(loop_parents[parent_kind], 1):
            add('new_' + kind + '_' + str(number), kind, parent_name)

    answer_type = 'graph'
    data = graph
    for step in steps:
        op = step[0]
        if op == 'add':
            add(step[1], step[2], step[3])
        elif op == 'remove':
            remove(step[1])
        elif op == 'update':
            update(step[1], step[2])
        elif op == 'for_each_add':
            for_each_add(step[1], step[2])
        elif op == 'count':
            answer_type, data = 'text', count(step[1], step[2])
        elif op == 'list':
            answer_type, data = 'list', children(step[1])
        elif op == 'rank':
            answer_type, data = 'list', rank(step[1])
        else:
            raise ValueError('unknown plan step ' + repr(op))

    # ---- the safe commit: drop what the request would leave unsafe, nothing else.
    drop = set()

    def describe(node):
        return repr(nodes[node].get('name', node))

    def contains_edge_ok(parent, child):
        child_kinds = kinds(nodes[child])
        return any(k in hierarchy and any(c in hierarchy[k] for c in child_kinds)
                   for k in kinds(nodes[parent]))

    def addition_problem(node):
        node_kinds = kinds(nodes[node])
        if not node_kinds or any(k not in valid_kinds for k in node_kinds):
            return 'its kind is not a MALT entity kind'
        for parent, edge in pred[node].items():
            value = edge.get('type', '')
            if not any(e in value for e in valid_edges):
                return 'the edge from ' + describe(parent) + ' has no valid kind'
            if contains in value and not contains_edge_ok(parent, node):
                return (describe(parent) + ' (' + '/'.join(kinds(nodes[parent])) +
                        ') cannot contain a ' + '/'.join(node_kinds))
        if port_kind in nodes[node]['type'] and not nodes[node].get(capacity):
            return 'a port needs a non-zero capacity'
        return None

    work = []
    for node in added:
        if node in nodes and node not in drop:
            problem = addition_problem(node)
            if problem is not None:
                drop.add(node)
                notes.append('not committed: new node ' + describe(node) + ', because ' + problem)
                work.extend(succ[node])
                work.extend(pred[node])
            else:
                work.append(node)
    work.extend(sorted(touched, key=str, reverse=True))
    while work:
        node = work.pop()
        if node in drop or node not in nodes:
            continue
        linked = [n for n in succ[node] if n not in drop] + [n for n in pred[node] if n not in drop]
        reason = None
        if not linked:
            reason = 'it would be left isolated'
        elif switch_kind in nodes[node]['type'] and not any(
                port_kind in nodes[n]['type'] for n in succ[node] if n not in drop):
            reason = 'a packet switch would be left without ports'
        if reason is not None:
            drop.add(node)
            if node not in added:
                notes.append('also removed ' + describe(node) + ', because ' + reason)
            else:
                notes.append('not committed: new node ' + describe(node) + ', because ' + reason)
            work.extend(succ[node])
            work.extend(pred[node])

    reverts = {}
    for node, (had, value) in original.items():
        if node in nodes and node not in drop and not nodes[node].get(capacity):
            reverts[node] = (had, value)
            notes.append('kept the capacity of ' + describe(node) +
                         ': a port needs a non-zero capacity')

    committed = graph
    if drop:
        committed = graph.subgraph([node for node in nodes if node not in drop])
    if reverts:
        committed = committed.copy()
        for node, (had, value) in reverts.items():
            if had:
                committed.nodes[node][capacity] = value
            else:
                del committed.nodes[node][capacity]
    return {'type': answer_type, 'data': data, 'updated_graph': committed, 'notes': notes}
