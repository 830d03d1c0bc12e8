"""What a pingall says about where a router can be wrong.

Some deviations are certain from the state alone (an interface down, an
address missing); others are judged only where the pingall shows harm: a
queueing discipline on an interface whose subnet loses packets, a static
neighbour entry for a host the router cannot reach, a chain's DROP policy
where that chain's traffic fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from netmend.route.pingall import Pingall
from netmend.route.topology import Topology

Pair = tuple[str, str]


@dataclass(frozen=True)
class Evidence:
    """Where failures were seen.

    Attributes
    ----------
    forwarded : bool
        Some host-to-host pair across subnets failed (the router forwards those).
    local : bool
        Some pair to or from the router failed (its INPUT and OUTPUT traffic).
    hosts : frozenset of str
        Addresses of hosts that the router cannot reach, or that cannot reach it.
    interfaces : frozenset of str
        Router interfaces on whose subnet some pair failed.
    """

    forwarded: bool = False
    local: bool = False
    hosts: frozenset[str] = frozenset()
    interfaces: frozenset[str] = frozenset()

    @classmethod
    def everything(cls, topology: Topology) -> Evidence:
        """Evidence that implicates all of ``topology`` (when no pingall is at hand)."""
        return cls(
            True,
            True,
            frozenset(h.address for h in topology.hosts),
            frozenset(topology.interface(k) for k in range(1, topology.switches + 1)),
        )

    @classmethod
    def from_pingall(cls, pingall: Pingall, topology: Topology) -> Evidence:
        """Read the failures of ``pingall`` against ``topology``.

        >>> t = Topology("p_", 2, 1)
        >>> p = Pingall.parse("p_h1 -> X p_r0 \\np_h2 -> X p_r0 \\np_r0 -> p_h1 p_h2 \\n"
        ...                   "*** Results: 33% dropped (4/6 received)")
        >>> e = Evidence.from_pingall(p, t)
        >>> e.forwarded, e.local, sorted(e.interfaces)
        (True, False, ['p_r0-eth1', 'p_r0-eth2'])
        """
        router = topology.router
        subnet_of = {h.name: h.subnet for h in topology.hosts}
        peers = pingall.failing_peers()
        hosts: set[str] = set()
        subnets: set[int] = set()
        for other in peers.get(router, ()):  # pairs to or from the router: its INPUT and OUTPUT
            host = topology.host(other)  # the typed error for a node outside the topology
            hosts.add(host.address)
            subnets.add(host.subnet)
        local = bool(hosts)
        if router in pingall.failing_targets():
            subnets.add(1)  # the router is pinged at its first subnet's address
        # A failing pair crosses subnets when a node fails with one outside its own subnet.
        members: dict[int, set[str]] = {}
        for h in topology.hosts:
            members.setdefault(h.subnet, {router}).add(h.name)
        forwarded = False
        for node, others in peers.items():
            if node == router or others == {router}:
                continue
            if node not in subnet_of:
                topology.host(node)
            subnets.add(subnet_of[node])
            forwarded = forwarded or not others <= members[subnet_of[node]]
        return cls(
            forwarded,
            local,
            frozenset(hosts),
            frozenset(topology.interface(k) for k in sorted(subnets)),
        )


def host_route_failures(topology: Topology, host: str) -> frozenset[Pair]:
    """The pairs that fail when ``host`` alone has no working default route.

    The host still reaches its own subnet, so it loses every node outside
    it both ways (a reply cannot leave either), and the router too unless
    the router is pinged on the host's subnet; the router still reaches the
    host from its on-link address.

    >>> sorted(host_route_failures(Topology("p_", 2, 1), "p_h2"))
    [('p_h1', 'p_h2'), ('p_h2', 'p_h1'), ('p_h2', 'p_r0')]
    """
    me = topology.host(host)
    out: set[Pair] = set()
    for other in topology.hosts:
        if other.subnet != me.subnet:
            out |= {(host, other.name), (other.name, host)}
    if topology.router_target != me.gateway:  # pinged off the host's subnet
        out.add((host, topology.router))
    return frozenset(out)
