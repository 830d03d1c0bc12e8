"""The router core's fast paths give what the plain readings they replace give.

Each reference below is the straightforward version (a step per character, a
pass per failing pair, ipaddress for every address); the product's versions
skip work, and must agree with these on every input.
"""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from netmend.route.evidence import Evidence, host_route_failures
from netmend.route.intent import IntentError, InterfaceIntent, RouterIntent, _quad, from_mapping
from netmend.route.participant import host_suspect
from netmend.route.pingall import Pingall, PingallError
from netmend.route.program import Candidate, intent_data
from netmend.route.shell import BANNED, _breaks_outside_quotes, quote
from netmend.route.topology import Topology, candidates


def breaks_reference(command: str) -> bool:
    single = double = escaped = False
    depth = 0
    for char in command:
        if escaped:
            if char == "\n":
                return True
            escaped = False
        elif single:
            single = char != "'"
        elif char == "\\":
            escaped = True
        elif char == '"':
            double = not double
        elif double:
            if char == "\n":
                return True
        elif char == "'":
            single = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "\n" and depth <= 0:
            return True
    return False


def single_reference(text: str) -> str:
    cuts = sorted({m.start() + len(w) // 2 for w in BANNED for m in re.finditer(f"(?={re.escape(w)})", text)})
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return "'" + "''".join(pieces) + "'"


def quote_reference(word: str) -> str:
    pieces = [p if p in ("'", "!") else single_reference(p) for p in re.split(r"(['!])", word) if p]
    return "".join("\\" + p if p in ("'", "!") else p for p in pieces) if pieces else single_reference("")


def evidence_reference(pingall: Pingall, topology: Topology) -> Evidence:
    router = topology.router
    subnet_of = {h.name: h.subnet for h in topology.hosts}
    address_of = {h.name: h.address for h in topology.hosts}
    forwarded = local = False
    hosts: set[str] = set()
    subnets: set[int] = set()
    for src, dst in pingall.failures():
        if router in (src, dst):
            local = True
            other = dst if src == router else src
            hosts.add(address_of[other])
            subnets.add(subnet_of[other])
            if dst == router:
                subnets.add(1)
            continue
        forwarded = forwarded or subnet_of[src] != subnet_of[dst]
        subnets.update((subnet_of[src], subnet_of[dst]))
    return Evidence(forwarded, local, frozenset(hosts), frozenset(topology.interface(k) for k in sorted(subnets)))


def suspect_reference(p: Pingall, topologies: tuple[Topology, ...]) -> str | None:
    failures = frozenset(p.failures())
    if not failures:
        return None
    found: set[str] = set()
    for t in topologies:
        for h in t.hosts:
            if host_route_failures(t, h.name) != failures:
                continue
            alone = all(o.subnet != h.subnet for o in t.hosts if o.name != h.name)
            if alone and p.reached[(h.name, t.router)]:
                return None
            found.add(h.name)
    return found.pop() if len(found) == 1 else None


def pieces(alphabet: str, size: int) -> st.SearchStrategy[str]:
    """Text of single characters and whole banned words."""
    return st.lists(st.sampled_from(list(alphabet) + list(BANNED)), max_size=size).map("".join)


SHELL_TEXT = pieces("ab '\"()\\\n!", 40)


@given(SHELL_TEXT)
@example("a \\'\nb")  # an escaped quote opens nothing
@example('"x\\"\n"')  # nor does an escaped double quote inside double quotes
@example("\\(\n")  # nor an escaped parenthesis a group
@example("'a\nb")  # an unclosed quote holds the rest
@settings(max_examples=1000)
def test_line_break_scan_agrees_with_the_character_walk(command):
    assert _breaks_outside_quotes(command) == breaks_reference(command)


@given(pieces("pingsudofrthc'!x \n", 30))
@settings(max_examples=400)
def test_quote_agrees_with_the_lookahead_cuts(word):
    assert quote(word, lines=True) == quote_reference(word)


@st.composite
def pingalls(draw):
    switches, per = draw(st.sampled_from([(2, 1), (2, 2), (3, 1), (4, 2), (1, 3)]))
    t = Topology("p3_", switches, per)
    pairs = [(a, b) for a in t.nodes for b in t.nodes if a != b]
    shape = draw(st.sampled_from(["random", "host", "subnet"]))
    if shape == "host":
        failed = set(host_route_failures(t, draw(st.sampled_from(t.hosts)).name))
    elif shape == "subnet":
        k = draw(st.integers(1, switches))
        failed = {(a, b) for a, b in pairs if a != t.router and b != t.router
                  and k in (t.host(a).subnet, t.host(b).subnet) and t.host(a).subnet != t.host(b).subnet}
    else:
        failed = {pair for pair in pairs if draw(st.booleans())}
    return Pingall(t.nodes, {pair: pair not in failed for pair in pairs})


@given(pingalls())
@settings(max_examples=300)
def test_evidence_and_host_suspect_agree_with_a_pass_per_pair(p):
    tops = candidates(p.nodes)
    for t in tops:
        assert Evidence.from_pingall(p, t) == evidence_reference(p, t)
    assert host_suspect(p, tops) == suspect_reference(p, tops)


def test_pingall_parse_still_names_the_bad_cell():
    with pytest.raises(PingallError, match=r"row of a: expected c or X, got 'q'"):
        Pingall.parse("a -> b q \nb -> a c \nc -> a b \n*** Results: 0% dropped (6/6 received)")
    p = Pingall.parse("a -> X c \nb -> X c \nc -> a b \n*** Results: 33% dropped (4/6 received)")
    assert sorted(p.failures()) == [("a", "b"), ("b", "a")]


@given(st.text(alphabet="0123456789.x", max_size=16))
def test_dotted_quad_reading_agrees_with_ipaddress(text):
    try:
        want = int(ipaddress.IPv4Address(text))
    except ValueError:
        want = None
    assert _quad(text) == want


def test_intent_checks_keep_their_errors():
    with pytest.raises(IntentError, match=r"lab subnets 10.0.0.0/16 and 10.0.1.0/24 overlap"):
        from_mapping({"router": "r", "interfaces": [{"name": "a", "address": "10.0.0.1/16"},
                                                    {"name": "b", "address": "10.0.1.1/24"}]})
    with pytest.raises(ValueError):
        RouterIntent("r", (InterfaceIntent("a", "10.0.0.1", 24),), ("10.0.0.300",))
    with pytest.raises(ValueError):  # an address the fast reading refuses still goes to ipaddress
        RouterIntent("r", (InterfaceIntent("a", "10.0.0.01", 24),))


def test_intent_data_still_refuses_a_word_it_cannot_carry():
    good = RouterIntent("p_r0", (InterfaceIntent("p_r0-eth1", "192.168.1.1", 24),), ("192.168.1.100",))
    assert intent_data([Candidate("1x1", good, Evidence())]).startswith("c 1x1;r p_r0;")
    with pytest.raises(ValueError, match="holds characters"):
        intent_data([Candidate("1x;1", good, Evidence())])  # a ';' would split the record
