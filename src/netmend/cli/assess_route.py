"""``netmend assess route``: the NetArena Route assessment in the router lab."""

from __future__ import annotations

from pathlib import Path

import click

_DEFAULT_OUT = "assess-out/route"


@click.command("route")
@click.option("--per-type", default=10, show_default=True, type=click.IntRange(min=1), help="Tasks per family.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of fault parameters, legitimate configuration and prefix.")
@click.option("--switches", default=2, show_default=True, type=click.IntRange(2, 254), help="Subnets (NetArena: 2-8).")
@click.option("--hosts", default=1, show_default=True, type=click.IntRange(1, 155), help="Hosts per subnet (NetArena: 1-4).")
@click.option(
    "--fidelity", type=click.Choice(["netarena", "full"]), default="netarena", show_default=True,
    help="netarena: as the official image (no iptables on the nodes; netem where the kernel has it, else a tbf stand-in); full: a working firewall.",
)  # fmt: skip
@click.option(
    "--families", default="all", show_default=True,
    help="all, netarena (its fifteen), extra (ours), or a comma list such as remove_ip,arp_off.",
)  # fmt: skip
@click.option(
    "--prompt-type", default="all", show_default=True,
    type=click.Choice(["all", "zeroshot_base", "zeroshot_cot", "fewshot_base", "fewshot_cot"]),
    help="The envelope; all: the four in turn.",
)  # fmt: skip
@click.option("--legit/--no-legit", default=True, show_default=True, help="Put legitimate configuration on the router first and check it is kept.")
@click.option("--max-iterations", default=10, show_default=True, type=click.IntRange(min=1), help="Turns per task.")
@click.option("--ping-timeout", default=0.3, show_default=True, type=click.FloatRange(0.05, 0.9),
              help="Seconds each ping waits (NetArena: 0.1; faults delay 1 s or more, so verdicts agree).")  # fmt: skip
@click.option(
    "--lab", "lab", type=click.Choice(["namespaces", "mininet"]), default="namespaces", show_default=True,
    help="namespaces: the router lab (no Mininet); mininet: Debian's Mininet with Linux bridges, commands through its Node.cmd as the evaluator runs them (needs root).",
)  # fmt: skip
@click.option("--agent-url", default=None, help="Assess this A2A agent instead of the built-in one (needs netmend[a2a]).")
@click.option("--out", "out_dir", default=_DEFAULT_OUT, show_default=True, type=click.Path(file_okay=False), help="Where records.jsonl and the plots go.")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots.")
@click.option("--json", "as_json", is_flag=True, help="Print only a one-line JSON summary on stdout (the tables go to stderr).")
def route(per_type, seed, switches, hosts, fidelity, families, prompt_type, legit, max_iterations,
          ping_timeout, lab, agent_url, out_dir, no_plots, as_json) -> None:  # fmt: skip
    """NetArena Route assessment: faults on a real Linux router in namespaces, NetArena's loop and scoring.

    Exits 1 when any task fails, is unsafe or loses legitimate configuration.
    """
    from netmend.assess.a2a_client import A2AConnectionError, A2AUnavailable
    from netmend.assess.records import write_jsonl
    from netmend.assess.report import iterations_table, json_summary, render_table
    from netmend.assess.route.envelopes import PROMPT_TYPES
    from netmend.assess.route.faults import FaultError
    from netmend.assess.route.run import RouteAssessment, assess_route, parse_families
    from netmend.cli.common import finish_report, progress_bar
    from netmend.lab.errors import LabError

    try:
        chosen = parse_families(families)
    except FaultError as exc:
        raise click.BadParameter(str(exc), param_hint="--families") from None
    config = RouteAssessment(
        per_type, seed, chosen, switches, hosts, fidelity,
        PROMPT_TYPES if prompt_type == "all" else (prompt_type,),
        max_iterations, agent_url, ping_timeout, legit, lab,
    )  # fmt: skip
    bar = progress_bar(f"assess route {switches}x{hosts} {fidelity}", per_type * len(chosen))
    try:
        results, summary = assess_route(config, progress=lambda _: bar.update(1))
    except (A2AUnavailable, A2AConnectionError, FaultError, LabError) as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        bar.close()
    out = Path(out_dir)
    write_jsonl(out / "records.jsonl", (r.as_record() for r in results))
    plots = []
    title = f"{agent_url or 'netmend'} route {switches}x{hosts} {fidelity}"
    if not no_plots:
        from netmend.assess.plots import write_iterations_plot, write_plots

        plots = write_plots(summary, out, title=title)
        plots.append(write_iterations_plot(summary, out, title=title))
    header = (
        f"route assessment: {len(results)} tasks, {len(chosen)} families x {per_type}, seed {seed}, "
        f"topology {switches}x{hosts}, fidelity {fidelity}, lab {lab}, agent {agent_url or 'netmend (in process)'}"
    )
    totals = (
        f"real faults: {summary['real_faults']} (mean iterations {summary['avg_iterations_real']:.2f}; "
        f"in NetArena's families {summary['real_faults_netarena']}, mean {summary['avg_iterations_real_netarena']:.2f}); "
        f"no effect at the first pingall: {len(results) - summary['real_faults']}; "
        f"mean iterations over all (no-op faults count 1): {summary['avg_iterations']:.2f}\n"
        f"faults the first pingall cannot place: {summary['unplaceable']} (a host fault that fails exactly the pairs "
        f"of a router that stops forwarding one subnet, e.g. a host alone in subnet 1 without its default route; "
        f"the first command goes to the router, which cannot repair a host, so these take at least 3 iterations); "
        f"mean iterations over the other real faults: {summary['avg_iterations_real_placeable']:.2f}\n"
        f"legitimate configuration kept in {summary['kept'] * 100:.1f}% of tasks "
        f"({summary['legit_items']} items present after injection, {summary['lost_to_repair']} lost to repairs, "
        f"{summary['lost_to_fault']} removed by the faults themselves)"
    )
    lines = [header, render_table(summary), "", iterations_table(summary), totals, f"records: {out / 'records.jsonl'}"]
    lines += [f"plot: {path}" for path in plots]
    failed = [
        f"[{r.task_id}] success={r.success} safe={r.safe} iterations={r.iterations} kept={r.kept}"
        + (f": {r.problem}" if r.problem else "")
        for r in results
        if not (r.success and r.safe and r.kept) or r.problem
    ]
    line = json_summary(summary)
    for key in ("avg_iterations", "avg_iterations_real", "real_faults", "avg_iterations_real_netarena", "real_faults_netarena",
                "unplaceable", "avg_iterations_real_placeable",
                "kept", "lost_to_repair", "lost_to_fault"):  # fmt: skip
        line[key] = summary[key]
    line.update(fidelity=fidelity, topology=f"{switches}x{hosts}", families=len(chosen), lab=lab)
    finish_report(lines, failed, line, as_json)
