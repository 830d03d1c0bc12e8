"""``kubectl netmend``: the policy toolkit as a kubectl plugin (the ``kubectl-netmend`` script).

kubectl runs any ``kubectl-<name>`` on PATH as ``kubectl <name>``. Without
``--manifests`` the commands read the current context's namespaces, pods,
Services and NetworkPolicies with ``kubectl get ... -A -o json`` (through
``--kubectl``, with ``--context`` and ``--kubeconfig`` passed on); ``--policies``
then replaces the live policies, so a change can be checked against the live
workloads before it is applied. With ``--manifests`` everything stays offline,
exactly as ``netmend k8s``.
"""

from __future__ import annotations

import sys

import click

from netmend.cli.k8s_check import format_option, run_check
from netmend.cli.k8s_inputs import BadInput, Inputs, load_inputs, read_files
from netmend.cli.k8s_repair import repair


def live_inputs(kubectl: str, args: tuple[str, ...]) -> Inputs:
    """The current context's state: ``kubectl get namespaces,pods,services,networkpolicies -A -o json``,
    then each admin-tier kind (none where its CRD is not installed)."""
    from netmend.repair.errors import RepairError
    from netmend.repair.kubectl import SubprocessKubectl, read_state

    run = SubprocessKubectl(kubectl)
    try:
        obs = read_state(run, args)
    except RepairError as exc:
        raise BadInput(f"cannot read the cluster: {exc}") from None
    return Inputs(obs.cluster, {}, dict(obs.policies))


def cluster_options(func):
    func = click.option("--kubectl", "kubectl", default="kubectl", show_default=True,
                        help="kubectl binary for the live read.")(func)
    func = click.option("--context", default=None, help="kubeconfig context (default: the current one).")(func)
    return click.option("--kubeconfig", default=None, type=click.Path(dir_okay=False),
                        help="kubeconfig file.")(func)


def _args(kubeconfig: str | None, context: str | None) -> tuple[str, ...]:
    from netmend.repair.kubectl import kubectl_args

    return kubectl_args(kubeconfig, context)


def choose_inputs(manifests, policies, *, dns: bool, kubectl: str, args: tuple[str, ...]) -> Inputs:
    """Files with ``--manifests``; else the live cluster, its policies replaced by ``--policies``."""
    if manifests:
        return load_inputs(manifests, policies, dns=dns)
    live = live_inputs(kubectl, args)
    if not policies:
        return live
    from netmend.k8s.model import AdminPolicy, NetworkPolicy

    read = read_files(policies, policies_only=True)
    chosen = tuple(o for _, o in read if isinstance(o, NetworkPolicy))
    cluster = live.cluster.with_policies(chosen)
    admin = tuple(o for _, o in read if isinstance(o, AdminPolicy))
    if admin:  # candidate admin policies replace the live ones too
        cluster = cluster.with_admin_policies(admin)
    return Inputs(cluster, {o.key: f for f, o in read})


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="netmend")
def main() -> None:
    """kubectl netmend: check intents, diff policy sets and repair policies, on the current context."""


@main.command("check")
@click.option("--intent", "intent_path", required=True, type=click.Path(dir_okay=False),
              help="Intent as code (assertions:), or a matrix / allow-deny intent.")
@click.option("--manifests", "manifests", multiple=True, type=click.Path(exists=True),
              help="Check files instead of the live cluster (repeatable).")
@click.option("--policies", "policies", multiple=True, type=click.Path(exists=True),
              help="Policies to check instead of the cluster's own (repeatable).")
@click.option("--dns", type=click.Choice(["require", "ignore"]), default="require", show_default=True,
              help="require: a source must reach kube-dns to resolve a Service name.")
@format_option
@click.option("--repair/--no-repair", "repair", default=True, show_default=True,
              help="Plan a suggested repair (kubectl patch commands) for each failing assertion.")
@click.option("--verbose", is_flag=True, help="Decision chains also name the policies that do not select the pod.")
@cluster_options
def check(intent_path, manifests, policies, dns, fmt, repair, verbose, kubeconfig, context, kubectl) -> None:
    """Check the current context (or files) against an intent: exit 0 holds, 1 fails, 2 bad input."""
    args = _args(kubeconfig, context)
    inputs = choose_inputs(manifests, policies, dns=dns == "require", kubectl=kubectl, args=args)
    sys.exit(run_check(inputs, intent_path, dns=dns == "require", fmt=fmt, repair=repair,
                       kubectl_args=args if not manifests else (), verbose=verbose))


@main.command("diff")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--manifests", "manifests", multiple=True, type=click.Path(exists=True),
              help="Workloads from files instead of the live cluster (repeatable).")
@click.option("--fail-on", "fail_on", type=click.Choice(["widen", "narrow", "any"]), default=None,
              help="Exit 1 when the new set allows more (widen), less (narrow) or anything different (any).")
@format_option
@cluster_options
def diff(paths, manifests, fail_on, fmt, kubeconfig, context, kubectl) -> None:
    """``diff NEW``: what ``kubectl apply -f NEW`` changes on the live cluster (NEW's policies
    replace the live ones of the same kind and name); ``diff OLD NEW``: two policy sets on the
    live (or --manifests) workloads."""
    from netmend.cli.k8s_diff import read_policy_set, run_diff

    if len(paths) > 2:
        raise BadInput(f"expected NEW or OLD NEW, got {len(paths)} paths")
    if len(paths) == 1 and manifests:
        raise BadInput("diff NEW compares with the live policies; with --manifests give OLD NEW")
    inputs = load_inputs(manifests, (), dns=True) if manifests else live_inputs(kubectl, _args(kubeconfig, context))
    new, new_files = read_policy_set(paths[-1])
    if len(paths) == 1:
        # What `kubectl apply -f NEW` changes: NEW's policies replace the live ones of the
        # same kind and name, every other live policy stays.
        old, old_label = [*inputs.cluster.policies, *inputs.cluster.admin_policies], "live"
        merged = {p.key: p for p in old}
        merged.update((p.key, p) for p in new)
        new = list(merged.values())
    else:
        old, _ = read_policy_set(paths[0])
        old_label = paths[0]
    sys.exit(run_diff(inputs, old_label, paths[-1], old, new, new_files, fail_on=fail_on, fmt=fmt))


# Cluster mode reads and patches the current context already; offline mode works as in `netmend k8s`.
main.add_command(repair, "repair")
