"""Pieces shared by ``netmend k8s probe`` and ``netmend lab probe``: probe sets, expected
matrices and the options that choose them."""

from __future__ import annotations

from pathlib import Path

import click
import yaml

from netmend.k8s import Matrix, demo_policies, demo_workloads, load_cluster, read_all_policies
from netmend.k8s.model import Cluster


def load_inputs(manifests, policies, *, kube_dns: bool) -> Cluster:
    """The cluster ``--manifests``/``--policies`` describe (the demo's workloads without
    ``--manifests``, and its policies without ``--policies``). Raises ``K8sError``."""
    if manifests:
        return load_cluster(manifests, policies, kube_dns=kube_dns)
    chosen, admin = read_all_policies(policies) if policies else (demo_policies(), ())
    return demo_workloads().with_policies(tuple(chosen)).with_admin_policies(tuple(admin))


def manifests_option():
    return click.option(
        "--manifests",
        "manifests",
        multiple=True,
        type=click.Path(exists=True),
        help="Manifest file or directory (YAML or kubectl JSON); repeatable. Default: the built-in Online Boutique demo.",
    )


def policies_option():
    return click.option(
        "--policies",
        "policies",
        multiple=True,
        type=click.Path(exists=True),
        help=(
            "Policy file or directory (NetworkPolicy, ClusterNetworkPolicy, AdminNetworkPolicy, "
            "BaselineAdminNetworkPolicy); repeatable. Replaces the demo's policies; adds to --manifests'."
        ),
    )


def default_probes(cluster: Cluster) -> Matrix:
    """Every workload to every TCP service port of the other workloads (all expected blocked).

    Without an expected matrix there is nothing to compare; the cells are
    placeholders so the probe set has one shape.
    """
    sources = sorted({p.workload for p in cluster.pods if p.namespace != "kube-system"})
    rows = {}
    for source in sources:
        cells = {}
        for svc in cluster.services:
            if svc.namespace == "kube-system" or svc.name == source:
                continue
            for port in svc.ports:
                if port.protocol == "TCP":
                    name = svc.name if svc.namespace == "default" else f"{svc.name}.{svc.namespace}"
                    cells[f"{name}:{port.port}"] = False
        rows[source] = cells
    return Matrix.from_dict(rows)


def read_expected(path: str) -> Matrix:
    """An expected matrix file (YAML or JSON: source -> service:port -> bool)."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise click.ClickException(f"{path}: cannot read the expected matrix: {exc}") from None
    if not isinstance(data, dict):
        raise click.ClickException(
            f"{path}: expected a mapping source -> service:port -> true/false"
        )
    return Matrix.from_dict(data)


def expected_option(help_text: str):
    return click.option("--expected", "expected", type=click.Path(exists=True, dir_okay=False),
                        help=help_text)


def dns_option(help_text: str):
    return click.option("--dns", type=click.Choice(["require", "ignore"]), default="require",
                        show_default=True, help=help_text)


def format_option(help_text: str):
    return click.option("--format", "fmt", type=click.Choice(["netarena", "grid", "json"]),
                        default="netarena", show_default=True, help=help_text)


def profile_option():
    return click.option(
        "--profile",
        "profile",
        multiple=True,
        metavar="KNOB=VALUE|PRESET",
        help=(
            "Implementation profile (repeatable): ipblock=pods|external-only, "
            "named-ports=per-pod|union|unsupported, node-local=allow|filter, "
            "sctp=supported|no-service|unsupported, service-port=target|service, or a preset "
            "(upstream, cilium-like, kube-router-like, over-permissive-names). Default: upstream. "
            "Every verdict the profile changes is reported."
        ),
    )


def plan_summary_lines(plan, dns: bool, nothing: str) -> list[str]:
    """A repair plan's headline for the console: what moves, and the edits; ``nothing`` when empty."""
    if plan is None or plan.is_empty:
        return [nothing]
    lines = [f"{len(plan.changes)} probe(s) change; no other probe moves "
             f"({'with' if dns else 'without'} DNS modelling)."]
    lines += [f"  {m}" for m in plan.changes]
    lines.append(f"Edits ({len(plan.edits)}, weight {plan.weight}):")
    lines += [f"  - {e.describe()}" for e in plan.edits]
    return lines
