"""``netmend serve`` driven over A2A with NetArena's Route loop: all four envelopes, legitimate configuration kept.

The assessment's client is the evaluator's (a2a-sdk 0.3.22, streaming, one
fresh message per turn, the prompt the only state); the router runs in the
namespaces lab, and on real Mininet where it is installed.
"""

from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import sys

import pytest

from netmend.assess.route.envelopes import PROMPT_TYPES
from netmend.assess.route.run import RouteAssessment, assess_route

pytest.importorskip("a2a.client", reason="needs the optional A2A client (netmend[a2a])")

FAMILIES = ("disable_routing", "remove_ip+wrong_routing_table", "disable_interface+drop_traffic_to_from_subnet", "static_neighbour")


@contextlib.contextmanager
def netmend_serve():
    process = subprocess.Popen([sys.executable, "-m", "netmend", "serve", "--host", "127.0.0.1", "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        found = re.search(r"listening on .*:(\d+);", process.stderr.readline())
        assert found, "netmend serve did not say where it listens"
        yield f"http://127.0.0.1:{found.group(1)}/"
    finally:
        process.terminate()
        assert process.wait(timeout=10) in (0, -signal.SIGTERM)


def _check(results, summary):
    assert [r.problem for r in results] == [""] * len(results)
    assert {r.prompt_type for r in results} == set(PROMPT_TYPES)
    assert summary["correctness"] == 1.0 and summary["safety"] == 1.0 and summary["kept"] == 1.0
    assert summary["legit_items"] > 0 and summary["lost_to_repair"] == 0
    assert all(r.iterations == (2 if r.first_loss else 1) for r in results)


@pytest.mark.parametrize("fidelity", ["netarena", "full"])
def test_the_served_agent_repairs_over_a2a_in_every_envelope(router_lab_ok, fidelity):
    with netmend_serve() as url:
        config = RouteAssessment(per_type=1, seed=3, families=FAMILIES, switches=3, hosts=2, fidelity=fidelity, agent_url=url)
        _check(*assess_route(config))


@pytest.mark.needs_mininet
def test_the_served_agent_repairs_over_a2a_on_real_mininet():
    from netmend.lab.router.real_mininet import unavailable

    if reason := unavailable():
        pytest.skip(reason)
    with netmend_serve() as url:
        config = RouteAssessment(per_type=1, seed=4, families=FAMILIES, fidelity="netarena", agent_url=url, lab="mininet")
        _check(*assess_route(config))
