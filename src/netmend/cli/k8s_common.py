"""Pieces shared by ``netmend k8s probe`` and ``netmend lab probe``: probe sets, expected
matrices and the options that choose them."""

from __future__ import annotations

from pathlib import Path

import click
import yaml

from netmend.k8s import Matrix
from netmend.k8s.model import Cluster


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
