"""``netmend assess malt`` from the command line."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from netmend.cli import main


def test_json_summary_records_and_plots(tmp_path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["assess", "malt", "--per-type", "2", "--seed", "3",
                                       "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["n"] == 20 and summary["correctness"] == 1.0 and summary["safety"] == 1.0
    assert set(summary) == {"n", "correctness", "safety", "avg_latency_s", "by_family",
                            "reply_bytes"}
    sizes = summary["reply_bytes"]
    assert sizes["n"] == 20 and sizes["met"] is True
    assert 0 < sizes["median"] <= sizes["p95"] <= sizes["max"] <= sizes["goals"]["max"]
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    assert max(r["Reply-Bytes"] for r in records) == sizes["max"]
    assert len(summary["by_family"]) == 10
    assert len((out / "records.jsonl").read_text().splitlines()) == 20
    assert {p.name for p in out.glob("*.png")} == {"correctness.png", "safety.png", "latency.png"}


def test_table_output_and_family_selection(tmp_path) -> None:
    result = CliRunner().invoke(main, ["assess", "malt", "--per-type", "1", "--families", "all",
                                       "--levels", "3", "--no-plots", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "l3-for-each-add-count" in result.output and "total" in result.output
    assert not list(tmp_path.glob("*.png"))


def test_node_link_topology_file(tmp_path, small_graph) -> None:
    from netmend.malt import topology

    path = tmp_path / "topo.json"
    topology.write_node_link(small_graph, path)
    result = CliRunner().invoke(main, ["assess", "malt", "--per-type", "1", "--topology", str(path),
                                       "--json", "--no-plots", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output


def test_bad_input_is_refused_with_a_reason(tmp_path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["assess", "malt", "--families", "l9-fly", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "unknown family 'l9-fly'" in result.output
    result = runner.invoke(main, ["assess", "malt", "--levels", "1,7", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "levels are 1, 2 and 3" in result.output
    bad = tmp_path / "bad.txt"
    bad.write_text("entity { id {")
    result = runner.invoke(main, ["assess", "malt", "--topology", str(bad), "--out", str(tmp_path)])
    assert result.exit_code != 0 and "cannot load the topology" in result.output


def test_a_missing_a2a_client_is_a_clear_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "a2a", None)  # as if the optional extra were absent
    result = CliRunner().invoke(main, ["assess", "malt", "--per-type", "1", "--out", str(tmp_path),
                                       "--agent-url", "http://127.0.0.1:9/"])
    assert result.exit_code == 1 and "pip install 'netmend[a2a]'" in result.output


def test_every_envelope_in_one_run(tmp_path) -> None:
    result = CliRunner().invoke(main, ["assess", "malt", "--per-type", "1", "--prompt-type", "all",
                                       "--families", "l1-list,l2-remove-count", "--json",
                                       "--no-plots", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["n"] == 8 and summary["by_family"]["l1-list"]["n"] == 4
    assert set(summary["by_prompt_type"]) == {"zeroshot_base", "fewshot_base", "zeroshot_cot",
                                              "fewshot_cot"}


def test_the_reply_sizes_are_reported_beside_their_goals(tmp_path, monkeypatch) -> None:
    from netmend.assess.malt import run as malt_run

    args = ["assess", "malt", "--per-type", "1", "--no-plots", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("reply bytes"))
    assert "over 10 replies): median " in line and ", p95 " in line and ", max " in line
    assert line.endswith("goals median <= 1500 B, max <= 4000 B: met")
    monkeypatch.setattr(malt_run, "REPLY_GOALS", {"median": 100, "max": 200})
    result = CliRunner().invoke(main, args)
    assert "goals median <= 100 B, max <= 200 B: NOT met" in result.output
