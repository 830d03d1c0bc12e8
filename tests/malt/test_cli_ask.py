"""``netmend ask malt`` end to end through the click runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from netmend.cli import main
from netmend.malt import safety, topology


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["ask", "malt", *args], input=stdin)


def test_human_output_shows_answer_commit_and_notes() -> None:
    result = run("Remove ju1.a1.m1.s2c1 from the graph. Return a graph.")
    assert result.exit_code == 0, result.output
    assert "level-1 remove" in result.output
    assert "requested: UNSAFE; committed: safe" in result.output
    assert "also removed 'ju1.a1.m1.s2c1.p1'" in result.output


def test_json_output_and_code() -> None:
    result = run("count the ports in ju1.a1.m1", "--json", "--code")
    record = json.loads(result.output)
    assert record["type"] == "text" and record["data"] == 16
    assert record["code"].startswith("def process_graph(graph):")


def test_batch_mode_one_json_line_per_request_and_failure_exit() -> None:
    stdin = "list children of ju1.a1.m1\n\nremove no.such.node\nrank children of ju1.a1.m1 by capacity\n"
    result = run("-", stdin=stdin)
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [("error" in line) for line in lines] == [False, True, False]
    assert lines[1]["error"]["code"] == "unknown-name"
    assert result.exit_code == 1


def test_refusals_exit_2_with_a_reason() -> None:
    result = run("make it faster")
    assert result.exit_code == 2 and "refused (unknown)" in result.output
    result = run("add port p9x to ju1.a1.m1.s2c1.p1")
    assert result.exit_code == 0 and "cannot contain" in result.output
    result = run("list the children of rack ju1.a1.m1")
    assert result.exit_code == 2 and "not a EK_RACK" in result.output
    result = run("add port new_EK_PORT_1 to ju1.a1.m1.s2c1. add port new_EK_PORT_1 to ju1.a1.m1.s2c2")
    assert result.exit_code == 2 and "already exists" in result.output


def test_write_commits_a_safe_graph(tmp_path: Path) -> None:
    out = tmp_path / "committed.json"
    result = run("remove ju1.a1.m1.s2c1.p1", "--write", str(out))
    assert result.exit_code == 0, result.output
    committed = topology.load(out)
    assert "ju1.a1.m1.s2c1.p1" not in committed and safety.is_safe(committed)


def test_topology_file_errors_are_clear(tmp_path: Path) -> None:
    bad = tmp_path / "bad.textproto"
    bad.write_text("entity { id {")
    result = run("list children of ju1", "--topology", str(bad))
    assert result.exit_code == 1 and "bad.textproto" in result.output


def test_the_new_questions_read_well() -> None:
    top = run("which 2 switches in ju1.a1.m1 have the most ports?")
    assert top.exit_code == 0 and "EK_PORT count" in top.output
    average = run("what is the average capacity of the ports in ju1.a1.m2?")
    assert "answer    1,750,000,000 bps" in average.output
    empty = run("what is the average capacity of the racks in ju1.a1.m1")
    assert "none: no such node" in empty.output
    above = run("which agg block contains ju1.a1.m2.s2c1.p2")
    assert "1 node(s)" in above.output and "ju1.a1.m2" in above.output
    record = json.loads(run("set all ports of ju1.a1.m1.s2c1 to 0 bps", "--json").output)
    assert record["committed_safe"] and not record["change"]["changed_attributes"]
    assert any("kept the capacity" in note for note in record["notes"])


def test_a_plain_capacity_is_asked_of_ports_and_switches_only() -> None:
    """Named without a kind, an agg block is found in the topology and the plain question refused."""
    refused = run("what is the bandwidth of ju1.a1.m1", "--json")
    assert json.loads(refused.output)["error"]["code"] == "invalid" and refused.exit_code != 0
    total = json.loads(run("what is the total bandwidth of ju1.a1.m1", "--json").output)
    ports = json.loads(run("what is the sum of the capacity of the ports in ju1.a1.m1",
                           "--json").output)
    assert total["data"] == ports["data"] > 0
    switch = json.loads(run("what is the capacity of ju1.a1.m1.s2c1", "--json").output)
    assert switch["data"] == json.loads(run("total capacity of the ports of ju1.a1.m1.s2c1",
                                            "--json").output)["data"]


def test_code_for_an_unwritable_value_is_a_typed_refusal() -> None:
    result = run("set ju1.a1.m1.s2c1.p3 to 1e5000 bps", "--json", "--code")
    record = json.loads(result.output)
    assert result.exit_code == 2
    assert record["error"]["code"] == "invalid"
    assert record["error"]["expected"].startswith("finite numbers of at most")


def test_an_answer_says_how_the_request_was_read() -> None:
    result = run("Take ju1.a1.m1.s2c1 out, then tell me how many ports are left under "
                 "agg block ju1.a1.m1")
    assert result.exit_code == 0, result.output
    assert ("read as   Remove ju1.a1.m1.s2c1 from the graph. Count the ports in ju1.a1.m1."
            in result.output)
    record = json.loads(run("count the ports in ju1.a1.m1", "--json").output)
    assert record["read_as"] == "Count the ports in ju1.a1.m1."


def test_a_refusal_for_unknown_words_offers_a_request_and_what_it_leaves_out() -> None:
    text = "Linecard pulled - remove ju1.a2.m2.s2c2.p1 from the topology."
    result = run(text)
    assert result.exit_code == 2
    assert "refused (unknown)" in result.output
    assert "did you mean  Remove ju1.a2.m2.s2c2.p1 from the graph." in result.output
    assert "'linecard'" in result.output
    record = json.loads(run(text, "--json").output)
    assert record["error"]["suggestion"] == {"request": "Remove ju1.a2.m2.s2c2.p1 from the graph.",
                                             "left_out": ["linecard"]}
    assert "suggestion" not in json.loads(run("remove no.such.node", "--json").output)["error"]
