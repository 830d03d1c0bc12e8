"""The nftables compiler (pure): golden rulesets and one case per construct."""

from __future__ import annotations

from pathlib import Path

import pytest

from netmend.k8s import (
    AllowRule,
    Cidr,
    DirectionView,
    PeerSet,
    PodView,
    PortRange,
    PortSet,
    demo_cluster,
    effective_view,
)
from netmend.k8s.semantics import RuleRef
from netmend.lab.nft import compile_filter, compile_nat
from netmend.lab.plan import Translation

DATA = Path(__file__).parent / "data"
REF = RuleRef("default/web", "Ingress", 0)
OPEN = DirectionView(isolated=False)


def _view(ingress: DirectionView = OPEN, egress: DirectionView = OPEN) -> PodView:
    return PodView("default/web", "10.244.0.2", ingress, egress)


def _isolated(*rules: AllowRule) -> DirectionView:
    return DirectionView(isolated=True, policies=("default/web",), rules=rules)


def _accepts(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if "accept comment" in line]


def test_demo_rulesets_match_the_golden_file():
    text = "".join(
        f"# {view.pod}\n{compile_filter(view)}" for view in effective_view(demo_cluster())
    )
    assert text == (DATA / "demo-filter.nft").read_text()


def test_a_pod_without_isolation_gets_its_table_deleted_only():
    text = compile_filter(_view())
    assert text.splitlines() == [
        "table inet netmend_filter {}",
        "delete table inet netmend_filter",
    ]


def test_only_isolated_directions_get_a_chain():
    text = compile_filter(_view(egress=_isolated()))
    assert "chain egress" in text and "chain ingress" not in text
    assert "hook output priority 0; policy drop;" in text
    assert 'oif "lo" accept' in text and "ct direction reply ct state established accept" in text
    assert "ct state related accept" in text
    assert _accepts(text) == []  # isolated with no rule: nothing but replies and loopback


def test_cidr_with_excepts_and_pod_ips_make_one_rule_each():
    peers = PeerSet(
        pod_ips=("10.244.0.3", "10.244.0.4"), cidrs=(Cidr("10.0.0.0/8", ("10.1.0.0/16",)),)
    )
    ports = PortSet.of(
        [PortRange("TCP", 80, 80), PortRange("TCP", 8000, 8100), PortRange("UDP", 53, 53)]
    )
    text = compile_filter(_view(ingress=_isolated(AllowRule(REF, peers, ports))))
    assert _accepts(text) == [
        'ip saddr { 10.244.0.3, 10.244.0.4 } tcp dport { 80, 8000-8100 } accept comment "default/web ingress[0]"',
        'ip saddr { 10.244.0.3, 10.244.0.4 } udp dport { 53 } accept comment "default/web ingress[0]"',
        'ip saddr 10.0.0.0/8 ip saddr != { 10.1.0.0/16 } tcp dport { 80, 8000-8100 } accept comment "default/web ingress[0]"',
        'ip saddr 10.0.0.0/8 ip saddr != { 10.1.0.0/16 } udp dport { 53 } accept comment "default/web ingress[0]"',
    ]


def test_egress_matches_destinations_and_any_peer_matches_no_address():
    ports = PortSet.of([PortRange("SCTP", 1, 65535)])
    rule = AllowRule(RuleRef("default/web", "Egress", 1), PeerSet(any=True), ports)
    text = compile_filter(_view(egress=_isolated(rule)))
    assert _accepts(text) == ['meta l4proto sctp accept comment "default/web egress[1]"']


def test_ipv6_blocks_use_the_ip6_family():
    peers = PeerSet(cidrs=(Cidr("fd00::/8", ("fd00:1::/32",)),))
    text = compile_filter(_view(egress=_isolated(AllowRule(REF, peers, PortSet.all()))))
    assert _accepts(text) == [
        'ip6 daddr fd00::/8 ip6 daddr != { fd00:1::/32 } accept comment "default/web ingress[0]"'
    ]


def test_an_empty_peer_set_admits_nothing():
    text = compile_filter(_view(ingress=_isolated(AllowRule(REF, PeerSet(), PortSet.all()))))
    assert _accepts(text) == []


def test_reject_ends_each_isolated_chain_with_a_rejection():
    text = compile_filter(_view(ingress=_isolated(), egress=_isolated()), deny="reject")
    assert text.count("meta l4proto tcp reject with tcp reset") == 2
    assert text.count("reject with icmpx admin-prohibited") == 2
    assert compile_filter(_view(), deny="reject") == compile_filter(_view())


def test_an_unknown_deny_action_is_refused():
    with pytest.raises(ValueError, match="drop, reject"):
        compile_filter(_view(), deny="ignore")


def test_nat_is_sorted_and_replaces_its_table():
    text = compile_nat(
        [
            Translation("10.96.0.9", "UDP", 53, "10.244.0.9", 5353),
            Translation("10.96.0.2", "TCP", 80, "10.244.0.2", 8080),
        ]
    )
    lines = [line.strip() for line in text.splitlines()]
    assert lines[:2] == ["table ip netmend_nat {}", "delete table ip netmend_nat"]
    assert lines.index("ip daddr 10.96.0.2 tcp dport 80 dnat to 10.244.0.2:8080") < lines.index(
        "ip daddr 10.96.0.9 udp dport 53 dnat to 10.244.0.9:5353"
    )
