"""The diagnoser on state printed by a real kernel (golden dumps captured in the router lab)."""

from __future__ import annotations

from pathlib import Path

from netmend.route.diagnose import diagnose
from netmend.route.evidence import Evidence
from netmend.route.intent import from_topology
from netmend.route.state import parse_state
from netmend.route.topology import Topology

DATA = Path(__file__).parent / "data"
TOPOLOGY = Topology("p7_", 3, 2)


def _found(name: str, evidence: Evidence | None = None):
    state = parse_state((DATA / f"{name}.txt").read_text())
    return diagnose(state, from_topology(TOPOLOGY), evidence or Evidence.everything(TOPOLOGY))


def test_legitimate_configuration_alone_is_no_deviation():
    # A management veth with a route, a null route, a policy rule and table, a tbf,
    # lab-subnet and foreign secondaries, a static neighbour for a non-host, firewall rules.
    assert _found("clean-legit") == ()


def test_every_injected_fault_is_named_with_its_exact_fix():
    fixes = [" ".join(d.command) for d in _found("many-faults")]
    assert fixes == [
        "sysctl -w net.ipv4.ip_forward=1",
        "ip link set dev p7_r0-eth2 mtu 1500",
        "ip link set dev p7_r0-eth3 arp on",
        "ip addr add 192.168.1.1/24 dev p7_r0-eth1",
        "ip addr del 192.168.2.1/24 dev p7_r0-eth1",
        "ip rule del pref 0 from all prohibit",
        "ip route del unreachable 192.168.2.0/24 table 77",
        "ip route del 192.168.3.0/24 dev p7_r0-eth2 via 192.168.2.1 table main",
        "ip route del blackhole 192.168.3.101 table main",
        "ip route replace 192.168.1.0/24 dev p7_r0-eth1 proto kernel scope link src 192.168.1.1",
        "ip route replace 192.168.2.0/24 dev p7_r0-eth2 proto kernel scope link src 192.168.2.1",
        "ip route replace 192.168.3.0/24 dev p7_r0-eth3 proto kernel scope link src 192.168.3.1",
        "ip neigh del 192.168.2.100 dev p7_r0-eth2",
        "tc qdisc del dev p7_r0-eth3 root",
        "iptables -P FORWARD ACCEPT",
        "iptables -D INPUT -s 192.168.1.0/24 -p icmp -j REJECT --reject-with icmp-port-unreachable",
        "iptables -D OUTPUT -d 192.168.1.0/24 -j DROP",
        "nft delete rule inet guard in handle 2",
    ]


def test_judged_deviations_wait_for_evidence():
    kinds = {d.kind for d in _found("many-faults", Evidence())}
    assert "qdisc" not in kinds and "neighbour" not in kinds
    assert not any(d.subject == "FORWARD policy" for d in _found("many-faults", Evidence()))
    assert {"mtu", "address", "route", "policy-rule"} <= kinds  # certain from the state alone


def test_a_shaping_token_bucket_on_a_failing_interface_is_kept_and_a_starving_one_is_not():
    # The same eth3 tbf, once as someone's rate limit (100 Mbit/s, a 64 KiB bucket) and once
    # as the fault (a bucket of 100 bytes holds no ping frame).
    text = (DATA / "many-faults.txt").read_text()
    starving = '"options":{"rate":125000,"burst":100,"lat":7200}'
    assert starving in text
    shaping = text.replace(starving, '"options":{"rate":12500000,"burst":65525,"lat":100000}')
    thin = text.replace(starving, '"options":{"rate":12500,"burst":65525,"lat":100000}')  # 100 kbit/s
    peaked = text.replace(starving, '"options":{"rate":12500000,"burst":65525,"minburst":100,"lat":100000}')
    intent, everything = from_topology(TOPOLOGY), Evidence.everything(TOPOLOGY)
    qdisc_fixes = [[" ".join(d.command) for d in diagnose(parse_state(t), intent, everything) if d.kind == "qdisc"]
                   for t in (text, shaping, thin, peaked)]
    assert qdisc_fixes == [["tc qdisc del dev p7_r0-eth3 root"], [], ["tc qdisc del dev p7_r0-eth3 root"], ["tc qdisc del dev p7_r0-eth3 root"]]
