"""The four prompt envelopes a MALT request travels in.

NetArena never sends a bare request: it wraps it in instructions, optionally
with worked examples and a step-by-step cue. These envelopes say the same
things in our own words and keep the structure participants rely on: the
few-shot kinds put their ``Question: ...`` examples first, and the live
request is the LAST ``Question: ...`` line, inside the closing block that
begins ``Begin! Remember to ensure``.
"""

from __future__ import annotations

from enum import StrEnum


class PromptType(StrEnum):
    """A prompting strategy, named as NetArena names it."""

    ZEROSHOT_BASE = "zeroshot_base"
    FEWSHOT_BASE = "fewshot_base"
    ZEROSHOT_COT = "zeroshot_cot"
    FEWSHOT_COT = "fewshot_cot"


PROMPT_TYPES: tuple[str, ...] = tuple(kind.value for kind in PromptType)

_INSTRUCTIONS = """\
Act as a network engineer doing capacity planning on a data-center topology.

Write Python that answers the request below: one function
`process_graph(graph_data)` that takes the topology and returns one object.

About the topology:
- `graph_data` is a networkx DiGraph; every node has a 'name' attribute.
- Every node has a 'type' attribute: a list of kinds drawn from EK_JUPITER,
  EK_SUPERBLOCK, EK_SPINEBLOCK, EK_AGG_BLOCK, EK_PACKET_SWITCH, EK_PORT,
  EK_CHASSIS, EK_CONTROL_POINT, EK_RACK and EK_CONTROL_DOMAIN.
- Every edge has a 'type' attribute: RK_CONTAINS or RK_CONTROLS.
- Containment runs JUPITER > SUPERBLOCK > AGG_BLOCK > PACKET_SWITCH > PORT; a
  SPINEBLOCK, CONTROL_DOMAIN or CHASSIS may also contain packet switches.
- Ports carry 'physical_capacity_bps'; a node's capacity is the sum over the
  ports it contains. Port names look like ju1.a1.m1.s2c1.p3.

How to work:
- Follow edges for relationships and the 'name' attribute for names; do not
  rely on the shape of node ids.
- Never modify the input: copy it before changing anything.
- Return a dict with exactly three keys:
  'type': one of 'text', 'list', 'table' or 'graph';
  'data': a string for text, a list for list, a list of rows for table, the
          resulting graph for graph;
  'updated_graph': the resulting topology, e.g.
          nx.readwrite.json_graph.node_link_data(graph_copy).

How to reply:
- Start with "Answer:" and give only the function, in one Python code block.
- No example calls, no explanations, no import statements.
"""

_STEP_BY_STEP = "Work through the request step by step before you write the code."

_EXAMPLES_INTRO = "Some requests and answers to show the expected form:"

_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        "List all the child nodes of ju1.a2.dom. Return a list of child node names.",
        """def process_graph(graph_data):
    by_name = {attrs['name']: node for node, attrs in graph_data.nodes(data=True)}
    parent = by_name.get('ju1.a2.dom')
    children = []
    if parent is not None:
        for _, child, attrs in graph_data.out_edges(parent, data=True):
            if attrs['type'] == 'RK_CONTAINS':
                children.append(graph_data.nodes[child]['name'])
    graph_json = nx.readwrite.json_graph.node_link_data(graph_data)
    return {'type': 'list', 'data': children, 'updated_graph': graph_json}""",
    ),
    (
        "Update the physical capacity value of ju1.a3.m2.s2c4.p10 to 72. Return a graph.",
        """def process_graph(graph_data):
    graph_copy = copy.deepcopy(graph_data)
    for node, attrs in graph_copy.nodes(data=True):
        if attrs['name'] == 'ju1.a3.m2.s2c4.p10' and 'EK_PORT' in attrs['type']:
            attrs['physical_capacity_bps'] = 72
            break
    graph_json = nx.readwrite.json_graph.node_link_data(graph_copy)
    return {'type': 'graph', 'data': graph_copy, 'updated_graph': graph_json}""",
    ),
    (
        "Count the EK_PORT in the ju1.a1.m1.s2c1. Return the count number as text.",
        """def process_graph(graph_data):
    start = next(n for n, a in graph_data.nodes(data=True) if a['name'] == 'ju1.a1.m1.s2c1')
    count, frontier, seen = 0, [start], {start}
    while frontier:
        node = frontier.pop()
        for _, child, attrs in graph_data.out_edges(node, data=True):
            if attrs['type'] == 'RK_CONTAINS' and child not in seen:
                seen.add(child)
                frontier.append(child)
                count += 'EK_PORT' in graph_data.nodes[child]['type']
    graph_json = nx.readwrite.json_graph.node_link_data(graph_data)
    return {'type': 'text', 'data': str(count), 'updated_graph': graph_json}""",
    ),
)

_CLOSING = """\
Begin! Remember to ensure that your reply is valid Python in this form:

Question: {query}

Answer:
```python
${{code that answers the request}}
```
"""


def _example(question: str, answer: str) -> str:
    return f"Question: {question}\n\nAnswer:\n```python\n{answer}\n```\n"


def build_prompt(query: str, prompt_type: PromptType | str = PromptType.ZEROSHOT_BASE) -> str:
    """Wrap ``query`` in the envelope of ``prompt_type``.

    Raises
    ------
    ValueError
        When ``query`` spans lines (it must stay the last ``Question:`` line)
        or ``prompt_type`` is not one of the four kinds.

    Examples
    --------
    >>> text = build_prompt('Remove ju1.a1.m1.s2c1 from the graph. Return a graph.', 'fewshot_cot')
    >>> [line for line in text.splitlines() if line.startswith('Question: ')][-1]
    'Question: Remove ju1.a1.m1.s2c1 from the graph. Return a graph.'
    >>> text.count('Question: ')
    4
    """
    kind = PromptType(prompt_type)
    if "\n" in query or "\r" in query:
        raise ValueError("a request must be one line; it is placed on the prompt's last 'Question:' line")
    parts = [_INSTRUCTIONS]
    if kind in (PromptType.ZEROSHOT_COT, PromptType.FEWSHOT_COT):
        parts.append(_STEP_BY_STEP)
    if kind in (PromptType.FEWSHOT_BASE, PromptType.FEWSHOT_COT):
        parts.append(_EXAMPLES_INTRO)
        parts.extend(_example(question, answer) for question, answer in _EXAMPLES)
    parts.append(_CLOSING.format(query=query))
    return "\n".join(parts)
