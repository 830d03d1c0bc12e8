"""Single-field edits that make one part of a policy match, or stop matching.

The planner knows which side of a connection is wrong and which rule or
peer is involved; this module proposes the one-field changes of the policy
text that would flip that part: a label value, key or expression operator
of a selector, an entry of ``values``, a port number or name, an
``endPort``, an ipBlock's ``cidr`` or ``except``, an AND peer split or two
OR peers joined. The proposals come from what the part must match (the
labels of the pod or namespace, the destination's container ports, the
networks the task text names), never from recognising a mutation, so any
single-field change has its inverse among them. Each edit's ``cost`` is the
size of its text change; the planner prefers the smallest and verifies
every proposal by simulation.

Pure: plain policy dicts (as read) in, :class:`SetValue` edits out.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from typing import Any

from netmend.k8s.model import SELECTOR_OPERATORS
from netmend.repair.edits import SetValue, set_value

Path = tuple


def _expr_matches(expr: Mapping, labels: Mapping[str, str]) -> bool:
    key, op, values = expr.get("key"), expr.get("operator"), expr.get("values") or []
    if op == "In":
        return key in labels and labels[key] in values
    if op == "NotIn":
        return key not in labels or labels[key] not in values
    if op == "Exists":
        return key in labels
    return key not in labels


def selector_matches(selector: Mapping | None, labels: Mapping[str, str]) -> bool:
    """Whether a selector dict (``{}`` or ``None``: everything) matches ``labels``."""
    selector = selector or {}
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    return all(_expr_matches(e, labels) for e in selector.get("matchExpressions") or [])


class Proposer:
    """Edits of one policy (``namespace``, ``name``); ``direction`` tags rule edits."""

    def __init__(self, namespace: str, name: str, direction: str):
        self.namespace, self.name, self.direction = namespace, name, direction

    def edit(self, path: Path, value: Any, cost: int, note: str) -> SetValue:
        return set_value(self.namespace, self.name, self.direction, path, value, cost, note)

    # -- selectors -------------------------------------------------------------

    def match(self, path: Path, selector: Mapping | None, labels: Mapping[str, str]) -> list[SetValue]:
        """Edits after which the selector at ``path`` matches ``labels``."""
        selector = selector or {}
        out: list[SetValue] = []
        match_labels = selector.get("matchLabels") or {}
        # dropping a selector's only clause would select everything: never the undoing of one edit
        clauses = len(match_labels) + len(selector.get("matchExpressions") or [])
        for key, value in sorted(match_labels.items()):
            if labels.get(key) == value:
                continue
            if key in labels:
                out.append(self.edit((*path, "matchLabels", key), labels[key], 1, f"label {key}={labels[key]}"))
            for other in sorted(k for k, v in labels.items() if v == value and k not in match_labels):
                renamed = {(other if k == key else k): v for k, v in match_labels.items()}
                out.append(self.edit((*path, "matchLabels"), renamed, 2, f"label key {other} instead of {key}"))
            if clauses > 1:
                out.append(self.edit((*path, "matchLabels", key), None, 2, f"drop label {key}"))
        for i, expr in enumerate(selector.get("matchExpressions") or []):
            if _expr_matches(expr, labels):
                continue
            out.extend(self._expr_to_match((*path, "matchExpressions", i), expr, labels))
        return out

    def _expr_to_match(self, path: Path, expr: Mapping, labels: Mapping[str, str]) -> list[SetValue]:
        key, op, values = expr.get("key"), expr.get("operator"), list(expr.get("values") or [])
        out = []
        for other in SELECTOR_OPERATORS:
            if other == op:
                continue
            flipped = {"key": key, "operator": other}
            if other in ("In", "NotIn"):
                if not values:
                    continue
                flipped["values"] = values
            if _expr_matches(flipped, labels):
                cost = 1 if bool(values) == (other in ("In", "NotIn")) else 2
                out.append(self.edit(path, flipped, cost, f"operator {other}"))
        if key in labels and op == "In":
            for j in range(len(values)):
                out.append(self.edit((*path, "values", j), labels[key], 1, f"value {labels[key]}"))
            out.append(self.edit((*path, "values", len(values)), labels[key], 2, f"add value {labels[key]}"))
        if key in labels and op == "NotIn" and len(values) > 1:
            j = values.index(labels[key])
            out.append(self.edit((*path, "values", j), None, 2, f"drop value {labels[key]}"))
        if op in ("In", "Exists"):  # a misspelt key (absent keys satisfy NotIn and DoesNotExist anyway)
            for other_key in sorted(k for k in labels if k != key):
                renamed = {**expr, "key": other_key}
                if _expr_matches(renamed, labels):
                    out.append(self.edit((*path, "key"), other_key, 1, f"key {other_key}"))
        return out

    def unmatch(
        self, path: Path, selector: Mapping | None, labels: Mapping[str, str], keep: Sequence[Mapping[str, str]]
    ) -> list[SetValue]:
        """Edits after which the selector at ``path`` stops matching ``labels``
        while (when possible) still matching every label set of ``keep``."""
        selector = selector or {}
        out: list[SetValue] = []
        for i, expr in enumerate(selector.get("matchExpressions") or []):
            ipath = (*path, "matchExpressions", i)
            key, op, values = expr.get("key"), expr.get("operator"), list(expr.get("values") or [])
            for other in SELECTOR_OPERATORS:
                if other == op or (other in ("In", "NotIn")) != bool(values):
                    continue
                flipped = {"key": key, "operator": other, **({"values": values} if values else {})}
                if not _expr_matches(flipped, labels):
                    out.append(self.edit(ipath, flipped, 1, f"operator {other}"))
            if op == "In" and labels.get(key) in values and len(values) > 1:
                out.append(self.edit((*ipath, "values", values.index(labels[key])), None, 2, f"drop value {labels[key]}"))
            if op == "NotIn" and key in labels:
                out.append(self.edit((*ipath, "values", len(values)), labels[key], 2, f"add value {labels[key]}"))
        match_labels = selector.get("matchLabels") or {}
        for key in sorted(match_labels):
            for value in sorted({k[key] for k in keep if key in k} - {match_labels[key], labels.get(key)}):
                out.append(self.edit((*path, "matchLabels", key), value, 1, f"label {key}={value}"))
        # a label the kept ones share and ``labels`` lacks (an entry that was dropped)
        shared = None
        for k in keep:
            items = set(k.items())
            shared = items if shared is None else shared & items
        for key, value in sorted(shared or ()):
            if labels.get(key) != value and key not in match_labels:
                if not selector:
                    where, new = path, {"matchLabels": {key: value}}
                elif "matchLabels" not in selector:
                    where, new = (*path, "matchLabels"), {key: value}
                else:
                    where, new = (*path, "matchLabels", key), value
                out.append(self.edit(where, new, 2, f"add label {key}={value}"))
        return out

    # -- ports -------------------------------------------------------------------

    def open_port(
        self,
        rule_path: Path,
        ports: Sequence[Mapping],
        protocol: str,
        port: int,
        names: Mapping[str, tuple[str, int]],
        ranges: Sequence[tuple[int, int]] = (),
    ) -> list[SetValue]:
        """Named-port and range edits after which an entry of ``ports`` admits ``protocol``/``port``.

        ``names`` are the destination's container port names; ``ranges`` the
        port ranges the task names (a range an entry starts may be restored
        whole). Numbers and protocols are the planner's own edits (SetPort,
        SetProtocol).
        """
        out: list[SetValue] = []
        for j, entry in enumerate(ports):
            value, end = entry.get("port"), entry.get("endPort")
            if (entry.get("protocol") or "TCP") != protocol or not isinstance(value, int):
                continue
            for lo, hi in ranges:
                if lo == value and lo <= port <= hi and end != hi and (end is None or port > end):
                    cost = 1 if end is not None else 2
                    out.append(self.edit((*rule_path, "ports", j, "endPort"), hi, cost, f"range {lo}-{hi}"))
        fitting = sorted(n for n, (proto, number) in names.items() if proto == protocol and number == port)
        for j, entry in enumerate(ports):
            if (entry.get("protocol") or "TCP") != protocol:
                continue
            epath = (*rule_path, "ports", j)
            value, end = entry.get("port"), entry.get("endPort")
            if isinstance(value, str):
                for name in fitting:
                    out.append(self.edit((*epath, "port"), name, 1, f"port name {name}"))
                out.append(self.edit((*epath, "port"), port, 1, f"port {port}"))
            elif isinstance(value, int):
                for name in fitting:
                    if end is None:
                        out.append(self.edit((*epath, "port"), name, 1, f"port name {name}"))
                if end is not None and port > end:
                    out.append(self.edit((*epath, "endPort"), port, 1, f"endPort {port}"))
                if end is not None and port < value:
                    out.append(self.edit((*epath, "port"), port, 1, f"port {port}"))
                if end is None and port > value:
                    out.append(self.edit((*epath, "endPort"), port, 2, f"range {value}-{port}"))
        return out

    def close_port(
        self, rule_path: Path, ports: Sequence[Mapping], protocol: str, port: int, ranges: Sequence[tuple[int, int]] = ()
    ) -> list[SetValue]:
        """Range edits after which no entry of ``ports`` admits ``protocol``/``port``;
        a rule admitting every port may be given one of ``ranges`` (the port
        ranges the task names) that leaves ``port`` out."""
        out: list[SetValue] = []
        if not ports:
            for lo, hi in ranges:
                if not lo <= port <= hi:
                    value = [{"protocol": protocol, "port": lo, "endPort": hi}]
                    out.append(self.edit((*rule_path, "ports"), value, 2, f"ports {lo}-{hi}"))
        for j, entry in enumerate(ports):
            value, end = entry.get("port"), entry.get("endPort")
            if (entry.get("protocol") or "TCP") != protocol or not isinstance(value, int) or end is None:
                continue
            epath = (*rule_path, "ports", j)
            if value <= port <= end:
                if port > value:
                    out.append(self.edit((*epath, "endPort"), port - 1, 1, f"endPort {port - 1}"))
                if port < end:
                    out.append(self.edit((*epath, "port"), port + 1, 1, f"port {port + 1}"))
        return out

    # -- ipBlocks ------------------------------------------------------------------

    def block(
        self, peer_path: Path, block: Mapping, ip, networks: Sequence[str], *, admit: bool
    ) -> list[SetValue]:
        """Edits of one ipBlock after which it admits ``ip`` (or no longer does).

        ``networks`` are the CIDRs and addresses the task text names.
        """
        out: list[SetValue] = []
        path = (*peer_path, "ipBlock")
        try:
            cidr = ipaddress.ip_network(block.get("cidr", ""), strict=False)
        except ValueError:
            return out
        excepts = list(block.get("except") or [])
        nets = [n for n in (_net(t) for t in networks) if n is not None and n.version == cidr.version]
        holes = [_net(e) for e in excepts]
        if admit:
            if ip not in cidr:
                for net in nets:
                    if ip in net and all(h is not None and h.subnet_of(net) and h != net for h in holes):
                        out.append(self.edit((*path, "cidr"), str(net), 1, f"cidr {net}"))
            for k, hole in enumerate(holes):
                if hole is None or ip not in hole:
                    continue
                out.append(self.edit((*path, "except", k), None, 2, f"drop except {excepts[k]}"))
                for net in nets:
                    if ip not in net and net.subnet_of(cidr) and net != cidr and str(net) not in excepts:
                        out.append(self.edit((*path, "except", k), str(net), 1, f"except {net}"))
            return out
        inside = [n for n in nets if ip in n and n.subnet_of(cidr) and n != cidr]
        for net in inside:
            if str(net) not in excepts:
                where = (*path, "except", len(excepts)) if excepts else (*path, "except")
                out.append(self.edit(where, str(net) if excepts else [str(net)], 2, f"add except {net}"))
                for k in range(len(excepts)):
                    out.append(self.edit((*path, "except", k), str(net), 1, f"except {net}"))
        for net in nets:
            if ip not in net and all(h is not None and h.subnet_of(net) and h != net for h in holes):
                out.append(self.edit((*path, "cidr"), str(net), 1, f"cidr {net}"))
        return out


def _net(text: str):
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None
