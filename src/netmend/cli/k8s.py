"""``netmend k8s``: the Kubernetes NetworkPolicy engine from the command line."""

from __future__ import annotations

import json

import click

from netmend.cli.k8s_check import check
from netmend.cli.k8s_common import (
    default_probes,
    dns_option,
    expected_option,
    format_option,
    load_inputs,
    manifests_option,
    policies_option,
    read_expected,
)
from netmend.cli.k8s_diff import diff
from netmend.cli.k8s_explain import explain
from netmend.cli.k8s_repair import repair
from netmend.k8s import (
    K8sError,
    Prober,
    compare,
    demo_expected,
    mismatch_summary,
    render_grid,
)


@click.group()
def k8s() -> None:
    """Kubernetes NetworkPolicy engine: probe a cluster's connectivity offline."""


@k8s.command()
@manifests_option()
@policies_option()
@expected_option("Expected matrix (YAML/JSON: source -> service:port -> bool). Default: the demo's.")
@dns_option("require: a source must reach kube-dns on UDP 53 to resolve names; ignore: skip that step.")
@format_option("netarena: mismatch lines; grid: compact matrix; json: everything.")
def probe(manifests, policies, expected, dns, fmt) -> None:
    """Probe source workloads -> service:port offline and compare with the expected matrix."""
    require_dns = dns == "require"
    try:
        cluster = load_inputs(manifests, policies, kube_dns=require_dns)
        if expected:
            want = read_expected(expected)
        elif not manifests:
            want = demo_expected()
        else:
            want = None
        probes = want if want is not None else default_probes(cluster)
        prober = Prober(cluster, probes.probes(), dns=require_dns)
        actual = prober.run()
        mismatches = compare(want, actual) if want is not None else ()
    except K8sError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "netarena":
        if want is None:
            raise click.ClickException(
                "--format netarena compares with an expected matrix: pass --expected"
            )
        click.echo(mismatch_summary(mismatches))
    elif fmt == "grid":
        click.echo(render_grid(actual, want))
    else:
        expected_cells = want.to_dict() if want is not None else {}
        report = {
            "dns": dns,
            "probes": [
                {
                    "source": source,
                    "target": target,
                    "expected": expected_cells.get(source, {}).get(target),
                    "actual": reachable,
                    "explanation": str(prober.explain(source, target)),
                }
                for source, cells in actual.rows
                for target, reachable in cells
            ],
            "mismatches": [str(m) for m in mismatches],
            "summary": mismatch_summary(mismatches) if want is not None else None,
        }
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))


# ``netmend k8s repair`` (cluster mode), ``explain`` and the CI toolkit (``check``, ``diff``)
# live in their own modules.
k8s.add_command(repair)
k8s.add_command(explain)
k8s.add_command(check)
k8s.add_command(diff)
