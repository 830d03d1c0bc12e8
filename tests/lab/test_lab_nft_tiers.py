"""The nftables compiler on admin tiers (pure): one chain per tier, first match deciding."""

from __future__ import annotations

from admin_cases import cnp, ns_peer, pods_peer, rule, tcp
from k8s_cases import pod, policy

from netmend.k8s.cluster import build_cluster
from netmend.k8s.effective import effective_view
from netmend.lab.nft import compile_filter


def _rulesets(objects, deny="drop"):
    return {v.pod: compile_filter(v, deny) for v in effective_view(build_cluster(objects))}


def _chain(text: str, name: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index(f"  chain {name} {{")
    end = lines.index("  }", start)
    return [line.strip() for line in lines[start + 1 : end]]


OBJECTS = [
    pod("a", app="a"),
    pod("b", app="b", ports=(("web", 8080, "TCP"),)),
    cnp("adm", ingress=[rule("Pass", pods_peer(app="a"), protocols=[tcp(80)]), rule("Deny", ns_peer())]),
    cnp("base", tier="Baseline", ingress=[rule("Deny", ns_peer(), protocols=[{"destinationNamedPort": "web"}])]),
    policy("np", {"podSelector": {"matchLabels": {"app": "b"}}, "policyTypes": ["Ingress"], "ingress": [{"ports": [{"port": 80}]}]}),
]


def test_admin_tier_is_the_base_chain_and_pass_jumps_to_the_networkpolicy_tier():
    text = _rulesets(OBJECTS)["default/b"]
    base = _chain(text, "ingress")
    assert base[0] == "type filter hook input priority 0; policy accept;"
    assert base[4].startswith("ip saddr { 10.244.0.2 } tcp dport { 80 } goto ingress_networkpolicy")
    assert base[5].startswith("ip saddr { 10.244.0.2, 10.244.0.3 } drop")
    assert base[-1] == "goto ingress_networkpolicy"


def test_an_isolating_networkpolicy_tier_is_final_and_a_free_one_goes_to_the_baseline():
    rulesets = _rulesets(OBJECTS)
    np_b = _chain(rulesets["default/b"], "ingress_networkpolicy")
    assert np_b[0].startswith("tcp dport { 80 } accept") and np_b[-1] == "drop"
    assert _chain(rulesets["default/a"], "ingress_networkpolicy") == ["goto ingress_baseline"]


def test_baseline_names_resolve_on_the_pod_and_the_default_accepts():
    rulesets = _rulesets(OBJECTS)
    assert _chain(rulesets["default/b"], "ingress_baseline")[0].startswith(
        "ip saddr { 10.244.0.2, 10.244.0.3 } tcp dport { 8080 } drop"
    )
    assert _chain(rulesets["default/a"], "ingress_baseline") == ["accept"]  # no port named web on a


def test_reject_mode_rejects_tcp_with_a_reset():
    base = _chain(_rulesets(OBJECTS, "reject")["default/b"], "ingress")
    assert any("meta l4proto tcp reject with tcp reset" in line for line in base)


def test_no_admin_policy_keeps_the_plain_ruleset():
    plain = _rulesets(OBJECTS[:2] + OBJECTS[4:])["default/b"]
    assert "ingress_networkpolicy" not in plain and "policy drop;" in plain
