"""Fault families: NetArena's five (restated from its catalogue) and five more.

A fault is a family, a method and parameters drawn from a seeded RNG, turned
into the exact commands the evaluator runs on the router (or, for
``host_default_route``, on a host); their output is discarded and a failing
command is simply a weaker fault, as there.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from netmend.route.topology import Topology

NETARENA_TYPES: tuple[str, ...] = (
    "disable_routing",
    "disable_interface",
    "remove_ip",
    "drop_traffic_to_from_subnet",
    "wrong_routing_table",
)
EXTRA_TYPES: tuple[str, ...] = (
    "blackhole_route",
    "arp_off",
    "static_neighbour",
    "interface_forwarding",
    "host_default_route",
)
# NetArena's fifteen: five singles, then its ten pairs in combination order.
NETARENA_FAMILIES: tuple[str, ...] = NETARENA_TYPES + tuple(
    f"{a}+{b}" for a, b in itertools.combinations(NETARENA_TYPES, 2)
)
FAMILIES: tuple[str, ...] = NETARENA_FAMILIES + EXTRA_TYPES
# A tbf whose bucket is smaller than any ping frame: the stand-in for netem delay.
NETEM_STAND_IN = "tbf rate 1mbit burst 100 limit 1000"


class FaultError(ValueError):
    """An unknown family or a topology too small for it."""


@dataclass(frozen=True)
class Fault:
    """One injected fault: its type, method, parameters, and where and what it runs."""

    type: str
    method: int
    detail: dict[str, Any] = field(hash=False)
    machine: str
    commands: tuple[str, ...]

    def as_record(self) -> dict[str, Any]:
        return {"type": self.type, "method": self.method, "detail": self.detail, "machine": self.machine, "commands": list(self.commands)}


def draw(kind: str, topology: Topology, rng: random.Random, *, netem: bool) -> Fault:
    """Draw one fault of type ``kind`` on ``topology``."""
    n = topology.switches
    if n < 2:
        raise FaultError("Route faults need at least two subnets")
    r = topology.router
    k = rng.randint(1, n)
    iface, subnet = topology.interface(k), topology.subnet_prefix(k)
    if kind == "disable_routing":
        method = rng.randint(1, 4)
        commands = {
            1: ["sysctl -w net.ipv4.ip_forward=0"],
            2: ["iptables -P FORWARD DROP"],
            3: ["ip rule add prohibit pref 0"],
            4: [f"iptables -A FORWARD -s {subnet} -j DROP"],
        }[method]
        return Fault(kind, method, {"subnet": subnet} if method == 4 else {}, r, tuple(commands))
    if kind == "disable_interface":
        method = rng.randint(1, 3)
        commands = {1: f"ifconfig {iface} down", 2: f"ip link set {iface} down", 3: f"ip link set {iface} mtu 68"}
        return Fault(kind, method, {"interface": iface}, r, (commands[method],))
    if kind == "remove_ip":
        method = rng.randint(1, 4)
        detail: dict[str, Any] = {"interface": iface}
        commands = [f"ip addr flush dev {iface}"]
        if method == 2:
            commands.append(f"ip addr add 10.{rng.randint(1, 254)}.{rng.randint(1, 254)}.1/24 dev {iface}")
        elif method == 3:
            detail["wrong_mask"] = rng.choice([8, 16, 30, 31, 32])
            commands.append(f"ip addr add {topology.router_address(k)}/{detail['wrong_mask']} dev {iface}")
        elif method == 4:
            other = rng.choice([j for j in range(1, n + 1) if j != k])
            commands.append(f"ip addr add {topology.router_address(other)}/24 dev {iface}")
        return Fault(kind, method, detail, r, tuple(commands))
    if kind == "drop_traffic_to_from_subnet":
        method = rng.randint(1, 4)
        if method == 4:
            delay = rng.randint(1000, 5000)
            qdisc = f"netem delay {delay}ms" if netem else NETEM_STAND_IN
            return Fault(kind, 4, {"subnet": subnet, "delay_ms": delay, "netem": netem}, r,
                         (f"tc qdisc replace dev {iface} root {qdisc}",))  # fmt: skip
        match = {1: "", 2: "", 3: "-p icmp "}[method]
        target = "REJECT" if method == 2 else "DROP"
        return Fault(kind, method, {"subnet": subnet}, r, (
            f"iptables -A INPUT -s {subnet} {match}-j {target}",
            f"iptables -A OUTPUT -d {subnet} {match}-j {target}",
        ))  # fmt: skip
    if kind == "wrong_routing_table":
        a, b = rng.sample(range(1, n + 1), 2)
        method = rng.randint(1, 4)
        src, wrong = topology.subnet_prefix(a), topology.interface(b)
        added = {
            1: f"ip route add {src} dev {wrong}",
            2: f"ip route add {src} via 10.255.255.254",
            3: f"ip route add {src} dev {wrong} metric 10000",
            4: f"ip route add {src} via {topology.router_address(b)}",
        }[method]
        return Fault(kind, method, {"from": src, "del_interface": topology.interface(a), "add_interface": wrong}, r,
                     (f"ip route del {src} dev {topology.interface(a)}", added))  # fmt: skip
    if kind == "blackhole_route":
        method = rng.randint(1, 3)
        verb = rng.choice(["blackhole", "unreachable", "prohibit"])
        hosts = [h for h in topology.hosts if h.subnet == k]
        if method == 1:
            commands = [f"ip route add {verb} {rng.choice(hosts).address}/32"]
        elif method == 2:
            commands = [f"ip route add {verb} 192.168.{k}.0/25"]
        else:
            commands = [f"ip route add {verb} {subnet} table 77", f"ip rule add to {subnet} lookup 77 pref 100"]
        return Fault(kind, method, {"type": verb, "subnet": subnet}, r, tuple(commands))
    if kind == "arp_off":
        return Fault(kind, 1, {"interface": iface}, r, (f"ip link set dev {iface} arp off",))
    if kind == "static_neighbour":
        host = rng.choice([h for h in topology.hosts if h.subnet == k])
        mac = f"02:00:5e:{rng.randint(0, 255):02x}:{rng.randint(0, 255):02x}:{rng.randint(0, 255):02x}"
        return Fault(kind, 1, {"host": host.name, "lladdr": mac}, r,
                     (f"ip neigh replace {host.address} lladdr {mac} dev {iface} nud permanent",))  # fmt: skip
    if kind == "interface_forwarding":
        return Fault(kind, 1, {"interface": iface}, r, (f"sysctl -w net.ipv4.conf.{iface}.forwarding=0",))
    if kind == "host_default_route":
        host = rng.choice(topology.hosts)
        method = rng.randint(1, 3)
        peers = [h for h in topology.hosts if h.subnet == host.subnet and h.name != host.name]
        wrong = rng.choice(peers).address if method == 3 and peers else f"192.168.{host.subnet}.254"
        commands = {
            1: "ip route del default",
            2: f"ip route replace default via {wrong} dev {host.interface}",
            3: f"ip route replace default via {wrong} dev {host.interface}",
        }[method]
        return Fault(kind, method, {"host": host.name, "gateway": None if method == 1 else wrong}, host.name, (commands,))
    raise FaultError(f"unknown fault type {kind!r}; expected one of {', '.join(NETARENA_TYPES + EXTRA_TYPES)}")


def draw_family(family: str, topology: Topology, rng: random.Random, *, netem: bool) -> tuple[Fault, ...]:
    """The faults of one family (a type, or two joined by ``+``), in injection order."""
    if family not in FAMILIES:
        raise FaultError(f"unknown family {family!r}; expected one of {', '.join(FAMILIES)}")
    return tuple(draw(kind, topology, rng, netem=netem) for kind in family.split("+"))
