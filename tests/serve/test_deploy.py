"""The deployment files agree with the CLI they start."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from netmend.cli.serve import serve

ROOT = Path(__file__).resolve().parents[2]
# What the AgentBeats runner appends to a participant image's entrypoint.
AGENTBEATS_ARGS = ["--host", "0.0.0.0", "--port", "9009", "--card-url", "http://netmend:9009"]


def _cli_params(argv: list[str]) -> dict:
    """Parse ``argv`` (starting at ``netmend serve``) exactly as the CLI would."""
    assert argv[:2] == ["netmend", "serve"], argv
    return serve.make_context("serve", list(argv[2:])).params


def _dockerfile_instruction(name: str) -> str:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    found = re.findall(rf"^{name}\s+(.*)$", text, re.MULTILINE)
    assert len(found) == 1, (name, found)
    return found[0]


def test_dockerfile_targets_amd64_and_serves_on_9009():
    assert "--platform=linux/amd64" in _dockerfile_instruction("FROM")
    entrypoint = json.loads(_dockerfile_instruction("ENTRYPOINT"))
    assert entrypoint == ["netmend", "serve", "--host", "0.0.0.0", "--port", "9009"]
    assert _cli_params(entrypoint) == {"host": "0.0.0.0", "port": 9009, "card_url": None}
    # AgentBeats appends its own options; the last occurrence wins.
    assert _cli_params(entrypoint + AGENTBEATS_ARGS)["card_url"] == "http://netmend:9009"


def test_dockerfile_health_check_has_curl_and_fetches_the_card():
    assert "curl" in _dockerfile_instruction("RUN apt-get update")
    check = _dockerfile_instruction("HEALTHCHECK")
    assert "curl -fsS http://127.0.0.1:9009/.well-known/agent-card.json" in check


def test_container_scenario_has_one_participant_and_a_malt_config():
    scenario = tomllib.loads((ROOT / "deploy" / "scenario.toml").read_text())
    (participant,) = scenario["participants"]
    assert participant["name"] == "netmend" and participant["image"]
    assert scenario["green_agent"]["image"]
    config = scenario["config"]
    assert set(config["complexity_level"]) <= {"level1", "level2", "level3"}
    assert config["prompt_type"] in {"zeroshot_base", "zeroshot_cot", "fewshot_base", "fewshot_cot"}
    assert config["num_queries"] > 0


def test_local_scenario_commands_match_their_endpoints():
    scenario = tomllib.loads((ROOT / "deploy" / "scenario.local.toml").read_text())
    (participant,) = scenario["participants"]
    params = _cli_params(shlex.split(participant["cmd"]))
    endpoint = urlsplit(participant["endpoint"])
    assert (params["host"], params["port"]) == (endpoint.hostname, endpoint.port)
    green = urlsplit(scenario["green_agent"]["endpoint"])
    assert f"--port {green.port}" in scenario["green_agent"]["cmd"]
    assert green.port != endpoint.port


def _json5_subset(path: Path) -> dict:
    """Parse a JSON5 file written as JSON plus whole-line ``//`` comments."""
    lines = [line for line in path.read_text().splitlines() if not line.lstrip().startswith("//")]
    return json.loads("\n".join(lines))


def test_amber_manifest_runs_netmend_serve_and_exports_its_a2a_endpoint():
    manifest = _json5_subset(ROOT / "deploy" / "amber-manifest.json5")
    assert re.fullmatch(r"0\.\d+\.\d+", manifest["manifest_version"])
    program = manifest["program"]
    params = _cli_params(program["entrypoint"])
    (endpoint,) = program["network"]["endpoints"]
    assert endpoint["port"] == params["port"] == 9009
    provides = manifest["provides"]["a2a"]
    assert (provides["kind"], provides["endpoint"]) == ("a2a", endpoint["name"])
    assert manifest["exports"] == {"a2a": "a2a"}


@pytest.mark.parametrize("name", ["scenario.toml", "scenario.local.toml", "amber-manifest.json5", "README.md"])
def test_deploy_files_name_no_machine_paths(name):
    text = (ROOT / "deploy" / name).read_text()
    assert not re.search(r"(^|[\s\"'=])/(work|home|root|tmp)/", text)
