"""``netmend assess k8s``: the NetArena K8s assessment on the simulated cluster."""

from __future__ import annotations

from pathlib import Path

import click

_DEFAULT_OUT = "assess-out/k8s"


@click.command("k8s")
@click.option("--per-type", default=10, show_default=True, type=click.IntRange(min=1), help="Tasks per family.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the task generator.")
@click.option(
    "--app",
    default="online-boutique",
    show_default=True,
    help="A built-in application (online-boutique) or an application fixture directory (app.yaml, workloads.yaml, policies.yaml, expected.yaml).",
)
@click.option(
    "--faults",
    type=click.Choice(["netarena", "fuzz"]),
    default=None,
    help="netarena: NetArena's five error kinds and their pairs; fuzz: single-field mutations of every policy field and random pairs. Default: netarena for online-boutique, fuzz for other apps.",
)
@click.option(
    "--families",
    default="all",
    show_default=True,
    help="'all' or a comma list of families, such as remove_ingress,add_ingress+add_egress (netarena) or port-name,pair (fuzz).",
)
@click.option(
    "--dns/--no-dns",
    default=True,
    show_default=True,
    help="Model name resolution: a source whose egress blocks kube-dns fails every probe.",
)
@click.option(
    "--probes",
    type=click.Choice(["sim", "live"]),
    default="sim",
    show_default=True,
    help="sim: the semantics engine; live: real packets in a private netmend lab (needs root or user namespaces, iproute2, nftables).",
)
@click.option(
    "--live-deny",
    type=click.Choice(["drop", "reject"]),
    default="drop",
    show_default=True,
    help="With --probes live: drop denied packets as a CNI does (each denied probe waits its 1 s timeout), or reject them so probing is fast; verdicts are the same.",
)
@click.option(
    "--oracle",
    type=click.Choice(["engine", "nca"]),
    default="engine",
    show_default=True,
    help="Who judges 'intent restored' (final policies equivalent to the intended ones over every pod pair, port and ipBlock edge): netmend's engine, or also IBM NCA ($NETMEND_NCA or .venv-nca/bin/nca; skipped with a message when missing).",
)
@click.option("--max-iterations", default=10, show_default=True, type=click.IntRange(min=1), help="Turns per task.")
@click.option("--agent-url", default=None, help="Assess this A2A agent instead of the built-in one (needs netmend[a2a]).")
@click.option(
    "--out",
    "out_dir",
    default=_DEFAULT_OUT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where records.jsonl and the plots go.",
)
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots.")
@click.option("--json", "as_json", is_flag=True, help="Print only a one-line JSON summary on stdout (the tables go to stderr).")
def k8s(
    per_type: int,
    seed: int,
    app: str,
    faults: str | None,
    families: str,
    dns: bool,
    probes: str,
    live_deny: str,
    oracle: str,
    max_iterations: int,
    agent_url: str | None,
    out_dir: str,
    no_plots: bool,
    as_json: bool,
) -> None:
    """NetArena K8s assessment: injected policy errors, the harness loop, simulated cluster.

    Results are printed per fault family. Exits 1 when any task fails or is unsafe.
    """
    from netmend.assess.a2a_client import A2AConnectionError, A2AUnavailable
    from netmend.assess.k8s.app import AppError
    from netmend.assess.k8s.inject import InjectionError
    from netmend.assess.k8s.intent import nca_executable
    from netmend.assess.k8s.run import (
        K8sAssessment,
        add_nca_intent,
        assess_k8s,
        outcome_table,
        parse_families,
        setup_of,
    )
    from netmend.assess.records import write_jsonl
    from netmend.assess.report import json_summary, render_table
    from netmend.cli.common import finish_report, progress_bar
    from netmend.k8s.nca import NcaError
    from netmend.lab.errors import LabError

    faults = faults or ("netarena" if app == "online-boutique" else "fuzz")
    try:
        chosen = parse_families(families, faults)
    except InjectionError as exc:
        raise click.BadParameter(str(exc), param_hint="--families") from None
    config = K8sAssessment(
        per_type, seed, chosen, dns, max_iterations, agent_url, probes=probes, live_deny=live_deny, app=app, faults=faults
    )
    bar = progress_bar(f"assess k8s {app}", per_type * len(chosen))
    notes = []
    try:
        setup = setup_of(app)
        results, summary = assess_k8s(config, setup, progress=lambda _: bar.update(1))
    except (A2AUnavailable, A2AConnectionError, InjectionError, LabError, AppError) as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        bar.close()
    if oracle == "nca":
        exe = nca_executable()
        if exe is None:
            notes.append("intent (NCA): skipped, network-config-analyzer not found ($NETMEND_NCA or .venv-nca/bin/nca)")
        else:
            try:
                add_nca_intent(summary, results, setup, exe)
            except NcaError as exc:
                notes.append(f"intent (NCA): skipped, {exc}")
    out = Path(out_dir)
    write_jsonl(out / "records.jsonl", (r.as_record() for r in results))
    plots = []
    if not no_plots:
        from netmend.assess.plots import write_iterations_plot, write_plots

        plots = write_plots(summary, out, title=agent_url or "netmend")
        plots.append(write_iterations_plot(summary, out, title=agent_url or "netmend"))
    failures = [r for r in results if not (r.success and r.safe)]
    lines = [render_table(summary), "", outcome_table(summary), *notes, f"records: {out / 'records.jsonl'}"]
    lines += [f"plot: {path}" for path in plots]
    astray = [r for r in results if r.success and not r.intent_restored]
    if astray:
        lines.append(f"repaired but intent not restored ({len(astray)}):")
        for r in astray:
            faults = "; ".join(str(i.get("detail") or i.get("type")) for i in r.injections)
            lines.append(f"  [{r.task_id}] {faults} | {r.intent_diff[0] if r.intent_diff else ''}")
    lines += [f"task text: {note}" for note in summary.get("client_notes", ())]
    failed = []
    for r in failures:
        last = r.turns[-1].summary.splitlines()[0] if r.turns and r.turns[-1].summary else "no probe"
        failed.append(f"[{r.task_id}] success={r.success} safe={r.safe} iterations={r.iterations}: {last}")
    line = json_summary(summary)
    line["avg_iterations"] = summary["avg_iterations"]
    line["intent_restored"] = summary["intent_restored"]
    if "nca_intent_restored" in summary:
        line["nca_intent_restored"] = summary["nca_intent_restored"]
    line["dns"] = dns
    line["families"] = len(summary["by_family"])
    line["app"] = app
    line["faults"] = faults
    finish_report(lines, failed, line, as_json)
