"""``netmend lab`` end to end: up, apply, probe in every format, down."""

from __future__ import annotations

import json
from importlib import resources

import pytest
import yaml
from click.testing import CliRunner

from netmend.cli import main
from netmend.k8s import (
    Prober,
    compare,
    demo_cluster,
    demo_expected,
    demo_policies,
    mismatch_summary,
    policy_to_dict,
)
from netmend.lab import sandbox

pytestmark = pytest.mark.needs_root_net


@pytest.fixture
def cli(lab_ok, tmp_path, monkeypatch):
    monkeypatch.setenv(sandbox.STATE_ENV, str(tmp_path / "labs"))
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, ["lab", *args, "--name", "cli-test"], catch_exceptions=False)

    yield invoke
    invoke("down")


def test_up_apply_probe_down(cli, tmp_path):
    up = cli("up", "--deny", "reject")
    assert up.exit_code == 0, up.output
    assert "13 pods" in up.output
    assert cli("probe").output.strip() == "No mismatches found."
    assert cli("up").exit_code != 0  # one lab per name

    broken = demo_policies()[1:]  # the first workload loses its policy: open ingress
    path = tmp_path / "policies.yaml"
    path.write_text(yaml.safe_dump_all([policy_to_dict(p) for p in broken]))
    applied = cli("apply", "--policies", str(path))
    assert applied.exit_code == 0, applied.output
    assert "11 policies applied" in applied.output and "1 pods reloaded" in applied.output

    want = mismatch_summary(
        compare(demo_expected(), Prober(demo_cluster(), demo_expected().probes()).run(broken))
    )
    assert cli("probe").output.strip() == want != "No mismatches found."
    assert cli("probe", "--mode", "nc").output.strip() == want

    report = json.loads(cli("probe", "--format", "json").output)
    assert report["summary"] == want
    assert {p["dialed"].split(":")[0] for p in report["probes"]} >= {"adservice", "cartservice"}
    assert (
        "X" in cli("probe", "--format", "grid").output
        or "!" in cli("probe", "--format", "grid").output
    )

    assert cli("down").output.strip() == "lab 'cli-test' stopped"
    assert cli("down").output.strip() == "no lab 'cli-test' was running"
    missing = cli("probe")
    assert missing.exit_code != 0 and "netmend lab up" in missing.output


def test_bad_policy_file_is_refused_and_nothing_changes(cli, tmp_path):
    assert cli("up", "--deny", "reject").exit_code == 0
    path = tmp_path / "bad.yaml"
    path.write_text(
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: x}\nspec: {podSelector: 7}\n"
    )
    bad = cli("apply", "--policies", str(path))
    assert bad.exit_code != 0 and "podSelector" in bad.output
    assert cli("probe").output.strip() == "No mismatches found."


def test_up_from_manifest_files_and_probe_against_an_expected_file(cli):
    demo = resources.files("netmend.k8s.data") / "online-boutique"
    with resources.as_file(demo) as folder:
        up = cli(
            "up",
            "--deny",
            "reject",
            "--manifests",
            str(folder / "workloads.yaml"),
            "--manifests",
            str(folder / "policies.yaml"),
        )
        assert up.exit_code == 0, up.output
        assert "12 policies" in up.output
        expected = cli("probe", "--expected", str(folder / "expected.yaml"))
    assert expected.output.strip() == "No mismatches found."
    # Without an expected file the engine's prediction is the reference.
    predicted = cli("probe", "--format", "json")
    report = json.loads(predicted.output)
    assert report["summary"] == "No mismatches found." and len(report["probes"]) > 92
