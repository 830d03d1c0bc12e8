"""Cluster mode, the pure part: plan against a live state, describe, audit, roll back.

The adapter (:mod:`netmend.repair.kubectl`) reads the state and runs the
commands; everything here is computed from data: the plan for an intent,
the unified diff of every touched policy, the argv of each patch, the audit
record and the rollback commands that put every touched policy's spec back
exactly as it was (each guarded by a ``test`` that the spec is still the
one this repair left, so a rollback never clobbers a later change).
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import yaml

from netmend.k8s.probe import Matrix, Prober
from netmend.repair.admin import admin_no_plan
from netmend.repair.emit import patch_argv, shell_line
from netmend.repair.errors import NoPlan
from netmend.repair.intent import Intent, intent_from_stated, probe_universe, with_probes
from netmend.repair.observe import Observation
from netmend.repair.planner import Plan, PolicyPatch, plan_repair

# Fields the API server owns; they never belong in a diff or a rollback.
SERVER_FIELDS = ("resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink")


@dataclass(frozen=True)
class RepairProposal:
    """A plan for a live cluster, with its intent and the kubectl flags to use."""

    plan: Plan
    intent: Intent
    kubectl_args: tuple[str, ...]


def intent_for(obs: Observation, stated: Matrix, dns: bool) -> Intent:
    """The intent over the cluster's probe universe plus the stated probes."""
    universe = with_probes(probe_universe(obs.cluster), [(s, t) for s, cells in stated.rows for t, _ in cells])
    current = Prober(obs.cluster, universe, dns=dns).run()
    return intent_from_stated(current, stated)


def propose(
    obs: Observation,
    stated: Matrix,
    *,
    dns: bool = True,
    namespaces: Iterable[str] | None = None,
    kubectl_args: Sequence[str] = (),
) -> RepairProposal:
    """Plan the repair of ``obs`` towards the ``stated`` probes.

    Raises
    ------
    NoPlan, IntentError
        As :func:`~netmend.repair.planner.plan_repair` and the intent do; NoPlan
        also when an admin-tier rule decides a stated probe (it names the rule).
    """
    blocked = admin_no_plan(obs.cluster, stated, dns=dns)
    if blocked:
        raise NoPlan(blocked)
    intent = intent_for(obs, stated, dns)
    plan = plan_repair(obs.cluster, obs.policies, intent, dns=dns, editable_namespaces=namespaces)
    return RepairProposal(plan, intent, tuple(kubectl_args))


def clean(obj: dict) -> dict:
    """An object without server-owned metadata and status."""
    out = copy.deepcopy(obj)
    out.pop("status", None)
    meta = out.get("metadata") or {}
    for name in SERVER_FIELDS:
        meta.pop(name, None)
    return out


def policy_diff(patch: PolicyPatch) -> str:
    """Unified YAML diff of one policy, before -> after."""
    before = yaml.safe_dump(clean(patch.before), sort_keys=True).splitlines(keepends=True)
    after = yaml.safe_dump(clean(patch.after), sort_keys=True).splitlines(keepends=True)
    name = f"networkpolicy/{patch.namespace}/{patch.name}"
    return "".join(difflib.unified_diff(before, after, f"{name} (now)", f"{name} (repaired)"))


def rollback_ops(patch: PolicyPatch, after_spec: dict | None = None) -> list[dict]:
    """Put the spec back exactly, if it is still the one the repair left.

    ``after_spec`` is the spec as re-read from the cluster (the server may
    have filled defaults in); the planned one is used without it.
    """
    return [
        {"op": "test", "path": "/spec", "value": copy.deepcopy(after_spec or patch.after["spec"])},
        {"op": "replace", "path": "/spec", "value": copy.deepcopy(patch.before["spec"])},
    ]


def rollback_script(proposal: RepairProposal, when: str, after: dict[str, dict] | None = None) -> str:
    """A shell script restoring every touched policy's spec (``after``: re-read objects)."""
    lines = [
        "#!/bin/sh",
        f"# netmend k8s repair rollback, written {when}",
        "# Restores the spec of every policy the repair changed, exactly as it was;",
        "# each patch first tests that the spec is still the repaired one.",
        "set -e",
    ]
    for patch in proposal.plan.patches:
        seen = (after or {}).get(f"{patch.namespace}/{patch.name}")
        ops = rollback_ops(patch, seen["spec"] if seen else None)
        lines.append(shell_line(patch_argv(patch, ops, proposal.kubectl_args)))
    return "\n".join(lines) + "\n"


def audit_record(
    proposal: RepairProposal,
    *,
    who: str,
    when: str,
    context: str | None,
    after: dict[str, dict],
    verified: bool,
    outcome: str,
) -> dict:
    """One JSONL audit line: who, when, what, before, after, and the verdict."""
    plan = proposal.plan
    return {
        "who": who,
        "when": when,
        "context": context,
        "what": {
            "edits": [e.describe() for e in plan.edits],
            "changes": [str(m) for m in plan.changes],
            "commands": [shell_line(patch_argv(p, p.ops, proposal.kubectl_args)) for p in plan.patches],
        },
        "before": {f"{p.namespace}/{p.name}": clean(p.before) for p in plan.patches},
        "after": {key: clean(obj) for key, obj in sorted(after.items())},
        "verified": verified,
        "outcome": outcome,
    }


def verify(obs: Observation, proposal: RepairProposal) -> tuple[bool, list[str]]:
    """Re-probe a re-read state: does it show exactly the intended matrix?"""
    desired = proposal.intent.desired
    got = Prober(obs.cluster, desired.probes(), dns=proposal.plan.dns).run()
    wrong = []
    for (source, cells), (_, now) in zip(desired.rows, got.rows, strict=True):
        for (target, want), (_, have) in zip(cells, now, strict=True):
            if want != have:
                wrong.append(f"{source} -> {target}: want {want}, have {have}")
    return not wrong, wrong


def dumps(record: dict) -> str:
    """One JSONL line, keys sorted."""
    return json.dumps(record, sort_keys=True)
