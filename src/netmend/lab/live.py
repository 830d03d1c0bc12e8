"""A live probe backend with the shape of :class:`netmend.k8s.Prober`.

``LiveProber(cluster, probes).run(policies)`` returns the same
:class:`~netmend.k8s.Matrix` the simulated prober returns, measured with real
packets in a private lab that lives as long as the prober (and dies with the
process that made it).
"""

from __future__ import annotations

from collections.abc import Iterable

from netmend.k8s import Cluster, Matrix, NetworkPolicy
from netmend.lab.lab import DEFAULT_TIMEOUT, Lab, LiveMatrix


class LiveProber:
    """Runs a fixed probe set against any policy set of one cluster, in a live lab.

    Parameters
    ----------
    cluster : Cluster
        Pods, namespaces, services and kube-dns (its policies are applied first).
    probes : iterable of (source, targets)
        E.g. ``Matrix.probes()`` of the expected matrix.
    dns : bool
        Probe service names through the cluster DNS (else dial ClusterIPs).
    mode : {"socket", "nc"}
        In-process sockets, or ``nc -zv -w 1`` run in each source pod.
    deny : {"drop", "reject"}
        How filters treat denied packets: ``drop`` as a CNI does (a denied
        probe costs ``timeout``), ``reject`` to fail denied probes at once.
    timeout : float
        Seconds a probe may take.

    Notes
    -----
    The lab is tied to the thread that creates the prober: it dies with it
    (or at :meth:`close`), so an interrupted run leaves nothing behind.

    Examples
    --------
    >>> from netmend.k8s import demo_cluster, demo_expected
    >>> with LiveProber(demo_cluster(), demo_expected().probes()) as prober:  # doctest: +SKIP
    ...     prober.run() == demo_expected()
    True
    """

    def __init__(
        self,
        cluster: Cluster,
        probes: Iterable[tuple[str, Iterable[str]]],
        *,
        dns: bool = True,
        mode: str = "socket",
        deny: str = "drop",
        timeout: float = DEFAULT_TIMEOUT,
    ):
        self.probes = tuple((source, tuple(targets)) for source, targets in probes)
        self.dns, self.mode, self.timeout = dns, mode, timeout
        self.last: LiveMatrix | None = None
        self._own = cluster.policies
        self.lab = Lab.start(cluster, tied=True, deny=deny)

    def run(self, policies: Iterable[NetworkPolicy] | None = None) -> Matrix:
        """Enforce ``policies`` (default: the cluster's own) and probe; the measured matrix.

        :attr:`last` keeps every probe's evidence (address dialed, socket error).
        """
        chosen = self._own if policies is None else tuple(policies)
        self.lab.apply(chosen)
        self.last = self.lab.probe(self.probes, dns=self.dns, mode=self.mode, timeout=self.timeout)
        return self.last.matrix

    def close(self) -> None:
        """Stop the lab."""
        self.lab.stop()

    def __enter__(self) -> LiveProber:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
