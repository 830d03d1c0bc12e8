"""``netmend k8s repair --manifests ... --policies DIR --intent F --write-to DIR2``: no cluster.

The policies kept in git are repaired as files: the plan is made and
verified by the same planner as on a live cluster, its patches are applied to
the files as written (comments and layout kept), the result is parsed back
and re-verified, and only then is DIR2 written: a mirror of DIR with the
touched files rewritten and every other file copied byte for byte. The
unified diff of every touched file is printed. Nothing is written when any
step fails.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import click

from netmend.cli.k8s_common import plan_summary_lines
from netmend.cli.k8s_inputs import BadInput, Inputs, load_inputs, read_intent


def _admin_deciders(results) -> list[str]:
    """Admin-tier policies among those deciding the failing connections."""
    from netmend.k8s.model import ADMIN_KINDS

    return sorted({p for r in results if not r.holds for w in r.witnesses for p in w.policies
                   if p.partition("/")[0] in ADMIN_KINDS})  # fmt: skip


def _admin_exceptions(cluster, assertions, dns: bool, intent_path: str):
    """Exception rules for the failing connections an admin-tier rule decides, one at a
    time, each verified to flip its probe and move no other (:func:`admin_flip`).

    Returns the cluster with the edited admin policies and the edits in order."""
    from netmend.k8s import K8sError, parse_admin_policy
    from netmend.k8s.check import check
    from netmend.k8s.explain import explain_target
    from netmend.k8s.semantics import Simulator
    from netmend.repair.admin import admin_flip
    from netmend.repair.resolve import dns_endpoints

    edits: list[dict] = []
    tried: set[tuple[str, str]] = set()
    while True:
        try:
            results = check(cluster, assertions, dns=dns)
        except K8sError as exc:
            raise BadInput(f"{intent_path}: {exc}") from None
        probes = [(s, t) for r in results if not r.holds and _admin_deciders([r]) for s, t, _ in r.probes]
        probes = [p for p in probes if p not in tried]
        if not probes:
            return cluster, edits
        source, target = probes[0]
        tried.add((source, target))
        sim = Simulator(cluster)
        explanation = explain_target(sim.snapshot(), source, target,
                                     dns_endpoints=dns_endpoints(sim) if dns else None)  # fmt: skip
        flip = admin_flip(cluster, explanation, dns=dns)
        if flip is None:
            continue  # no single admin rule decides it: the refusal below says so
        if not flip.get("found"):
            raise click.ClickException(f"{intent_path}: {source} -> {target}: {flip['reason']}")
        edited = parse_admin_policy(flip["after"], flip["policy"])
        others = tuple(p for p in cluster.admin_policies if p.key != flip["policy"])
        cluster = cluster.with_admin_policies((*others, edited))
        edits.append({**flip, "probe": (source, target), "model": edited})


def _stated(intent_path: str, inputs: Inputs, dns: bool, cluster=None):
    """The probes the repair must set: the intent's cells, or the failing connections
    of intent-as-code assertions restated as probes (on ``cluster``, default the inputs')."""
    from netmend.k8s import K8sError
    from netmend.k8s.check import check

    assertions = read_intent(intent_path)
    try:
        results = check(cluster or inputs.cluster, assertions, dns=dns)
    except K8sError as exc:
        raise BadInput(f"{intent_path}: {exc}") from None
    admin = _admin_deciders(results)
    if admin:
        raise click.ClickException(
            f"{intent_path}: failing connections are decided by {', '.join(admin)} in the admin tiers, before "
            "any NetworkPolicy is read: no NetworkPolicy edit can change them (netmend k8s check --intent "
            f"{intent_path} shows the exception rule the admin policy would need; --allow-admin-edits "
            "writes it into the admin policy's file)"
        )
    cells = [c for r in results for c in r.assertion.cells]
    if cells:  # probe-matrix intent: every cell is stated, holding or not
        return [(s, t, r.assertion.allow) for r in results for s, t in r.assertion.cells]
    unprobed = [r.assertion.name for r in results if r.unprobed]
    if unprobed:
        raise click.ClickException(
            f"{intent_path}: assertion(s) {', '.join(unprobed)} fail on connections no Service port stands for; "
            "the planner repairs connections to Services"
        )
    failing = [p for r in results for p in r.probes]
    return failing or None


def _target_dir(policies: tuple[str, ...], write_to: str) -> tuple[Path, Path]:
    if len(policies) != 1:
        raise BadInput("--write-to mirrors one tree: expected exactly one --policies file or directory")
    root, out = Path(policies[0]).resolve(), Path(write_to).resolve()
    if out == root or root in out.parents or (root.is_file() and out == root.parent):
        raise BadInput(f"--write-to {write_to}: expected a directory outside the --policies tree (nothing is edited in place)")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BadInput(f"--write-to {write_to}: expected a new or empty directory")
    return root, out


def offline_repair(
    *, manifests: tuple[str, ...], policies: tuple[str, ...], intent_path: str, write_to: str | None,
    dns: bool, namespaces: tuple[str, ...], as_json: bool, allow_admin_edits: bool = False,
) -> int:
    """Plan, patch the files, verify, write; returns the exit code."""
    from netmend.k8s import K8sError, parse_policy, parse_text
    from netmend.k8s.check import check
    from netmend.k8s.load import manifest_files
    from netmend.k8s.model import AdminPolicy
    from netmend.k8s.writeback import (
        WritebackError,
        admin_documents,
        apply_json_patch,
        load_policy_file,
        plain,
        policy_documents,
        unified_diff,
    )
    from netmend.repair.errors import RepairError
    from netmend.repair.suggest import plan_cells

    if not manifests:
        raise BadInput("an offline repair needs the workloads: pass --manifests")
    root = out = None
    if write_to is not None:
        root, out = _target_dir(policies, write_to)
    inputs = load_inputs(manifests, policies, dns=dns)
    files = []
    loaded = {}
    where = {}
    where_admin = {}
    try:
        for path in policies:
            base = Path(path)
            for file in manifest_files(base):
                rel = file.name if base.is_file() else file.relative_to(base).as_posix()
                pf = load_policy_file(str(file), file.read_text(encoding="utf-8"))
                files.append((file, rel))
                loaded[file] = pf
                for key, _, obj in policy_documents(pf):
                    where[key] = (file, obj)
                for key, _, obj in admin_documents(pf):
                    where_admin[key] = (file, obj)
    except (OSError, UnicodeDecodeError, WritebackError) as exc:
        raise BadInput(str(exc)) from None
    objects = inputs.policy_objects()
    objects.update({key: plain(obj) for key, (_, obj) in where.items()})
    cluster, admin_edits = inputs.cluster, []
    if allow_admin_edits:
        cluster, admin_edits = _admin_exceptions(cluster, read_intent(intent_path), dns, intent_path)
        for edit in admin_edits:
            if edit["policy"] not in where_admin:
                raise click.ClickException(
                    f"the repair edits {edit['policy']}, which comes from --manifests, not from --policies: "
                    "move it under --policies to have it written back"
                )
    stated = _stated(intent_path, inputs, dns, cluster)
    plan = repair = None
    if stated is not None:
        try:
            repair = plan_cells(cluster, objects, stated, dns=dns, namespaces=namespaces or None)
        except RepairError as exc:
            raise click.ClickException(str(exc)) from None
        except ValueError as exc:
            raise click.ClickException(f"cannot plan: {exc}") from None
        plan = repair.plan
    touched: dict[Path, str] = {}
    after_models = {p.key: p for p in inputs.cluster.policies}
    after_admin = {p.key: p for p in cluster.admin_policies}
    try:
        for edit in admin_edits:
            # The exception goes just before the deciding rule, so it is read first.
            file, obj = where_admin[edit["policy"]]
            apply_json_patch(obj, [{"op": "add", "path": f"/spec/{edit['field']}/{edit['index']}",
                                    "value": edit["rule"]}])  # fmt: skip
            touched[file] = ""
        for patch in plan.patches if plan else ():
            key = f"{patch.namespace}/{patch.name}"
            if key not in where:
                raise click.ClickException(
                    f"the repair edits {key}, which comes from --manifests, not from --policies: "
                    "move it under --policies to have it written back"
                )
            file, obj = where[key]
            apply_json_patch(obj, patch.ops)
            touched[file] = ""
            after_models[key] = parse_policy(patch.after)
        for file in touched:
            touched[file] = loaded[file].render()
            # The rewritten file must read back as exactly the planned policies.
            for obj in parse_text(touched[file], str(file)):
                planned = after_admin if isinstance(obj, AdminPolicy) else after_models
                if getattr(obj, "key", None) in planned and obj != planned[obj.key]:
                    raise click.ClickException(f"{file}: the rewritten file does not read back as the planned {obj.key}")
    except (WritebackError, K8sError) as exc:
        raise click.ClickException(f"cannot write the repair back: {exc}") from None
    if repair is not None and plan is not None and not plan.is_empty:
        wrong = repair.reaches(cluster, after_models.values())
        if wrong:
            raise click.ClickException("the repaired files do not reach the intent: " + "; ".join(wrong))
    if admin_edits:
        # Re-analysis of what the files now say, every tier: every assertion must hold.
        final = inputs.cluster.with_policies(tuple(after_models.values())).with_admin_policies(
            tuple(after_admin.values())
        )
        failing = [r.assertion.name for r in check(final, read_intent(intent_path), dns=dns) if not r.holds]
        if failing:
            raise click.ClickException("the repaired files do not reach the intent: " + ", ".join(failing))
    diffs = [unified_diff(loaded[file].text, touched[file], rel) for file, rel in files if file in touched]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for file, rel in files:
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if file in touched:
                target.write_text(touched[file], encoding="utf-8")
            else:
                shutil.copyfile(file, target)
    admin_lines = [
        f"{e['policy']}: add {e['field']} rule {e['rule']['name']!r} ({e['rule']['action']}) at position "
        f"{e['index']}, before the rule that decides {e['probe'][0]} -> {e['probe'][1]}; verified: it flips "
        "that probe and moves no other"
        for e in admin_edits
    ]
    report = {
        "admin_edits": [{"policy": e["policy"], "probe": list(e["probe"]), "field": e["field"],
                         "index": e["index"], "rule": e["rule"]} for e in admin_edits],  # fmt: skip
        "changes": [str(m) for m in plan.changes] if plan else [],
        "edits": [e.describe() for e in plan.edits] if plan else [],
        "patches": [{"policy": f"{p.namespace}/{p.name}", "ops": list(p.ops)} for p in (plan.patches if plan else ())],
        "files": [{"path": rel, "changed": file in touched} for file, rel in files],
        "diff": "".join(diffs),
        "written": write_to,
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return 0
    lines = [f"Admin policy exception: {line}" for line in admin_lines]
    if not admin_edits or (plan is not None and not plan.is_empty):
        lines += plan_summary_lines(plan, dns, "The policies already match the intent; nothing to do.")
    click.echo("\n".join(lines))
    if diffs:
        click.echo("".join(diffs), nl=False)
    if write_to is not None:
        click.echo(f"Wrote {write_to}: {len(touched)} file(s) repaired, {len(files) - len(touched)} copied unchanged.")
    return 0


def run(**kwargs) -> None:
    """Entry from ``k8s repair``: exit with the offline repair's code."""
    sys.exit(offline_repair(**kwargs))
