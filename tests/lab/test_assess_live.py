"""``netmend assess k8s --probes live``: the NetArena loop with real packets, same results as simulated."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from netmend.cli.assess_k8s import k8s as assess_k8s_command

pytestmark = [pytest.mark.needs_root_net, pytest.mark.slow]


def _records(out) -> list[dict]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]


def test_live_assessment_passes_and_matches_the_simulated_one(lab_ok, tmp_path):
    runs = {}
    for probes in ("live", "sim"):
        out = tmp_path / probes
        args = ["--probes", probes, "--per-type", "2", "--no-plots", "--out", str(out), "--json"]
        result = CliRunner().invoke(assess_k8s_command, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output[-2000:]
        summary = json.loads(result.stdout.strip().splitlines()[-1])
        assert summary["families"] == 15
        runs[probes] = _records(out)
    assert len(runs["live"]) == 30
    assert all(r["success"] and r["safe"] for r in runs["live"])
    # Every turn's mismatch summary, measured by the kernel, equals the engine's.
    for live, sim in zip(runs["live"], runs["sim"], strict=True):
        assert [t["summary"] for t in live["turns"]] == [t["summary"] for t in sim["turns"]]
