"""Suggested repairs for failing intent assertions, from the repair planner.

Each failing assertion is planned on its own: its failing connections,
restated as probe cells, are the stated intent, and every other probe of the
cluster's universe keeps its current value. So a suggestion never breaks a
probe it was not asked to change, and suggestions of different assertions
can be read independently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from netmend.k8s.check import AssertionResult, Suggestion
from netmend.k8s.errors import K8sError
from netmend.k8s.model import Cluster
from netmend.k8s.probe import Matrix
from netmend.repair.cluster import policy_diff, propose
from netmend.repair.emit import patch_argv, shell_line
from netmend.repair.errors import RepairError
from netmend.repair.observe import Observation


def stated_matrix(cells: Iterable[tuple[str, str, bool]]) -> Matrix:
    """Probe cells ``(source, target, wanted)`` as the planner's stated matrix."""
    rows: dict[str, dict[str, bool]] = {}
    for source, target, wanted in cells:
        rows.setdefault(source, {})[target] = wanted
    return Matrix.from_dict(rows)


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
        proposal = propose(Observation(cluster, dict(objects)), stated_matrix(result.probes), dns=dns,
                           kubectl_args=kubectl_args)
    except (RepairError, K8sError, ValueError) as exc:
        return Suggestion(reason=str(exc))
    plan = proposal.plan
    note = ""
    if result.unprobed:
        note = f"{result.unprobed} failing connection(s) have no Service port in front of them and stay as they are"
    return Suggestion(
        edits=tuple(e.describe() for e in plan.edits),
        diff="".join(policy_diff(p) for p in plan.patches),
        commands=tuple(shell_line(patch_argv(p, p.ops, kubectl_args)) for p in plan.patches),
        reason=note,
    )
