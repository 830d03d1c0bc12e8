"""Suggested repairs for failing intent assertions, from the repair planner.

Each failing assertion is planned on its own: its failing connections,
restated as probe cells, are the stated intent, and every other probe of the
cluster's universe keeps its current value. So a suggestion never breaks a
probe it was not asked to change, and suggestions of different assertions
can be read independently. Probe sources that are addresses (clients outside
the cluster) are planned as the planner's outside clients.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from netmend.k8s.check import AssertionResult, Suggestion
from netmend.k8s.errors import K8sError
from netmend.k8s.model import Cluster, NetworkPolicy
from netmend.k8s.probe import Matrix, Prober
from netmend.repair.cluster import policy_diff
from netmend.repair.emit import patch_argv, shell_line
from netmend.repair.errors import RepairError
from netmend.repair.intent import Intent, intent_from_stated, probe_universe, with_probes
from netmend.repair.planner import Plan, plan_repair

Cell = tuple[str, str, bool]


def stated_matrix(cells: Iterable[Cell]) -> Matrix:
    """Probe cells ``(source, target, wanted)`` as the planner's stated matrix."""
    rows: dict[str, dict[str, bool]] = {}
    for source, target, wanted in cells:
        rows.setdefault(source, {})[target] = wanted
    return Matrix.from_dict(rows)


def _is_address(source: str) -> bool:
    try:
        ipaddress.ip_address(source)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Repair:
    """A verified plan with the intent it reaches and the outside clients it probes."""

    plan: Plan
    intent: Intent
    externals: Mapping[str, str]
    dns: bool

    def reaches(self, cluster: Cluster, policies: Iterable[NetworkPolicy]) -> list[str]:
        """Probes of the intent that ``policies`` on ``cluster`` get wrong (empty: all right)."""
        got = Prober(cluster, self.intent.desired.probes(), dns=self.dns, externals=self.externals).run(policies)
        wrong = []
        for (source, cells), (_, now) in zip(self.intent.desired.rows, got.rows, strict=True):
            for (target, want), (_, have) in zip(cells, now, strict=True):
                if want != have:
                    wrong.append(f"{source} -> {target}: want {want}, have {have}")
        return wrong


def plan_cells(
    cluster: Cluster,
    objects: Mapping[str, dict],
    cells: Iterable[Cell],
    *,
    dns: bool = True,
    namespaces: Iterable[str] | None = None,
) -> Repair:
    """The planner's lightest verified plan setting ``cells``; every other probe keeps its value.

    Raises
    ------
    NoPlan, IntentError
        As :func:`~netmend.repair.planner.plan_repair` and the intent do.
    """
    cells = list(cells)
    externals = {s: s for s, _, _ in cells if _is_address(s)}
    universe = with_probes(probe_universe(cluster, externals=externals), [(s, t) for s, t, _ in cells])
    prober = Prober(cluster, universe, dns=dns, externals=externals)
    intent = intent_from_stated(prober.run(), stated_matrix(cells))
    plan = plan_repair(cluster, objects, intent, dns=dns, editable_namespaces=namespaces, prober=prober,
                       externals=externals or None)
    return Repair(plan, intent, externals, dns)


def suggest(
    cluster: Cluster,
    objects: Mapping[str, dict],
    result: AssertionResult,
    *,
    dns: bool = True,
    kubectl_args: tuple[str, ...] = (),
) -> Suggestion | None:
    """The planner's repair for one failing assertion (``None`` when it holds)."""
    if result.holds:
        return None
    if not result.probes:
        return Suggestion(reason=(
            "no Service port stands for the failing connections; the planner repairs "
            "connections to Services (name a Service in 'to', or put one in front of the pods)"
        ))
    try:
        plan = plan_cells(cluster, objects, result.probes, dns=dns).plan
    except (RepairError, K8sError, ValueError) as exc:
        return Suggestion(reason=str(exc))
    note = ""
    if result.unprobed:
        note = f"{result.unprobed} failing connection(s) have no Service port in front of them and stay as they are"
    return Suggestion(
        edits=tuple(e.describe() for e in plan.edits),
        diff="".join(policy_diff(p) for p in plan.patches),
        commands=tuple(shell_line(patch_argv(p, p.ops, kubectl_args)) for p in plan.patches),
        reason=note,
    )
