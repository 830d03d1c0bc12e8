"""``netmend lab``: a cluster's pods as network namespaces, policies enforced by nftables."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from netmend.cli.k8s_common import (
    default_probes,
    dns_option,
    expected_option,
    format_option,
    read_expected,
)
from netmend.k8s import (
    K8sError,
    Prober,
    compare,
    demo_expected,
    mismatch_summary,
    read_policies,
    render_grid,
)
from netmend.k8s.load import manifest_files
from netmend.lab import sandbox
from netmend.lab.errors import LabError
from netmend.lab.lab import PROBE_MODES, Lab, cluster_from_source
from netmend.lab.nft import DENY_ACTIONS
from netmend.lab.sysns import sctp_note

_name_option = click.option(
    "--name",
    default="default",
    show_default=True,
    help="Which lab: several labs with different names run side by side.",
)


@click.group()
def lab() -> None:
    """Live lab: real packets through real kernel filters, no cluster needed.

    Each pod becomes a network namespace on a bridge with no uplink, inside a
    sandbox of its own (user, network, mount and PID namespaces when not
    root). Nothing touches the host's network; killing the sandbox removes
    everything.
    """


@lab.command()
@click.option(
    "--manifests",
    "manifests",
    multiple=True,
    type=click.Path(exists=True),
    help="Manifest file or directory (pods, workloads, services, policies); repeatable. "
    "Default: the built-in Online Boutique demo with its correct policies.",
)
@click.option(
    "--deny",
    type=click.Choice(DENY_ACTIONS),
    default="drop",
    show_default=True,
    help="drop: denied packets vanish, as behind a CNI (a denied probe costs its timeout); "
    "reject: answered by a reset, so denied probes fail at once.",
)
@_name_option
def up(manifests, deny, name) -> None:
    """Build the cluster's pods, services, DNS and policies."""
    try:
        if manifests:
            source = {
                "documents": [
                    [str(path), path.read_text(encoding="utf-8")]
                    for given in manifests
                    for path in manifest_files(Path(given))
                ]
            }
        else:
            source = {"demo": True}
        cluster = cluster_from_source(source)
        started = time.monotonic()
        running = Lab.start(cluster, name, deny=deny, source=source)
    except (K8sError, LabError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"lab {name!r} up in {time.monotonic() - started:.2f} s: "
        f"{len(running.plan.pods)} pods, {len(cluster.services)} services, "
        f"{len(cluster.policies)} policies (denied packets: {deny})"
    )
    sctp = sum(1 for pod in running.plan.pods for port in pod.listeners if port.protocol == "SCTP")
    if sctp:
        reason = sctp_note() or "the lab has no SCTP listener"
        click.echo(f"note: {sctp} SCTP ports are not served and SCTP probes fail: {reason}")


@lab.command()
@click.option(
    "--policies",
    "policies",
    multiple=True,
    type=click.Path(exists=True),
    required=True,
    help="NetworkPolicy file or directory; repeatable. The lab enforces exactly these "
    "(an empty file removes every policy).",
)
@_name_option
def apply(policies, name) -> None:
    """Enforce a new policy set; only pods whose rules change are reloaded."""
    try:
        running = Lab.attach(name)
        chosen = tuple(read_policies(policies))
        started = time.monotonic()
        changed = running.apply(chosen)
    except (K8sError, LabError) as exc:
        raise click.ClickException(str(exc)) from None
    took = time.monotonic() - started
    click.echo(f"{len(chosen)} policies applied in {took:.2f} s; {len(changed)} pods reloaded")
    for pod in changed:
        click.echo(f"  {pod}")


@lab.command()
@expected_option(
    "Expected matrix (YAML/JSON: source -> service:port -> bool). Default: the demo's "
    "expected matrix, or for other manifests what the semantics engine predicts."
)
@dns_option("require: probe service names through the cluster DNS; ignore: dial ClusterIPs.")
@click.option(
    "--mode",
    type=click.Choice(PROBE_MODES),
    default="socket",
    show_default=True,
    help="socket: in-process sockets in each pod; nc: `nc -zv -w 1` run in each pod.",
)
@format_option("netarena: mismatch lines; grid: compact matrix; json: every probe with its evidence.")
@_name_option
def probe(expected, dns, mode, fmt, name) -> None:
    """Probe source workloads -> service:port with real packets and compare."""
    use_dns = dns == "require"
    try:
        running = Lab.attach(name)
        if expected:
            want = read_expected(expected)
            probes = want
        elif running.source.get("demo"):
            want = probes = demo_expected()
        else:
            probes = default_probes(running.cluster)
            want = Prober(running.cluster, probes.probes(), dns=use_dns).run()
        live = running.probe(probes.probes(), dns=use_dns, mode=mode)
        mismatches = compare(want, live.matrix)
    except (K8sError, LabError) as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "netarena":
        click.echo(mismatch_summary(mismatches))
    elif fmt == "grid":
        click.echo(render_grid(live.matrix, want))
    else:
        cells = want.to_dict()
        report = {
            "lab": name,
            "dns": dns,
            "mode": mode,
            "probes": [
                {
                    "source": r.source,
                    "target": r.target,
                    "pod": r.pod,
                    "dialed": f"{r.host}:{r.port}",
                    "expected": cells[r.source][r.target],
                    "actual": r.ok,
                    "detail": r.detail,
                }
                for r in live.records
            ],
            "mismatches": [str(m) for m in mismatches],
            "summary": mismatch_summary(mismatches),
        }
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))


@lab.command()
@_name_option
def down(name) -> None:
    """Stop the lab and remove everything it created."""
    try:
        was_running = sandbox.stop(sandbox.lab_dir(name))
    except LabError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"lab {name!r} stopped" if was_running else f"no lab {name!r} was running")

# `netmend lab route ...` (the router lab) lives in its own module.
from netmend.cli.lab_route import route as _route  # noqa: E402

lab.add_command(_route)
