"""``netmend k8s probe`` end to end through click."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner
from k8s_oracles import DATA

from netmend.cli import main
from netmend.k8s import demo_policies, policy_to_dict


def run(*args):
    return CliRunner().invoke(main, ["k8s", "probe", *args])


def test_demo_has_no_mismatches():
    result = run()
    assert result.exit_code == 0, result.output
    assert result.output == "No mismatches found.\n"


def test_broken_policy_file_yields_netarena_lines(tmp_path):
    docs = [policy_to_dict(p) for p in demo_policies()]
    for doc in docs:
        if doc["metadata"]["name"] == "frontend":
            doc["spec"]["egress"] = [
                {"to": [{"podSelector": {"matchLabels": {"app": "adservice"}}}]}
            ]
    path = tmp_path / "policies.yaml"
    path.write_text(yaml.safe_dump_all(docs), encoding="utf-8")
    with_dns = run("--policies", str(path))
    assert with_dns.exit_code == 0, with_dns.output
    lines = with_dns.output.splitlines()
    assert lines[0] == "Mismatch: frontend \u2192 adservice:9555 (Expected: True, Actual: False)"
    assert len(lines) == 7  # every expected-true probe of frontend, DNS being cut
    without_dns = run("--policies", str(path), "--dns", "ignore")
    assert "adservice" not in without_dns.output and len(without_dns.output.splitlines()) == 6


def test_grid_and_json_formats():
    grid = run("--format", "grid")
    assert grid.exit_code == 0 and grid.output.splitlines()[1].startswith("frontend")
    report = json.loads(run("--format", "json").output)
    assert report["summary"] == "No mismatches found."
    assert len(report["probes"]) == 92
    first = report["probes"][0]
    assert (first["source"], first["target"], first["expected"], first["actual"]) == (
        "frontend",
        "adservice:9555",
        True,
        True,
    )
    assert "default/adservice ingress[0]" in first["explanation"]


def test_manifests_without_expected_matrix(tmp_path):
    path = tmp_path / "app.yaml"
    path.write_text(
        yaml.safe_dump_all(
            [
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": "web"},
                    "spec": {
                        "template": {
                            "metadata": {"labels": {"app": "web"}},
                            "spec": {"containers": [{"ports": [{"containerPort": 80}]}]},
                        }
                    },
                },
                {
                    "apiVersion": "v1",
                    "kind": "Service",
                    "metadata": {"name": "web"},
                    "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]},
                },
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": "client"},
                    "spec": {
                        "template": {
                            "metadata": {"labels": {"app": "client"}},
                            "spec": {"containers": [{}]},
                        }
                    },
                },
            ]
        ),
        encoding="utf-8",
    )
    grid = run("--manifests", str(path), "--format", "grid")
    assert grid.exit_code == 0, grid.output
    assert grid.output.splitlines()[1:3] == ["client 1", "web     "]
    refused = run("--manifests", str(path))
    assert refused.exit_code != 0 and "pass --expected" in refused.output


def test_bad_input_is_a_clean_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: x}\nspec: {policyTypes: [In]}\n",
        encoding="utf-8",
    )
    result = run("--policies", str(path))
    assert result.exit_code == 1
    assert "spec.policyTypes[0]: expected 'Ingress' or 'Egress', got 'In'" in result.output


@pytest.mark.parametrize(
    ("output", "args"),
    [
        ("netarena", ["--format", "netarena"]),
        ("grid", ["--format", "grid"]),
        ("netarena-no-dns", ["--dns", "ignore"]),
    ],
)
def test_golden_outputs(output, args):
    golden = DATA / "golden"
    result = run("--policies", str(golden / "port-and-egress.policies.yaml"), *args)
    assert result.exit_code == 0, result.output
    assert result.output == (golden / f"port-and-egress.{output}.txt").read_text(encoding="utf-8")
