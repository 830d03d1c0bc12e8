"""``netmend k8s explain SRC DST[:PORT]``: the decision chain of one connection, and how to flip it."""

from __future__ import annotations

import json

import click

from netmend.cli.k8s_common import dns_option, load_inputs, manifests_option, policies_option
from netmend.k8s import K8sError, Matrix, Simulator, policy_to_dict
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
        return {"wanted": want, "found": False, "reason": "no NetworkPolicy edit can change it", "admin": admin}
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
def explain(source, target, manifests, policies, dns, protocol, fmt, verbose, no_repair) -> None:
    """Why SOURCE can or cannot reach TARGET: every tier of both directions, and the change that flips it.

    SOURCE is [namespace/]pod-or-workload or an IP address. TARGET is
    service[.namespace][:PORT] (through the Service, to its endpoints),
    namespace/pod-or-workload[:PORT] (straight to the pod) or ADDRESS[:PORT].
    """
    require_dns = dns == "require"
    try:
        cluster = load_inputs(manifests, policies, kube_dns=require_dns)
        sim = Simulator(cluster)
        dns_endpoints = None
        if require_dns:
            from netmend.repair.resolve import dns_endpoints as find_dns

            dns_endpoints = find_dns(sim)
        explanation = explain_target(sim.snapshot(), source, target, protocol=protocol, dns_endpoints=dns_endpoints)
    except K8sError as exc:
        raise click.ClickException(str(exc)) from None
    flip = None if no_repair else flip_suggestion(cluster, explanation, dns=require_dns)
    if fmt == "json":
        report = explanation.to_dict()
        report["flip"] = flip
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    lines = explanation.lines(verbose)
    if flip is not None:
        lines += _flip_lines(flip)
    click.echo("\n".join(lines))
