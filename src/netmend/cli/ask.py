"""``netmend ask``: answer one request (or a stream of them) against a topology."""

from __future__ import annotations

import json
import sys

import click

from netmend.malt import codegen, english, ir, safety, topology
from netmend.malt.parser import QueryError, parse_request
from netmend.malt.planner import Plan, plan
from netmend.malt.suggest import Suggestion, for_refusal
from netmend.malt.validate import validate


@click.group()
def ask() -> None:
    """Answer requests in controlled English."""


def _jsonable(value):
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _data_json(p: Plan):
    if p.answer_type == "graph":
        graph = p.requested_graph
        # Each edge once, as a successor (``number_of_edges`` sums degrees, twice as slow).
        return {"nodes": graph.number_of_nodes(),
                "edges": graph.number_of_edges() if graph.is_multigraph()
                else sum(len(targets) for targets in graph.succ.values())}
    return _jsonable(p.data)


def answer(request: str, graph, *, with_code: bool = False,
           baseline: safety.Baseline | None = None) -> tuple[dict, Plan | None]:
    """One request -> a JSON-able record (an ``error`` record when refused) and its plan.

    ``baseline`` (the full safety check of ``graph``, built once for many requests) lets
    each plan be checked only where it changes the graph."""
    try:
        parsed = parse_request(request)
        validate(parsed, graph)
    except QueryError as exc:
        error = exc.to_dict()
        offered = for_refusal(request, exc)
        if offered is not None:  # an offer the user may send, never run here
            error["suggestion"] = offered.to_dict()
        return {"request": request, "error": error}, None
    p = plan(parsed.query, graph, baseline=baseline)
    record = {
        "request": request,
        "read_as": english.say(parsed.query),
        "family": p.query.family,
        "type": p.answer_type,
        "data": _data_json(p),
        "change": p.change.to_dict(),
        "notes": list(p.notes),
        "requested_safe": p.requested_verdict.ok,
        "committed_safe": p.committed_verdict.ok,
    }
    if with_code:
        try:
            record["code"] = codegen.emit(p.query, compact=False)
        except codegen.UnwritableValue as exc:
            error = QueryError(f"a value in this request cannot be written as code ({exc})",
                               expected=f"finite numbers of at most {codegen.MAX_INTEGER_DIGITS} "
                               "digits")
            return {"request": request, "error": error.to_dict()}, None
    return record, p


def _human(record: dict, p: Plan | None) -> str:
    if "error" in record:
        error = record["error"]
        lines = [f"refused ({error['code']}): {error['message']}"]
        if "suggestion" in error:
            offered = Suggestion(error["suggestion"]["request"],
                                 tuple(error["suggestion"]["left_out"]))
            lines += [f"did you mean  {offered.request}",
                      f"              leaving out {offered.left_out_said}: send it only if that "
                      "drops nothing you meant"]
        return "\n".join(lines)
    lines = [f"request   {record['request']}", f"read as   {record['read_as']}",
             f"family    {record['family']}"]
    read = p.query.steps[-1] if p is not None else None
    if record["type"] == "list" and record["data"] and isinstance(record["data"][0], list):
        width = max(len(str(name)) for name, _ in record["data"])
        counted = isinstance(read, ir.Top) and read.metric.name == "count"
        column = f"{read.metric.kind} count" if counted else "total capacity (bps)"
        lines.append("answer    name" + " " * (width - 4) + "  " + column)
        lines += [f"          {name!s:<{width}}  {value:,.0f}" for name, value in record["data"]]
    elif record["type"] == "list":
        noun = "child node(s)" if isinstance(read, ir.ListChildren) else "node(s)"
        lines.append(f"answer    {len(record['data'])} {noun}")
        lines += [f"          {name}" for name in record["data"]]
    elif record["type"] == "text":
        value = record["data"]
        capacity = isinstance(read, ir.CapacityOf) or (
            isinstance(read, ir.Aggregate) and read.function != "count")
        if value is None:
            shown = "none: no such node, or no nodes in the set"
        elif capacity and isinstance(value, int | float):
            shown = f"{value:,.0f} bps" if float(value).is_integer() else f"{value:,} bps"
        else:
            shown = str(value)
        lines.append(f"answer    {shown}")
    else:
        lines.append(f"answer    graph with {record['data']['nodes']} nodes, "
                     f"{record['data']['edges']} edges")
    change = record["change"]
    summary = (f"+{len(change['added_nodes'])} nodes, -{len(change['removed_nodes'])} nodes, "
               f"+{len(change['added_edges'])} edges, -{len(change['removed_edges'])} edges, "
               f"{len(change['changed_attributes'])} attribute change(s)")
    lines.append(f"commit    {summary}")
    for label in ("added_nodes", "removed_nodes"):
        for name in change[label][:10]:
            lines.append(f"          {'+' if label == 'added_nodes' else '-'} {name}")
    for item in change["changed_attributes"]:
        lines.append(f"          ~ {item['node']}.{item['attribute']}: {item['before']} -> "
                     f"{item['after']}")
    lines.append("safety    requested: " + ("safe" if record["requested_safe"] else "UNSAFE")
                 + "; committed: " + ("safe" if record["committed_safe"] else "UNSAFE"))
    if p is not None and not p.requested_verdict.ok:
        lines += ["          " + line for line in p.requested_verdict.summary(3).splitlines()[1:]]
    for note in record["notes"]:
        lines.append(f"note      {note}")
    if "code" in record:
        lines += ["", record["code"]]
    return "\n".join(lines)


@ask.command("malt")
@click.argument("query")
@click.option("--topology", "topology_path", type=click.Path(dir_okay=False),
              help="MALT textproto or node-link JSON file (default: the built-in synthetic topology).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per request.")
@click.option("--code", "with_code", is_flag=True,
              help="Also print the evaluator-ready process_graph source.")
@click.option("--write", "write_path", type=click.Path(dir_okay=False),
              help="Write the committed graph as node-link JSON (single request only).")
def malt(query: str, topology_path: str | None, as_json: bool, with_code: bool,
         write_path: str | None) -> None:
    """Answer QUERY over a MALT topology; QUERY of '-' reads one request per line from stdin."""
    try:
        graph = topology.load(topology_path) if topology_path else topology.default()
    except topology.TopologyError as exc:
        raise click.ClickException(str(exc)) from exc
    batch = query == "-"
    if batch and write_path:
        raise click.UsageError("--write takes a single request, not '-'")
    requests = [line.strip() for line in sys.stdin] if batch else [query]
    failed = 0
    baseline = safety.Baseline(graph)  # checked in full once; each request where it changes
    for request in requests:
        if not request:
            continue
        record, p = answer(request, graph, with_code=with_code, baseline=baseline)
        failed += "error" in record
        if as_json or batch:
            click.echo(json.dumps(record, sort_keys=True, default=str))
        else:
            click.echo(_human(record, p))
        if write_path and p is not None:
            topology.write_node_link(p.committed_graph, write_path)
    if failed:
        sys.exit(2 if not batch else 1)
