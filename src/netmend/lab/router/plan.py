"""The router lab's layout as command batches (pure: no I/O)."""

from __future__ import annotations

from dataclasses import dataclass

from netmend.route.topology import Topology

FIDELITIES: tuple[str, ...] = ("netarena", "full")
# What the official image lacks: any firewall front end.
HIDDEN_TOOL_PREFIXES: tuple[str, ...] = ("iptables", "ip6tables", "nft", "xtables", "arptables", "ebtables")


@dataclass(frozen=True)
class Layout:
    """Batches for ``ip -b -``: one for the sandbox's namespace, one per node."""

    nodes: tuple[str, ...]
    bridges: tuple[str, ...]
    ports: tuple[str, ...]
    root: tuple[str, ...]
    per_node: tuple[tuple[str, tuple[str, ...]], ...]


def switch(topology: Topology, subnet: int) -> str:
    return f"{topology.prefix}s{subnet}"


def layout(topology: Topology) -> Layout:
    """Namespaces, bridges, veths, addresses and default routes of ``topology``.

    >>> out = layout(Topology("p1_", 2, 1))
    >>> out.nodes, out.bridges
    (('p1_h1', 'p1_h2', 'p1_r0'), ('p1_s1', 'p1_s2'))
    >>> out.root[2]
    'link add p1_s1-eth1 type veth peer name p1_r0-eth1 netns p1_r0'
    """
    root: list[str] = []
    per_node: dict[str, list[str]] = {node: ["link set lo up"] for node in topology.nodes}
    bridges, ports = [], []
    for k in range(1, topology.switches + 1):
        bridge = switch(topology, k)
        bridges.append(bridge)
        root += [f"link add {bridge} type bridge", f"link set {bridge} up"]
        port = f"{bridge}-eth1"
        ports.append(port)
        iface = topology.interface(k)
        root += [
            f"link add {port} type veth peer name {iface} netns {topology.router}",
            f"link set {port} master {bridge} up",
        ]
        per_node[topology.router] += [
            f"addr add {topology.router_address(k)}/24 dev {iface}",
            f"link set {iface} up",
        ]
    for host in topology.hosts:
        bridge = switch(topology, host.subnet)
        port = f"{bridge}-eth{host.slot + 2}"
        ports.append(port)
        root += [
            f"link add {port} type veth peer name {host.interface} netns {host.name}",
            f"link set {port} master {bridge} up",
        ]
        per_node[host.name] += [
            f"addr add {host.address}/24 dev {host.interface}",
            f"link set {host.interface} up",
            f"route add default via {host.gateway} dev {host.interface}",
        ]
    return Layout(
        topology.nodes,
        tuple(bridges),
        tuple(ports),
        tuple(root),
        tuple((node, tuple(per_node[node])) for node in topology.nodes),
    )


def hidden(name: str) -> bool:
    """Whether the netarena fidelity hides executable ``name`` from the nodes."""
    return name.startswith(HIDDEN_TOOL_PREFIXES)
