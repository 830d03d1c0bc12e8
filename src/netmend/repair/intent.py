"""Intent: the probe matrix a repair must produce.

An intent states some probes (a file, or the mismatch lines of live
feedback); every other probe of the universe keeps the value the model
computes now, so a plan that reaches the intent changes nothing it was not
asked to change. From feedback, every observed ``Actual`` value is checked
against the model first: a model that contradicts an observation is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from netmend.k8s.model import Cluster, LabelSelector
from netmend.k8s.probe import ARROW, Matrix, Mismatch
from netmend.k8s.semantics import Simulator
from netmend.repair.errors import IntentContradictionError, IntentError, ModelContradiction

# Namespaces whose pods are infrastructure, never probe sources or targets.
SYSTEM_NAMESPACES = ("kube-system",)
_ARROW_SPLIT = re.compile(rf"\s*(?:->|{ARROW})\s*")

Probe = tuple[str, str]


@dataclass(frozen=True)
class Intent:
    """The desired matrix over a probe universe and the probes it states."""

    desired: Matrix
    stated: frozenset[Probe]

    def changes(self, current: Matrix) -> tuple[Mismatch, ...]:
        """Probes whose current value differs from the desired one."""
        now = {(source, target): v for source, cells in current.rows for target, v in cells}
        out = []
        for source, cells in self.desired.rows:
            for target, want in cells:
                have = now[(source, target)]
                if have != want:
                    out.append(Mismatch(source, target, want, have))
        return tuple(out)


def probe_universe(
    cluster: Cluster,
    system_namespaces: Iterable[str] = SYSTEM_NAMESPACES,
    externals: Iterable[str] = (),
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every workload -> every service port, except a workload's own services;
    and every outside client (``externals``, by name) -> every port on which a
    NodePort or LoadBalancer Service takes outside connections.

    Sources in ``default`` are named by workload, others ``namespace/workload``;
    a target in the source's namespace is ``service:port``, else
    ``service.namespace:port`` (always so for outside clients). Sorted, so the
    universe is deterministic.
    """
    skip = set(system_namespaces)
    sim = Simulator(cluster)
    workloads: dict[tuple[str, str], int] = {}
    for i, pod in enumerate(sim.pods):
        if pod.namespace in skip:
            continue
        key = (pod.namespace, pod.workload)
        if key not in workloads or pod.name < sim.pods[workloads[key]].name:
            workloads[key] = i
    services = [s for s in cluster.services if s.namespace not in skip and s.selector is not None]
    selected = {
        s.key: sim.select_pods(LabelSelector(match_labels=s.selector), s.namespace) for s in services
    }
    rows = []
    for (namespace, workload), pod in sorted(workloads.items()):
        source = workload if namespace == "default" else f"{namespace}/{workload}"
        targets = []
        for svc in services:
            if pod in selected[svc.key]:
                continue
            name = svc.name if svc.namespace == namespace else f"{svc.name}.{svc.namespace}"
            targets.extend(f"{name}:{sp.port}" for sp in svc.ports if sp.protocol == "TCP")
        rows.append((source, tuple(sorted(set(targets)))))
    outside = []
    for svc in services:
        if not svc.is_external:
            continue
        for sp in svc.ports:
            if sp.protocol != "TCP":
                continue
            if svc.type == "LoadBalancer":
                outside.append(f"{svc.name}.{svc.namespace}:{sp.port}")
            if sp.node_port is not None:
                outside.append(f"{svc.name}.{svc.namespace}:{sp.node_port}")
    if outside:
        rows.extend((name, tuple(sorted(set(outside)))) for name in sorted(set(externals)))
    return tuple(rows)


def with_probes(
    universe: Iterable[tuple[str, Iterable[str]]], extra: Iterable[Probe]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``universe`` plus the probes ``extra`` (new sources appended, in order)."""
    rows: dict[str, list[str]] = {source: list(targets) for source, targets in universe}
    for source, target in extra:
        row = rows.setdefault(source, [])
        if target not in row:
            row.append(target)
    return tuple((source, tuple(targets)) for source, targets in rows.items())


def intent_from_feedback(current: Matrix, mismatches: Iterable[Mismatch]) -> Intent:
    """The current matrix with every reported mismatch set to its expected value.

    Raises
    ------
    IntentError
        When a mismatch names a probe outside ``current``.
    ModelContradiction
        When the model's value of a reported probe is not the observed ``Actual``.
    """
    mismatches = tuple(mismatches)
    contradictions = []
    wanted: dict[Probe, bool] = {}
    now = {(source, target): v for source, cells in current.rows for target, v in cells}
    for m in mismatches:
        modelled = now.get((m.source, m.target))
        if modelled is None:
            raise IntentError(f"reported probe {m.source} {ARROW} {m.target} is not in the probe set")
        if modelled != m.actual:
            contradictions.append((m.source, m.target, m.actual, modelled))
        wanted[(m.source, m.target)] = m.expected
    if contradictions:
        raise ModelContradiction(tuple(contradictions))
    return _override(current, wanted)


def intent_from_stated(current: Matrix, stated: Matrix) -> Intent:
    """``current`` with every cell of ``stated`` set to its stated value."""
    wanted = {(s, t): v for s, cells in stated.rows for t, v in cells}
    known = {(source, target) for source, cells in current.rows for target, _ in cells}
    for source, target in wanted:
        if (source, target) not in known:
            raise IntentError(f"intent probe {source} {ARROW} {target} is not in the probe set")
    return _override(current, wanted)


def _override(current: Matrix, wanted: Mapping[Probe, bool]) -> Intent:
    rows = tuple(
        (source, tuple((t, wanted.get((source, t), v)) for t, v in cells)) for source, cells in current.rows
    )
    return Intent(desired=Matrix(rows), stated=frozenset(wanted))


def parse_intent(data: Any, source: str = "intent") -> Matrix:
    """Read an intent document into the matrix of stated probes.

    Accepted shapes:

    - NetArena's expected map ``{source: {"service:port": true|false}}``;
    - ``{"allow": ["src -> service:port", ...], "deny": [...]}``;
    - a list of ``{"source": ..., "target": ..., "allowed": true|false}``.

    Examples
    --------
    >>> parse_intent({"allow": ["web -> db:5432"], "deny": ["web -> cache:6379"]}).to_dict()
    {'web': {'db:5432': True, 'cache:6379': False}}
    """
    cells: dict[str, dict[str, bool]] = {}
    stated_at: dict[tuple[str, str], str] = {}

    def put(src: Any, tgt: Any, value: Any, where: str) -> None:
        if not isinstance(src, str) or not isinstance(tgt, str) or not isinstance(value, bool):
            raise IntentError(f"{source}: {where}: expected source, target strings and a true/false value")
        row = cells.setdefault(src, {})
        if tgt in row and row[tgt] != value:
            first = stated_at[(src, tgt)]
            raise IntentContradictionError(
                f"{source}: {first} and {where} contradict: {src} {ARROW} {tgt} is stated both "
                f"{'allowed' if row[tgt] else 'denied'} and {'allowed' if value else 'denied'}",
                first,
                where,
            )
        row[tgt] = value
        stated_at.setdefault((src, tgt), where)

    if isinstance(data, Mapping) and set(data) <= {"allow", "deny"} and data:
        for key, value in (("allow", True), ("deny", False)):
            entries = data.get(key) or []
            if not isinstance(entries, list):
                raise IntentError(f"{source}: {key}: expected a list of 'source -> service:port'")
            for i, text in enumerate(entries):
                parts = _ARROW_SPLIT.split(text.strip()) if isinstance(text, str) else []
                if len(parts) != 2:
                    raise IntentError(f"{source}: {key}[{i}]: expected 'source -> service:port', got {text!r}")
                put(parts[0], parts[1], value, f"{key}[{i}]")
    elif isinstance(data, Mapping):
        for src, row in data.items():
            if not isinstance(row, Mapping):
                raise IntentError(f"{source}: {src}: expected a mapping of 'service:port' to true/false")
            for tgt, value in row.items():
                put(src, tgt, value, f"{src} {ARROW} {tgt}")
    elif isinstance(data, list):
        for i, item in enumerate(data):
            if not isinstance(item, Mapping):
                raise IntentError(f"{source}: [{i}]: expected a mapping with source, target, allowed")
            put(item.get("source"), item.get("target"), item.get("allowed"), f"[{i}]")
    else:
        raise IntentError(f"{source}: expected a mapping or a list, got {type(data).__name__}")
    if not cells:
        raise IntentError(f"{source}: the intent states no probe")
    try:
        return Matrix.from_dict(cells)
    except ValueError as exc:
        raise IntentError(f"{source}: {exc}") from None
