"""``netmend k8s diff OLD NEW``: what a policy change does to connectivity, with CI exit codes."""

from __future__ import annotations

import sys

import click

from netmend.cli.k8s_check import format_option
from netmend.cli.k8s_inputs import BadInput, Inputs, file_uri, load_inputs, read_files


def run_diff(inputs: Inputs, old_label: str, new_label: str, old, new, new_files: dict[str, str], *,
             fail_on: str | None, fmt: str) -> int:
    """Diff, print, and return the exit code (1 when ``--fail-on`` is triggered)."""
    from netmend.k8s.policydiff import diff_policy_sets
    from netmend.k8s.reports import DiffReport, render_diff

    result = diff_policy_sets(inputs.cluster, tuple(old), tuple(new))
    report = DiffReport(
        old=old_label, new=new_label, diff=result, fail_on=fail_on,
        policy_uris={key: file_uri(path) for key, path in new_files.items()}, new_uri=file_uri(new_label),
    )
    click.echo(render_diff(report, fmt), nl=False)
    return 1 if result.fails(fail_on) else 0


def read_policy_set(path: str) -> tuple[list, dict[str, str]]:
    """The policies under ``path`` and the file of each."""
    read = read_files([path], policies_only=True)
    keys = [o.key for _, o in read]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise BadInput(f"{path}: expected one NetworkPolicy per namespace/name, got several {', '.join(duplicates)}")
    return [o for _, o in read], {o.key: f for f, o in read}


@click.command("diff")
@click.argument("old", type=click.Path(exists=True))
@click.argument("new", type=click.Path(exists=True))
@click.option("--manifests", "manifests", multiple=True, type=click.Path(exists=True),
              help="Workload manifests (file or directory; repeatable). Default: the built-in demo's workloads.")
@click.option("--fail-on", "fail_on", type=click.Choice(["widen", "narrow", "any"]), default=None,
              help="Exit 1 when NEW allows more (widen), less (narrow) or anything different (any).")
@format_option
def diff(old: str, new: str, manifests, fail_on: str | None, fmt: str) -> None:
    """Semantic difference of two policy sets (files or directories): the connections NEW
    gains and loses against OLD, by source, target and port. Exit 2 on bad input."""
    inputs = load_inputs(manifests, (), dns=True)
    old_policies, _ = read_policy_set(old)
    new_policies, new_files = read_policy_set(new)
    sys.exit(run_diff(inputs, old, new, old_policies, new_policies, new_files, fail_on=fail_on, fmt=fmt))
