"""``netmend k8s explain SRC DST[:PORT]``: the decision chain of one connection, and how to flip it."""

from __future__ import annotations

import json

import click

from netmend.cli.k8s_common import (
    dns_option,
    load_inputs,
    manifests_option,
    policies_option,
    profile_option,
)
from netmend.k8s import K8sError, Matrix, Simulator, policy_to_dict, tier_findings
from netmend.k8s.explain import TargetExplanation, explain_target
from netmend.k8s.model import PROTOCOLS, Cluster


def flip_suggestion(cluster: Cluster, explanation: TargetExplanation, *, dns: bool) -> dict:
    """The smallest verified change that flips the connection, from the repair planner.

    Only connections a probe makes (a workload to a Service port over TCP)
    can be planned: every other probe of the cluster keeps its value.
    """
    from netmend.repair.admin import admin_flip
    from netmend.repair.cluster import policy_diff, propose
    from netmend.repair.emit import patch_argv, shell_line
    from netmend.repair.errors import RepairError
    from netmend.repair.observe import Observation

    want = not explanation.allowed
    if explanation.probe is None:
        return {
            "wanted": want,
            "found": False,
            "reason": "the repair planner changes connections a workload makes to a Service port over TCP; "
            "name the target as service[.namespace]:port",
        }
    source, target = explanation.probe
    admin = admin_flip(cluster, explanation, dns=dns)
    if admin is not None and admin["tier"] == "Admin":
        # The admin tier decides before NetworkPolicies are read: no NetworkPolicy edit can flip it.
        return {"wanted": want, "found": False, "blocked_by_admin": True,
                "reason": "no NetworkPolicy edit can change it", "admin": admin}
    objects = {p.key: policy_to_dict(p) for p in cluster.policies}
    try:
        proposal = propose(Observation(cluster, objects), Matrix.from_dict({source: {target: want}}), dns=dns)
    except (RepairError, K8sError, ValueError) as exc:
        out = {"wanted": want, "found": False, "reason": str(exc)}
        if admin is not None:
            out["admin"] = admin
        return out
    plan = proposal.plan
    return {
        "wanted": want,
        "found": True,
        "probe": f"{source} -> {target}",
        "edits": [e.describe() for e in plan.edits],
        "moves": [str(m) for m in plan.changes],
        "diff": "".join(policy_diff(p) for p in plan.patches),
        "commands": [shell_line(patch_argv(p, p.ops, ())) for p in plan.patches],
    }


def _flip_lines(flip: dict) -> list[str]:
    verb = "allow" if flip["wanted"] else "deny"
    if not flip["found"]:
        if flip.get("blocked_by_admin"):
            lines = [f"To {verb} it: {flip['reason']}"]
        else:
            lines = [f"To {verb} it: no NetworkPolicy change found: {flip['reason']}"]
        admin = flip.get("admin")
        if admin:
            lines.append(f"  {admin['reason']}")
            if admin.get("found"):
                lines.append(f"  Admin policy edit ({admin['policy']}), verified: no other probe moves:")
                lines.extend(f"    {line}" for line in admin["diff"].splitlines())
        return lines
    lines = [f"To {verb} it (verified: only {flip['probe']} changes):"]
    lines.extend(f"  - {e}" for e in flip["edits"])
    lines.extend(f"  {line}" for line in flip["diff"].splitlines())
    lines.extend(f"  $ {c}" for c in flip["commands"])
    return lines


@click.command("explain")
@click.argument("source")
@click.argument("target")
@manifests_option()
@policies_option()
@dns_option("require: a Service named by name needs the source to reach kube-dns on UDP 53; ignore: skip that step.")
@click.option("--protocol", type=click.Choice(PROTOCOLS), default="TCP", show_default=True, help="Protocol of the connection.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--verbose", is_flag=True, help="Also name every policy that does not select the pods, and why.")
@click.option("--no-repair", "no_repair", is_flag=True, help="Skip the search for the change that would flip it.")
@profile_option()
def explain(source, target, manifests, policies, dns, protocol, fmt, verbose, no_repair, profile) -> None:
    """Why SOURCE can or cannot reach TARGET: every tier of both directions, and the change that flips it.

    SOURCE is [namespace/]pod-or-workload or an IP address. TARGET is
    service[.namespace][:PORT] (through the Service, to its endpoints),
    namespace/pod-or-workload[:PORT] (straight to the pod) or ADDRESS[:PORT].
    """
    from netmend.k8s.profiles import describe_profile, parse_profile

    require_dns = dns == "require"
    try:
        semantics = parse_profile(profile)
        cluster = load_inputs(manifests, policies, kube_dns=require_dns)

        def chain(chosen):
            sim = Simulator(cluster, chosen)
            endpoints = None
            if require_dns:
                from netmend.repair.resolve import dns_endpoints as find_dns

                endpoints = find_dns(sim)
            return explain_target(sim.snapshot(), source, target, protocol=protocol, dns_endpoints=endpoints)

        explanation = chain(semantics)
        involved = {
            key for c in explanation.connections for side in (c.egress, c.ingress) if side is not None
            for step in side.steps for key in step.selecting
        }
        findings = [f for f in tier_findings(Simulator(cluster, semantics)) if involved & set(f.policies)]
        upstream = chain(Simulator(cluster).semantics) if profile else explanation
    except K8sError as exc:
        raise click.ClickException(str(exc)) from None
    profile_report = _profile_report(describe_profile(semantics), explanation, upstream) if profile else None
    flip = None if no_repair else flip_suggestion(cluster, upstream, dns=require_dns)
    if flip is not None and profile_report is not None:
        flip["note"] = "planned and verified under the upstream reading"
    if fmt == "json":
        report = explanation.to_dict()
        report["profile"] = profile_report
        report["findings"] = [{"kind": f.kind, "policies": list(f.policies), "message": f.message} for f in findings]
        report["flip"] = flip
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    lines = explanation.lines(verbose)
    lines.extend(f"finding: {f}" for f in findings)
    if profile_report is not None:
        lines.append(f"Profile {profile_report['settings']}: " + (
            "the same verdict as the upstream reading" if not profile_report["differs"] else
            f"DIFFERS from the upstream reading ({'ALLOWED' if profile_report['upstream_allowed'] else 'DENIED'} there)"
        ))
        lines.extend(f"  {d}" for d in profile_report["connections"])
    if flip is not None:
        lines += _flip_lines(flip)
        if "note" in flip:
            lines.append(f"  ({flip['note']})")
    click.echo("\n".join(lines))


def _profile_report(settings: str, varied: TargetExplanation, upstream: TargetExplanation) -> dict:
    """Where the profile's chains differ from the upstream reading's."""
    changed = []
    base = {(c.destination, c.port): c.allowed for c in upstream.connections}
    for c in varied.connections:
        before = base.pop((c.destination, c.port), None)
        if before is not None and before != c.allowed:
            changed.append(f"{c.source} -> {c.destination} {c.protocol}/{c.port}: upstream {before}, profile {c.allowed}")
    changed.extend(f"{dst} port {port}: a landing only under the upstream reading" for dst, port in base)
    if varied.dns_ok != upstream.dns_ok:
        changed.append(f"DNS: upstream {upstream.dns_ok}, profile {varied.dns_ok}")
    return {
        "settings": settings,
        "allowed": varied.allowed,
        "upstream_allowed": upstream.allowed,
        "differs": varied.allowed != upstream.allowed or bool(changed),
        "connections": changed,
    }
