"""The router lab on the real kernel: NetArena's fault patterns, the router program, the assessment."""

from __future__ import annotations

import random
import shutil

import pytest

from netmend.assess.route.faults import FAMILIES, draw_family
from netmend.assess.route.run import RouteAssessment, assess_route
from netmend.lab.router.lab import RouterLab
from netmend.route.diagnose import diagnose
from netmend.route.evidence import Evidence
from netmend.route.intent import from_topology
from netmend.route.program import DUMP, FIX_MARK, STATE_MARK, Candidate, fix_program, router_program
from netmend.route.state import parse_state
from netmend.route.topology import Topology, candidates

pytestmark = pytest.mark.needs_root_net
T = Topology("p83_", 2, 1)


def _rows(lab: RouterLab) -> list[str]:
    return [line.strip() for line in lab.pingall().render().splitlines()]


@pytest.mark.parametrize(
    ("commands", "rows"),
    [
        (["sysctl -w net.ipv4.ip_forward=0"], ["p83_h1 -> X p83_r0", "p83_h2 -> X p83_r0", "p83_r0 -> p83_h1 p83_h2", "*** Results: 33% dropped (4/6 received)"]),
        (["ip rule add prohibit pref 0"], ["p83_h1 -> X X", "p83_h2 -> X X", "p83_r0 -> X X", "*** Results: 100% dropped (0/6 received)"]),
        (["ip link set p83_r0-eth1 down"], ["p83_h1 -> X X", "p83_h2 -> X p83_r0", "p83_r0 -> X p83_h2", "*** Results: 66% dropped (2/6 received)"]),
        (["ip addr flush dev p83_r0-eth1"], ["p83_h1 -> X X", "p83_h2 -> X X", "p83_r0 -> X p83_h2", "*** Results: 83% dropped (1/6 received)"]),
        (["ip addr flush dev p83_r0-eth1", "ip addr add 192.168.1.1/16 dev p83_r0-eth1"], ["*** Results: 0% dropped (6/6 received)"]),
        (["iptables -A INPUT -s 192.168.1.0/24 -j DROP", "iptables -A OUTPUT -d 192.168.1.0/24 -j DROP"],
         ["p83_h1 -> p83_h2 X", "p83_h2 -> p83_h1 p83_r0", "p83_r0 -> X p83_h2", "*** Results: 33% dropped (4/6 received)"]),
    ],
)
def test_faults_give_the_patterns_netarena_documents(lab, commands, rows):
    lab.build(T)
    for command in commands:
        lab.run(T.router, command)
    assert _rows(lab)[-len(rows):] == rows


def _normal(command: str) -> str:
    return " ".join(w.removesuffix("/32") for w in command.split())


@pytest.mark.parametrize("family", ["disable_routing+remove_ip", "disable_interface+wrong_routing_table", "remove_ip+drop_traffic_to_from_subnet", "blackhole_route", "static_neighbour", "arp_off"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_awk_decision_and_the_python_diagnosis_agree_and_converge(lab, family, seed):
    t = Topology("p9_", 3, 2)
    lab.build(t)
    for fault in draw_family(family, t, random.Random(f"{seed}:{family}"), netem=lab.netem):
        for command in fault.commands:
            lab.run(fault.machine, command)
    pingall = lab.pingall()
    cands = [Candidate(f"{c.switches}x{c.hosts_per_switch}", from_topology(c), Evidence.from_pingall(pingall, c)) for c in candidates(t.nodes)]
    dry = lab.run(t.router, router_program(cands, apply=False)).output
    assert "netmend: match 3x2" in dry
    planned = sorted(_normal(line.split(": ", 2)[2]) for line in dry.splitlines() if line.startswith(FIX_MARK))
    state = parse_state(dry)
    expected = sorted(_normal(" ".join(d.command)) for d in diagnose(state, from_topology(t), Evidence.from_pingall(pingall, t)) if d.command)
    assert planned == expected
    shell = "dash" if shutil.which("dash") else "sh"
    lab.run(t.router, f"{shell} -c {__import__('shlex').quote(router_program(cands))}")
    assert lab.pingall().loss == 0
    assert "netmend: none" in lab.run(t.router, router_program(cands)).output


def test_the_unprivileged_path_builds_the_same_network(router_lab_ok):
    from netmend.lab.errors import SandboxError

    try:
        running = RouterLab.start(T, tied=True, userns=True, fidelity="netarena")
    except SandboxError as exc:
        pytest.skip(f"user namespaces are not available here: {exc}")
    with running as lab:
        assert lab.pingall().loss == 0
        assert "command not found" in lab.run(T.router, "iptables -L").output
        assert lab.run(T.router, "sleep 30", timeout=0.5).blocked


def test_the_state_dump_parses_on_a_fresh_router(lab):
    lab.build(T)
    dump = "; ".join(f"echo {STATE_MARK} {part}; {command} 2>/dev/null" for part, command in DUMP)
    state = parse_state(lab.run(T.router, dump).output)
    assert state.sysctls["net.ipv4.ip_forward"] == "1" and state.link("p83_r0-eth2").up
    assert diagnose(state, from_topology(T), Evidence.everything(T)) == ()


@pytest.mark.slow
@pytest.mark.parametrize(("fidelity", "switches", "hosts"), [("netarena", 2, 1), ("full", 3, 2)])
def test_every_family_is_repaired_at_once_safely_keeping_legitimate_configuration(router_lab_ok, fidelity, switches, hosts):
    config = RouteAssessment(per_type=1, seed=11, families=FAMILIES, switches=switches, hosts=hosts, fidelity=fidelity)
    results, summary = assess_route(config)
    assert len(results) == len(FAMILIES)
    bad = [(r.task_id, r.success, r.safe, r.iterations, r.lost_to_repair, r.problem) for r in results
           if not (r.success and r.safe and r.kept) or r.problem]
    assert bad == []
    assert summary["legit_items"] > 0 and summary["lost_to_repair"] == 0
    # Every real fault is repaired by the first command, except a host fault whose
    # pingall is exactly a router fault's (marked, and at most one command later).
    slow = [r for r in results if r.first_loss > 0 and r.iterations > 2]
    assert all(r.unplaceable and r.family == "host_default_route" and r.iterations == 3 for r in slow)
    assert summary["avg_iterations_real_placeable"] == 2.0


def test_the_assess_command_reports_tables_records_and_plots(router_lab_ok, tmp_path):
    import json as _json

    from click.testing import CliRunner

    from netmend.cli import main

    result = CliRunner().invoke(main, ["assess", "route", "--per-type", "1", "--families", "disable_routing,arp_off", "--seed", "3", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    line = _json.loads(result.stdout.strip().splitlines()[-1])
    assert line["correctness"] == 1.0 and line["safety"] == 1.0 and line["kept"] == 1.0 and line["topology"] == "2x1"
    assert line["real_faults_netarena"] <= line["real_faults"] and line["lab"] == "namespaces"
    assert len((tmp_path / "records.jsonl").read_text().splitlines()) == 2
    assert (tmp_path / "iterations.png").exists()


def test_a_many_line_fix_runs_as_one_command_on_the_terminal(lab):
    t = Topology("p83_", 3, 2)
    lab.build(t)
    for k in (1, 2, 3):
        lab.run(t.router, f"ip link set dev p83_r0-eth{k} down")
    commands = [["ip", "link", "set", "dev", f"p83_r0-eth{k}", "up"] for k in (1, 2, 3)]
    nudges = [[f"p83_r0-eth{k}", *(h.address for h in t.hosts if h.subnet == k)] for k in (1, 2, 3)]
    command = fix_program(commands, nudges)
    assert command.count("\n") >= 6
    done = lab.run(t.router, command)
    assert not done.blocked and done.output.count(FIX_MARK) == 3 and STATE_MARK in done.output
    assert lab.pingall().loss == 0


@pytest.mark.parametrize(("qdisc", "kept"), [
    ("tbf rate 100mbit burst 64kb latency 100ms", True),
    ("tbf rate 1mbit burst 100 limit 1000", False),
    ("tbf rate 100mbit burst 64kb latency 100ms peakrate 200mbit mtu 2000", False),  # a second bucket: judged as before
])
def test_the_router_program_keeps_a_shaping_token_bucket_on_the_broken_interface(lab, qdisc, kept):
    lab.build(T)
    lab.run(T.router, f"tc qdisc add dev p83_r0-eth1 root {qdisc}")
    lab.run(T.router, "ip link set p83_r0-eth1 mtu 68")
    pingall = lab.pingall()
    assert pingall.loss > 0
    cands = [Candidate(f"{c.switches}x{c.hosts_per_switch}", from_topology(c), Evidence.from_pingall(pingall, c)) for c in candidates(T.nodes)]
    done = lab.run(T.router, router_program(cands)).output
    assert ("tc qdisc del dev p83_r0-eth1 root" in done) is not kept
    assert ("qdisc tbf" in lab.run(T.router, "tc qdisc show dev p83_r0-eth1").output) is kept
    assert lab.pingall().loss == 0
    state = parse_state(done)
    assert [d.kind for d in diagnose(state, from_topology(T), Evidence.from_pingall(pingall, T))] == []
