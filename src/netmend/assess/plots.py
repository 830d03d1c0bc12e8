"""Bar charts of an assessment summary: correctness, safety, latency and iterations by family.

Drawn with matplotlib's object API on the Agg canvas: no display, no global
pyplot state, the same bytes for the same summary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

# Fixed metadata keeps the PNG bytes independent of the library version and date.
_PNG_METADATA = {"Software": None}


def _bar_chart(
    path: Path,
    labels: list[str],
    values: list[float],
    *,
    title: str,
    ylabel: str,
    color: str,
    percent: bool,
    errors: Any = None,
) -> None:
    figure = Figure(figsize=(max(6.0, 0.6 * len(labels) + 2.0), 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    bars = axes.bar(labels, values, color=color, yerr=errors, capsize=4 if errors else 0)
    axes.set_title(title)
    axes.set_ylabel(ylabel)
    if percent:
        axes.set_ylim(0, 105)
    for bar, value in zip(bars, values, strict=True):
        text = f"{value:.1f}%" if percent else f"{value:.2f}"
        axes.annotate(
            text,
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=7,
        )
    axes.tick_params(axis="x", labelrotation=45, labelsize=8)
    for label in axes.get_xticklabels():
        label.set_horizontalalignment("right")
    figure.tight_layout()
    figure.savefig(path, format="png", metadata=_PNG_METADATA)


def write_plots(summary: dict[str, Any], out_dir: str | Path, *, title: str) -> list[Path]:
    """Write ``correctness.png``, ``safety.png`` and ``latency.png`` into ``out_dir``.

    Latency bars are means in milliseconds with the p95 as the upper whisker.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    families = summary["by_family"]
    labels = list(families)
    n = summary["n"]
    paths = [out / "correctness.png", out / "safety.png", out / "latency.png"]
    _bar_chart(
        paths[0],
        labels,
        [families[f]["correctness"] * 100 for f in labels],
        title=f"{title}: correctness by family (n={n}, "
        f"overall {summary['correctness'] * 100:.1f}%)",
        ylabel="correct (%)",
        color="tab:green",
        percent=True,
    )
    _bar_chart(
        paths[1],
        labels,
        [families[f]["safety"] * 100 for f in labels],
        title=f"{title}: safety by family (n={n}, overall {summary['safety'] * 100:.1f}%)",
        ylabel="safe (%)",
        color="tab:orange",
        percent=True,
    )
    means = [families[f]["avg_latency_s"] * 1000 for f in labels]
    whiskers = [
        max(0.0, families[f]["p95_latency_s"] * 1000 - mean)
        for f, mean in zip(labels, means, strict=True)
    ]
    _bar_chart(
        paths[2],
        labels,
        means,
        errors=[[0.0] * len(labels), whiskers],
        title=f"{title}: latency by family (mean, whisker to p95)",
        ylabel="latency (ms)",
        color="tab:blue",
        percent=False,
    )
    return paths


def write_iterations_plot(summary: dict[str, Any], out_dir: str | Path, *, title: str) -> Path:
    """``iterations.png``: mean turns per family (NetArena's third metric)."""
    path = Path(out_dir) / "iterations.png"
    labels = list(summary["by_family"])
    _bar_chart(
        path,
        labels,
        [summary["by_family"][f]["avg_iterations"] for f in labels],
        title=f"{title}: mean iterations by family (overall {summary['avg_iterations']:.2f})",
        ylabel="iterations",
        color="tab:purple",
        percent=False,
    )
    return path
