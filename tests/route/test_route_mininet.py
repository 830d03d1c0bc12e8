"""The Route loop on real Mininet: commands through its ``Node.cmd``, the evaluator's own shell path.

Skips with the reason where Debian's mininet (mnexec and its package for the
system python), root, brctl or ping is missing.
"""

from __future__ import annotations

import pytest

from netmend.assess.route.run import RouteAssessment, assess_route
from netmend.lab.router.real_mininet import MininetLab, unavailable
from netmend.route.program import fix_program
from netmend.route.topology import Topology

pytestmark = pytest.mark.needs_mininet


@pytest.fixture(scope="module")
def mininet_ok():
    reason = unavailable()
    if reason:
        pytest.skip(reason)


def test_mininet_cuts_a_long_line_and_waits_for_the_quote_as_the_evaluator_would(mininet_ok):
    with MininetLab.start(fidelity="full") as lab:
        lab.build(Topology("p83_", 2, 1))
        assert lab.run("p83_r0", "echo 'a\nb'").output.endswith("a\nb")
        lab.run("p83_r0", "ip link set dev p83_r0-eth2 down")
        fix = fix_program([["ip", "link", "set", "dev", "p83_r0-eth2", "up"]], [["p83_r0-eth2", "192.168.2.100"]])
        assert "\n" in fix and not lab.run("p83_r0", fix).blocked  # a group of lines: one command to Mininet
        assert lab.pingall().loss == 0
        assert lab.run("p83_r0", "echo '" + "a" * 5000 + "'", timeout=3).blocked


@pytest.mark.parametrize("fidelity, size", [("netarena", (2, 1)), ("full", (3, 2))])
def test_the_assessment_on_mininet_repairs_every_fault_in_one_command_and_keeps_the_configuration(mininet_ok, fidelity, size):
    families = ("disable_interface", "remove_ip+wrong_routing_table", "disable_routing+drop_traffic_to_from_subnet", "blackhole_route", "host_default_route")
    config = RouteAssessment(per_type=1, seed=5, families=families, switches=size[0], hosts=size[1], fidelity=fidelity, lab="mininet")
    results, summary = assess_route(config)
    assert [r.problem for r in results] == [""] * len(families)
    assert summary["correctness"] == 1.0 and summary["safety"] == 1.0 and summary["kept"] == 1.0
    slow = [(r.task_id, r.iterations, [t.loss for t in r.turns], [t.output[-300:] for t in r.turns]) for r in results
            if r.iterations != (2 if r.first_loss else 1)]
    assert slow == []
