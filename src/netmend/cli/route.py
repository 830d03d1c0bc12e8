"""``netmend route``: the router repairer on routers that are not NetArena's, from an intent file."""

from __future__ import annotations

import json
from pathlib import Path

import click

_intent_option = click.option(
    "--intent", "intent_path", required=True, type=click.Path(exists=True, dir_okay=False),
    help="YAML or JSON: router (node name), interfaces (name, address a.b.c.d/len, optional mtu), hosts.",
)  # fmt: skip


def _intent(path: str):
    import yaml

    from netmend.route.intent import IntentError, from_mapping

    try:
        return from_mapping(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
    except (IntentError, yaml.YAMLError, OSError) as exc:
        raise click.ClickException(f"{path}: {exc}") from None


@click.group("route")
def route() -> None:
    """Repair a Linux router against its intended state: only what deviates changes."""


@route.command()
@_intent_option
@click.option("--dry-run", is_flag=True, help="The program only prints the fixes it would run.")
def program(intent_path: str, dry_run: bool) -> None:
    """Print the one-line program to run on the router (observe, decide, fix, print the state).

    Without a pingall there is no evidence, so the evidence-gated checks
    (qdiscs, static neighbours, chain policies) judge every lab interface and host.
    """
    from netmend.route.evidence import Evidence
    from netmend.route.program import Candidate, router_program

    intent = _intent(intent_path)
    evidence = Evidence(True, True, frozenset(intent.hosts), frozenset(i.name for i in intent.interfaces))
    click.echo(router_program([Candidate("intent", intent, evidence)], apply=not dry_run))


@route.command()
@_intent_option
@click.option("--state", "state_path", required=True, type=click.Path(exists=True, dir_okay=False),
              help="What the router program printed (its state dump).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deviation.")
def diagnose(intent_path: str, state_path: str, as_json: bool) -> None:
    """Name every deviation of a printed router state from the intent, with evidence and fix.

    Exits 1 when anything deviates.
    """
    import sys

    from netmend.route.diagnose import diagnose as find
    from netmend.route.evidence import Evidence
    from netmend.route.state import StateError, parse_state

    intent = _intent(intent_path)
    try:
        state = parse_state(Path(state_path).read_text(encoding="utf-8", errors="replace"))
    except StateError as exc:
        raise click.ClickException(f"{state_path}: {exc}") from None
    evidence = Evidence(True, True, frozenset(intent.hosts), frozenset(i.name for i in intent.interfaces))
    found = find(state, intent, evidence)
    for d in found:
        if as_json:
            click.echo(json.dumps({"kind": d.kind, "subject": d.subject, "evidence": d.evidence, "fix": list(d.command)}))
        else:
            click.echo(f"{d.kind}: {d.evidence}" + (f"\n  fix: {' '.join(d.command)}" if d.command else ""))
    if not found and not as_json:
        click.echo("no deviation from the intent")
    sys.exit(1 if found else 0)
