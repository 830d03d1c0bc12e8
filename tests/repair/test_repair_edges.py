"""The edges: the served agent over A2A, and cluster mode through a kubectl process."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest
import yaml
from click.testing import CliRunner
from repair_helpers import broken

from netmend.assess.k8s.inject import Injection
from netmend.cli import main


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def served_agent():
    port = _free_port()
    netmend = Path(sys.executable).with_name("netmend")
    proc = subprocess.Popen([str(netmend), "serve", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                if httpx.get(url + ".well-known/agent-card.json", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            pytest.fail("netmend serve did not come up")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_assess_k8s_against_the_served_agent(served_agent, tmp_path):
    result = CliRunner().invoke(
        main,
        ["assess", "k8s", "--per-type", "1", "--seed", "2", "--families", "remove_ingress,change_port+add_egress",
         "--agent-url", served_agent, "--no-plots", "--json", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output[-2000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert (summary["n"], summary["correctness"], summary["safety"], summary["avg_iterations"]) == (2, 1.0, 1.0, 2.0)


FAKE_KUBECTL = textwrap.dedent(
    """\
    #!{python}
    # A kubectl process backed by the simulated cluster saved in {state}.
    import json, pickle, sys
    with open({state!r}, "rb") as handle:
        sim = pickle.load(handle)
    result = sim.kubectl(sys.argv[1:])
    with open({state!r}, "wb") as handle:
        pickle.dump(sim, handle)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    sys.exit(result.code)
    """
)


def test_cluster_mode_through_a_kubectl_process(setup, tmp_path, monkeypatch):
    import pickle

    sim, _ = broken(setup, Injection("remove_ingress", "paymentservice"))
    state = tmp_path / "state.pickle"
    state.write_bytes(pickle.dumps(sim))
    kubectl = tmp_path / "kubectl"
    kubectl.write_text(FAKE_KUBECTL.format(python=sys.executable, state=str(state)), encoding="utf-8")
    kubectl.chmod(0o755)
    (tmp_path / "intent.yaml").write_text(yaml.safe_dump({"allow": ["checkoutservice -> paymentservice:50051"]}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["k8s", "repair", "--intent", "intent.yaml", "--kubectl", str(kubectl), "--apply", "--rollback-file", "rb.sh"]
    )
    assert result.exit_code == 0, result.output
    after = pickle.loads(state.read_bytes())
    assert after.probe(setup.expected) == ()
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    rolled = subprocess.run(["sh", "rb.sh"], capture_output=True, text=True, env=env, check=False)
    assert rolled.returncode == 0, rolled.stderr
    restored = pickle.loads(state.read_bytes())
    assert restored.policies["default/paymentservice"]["spec"] == sim.policies["default/paymentservice"]["spec"]
