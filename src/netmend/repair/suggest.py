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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from netmend.k8s.admin import parse_admin_policy
from netmend.k8s.check import AssertionResult, Suggestion, check
from netmend.k8s.errors import K8sError
from netmend.k8s.explain import explain_target
from netmend.k8s.intent_code import Assertion
from netmend.k8s.manifest import parse_policy
from netmend.k8s.model import ADMIN_KINDS, Cluster, NetworkPolicy
from netmend.k8s.probe import Matrix, Prober
from netmend.k8s.semantics import Simulator
from netmend.repair.admin import admin_flip
from netmend.repair.cluster import policy_diff
from netmend.repair.emit import patch_argv, shell_line
from netmend.repair.errors import RepairError
from netmend.repair.intent import Intent, intent_from_stated, probe_universe, with_probes
from netmend.repair.planner import Plan, plan_repair
from netmend.repair.resolve import dns_endpoints

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
    holding: Sequence[Assertion] = (),
) -> Suggestion | None:
    """The planner's repair for one failing assertion (``None`` when it holds).

    ``holding``: assertions that hold now; those the repair would break are
    named in ``Suggestion.breaks``.
    """
    if result.holds:
        return None
    suggestion, after = _suggest(cluster, objects, result, dns=dns, kubectl_args=kubectl_args)
    if after is None or not holding:
        return suggestion
    broken = tuple(r.assertion.name for r in check(after, holding, dns=dns) if not r.holds)
    return replace(suggestion, breaks=broken)


def _suggest(
    cluster: Cluster, objects: Mapping[str, dict], result: AssertionResult, *, dns: bool, kubectl_args: tuple[str, ...]
) -> tuple[Suggestion, Cluster | None]:
    """The suggestion and the cluster it would leave (``None``: nothing to apply)."""
    if not result.probes:
        return Suggestion(reason=(
            "no Service port stands for the failing connections; the planner repairs "
            "connections to Services (name a Service in 'to', or put one in front of the pods)"
        )), None
    admin = _admin_decides(result)
    if admin:
        return _admin_suggestion(cluster, result, admin, dns=dns)
    try:
        plan = plan_cells(cluster, objects, result.probes, dns=dns).plan
    except (RepairError, K8sError, ValueError) as exc:
        return Suggestion(reason=str(exc)), None
    note = ""
    if result.unprobed:
        note = f"{result.unprobed} failing connection(s) have no Service port in front of them and stay as they are"
    after = {p.key: p for p in cluster.policies}
    for patch in plan.patches:
        after[f"{patch.namespace}/{patch.name}"] = parse_policy(patch.after)
    return Suggestion(
        edits=tuple(e.describe() for e in plan.edits),
        diff="".join(policy_diff(p) for p in plan.patches),
        commands=tuple(shell_line(patch_argv(p, p.ops, kubectl_args)) for p in plan.patches),
        reason=note,
    ), cluster.with_policies(tuple(after.values()))


def _admin_decides(result: AssertionResult) -> tuple[str, ...]:
    """Admin-tier policies among those deciding the failing connections."""
    return tuple(sorted({p for w in result.witnesses for p in w.policies if p.partition("/")[0] in ADMIN_KINDS}))


def _admin_suggestion(
    cluster: Cluster, result: AssertionResult, admin: tuple[str, ...], *, dns: bool
) -> tuple[Suggestion, Cluster | None]:
    """An admin or baseline rule decides: no NetworkPolicy edit can change the connection before it.

    For a single failing probe the planner of the admin tier proposes an
    exception rule in the deciding policy (verified: no other probe moves).
    """
    reason = (f"decided by {', '.join(admin)} in the admin tiers, before any NetworkPolicy is read: "
              "no NetworkPolicy edit can change it")
    if len(result.probes) != 1:
        return Suggestion(reason=f"{reason}; edit the admin policy (one failing probe at a time: netmend k8s explain)"), None
    source, target, _ = result.probes[0]
    try:
        sim = Simulator(cluster)
        explanation = explain_target(sim.snapshot(), source, target, dns_endpoints=dns_endpoints(sim) if dns else None)
        flip = admin_flip(cluster, explanation, dns=dns)
    except (K8sError, ValueError) as exc:
        return Suggestion(reason=f"{reason}; {exc}"), None
    if not flip or not flip.get("found"):
        return Suggestion(reason=f"{reason}; {flip['reason'] if flip else 'no admin edit found'}"), None
    rule = flip["rule"]
    edited = parse_admin_policy(flip["after"], flip["policy"])
    others = tuple(p for p in cluster.admin_policies if p.key != flip["policy"])
    return Suggestion(
        edits=(f"{flip['policy']}: add rule {rule['name']!r} ({rule['action']}) before the deciding one",),
        diff=flip["diff"],
        reason=reason + "; the exception rule below is verified to move no other probe",
    ), cluster.with_admin_policies((*others, edited))
