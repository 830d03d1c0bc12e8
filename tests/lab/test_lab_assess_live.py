"""``netmend assess k8s --probes live``: the NetArena loop with real packets, same results as simulated."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from netmend.cli import main

pytestmark = pytest.mark.needs_root_net


def _assess(out, *extra: str) -> list[dict]:
    args = ["assess", "k8s", "--per-type", "2", "--no-plots", "--out", str(out), "--json", *extra]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1])["families"] == 15
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> list[dict]:
    return _assess(tmp_path_factory.mktemp("sim"), "--probes", "sim")


@pytest.mark.slow
@pytest.mark.parametrize("deny", ["drop", "reject"])
def test_live_assessment_passes_and_matches_the_simulated_one(lab_ok, simulated, tmp_path, deny):
    # drop is the command as a user runs it (each denied probe waits its 1 s);
    # reject gives the same verdicts at once.
    live = _assess(tmp_path, "--probes", "live", "--live-deny", deny)
    assert len(live) == 30 and all(r["success"] and r["safe"] for r in live)
    # Every turn's mismatch summary, measured by the kernel, equals the engine's.
    for measured, predicted in zip(live, simulated, strict=True):
        assert measured["task_id"] == predicted["task_id"]
        assert [t["summary"] for t in measured["turns"]] == [
            t["summary"] for t in predicted["turns"]
        ]
