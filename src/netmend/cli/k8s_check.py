"""``netmend k8s check``: do the policies satisfy an intent? Exit codes for CI."""

from __future__ import annotations

import sys

import click

from netmend.cli.k8s_inputs import (
    BadInput,
    ContradictoryIntent,
    Inputs,
    file_uri,
    load_inputs,
    read_intent,
)

FORMATS = ("text", "json", "junit", "sarif")


def input_options(func):
    """``--manifests``, ``--policies`` and ``--dns``, as ``k8s probe`` takes them."""
    func = click.option(
        "--dns", type=click.Choice(["require", "ignore"]), default="require", show_default=True,
        help="require: a source must reach kube-dns on UDP 53 to resolve a Service name; ignore: skip that step.",
    )(func)
    func = click.option(
        "--policies", "policies", multiple=True, type=click.Path(exists=True),
        help="NetworkPolicy file or directory; repeatable. Replaces the demo's policies; adds to --manifests'.",
    )(func)
    return click.option(
        "--manifests", "manifests", multiple=True, type=click.Path(exists=True),
        help="Manifest file or directory (YAML or kubectl JSON); repeatable. Default: the built-in demo.",
    )(func)


def format_option(func):
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
                        help="text for people, json for scripts, junit and sarif for CI systems.")(func)


def run_check(inputs: Inputs, intent_path: str, *, dns: bool, fmt: str, repair: bool,
              kubectl_args: tuple[str, ...] = (), verbose: bool = False) -> int:
    """Check, print the report, return the exit code (0 every assertion holds, 1 one fails)."""
    from netmend.k8s import K8sError
    from netmend.k8s.check import check as check_assertions
    from netmend.k8s.intent_code import IntentContradiction
    from netmend.k8s.reports import CheckReport, render_check

    try:
        assertions = read_intent(intent_path)
        try:
            results = check_assertions(inputs.cluster, assertions, dns=dns, verbose=verbose)
        except IntentContradiction as exc:
            raise ContradictoryIntent(exc.in_file(intent_path)) from None
    except ContradictoryIntent as exc:
        return contradiction_exit(exc, intent_path, fmt)
    except K8sError as exc:
        raise BadInput(f"{intent_path}: {exc}") from None
    suggestions = {}
    if repair and any(not r.holds for r in results):
        from netmend.repair.suggest import suggest

        objects = inputs.policy_objects()
        holding = [r.assertion for r in results if r.holds]
        for r in results:
            s = suggest(inputs.cluster, objects, r, dns=dns, kubectl_args=kubectl_args, holding=holding)
            if s is not None:
                suggestions[r.assertion.name] = s
    report = CheckReport(
        intent=intent_path, dns=dns, results=results, suggestions=suggestions,
        intent_uri=file_uri(intent_path),
        policy_uris={key: file_uri(path) for key, path in inputs.policy_files.items()},
    )
    click.echo(render_check(report, fmt), nl=False)
    return 0 if all(r.holds for r in results) else 1


def contradiction_exit(exc: ContradictoryIntent, intent_path: str, fmt: str) -> int:
    """Report a self-contradictory intent in ``fmt`` on stdout and as an error on stderr: exit 2."""
    from netmend.k8s.reports import render_contradiction

    click.echo(render_contradiction(exc.contradiction, intent_path, file_uri(intent_path), fmt), nl=False)
    exc.show()
    return exc.exit_code


@click.command("check")
@click.option("--intent", "intent_path", required=True, type=click.Path(dir_okay=False),
              help="Intent as code (assertions:), or a matrix / allow-deny intent as k8s repair reads.")
@input_options
@format_option
@click.option("--repair/--no-repair", "repair", default=True, show_default=True,
              help="Plan a suggested repair for each failing assertion.")
@click.option("--verbose", is_flag=True, help="Decision chains also name the policies that do not select the pod.")
def check(intent_path: str, manifests, policies, dns: str, fmt: str, repair: bool, verbose: bool) -> None:
    """Check the policies against an intent: exit 0 when every assertion holds, 1 when one
    fails, 2 on bad input. Failing assertions say which policy decides and how to repair it."""
    inputs = load_inputs(manifests, policies, dns=dns == "require")
    sys.exit(run_check(inputs, intent_path, dns=dns == "require", fmt=fmt, repair=repair, verbose=verbose))
