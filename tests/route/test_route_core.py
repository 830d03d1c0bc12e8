"""The pure router core: conventions, pingall text, quoting, prompts, intent, the participant."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from netmend.assess.route.envelopes import PROMPT_TYPES, wrap
from netmend.route.evidence import Evidence
from netmend.route.intent import IntentError, from_mapping, from_topology
from netmend.route.participant import decide, host_suspect
from netmend.route.pingall import Pingall, PingallError
from netmend.route.program import (
    ENGINE,
    Candidate,
    fix_program,
    host_program,
    one_line,
    router_program,
)
from netmend.route.prompt import PromptError, parse_prompt
from netmend.route.shell import BANNED, MAX_LINE, ShellError, banned_in, check_command, quote
from netmend.route.topology import Topology, TopologyError, candidates, split_names


def _pingall(topology: Topology, broken: set[tuple[str, str]] = frozenset()) -> Pingall:
    nodes = topology.nodes
    return Pingall(nodes, {(s, d): (s, d) not in broken for s in nodes for d in nodes if s != d})


# NetArena's own layout of a 33% pingall (rows end with a space).
NETARENA_33 = "p83_h1 -> X p83_r0 \np83_h2 -> X p83_r0 \np83_r0 -> p83_h1 p83_h2 \n*** Results: 33% dropped (4/6 received)\n"


def test_pingall_parses_netarena_text_and_renders_it_back_byte_for_byte():
    p = Pingall.parse(NETARENA_33)
    assert p.loss == 33 and p.failures() == (("p83_h1", "p83_h2"), ("p83_h2", "p83_h1"))
    assert p.render() == NETARENA_33


def test_loss_is_truncated_like_netarena():
    t = Topology("a_", 2, 1)
    assert _pingall(t, {("a_h1", "a_h2")}).loss == 16  # 1 of 6 lost: int(16.66)


@pytest.mark.parametrize("text", ["a -> b \n", "a -> X \nb -> a \n*** Results: 0% dropped (2/2 received)", "a -> b c \nb -> a \n*** Results: 0% dropped (2/2 received)"])
def test_malformed_pingalls_are_refused(text):
    with pytest.raises(PingallError):
        Pingall.parse(text)


def test_topology_follows_the_naming_conventions():
    t = Topology("p29_", 3, 2)
    assert [h.name for h in t.hosts][-1] == "p29_h6" and t.host("p29_h3").address == "192.168.2.100"
    assert t.host("p29_h4").gateway == "192.168.2.1" and t.interface(3) == "p29_r0-eth3"
    assert t.target("p29_r0") == "192.168.1.1"


def test_candidates_cover_every_factorisation_and_names_are_checked():
    nodes = tuple(f"x_h{i}" for i in range(1, 9)) + ("x_r0",)
    assert [(c.switches, c.hosts_per_switch) for c in candidates(nodes)] == [(1, 8), (2, 4), (4, 2), (8, 1)]
    assert split_names(("ping_h1", "ping_r0")) == ("ping_", ("ping_h1",))
    for bad in [("a_h1", "b_h2", "a_r0"), ("a_h1", "a_h3", "a_r0"), ("a_h1", "a_h2")]:
        with pytest.raises(TopologyError):
            candidates(bad)


@given(st.text(alphabet=st.characters(blacklist_characters="\n\r\0", blacklist_categories=("Cs",)), max_size=40))
def test_quote_round_trips_through_sh_and_never_carries_a_banned_word(word):
    quoted = quote(word)
    assert not banned_in(quoted) and "\n" not in quoted
    assert "!" not in quoted.replace("\\!", "")
    if shutil.which("dash"):
        out = subprocess.run(["dash", "-c", f"printf %s {quoted}"], capture_output=True, text=True, check=True).stdout
        assert out == word


def test_quoted_banned_words_survive_an_interactive_bash():
    words = ["mapping", "stopping -> ping!", "it's", "sudo systemctl frr ethtool tcpdump"]
    line = "printf '%s|' " + " ".join(quote(w) for w in words)
    check_command(line)
    out = subprocess.run(["bash", "--norc", "--noediting", "-i"], input=line + "\n", capture_output=True, text=True, env={"PS1": "", "PATH": "/usr/bin:/bin"}).stdout
    assert "|".join(words) + "|" in out


def test_check_command_refuses_what_the_evaluator_would_skip_or_mangle():
    for bad in ["echo keeping", "a\nb", "echo 'a'\nb", 'echo "a\nb"', "echo \\\nb", "echo hi!", " ", "echo a\r", "echo " + "a" * MAX_LINE,
                "awk '\n" + "x" * MAX_LINE + "\n'"]:
        with pytest.raises(ShellError):
            check_command(bad)
    assert check_command("awk '\n" + "x" * 100 + "\n' | cat") == "awk '\n" + "x" * 100 + "\n' | cat"
    assert check_command("( echo a\necho b )") == "( echo a\necho b )"
    for bad in ["( case a in a) echo\n;; esac )", "( echo a ) \n echo b", 'echo "(\n"']:
        with pytest.raises(ShellError):
            check_command(bad)


def test_the_longest_second_turn_fixes_still_fit_a_terminal():
    commands = [["ip", "link", "set", "dev", f"p83_r0-eth{k}", "up"] for k in range(1, 9)]
    commands += [["ip", "addr", "add", f"192.168.{k}.1/24", "dev", f"p83_r0-eth{k}"] for k in range(1, 9)]
    nudges = [[f"p83_r0-eth{k}", *(f"192.168.{k}.{100 + j}" for j in range(4))] for k in range(1, 9)]
    command = fix_program(commands, nudges)
    assert max(len(line) for line in command.split("\n")) < MAX_LINE and len(command) > MAX_LINE


@pytest.mark.parametrize("size", [(2, 1), (4, 2), (8, 4)])
def test_the_router_programs_are_clean_and_every_line_fits_a_terminal(size):
    t = Topology("ping_", *size)  # even a prefix holding a banned word
    cands = [Candidate(f"{c.switches}x{c.hosts_per_switch}", from_topology(c), Evidence.everything(c)) for c in candidates(t.nodes)]
    for command in [router_program(cands), router_program(cands, apply=False), fix_program([["ip", "link", "set", "dev", "ping_r0-eth1", "up"]]),
                    host_program([("4x2", "ping_h1-eth0", "192.168.1.100", "192.168.1.1")])]:
        assert check_command(command) == command and not any(w in command for w in BANNED)
        assert max(len(line) for line in command.split("\n")) < MAX_LINE
    assert "\n" not in one_line(ENGINE)
    assert one_line(ENGINE, breaks=True).replace("\n", " ") == one_line(ENGINE)


def _mininet_shell(command: str, timeout: float = 10.0) -> bytes | None:
    """``command`` through a bash on a terminal set up as Mininet sets up its nodes' shells."""
    import os
    import pty
    import select
    import time

    master, slave = pty.openpty()
    proc = subprocess.Popen(["bash", "--norc", "--noediting", "-is", "mininet:r0"], stdin=slave, stdout=slave, stderr=slave,
                            env={"PS1": "\x7f", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}, start_new_session=True)
    os.close(slave)
    deadline = time.monotonic() + timeout

    def until_prompt(data: bytes) -> bytes | None:
        out = b""
        os.write(master, data)
        while b"\x7f" not in out:
            if not select.select([master], [], [], max(0, deadline - time.monotonic()))[0]:
                return None
            out += os.read(master, 65536)
        return out[: out.index(b"\x7f")]

    try:
        until_prompt(b"")
        until_prompt(b"unset HISTFILE; stty -echo; set +m\n")
        return until_prompt(command.encode() + b"\n")
    finally:
        proc.kill()
        proc.wait()
        os.close(master)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_a_terminal_cuts_long_lines_and_the_router_program_survives_it():
    # The failure this guards against: one 10 kB line arrives cut inside its quote, the shell waits forever.
    assert _mininet_shell("echo '" + "a" * 5000 + "'", timeout=2) is None
    t = Topology("p83_", 8, 4)
    cands = [Candidate(f"{c.switches}x{c.hosts_per_switch}", from_topology(c), Evidence.everything(c)) for c in candidates(t.nodes)]
    out = _mininet_shell(router_program(cands, apply=False))  # a dry run: it reads, decides and prints
    assert out is not None and (b"netmend: refuse" in out or b"netmend: match" in out)


def test_intent_files_are_checked():
    intent = from_mapping({"router": "r1", "interfaces": [{"name": "lan0", "address": "10.0.0.1/24", "mtu": 9000}], "hosts": ["10.0.0.5"]})
    assert intent.interfaces[0].mtu == 9000
    for bad in [{"router": "r1"}, {"router": "r1", "interfaces": [{"name": "a", "address": "10.0.0.1"}]},
                {"router": "r1", "interfaces": [{"name": "a", "address": "10.0.0.1/24"}, {"name": "b", "address": "10.0.0.2/25"}]},
                {"router": "r1", "interfaces": [{"name": "a", "address": "10.0.0.1/24", "vlan": 3}]}, ["r1"]]:
        with pytest.raises(IntentError):
            from_mapping(bad)


def _context(*blocks: str) -> str:
    return "".join(f"Pingall result:\n{b}\n" for b in blocks)


@pytest.mark.parametrize("kind", PROMPT_TYPES)
def test_every_envelope_yields_the_router_program_on_the_router(kind):
    reply = json.loads(decide(wrap(_context(NETARENA_33), kind)).text())
    assert set(reply) == {"machine", "command", "why"} and reply["machine"] == "p83_r0"
    assert reply["command"].startswith("( {") and "awk" in reply["command"]
    check_command(reply["command"])


def test_history_is_read_from_the_log_and_examples_are_not_state():
    log = _context(NETARENA_33) + "Machine: p83_r0\nCommand: ip -o link\nPacket Loss: 33%\nElapsed Time: 0.01 seconds\n\nCommand Output:\n1: lo: <UP>\n\n"
    prompt = parse_prompt(wrap(log + _context(NETARENA_33), "fewshot_base"))
    assert prompt.pingall.nodes == ("p83_h1", "p83_h2", "p83_r0")
    assert [(t.machine, t.command, t.loss, t.output) for t in prompt.turns] == [("p83_r0", "ip -o link", 33, "1: lo: <UP>")]
    with pytest.raises(PromptError):
        parse_prompt("Example pingall:\n" + NETARENA_33)


def test_a_multi_line_command_in_the_log_is_one_turn():
    first = json.loads(decide(wrap(_context(NETARENA_33))).text())["command"]
    assert first.count("\n") > 10
    log = _context(NETARENA_33) + f"Machine: p83_r0\nCommand: {first}\nPacket Loss: 33%\nElapsed Time: 0.03 seconds\n\n"
    log += "Command Output:\n> > > netmend: none\n\n"
    prompt = parse_prompt(wrap(log + _context(NETARENA_33)))
    assert [(t.machine, t.command, t.loss, t.output) for t in prompt.turns] == [("p83_r0", first, 33, "> > > netmend: none")]


def test_no_loss_gets_a_read_only_command():
    t = Topology("p5_", 2, 1)
    reply = decide(wrap(_context(_pingall(t).render())))
    assert reply.machine == "p5_r0" and reply.command == "ip -o -4 addr show"


def test_a_host_alone_in_its_failures_is_checked_first_unless_a_router_fault_looks_the_same():
    t = Topology("q_", 2, 2)
    h3 = "q_h3"  # subnet 2: its default route broken
    broken = {(h3, n) for n in t.nodes if n not in (h3, "q_h4")} | {(n, h3) for n in t.nodes if n not in (h3, "q_h4", "q_r0")}
    p = _pingall(t, broken)
    assert host_suspect(p, (t,)) == h3
    reply = decide(wrap(_context(p.render())))
    assert reply.machine == h3 and "192.168.2.1" in reply.command
    # Alone in subnet 1 and still reaching the router: a FORWARD drop of subnet 1 looks the same.
    t1 = Topology("q_", 2, 1)
    broken = {("q_h1", "q_h2"), ("q_h2", "q_h1")}
    assert host_suspect(_pingall(t1, broken), (t1,)) is None


def _host_broken(t: Topology, host: str) -> set[tuple[str, str]]:
    """Failures of a host without a default route, spelled out pair by pair."""
    me = t.host(host)
    out = {(host, o.name) for o in t.hosts if o.subnet != me.subnet}
    out |= {(o.name, host) for o in t.hosts if o.subnet != me.subnet}
    return out | ({(host, t.router)} if me.subnet != 1 else set())


def _subnet_cut(t: Topology, k: int) -> set[tuple[str, str]]:
    """Failures when the router forwards nothing to or from subnet ``k`` (its own pings still work)."""
    inside = [h.name for h in t.hosts if h.subnet == k]
    return {(a, b.name) for a in inside for b in t.hosts if b.subnet != k} | {(b.name, a) for a in inside for b in t.hosts if b.subnet != k}


@pytest.mark.parametrize("size", [(2, 1), (2, 2), (3, 3), (4, 2), (5, 4), (6, 2), (8, 1), (8, 4)])
def test_a_host_is_suspected_exactly_when_its_pattern_has_no_router_explanation(size):
    t = Topology("z_", *size)
    every = candidates(t.nodes)  # the participant does not know the size; 8 hosts may be 8x1, 4x2 or 2x4
    for h in t.hosts:
        alone_in_first = h.subnet == 1 and size[1] == 1
        assert host_suspect(_pingall(t, _host_broken(t, h.name)), every) == (None if alone_in_first else h.name)
    for k in range(1, size[0] + 1):
        assert host_suspect(_pingall(t, _subnet_cut(t, k)), every) is None
    forwarded = {(a.name, b.name) for a in t.hosts for b in t.hosts if a.subnet != b.subnet}
    assert host_suspect(_pingall(t, forwarded), every) is None
    # A router fault aimed at one host also cuts the router's pings to it.
    victim = t.hosts[-1].name
    assert host_suspect(_pingall(t, _host_broken(t, victim) | {(t.router, victim)}), every) is None


def test_prompts_that_are_not_router_networks_are_refused_as_json():
    from netmend.agent import respond

    reply = json.loads(respond(wrap(_context("a -> b \nb -> a \n*** Results: 0% dropped (2/2 received)"))))
    assert reply["command"] == "" and reply["why"].startswith("refused")
    assert "Pingall" not in respond("Remove ju1.a1.m1.s2c1.p3 from the graph. Return a graph.")[:50]


def test_faults_the_first_pingall_cannot_place_are_counted_apart():
    from netmend.assess.route.faults import Fault
    from netmend.assess.route.run import TaskResult, crossing, summary_of, unplaceable

    t = Topology("p5_", 2, 1)
    on_h1 = (Fault("host_default_route", 1, {}, "p5_h1", ("ip route del default",)),)
    on_h2 = (Fault("host_default_route", 1, {}, "p5_h2", ("ip route del default",)),)
    on_router = (Fault("disable_routing", 1, {}, "p5_r0", ("sysctl -w net.ipv4.ip_forward=0",)),)
    # h1 keeps the router (pinged on its own subnet); h2 loses it too, so h2 is placeable.
    assert unplaceable(t, on_h1, crossing(t, 1))
    assert not unplaceable(t, on_h2, crossing(t, 2) | {("p5_h2", "p5_r0")})
    assert not unplaceable(t, on_router, crossing(t, 1))
    results = [TaskResult("a", "host_default_route", "zeroshot_base", on_h1, True, True, 3, 33, unplaceable=True),
               TaskResult("b", "disable_routing", "zeroshot_base", on_router, True, True, 2, 33),
               TaskResult("c", "disable_routing", "zeroshot_base", on_router, True, True, 1, 0)]
    summary = summary_of(results, ("disable_routing", "host_default_route"))
    assert (summary["real_faults"], summary["unplaceable"]) == (2, 1)
    assert (summary["avg_iterations_real"], summary["avg_iterations_real_placeable"]) == (2.5, 2.0)
