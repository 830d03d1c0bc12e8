"""Legitimate configuration a real router carries, put on before any fault.

None of it is a fault: a management interface with a route and a policy
rule of its own, a null route for a documentation prefix, a queueing
discipline on the management link, a rate limit (a token bucket that holds
full frames), secondary addresses and a static neighbour on a lab interface,
a lab prefix in a routing table that no rule consults, loose reverse-path
filtering, and (where iptables exists) accepting rules and a drop rule for a
prefix outside the lab. After a task every item that the fault itself did not
remove must still be there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from netmend.route.topology import Topology

MGMT = "nm-mgmt0"
# A veth pair stands for the management link (this kernel has no dummy devices).
MGMT_PEER = "nm-mgmt1"
MARK = "@@legit"


@dataclass(frozen=True)
class Item:
    """One piece of intended configuration: how to set it, and a read whose output shows it."""

    name: str
    setup: tuple[str, ...]
    probe: str
    expect: tuple[str, ...]


def items(topology: Topology, rng: random.Random, *, firewall: bool) -> tuple[Item, ...]:
    """The configuration for one task (which lab interface carries it is drawn)."""
    k = rng.randint(1, topology.switches)
    iface = topology.interface(k)
    out = [
        Item("management interface", (f"ip link add {MGMT} type veth peer name {MGMT_PEER}", f"ip addr add 172.31.255.1/24 dev {MGMT}", f"ip link set {MGMT_PEER} up", f"ip link set {MGMT} up"),
             f"ip -o addr show dev {MGMT}; ip -o link show dev {MGMT}", ("inet 172.31.255.1/24", ",UP")),
        Item("route to another prefix", (f"ip route add 10.200.0.0/16 via 172.31.255.254 dev {MGMT}",),
             "ip route show 10.200.0.0/16", ("10.200.0.0/16 via 172.31.255.254",)),
        Item("null route", ("ip route add blackhole 198.51.100.0/24",), "ip route show 198.51.100.0/24", ("blackhole 198.51.100.0/24",)),
        Item("policy rule and its table", ("ip rule add from 172.31.255.0/24 lookup 100 pref 1000", "ip route add default via 172.31.255.254 table 100"),
             "ip rule show; ip route show table 100", ("1000:\tfrom 172.31.255.0/24 lookup 100", "default via 172.31.255.254")),
        Item("management qdisc", (f"tc qdisc add dev {MGMT} root tbf rate 10mbit burst 32kb latency 50ms",),
             f"tc qdisc show dev {MGMT}", ("qdisc tbf",)),
        Item("secondary address in the lab subnet", (f"ip addr add 192.168.{k}.2/24 dev {iface}",),
             f"ip -o addr show dev {iface}", (f"inet 192.168.{k}.2/24",)),
        Item("secondary address outside the lab", (f"ip addr add 10.77.{k}.1/24 dev {iface}",),
             f"ip -o addr show dev {iface}", (f"inet 10.77.{k}.1/24",)),
        Item("shaping qdisc on a lab interface", (f"tc qdisc add dev {iface} root tbf rate 100mbit burst 64kb latency 100ms",),
             f"tc qdisc show dev {iface}", ("qdisc tbf", "rate 100Mbit")),
        Item("lab prefix in a table no rule uses", (f"ip route add 192.168.{k}.0/24 dev {iface} table 300",),
             "ip route show table 300", (f"192.168.{k}.0/24 dev {iface}",)),
        Item("loose reverse-path filter", ("sysctl -w net.ipv4.conf.all.rp_filter=2",),
             "sysctl -n net.ipv4.conf.all.rp_filter", ("2",)),
        Item("static neighbour (not a host)", (f"ip neigh replace 192.168.{k}.250 lladdr 02:00:00:00:00:fa dev {iface} nud permanent",),
             f"ip neigh show 192.168.{k}.250", ("lladdr 02:00:00:00:00:fa PERMANENT",)),
    ]  # fmt: skip
    if firewall:
        out += [
            Item("accept ssh", ("iptables -A INPUT -p tcp --dport 22 -j ACCEPT",), "iptables-save -t filter",
                 ("-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT",)),
            Item("accept forwarded 10/8", ("iptables -A FORWARD -s 10.0.0.0/8 -j ACCEPT",), "iptables-save -t filter",
                 ("-A FORWARD -s 10.0.0.0/8 -j ACCEPT",)),
            Item("drop a foreign prefix", ("iptables -A INPUT -s 203.0.113.0/24 -j DROP",), "iptables-save -t filter",
                 ("-A INPUT -s 203.0.113.0/24 -j DROP",)),
        ]  # fmt: skip
    return tuple(out)


def probe_command(chosen: tuple[Item, ...]) -> str:
    """One command printing every item's read after a marker line."""
    return "; ".join(f"echo {MARK} {i}; {item.probe}" for i, item in enumerate(chosen))


def present(chosen: tuple[Item, ...], output: str) -> tuple[bool, ...]:
    """Which items the output of :func:`probe_command` shows."""
    parts = output.split(MARK + " ")[1:]
    seen = {}
    for part in parts:
        index, _, body = part.partition("\n")
        if index.strip().isdigit():
            seen[int(index)] = body
    return tuple(all(e in seen.get(i, "") for e in item.expect) for i, item in enumerate(chosen))
