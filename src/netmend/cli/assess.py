"""``netmend assess``: put generated tasks to an agent and score the answers."""

from __future__ import annotations

from pathlib import Path

import click

from netmend.assess.malt.envelopes import PROMPT_TYPES
from netmend.cli.assess_k8s import k8s as assess_k8s
from netmend.cli.assess_route import route as assess_route

_DEFAULT_OUT = "assess-out"


@click.group()
def assess() -> None:
    """Assess an agent on generated tasks, scored as the NetArena evaluator scores them."""


def _levels(value: str | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    try:
        levels = tuple(sorted({int(word) for word in value.split(",") if word.strip()}))
    except ValueError:
        raise click.BadParameter(f"expected levels like '1,2,3', got {value!r}") from None
    if not levels or not set(levels) <= {1, 2, 3}:
        raise click.BadParameter(f"levels are 1, 2 and 3, got {value!r}")
    return levels


@assess.command("malt")
@click.option(
    "--per-type",
    default=20,
    show_default=True,
    type=click.IntRange(min=1),
    help="Tasks per family.",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the task generator.")
@click.option(
    "--families",
    default="enabled",
    show_default=True,
    help="'enabled' (the ten NetArena enables), 'all' (adds the disabled ones) "
    "or a comma list of family names such as l1-add,l2-remove-rank.",
)
@click.option("--levels", default=None, help="Only these levels, e.g. '1,2'.")
@click.option(
    "--topology",
    "topology_path",
    type=click.Path(exists=True, dir_okay=False),
    help="MALT textproto or node-link JSON; the built-in synthetic topology by default.",
)
@click.option(
    "--agent-url",
    default=None,
    help="Assess this A2A agent instead of the built-in one (needs netmend[a2a]).",
)
@click.option(
    "--prompt-type",
    default="zeroshot_base",
    show_default=True,
    type=click.Choice([*PROMPT_TYPES, "all"]),
    help="The NetArena prompt envelope around each request; 'all' runs all four.",
)
@click.option(
    "--out",
    "out_dir",
    default=_DEFAULT_OUT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where records.jsonl and the plots go.",
)
@click.option(
    "--workers",
    default=0,
    type=click.IntRange(min=0),
    help="Worker processes for the built-in agent (0: one per core for big runs).",
)
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print only a one-line JSON summary on stdout (the table goes to stderr).",
)
@click.option(
    "--corpus",
    "corpus_path",
    type=click.Path(exists=True, dir_okay=False),
    help="Instead of tasks, judge a paraphrase corpus (YAML: paraphrase/canonical pairs and "
    "negatives) on the topology: same answer, refused or wrong; negatives must be refused.",
)
@click.option(
    "--min-same",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="With --corpus: exit 1 when fewer paraphrases than this share give the same answer.",
)
def malt(
    per_type: int,
    seed: int,
    families: str,
    levels: str | None,
    topology_path: str | None,
    agent_url: str | None,
    prompt_type: str,
    out_dir: str,
    workers: int,
    no_plots: bool,
    as_json: bool,
    corpus_path: str | None,
    min_same: float,
) -> None:
    """Dynamic MALT assessment: seeded tasks, NetArena-equivalent scoring, records and plots.

    Prints the median, p95 and largest reply in bytes (the reply text as the evaluator
    extracts it) against the goals over a full assessment (median <= 1500 B, largest
    <= 4000 B). Exits 1 when any task is incorrect or unsafe. With --corpus, judges a paraphrase corpus
    instead and exits 1 on any wrong answer, any accepted negative, or a same-answer share
    below --min-same.
    """
    if corpus_path is not None:
        _corpus(corpus_path, topology_path, as_json, min_same)
        return
    from netmend.assess.a2a_client import A2AConnectionError, A2AUnavailable
    from netmend.assess.malt.run import MaltAssessment, assess_malt
    from netmend.assess.malt.tasks import TaskGenerationError
    from netmend.assess.records import write_jsonl
    from netmend.assess.report import json_summary, render_table
    from netmend.cli.common import finish_report, progress_bar
    from netmend.malt import topology

    try:
        graph = topology.load(topology_path) if topology_path else topology.default()
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"cannot load the topology: {exc}") from exc
    config = MaltAssessment(
        per_type=per_type,
        seed=seed,
        families=families,
        levels=_levels(levels),
        prompt_types=PROMPT_TYPES if prompt_type == "all" else (prompt_type,),
        agent_url=agent_url,
        workers=workers,
    )

    def bar(total: int):
        return progress_bar("assess malt", total)

    try:
        run = assess_malt(graph, config, progress_factory=bar)
    except TaskGenerationError as exc:
        raise click.ClickException(str(exc)) from exc
    except (A2AUnavailable, A2AConnectionError) as exc:
        raise click.ClickException(str(exc)) from exc

    out = Path(out_dir)
    write_jsonl(out / "records.jsonl", (result.record for result in run.results))
    plots = []
    if not no_plots:
        from netmend.assess.plots import write_plots

        plots = write_plots(run.summary, out, title=agent_url or "netmend")
    table = render_table(run.summary)
    failures = run.failures
    where = topology_path or "built-in synthetic topology"
    header = (
        f"{len(run.tasks)} tasks ({len(run.summary['by_family'])} families x {per_type}, "
        f"seed {seed}) on {where} ({graph.number_of_nodes()} nodes), "
        f"agent {agent_url or 'built-in (in process)'}, envelope {prompt_type}"
    )
    lines = [header, table, _reply_line(run.summary["reply_bytes"]),
             f"records: {out / 'records.jsonl'}"]
    lines += [f"plot: {path}" for path in plots]
    failed = []
    for failure in failures:
        record = failure.record
        reason = record.get("Error") or record.get("Verifier-Error")
        failed.append(f"[{failure.family}] {record['Query']}: {reason}")
    finish_report(lines, failed, json_summary(run.summary), as_json)


def _reply_line(sizes: dict) -> str:
    """The reply sizes and their goals, in one line."""
    goals = sizes["goals"]
    judged = (f"goals median <= {goals['median']} B, max <= {goals['max']} B: "
              + ("met" if sizes["met"] else "NOT met"))
    if not sizes["n"]:
        return f"reply bytes: no replies; {judged}"
    return (f"reply bytes (the reply text as the evaluator extracts it, UTF-8, over "
            f"{sizes['n']} replies): median {sizes['median']:.0f}, p95 {sizes['p95']:.0f}, "
            f"max {sizes['max']}; {judged}")


def _corpus(path: str, topology_path: str | None, as_json: bool, min_same: float) -> None:
    import json
    import sys

    from netmend.assess.malt.corpus import evaluate, load_corpus, render
    from netmend.malt import topology

    try:
        graph = topology.load(topology_path) if topology_path else topology.default()
        corpus = load_corpus(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # TopologyError and CorpusError are ValueErrors
        raise click.ClickException(str(exc)) from exc
    if not corpus.pairs and not corpus.negatives:
        raise click.ClickException(f"{path}: the corpus holds no pairs and no negatives")
    report = evaluate(corpus, graph)
    counts = report.counts()
    where = topology_path or "built-in synthetic topology"
    if as_json:
        click.echo(json.dumps({**counts, "corpus": path, "topology": where}, sort_keys=True))
    else:
        click.echo(f"corpus {path} on {where} ({graph.number_of_nodes()} nodes)")
        click.echo(render(report))
    if not report.ok or counts["same_rate"] < min_same:
        sys.exit(1)


# ``netmend assess k8s`` (NetArena K8s on the simulated cluster) lives in its own module.
assess.add_command(assess_k8s)
# ``netmend assess route`` (NetArena Route in the router lab) lives in its own module.
assess.add_command(assess_route)
