"""``netmend k8s repair``: plan (and with --apply, run) a verified policy repair on a live cluster."""

from __future__ import annotations

import getpass
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import click
import yaml

from netmend.cli.k8s_common import plan_summary_lines


def make_runner(binary: str):
    """The kubectl runner (a seam: tests substitute the simulated cluster)."""
    from netmend.repair.kubectl import SubprocessKubectl

    return SubprocessKubectl(binary)


def _who() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry, no login variables
        return "unknown"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@click.command("repair")
@click.option(
    "--intent",
    "intent_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="YAML/JSON intent: source -> service:port -> true/false, or allow:/deny: lists of 'src -> svc:port'.",
)
@click.option("--kubeconfig", default=None, type=click.Path(dir_okay=False), help="kubeconfig file for kubectl.")
@click.option("--context", default=None, help="kubeconfig context to use.")
@click.option("--namespace", "namespaces", multiple=True, help="Only edit policies in this namespace (repeatable).")
@click.option("--dry-run/--apply", "dry_run", default=True, show_default=True, help="Show the plan only, or apply it.")
@click.option(
    "--dns",
    type=click.Choice(["require", "ignore"]),
    default="require",
    show_default=True,
    help="require: probes resolve names through kube-dns; ignore: skip that step.",
)
@click.option("--kubectl", "kubectl_bin", default="kubectl", show_default=True, help="kubectl binary.")
@click.option(
    "--audit",
    "audit_path",
    default="netmend-audit.jsonl",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="Audit log (JSONL, appended) written by --apply.",
)
@click.option(
    "--rollback-file",
    "rollback_path",
    default=None,
    type=click.Path(dir_okay=False),
    help="Where --apply writes the rollback script (default: netmend-rollback-<UTC time>.sh).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the plan (and outcome) as JSON.")
@click.option("--manifests", "manifests", multiple=True, type=click.Path(exists=True),
              help="Offline: workload manifests (file or directory; repeatable) instead of a live cluster.")
@click.option("--policies", "policies", multiple=True, type=click.Path(exists=True),
              help="Offline: the NetworkPolicy file or directory to repair.")
@click.option("--write-to", "write_to", default=None, type=click.Path(file_okay=False),
              help="Offline: write the repaired policy tree here (comments and layout kept) and print the diff.")
@click.option("--allow-admin-edits", "allow_admin_edits", is_flag=True,
              help="Offline: when an admin-tier rule decides a connection, write a verified exception rule "
                   "into that admin policy's file (default: say so and edit nothing).")
def repair(
    intent_path: str,
    kubeconfig: str | None,
    context: str | None,
    namespaces: tuple[str, ...],
    dry_run: bool,
    dns: str,
    kubectl_bin: str,
    audit_path: str,
    rollback_path: str | None,
    as_json: bool,
    manifests: tuple[str, ...] = (),
    policies: tuple[str, ...] = (),
    write_to: str | None = None,
    allow_admin_edits: bool = False,
) -> None:
    """Repair NetworkPolicies so the probe matrix matches an intent, with the fewest edits.

    Offline (no cluster), with --manifests and --policies: plan the same way and,
    with --write-to DIR, write the repaired policy files there and print their diff.

    Reads the live state with kubectl, plans a minimal verified edit set
    (no probe outside the intent moves), shows the diff and the commands.
    With --apply it runs them, re-reads and re-verifies, appends an audit
    record and writes a rollback script. Exits 1 when there is no safe plan
    or the verification after --apply fails.
    """
    if manifests or policies or write_to:
        from netmend.cli.k8s_inputs import BadInput
        from netmend.cli.k8s_offline import run

        if not dry_run:
            raise BadInput("--apply acts on a live cluster; an offline repair writes files with --write-to")
        run(manifests=manifests, policies=policies, intent_path=intent_path, write_to=write_to,
            dns=dns == "require", namespaces=namespaces, as_json=as_json, allow_admin_edits=allow_admin_edits)
    if allow_admin_edits:
        from netmend.cli.k8s_inputs import BadInput

        raise BadInput("--allow-admin-edits writes admin policy files offline (--manifests, --policies, --write-to); "
                       "on a live cluster the plan only names the exception rule")
    from netmend.repair.cluster import (
        audit_record,
        dumps,
        patch_argv,
        policy_diff,
        propose,
        rollback_script,
        shell_line,
        verify,
    )
    from netmend.repair.errors import RepairError
    from netmend.repair.intent import parse_intent
    from netmend.repair.kubectl import apply, kubectl_args, read_state

    try:
        data = yaml.safe_load(Path(intent_path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise click.ClickException(f"{intent_path}: cannot read the intent: {exc}") from None
    run = make_runner(kubectl_bin)
    args = kubectl_args(kubeconfig, context)
    try:
        stated = parse_intent(data, intent_path)
        obs = read_state(run, args)
        proposal = propose(
            obs, stated, dns=dns == "require", namespaces=namespaces or None, kubectl_args=args
        )
    except RepairError as exc:
        raise click.ClickException(str(exc)) from None
    except ValueError as exc:
        raise click.ClickException(f"cannot plan: {exc}") from None
    plan = proposal.plan
    commands = [shell_line(patch_argv(p, p.ops, args)) for p in plan.patches]
    report: dict = {
        "changes": [str(m) for m in plan.changes],
        "edits": [e.describe() for e in plan.edits],
        "commands": commands,
        "mode": "dry-run" if dry_run else "apply",
    }
    lines = plan_summary_lines(plan, plan.dns, "The cluster already matches the intent; nothing to do.")
    if not plan.is_empty:
        lines += [policy_diff(p) for p in plan.patches]
        lines.append("Commands:")
        lines += [f"  {c}" for c in commands]
    exit_code = 0
    if not dry_run and not plan.is_empty:
        when = _now()
        rollback = Path(rollback_path or f"netmend-rollback-{when.replace(':', '').replace('+0000', 'Z')}.sh")
        rollback.write_text(rollback_script(proposal, when), encoding="utf-8")
        outcome = apply(run, proposal)
        after: dict = {}
        verified, wrong = False, []
        if outcome.ok:
            try:
                reread = read_state(run, args)
                after = {k: v for k, v in reread.policies.items() if any(k == f"{p.namespace}/{p.name}" for p in plan.patches)}
                verified, wrong = verify(reread, proposal)
            except RepairError as exc:
                wrong = [f"re-read failed: {exc}"]
        if after:
            rollback.write_text(rollback_script(proposal, when, after), encoding="utf-8")
        status = "verified" if verified else ("apply failed" if not outcome.ok else "verification failed")
        record = audit_record(
            proposal, who=_who(), when=when, context=context, after=after, verified=verified, outcome=status
        )
        with Path(audit_path).open("a", encoding="utf-8") as handle:
            handle.write(dumps(record) + "\n")
        lines.append(f"Applied: {', '.join(outcome.applied) or 'nothing'}; outcome: {status}.")
        if outcome.failed:
            lines.append(f"Failed: {outcome.failed}; undone: {', '.join(outcome.rolled_back) or 'nothing'}")
        lines += [f"  still wrong: {w}" for w in wrong]
        lines.append(f"Audit: {audit_path}; rollback script: {rollback}")
        report.update(outcome=status, rollback=str(rollback), audit=audit_path, still_wrong=wrong)
        exit_code = 0 if verified else 1
    click.echo(json.dumps(report, indent=2) if as_json else "\n".join(lines))
    sys.exit(exit_code)
