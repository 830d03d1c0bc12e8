"""NetArena's router network as data: names, subnets and addresses by convention.

One router ``{prefix}r0``, ``switches`` subnets and ``hosts_per_switch`` hosts
on each. Subnet ``k`` (1-based) is ``192.168.k.0/24``; the router holds
``192.168.k.1/24`` on ``{prefix}r0-eth{k}``; host ``j`` (0-based) of subnet
``k`` is ``{prefix}h{(k-1)*H + j + 1}`` at ``192.168.k.(100+j)/24`` with its
default route via ``192.168.k.1``. The pingall lists hosts then the router,
and pings the router at its first address, ``192.168.1.1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

MAX_SWITCHES = 254
MAX_HOSTS_PER_SWITCH = 155  # host addresses run from .100 to .254
ROUTER_SUFFIX = "r0"
_HOST = re.compile(r"^(?P<prefix>.*)h(?P<index>[1-9][0-9]*)$")


class TopologyError(ValueError):
    """Names or sizes that no NetArena router network has."""


@dataclass(frozen=True)
class Host:
    """One host: its name, subnet (1-based), position in the subnet, address and interface."""

    name: str
    subnet: int
    slot: int
    address: str
    interface: str

    @property
    def gateway(self) -> str:
        """The router's address on this host's subnet."""
        return f"192.168.{self.subnet}.1"


@dataclass(frozen=True)
class Topology:
    """The network of one NetArena Route task.

    >>> t = Topology("p83_", 2, 1)
    >>> t.router, t.interface(2), t.router_address(2), [h.address for h in t.hosts]
    ('p83_r0', 'p83_r0-eth2', '192.168.2.1', ['192.168.1.100', '192.168.2.100'])
    >>> t.nodes
    ('p83_h1', 'p83_h2', 'p83_r0')
    """

    prefix: str
    switches: int
    hosts_per_switch: int

    def __post_init__(self) -> None:
        if not 1 <= self.switches <= MAX_SWITCHES:
            raise TopologyError(f"switches: expected 1-{MAX_SWITCHES}, got {self.switches}")
        if not 1 <= self.hosts_per_switch <= MAX_HOSTS_PER_SWITCH:
            raise TopologyError(
                f"hosts per switch: expected 1-{MAX_HOSTS_PER_SWITCH}, got {self.hosts_per_switch}"
            )

    @property
    def router(self) -> str:
        return f"{self.prefix}{ROUTER_SUFFIX}"

    def interface(self, subnet: int) -> str:
        """The router's interface on ``subnet`` (1-based)."""
        return f"{self.router}-eth{subnet}"

    @staticmethod
    def router_address(subnet: int) -> str:
        return f"192.168.{subnet}.1"

    @staticmethod
    def subnet_prefix(subnet: int) -> str:
        return f"192.168.{subnet}.0/24"

    @cached_property
    def hosts(self) -> tuple[Host, ...]:
        out = []
        for k in range(1, self.switches + 1):
            for j in range(self.hosts_per_switch):
                name = f"{self.prefix}h{(k - 1) * self.hosts_per_switch + j + 1}"
                out.append(Host(name, k, j, f"192.168.{k}.{100 + j}", f"{name}-eth0"))
        return tuple(out)

    @cached_property
    def nodes(self) -> tuple[str, ...]:
        """Every IP node in pingall order: the hosts by number, then the router."""
        return tuple(h.name for h in self.hosts) + (self.router,)

    @property
    def router_target(self) -> str:
        """Where the pingall pings the router (its first address, cached at setup)."""
        return self.router_address(1)

    @cached_property
    def _by_name(self) -> dict[str, Host]:
        return {h.name: h for h in self.hosts}

    def host(self, name: str) -> Host:
        found = self._by_name.get(name)
        if found is None:
            raise TopologyError(f"no host {name!r} in this topology")
        return found

    def target(self, node: str) -> str:
        """The address the pingall pings ``node`` at."""
        return self.router_target if node == self.router else self.host(node).address


def split_names(nodes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The name prefix and the host names of a pingall's node list.

    The router is the node named ``{prefix}r0``; every other node must be
    ``{prefix}h{n}`` with the same prefix.

    >>> split_names(("p7_h1", "p7_h2", "p7_r0"))
    ('p7_', ('p7_h1', 'p7_h2'))
    """
    routers = [n for n in nodes if n.endswith(ROUTER_SUFFIX)]
    if len(routers) != 1:
        raise TopologyError(f"expected exactly one node named <prefix>r0, got {routers or 'none'}")
    prefix = routers[0][: -len(ROUTER_SUFFIX)]
    hosts = tuple(n for n in nodes if n != routers[0])
    for name in hosts:
        match = _HOST.match(name)
        if match is None or match.group("prefix") != prefix:
            raise TopologyError(f"node {name!r} is not a host named {prefix}h<n>")
    numbers = sorted(int(_HOST.match(n).group("index")) for n in hosts)
    if numbers != list(range(1, len(hosts) + 1)):
        raise TopologyError(f"hosts must be numbered 1..{len(hosts)}, got {numbers}")
    return prefix, hosts


def candidates(nodes: tuple[str, ...]) -> tuple[Topology, ...]:
    """Every topology whose pingall lists exactly ``nodes`` (fewest switches first).

    The pingall names hosts but not subnets: 4 hosts may be 1x4, 2x2 or 4x1.
    The router's interfaces tell them apart.

    >>> [(t.switches, t.hosts_per_switch) for t in candidates(("a_h1", "a_h2", "a_h3", "a_h4", "a_r0"))]
    [(1, 4), (2, 2), (4, 1)]
    """
    prefix, hosts = split_names(nodes)
    count = len(hosts)
    if count == 0:
        raise TopologyError("the pingall lists no host")
    out = []
    for switches in range(1, min(count, MAX_SWITCHES) + 1):
        if count % switches == 0 and count // switches <= MAX_HOSTS_PER_SWITCH:
            out.append(Topology(prefix, switches, count // switches))
    if not out:
        raise TopologyError(f"{count} hosts fit no topology of at most {MAX_SWITCHES} subnets")
    return tuple(out)
