"""Output pieces the assessment commands share: the progress bar and the closing report."""

from __future__ import annotations

import json
import sys

import click
from tqdm import tqdm

SHOWN_FAILURES = 10


def progress_bar(desc: str, total: int) -> tqdm:
    """A live progress bar on stderr (stdout stays clean for ``--json``)."""
    return tqdm(total=total, desc=desc, unit="task", file=sys.stderr, dynamic_ncols=True,
                leave=False)


def finish_report(lines: list[str], failures: list[str], summary: dict, as_json: bool) -> None:
    """Print the report (to stderr with ``--json``, which prints only ``summary`` on stdout)
    with the first failures, then exit 1 when anything failed."""
    shown = [f"FAILED {line}" for line in failures[:SHOWN_FAILURES]]
    if len(failures) > SHOWN_FAILURES:
        shown.append(f"... {len(failures) - SHOWN_FAILURES} more failures in the records")
    text = "\n".join(lines + shown)
    if as_json:
        click.echo(text, err=True)
        click.echo(json.dumps(summary))
    else:
        click.echo(text)
    if failures:
        sys.exit(1)
