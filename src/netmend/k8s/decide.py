"""The one place the toolkit commands (``check``, ``diff``) ask the engine for a decision.

``check`` and ``diff`` never read policy internals: they ask for a connection's
verdict (allowed or not, with the evidence naming the deciding policies and
rules), and for the set of ports one pod may open to another. Both questions
go through the functions here, so a richer engine (more policy tiers, other
profiles) changes these functions only, never the commands built on them.
"""

from __future__ import annotations

from netmend.k8s.portset import PortSet
from netmend.k8s.semantics import Snapshot, Verdict


def connection_verdict(snap: Snapshot, src: int, dst: int, protocol: str, port: int) -> Verdict:
    """Whether pod ``src`` may open ``protocol``/``port`` to pod ``dst``, with the evidence.

    ``Verdict.allowed`` is the decision and ``Verdict.explain()`` names the
    policies and rules behind it, egress side first.
    """
    return snap.verdict(src, dst, protocol, port)


def allowed_ports(snap: Snapshot, src: int, dst: int) -> PortSet:
    """Every (protocol, port) pod ``src`` may open to pod ``dst``."""
    return snap.connections(src, dst)


def pod_classes(snap: Snapshot) -> list[list[int]]:
    """Pods no decision above can tell apart, grouped (each group in index order).

    Any member of a group stands for all of it in :func:`connection_verdict`
    and :func:`allowed_ports`, so whole-cluster questions cost one answer per
    pair of groups.
    """
    return snap.pod_classes()


def allowed_ports_external(snap: Snapshot, pod: int, address: str, direction: str) -> PortSet:
    """Every (protocol, port) allowed between pod ``pod`` and an address outside the cluster
    (``direction`` ``Egress``: the pod opens; ``Ingress``: the address opens)."""
    return snap.connections_external(pod, address, direction)


def external_verdict(snap: Snapshot, pod: int, address: str, direction: str, protocol: str, port: int) -> Verdict:
    """:func:`connection_verdict` between pod ``pod`` and an address outside the cluster."""
    return snap.verdict_external(pod, address, direction, protocol, port)
