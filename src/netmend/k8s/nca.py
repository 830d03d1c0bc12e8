"""Adapter to IBM's network-config-analyzer (NCA), an independent oracle.

NCA runs as a subprocess from its own environment (it pins libraries this
project does not). Many clusters go through one NCA run: each becomes one
network config of a scheme file and one connectivity query whose output is
read back into :class:`PortSet` form for comparison with our answers.

NCA treats ipBlocks as addresses outside the cluster, so compare with
``Semantics(ipblock_selects_pods=False)``.
"""

from __future__ import annotations

import ipaddress
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from netmend.k8s.errors import K8sError
from netmend.k8s.manifest import namespace_to_dict, pod_to_dict, policy_to_dict
from netmend.k8s.model import PROTOCOLS, Cluster
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortRange, PortSet

_LINE = re.compile(r"^(?P<src>\S+) => (?P<dst>\S+) : (?P<conn>.+)$")
_POD = re.compile(r"^(?P<ns>[^/\s]+)/(?P<name>[^\[\s]+)\[Pod\]$")
LIVESIM_SUFFIX = "-livesim"
_CONN = re.compile(r"^\{protocols:(?P<protos>[A-Z,]+?)(,dst_ports:(?P<ports>[0-9,\-]+))?\}$")


class NcaError(K8sError, RuntimeError):
    """NCA failed or printed something this adapter cannot read."""


@dataclass(frozen=True)
class AddressRange:
    """An inclusive IPv4/IPv6 address range as NCA prints it."""

    first: ipaddress.IPv4Address | ipaddress.IPv6Address
    last: ipaddress.IPv4Address | ipaddress.IPv6Address

    def __contains__(self, ip) -> bool:
        return ip.version == self.first.version and self.first <= ip <= self.last


@dataclass(frozen=True)
class NcaConnectivity:
    """NCA's connectivity map of one cluster.

    ``pods[(src, dst)]`` holds the allowed connections between two pods
    (``namespace/name`` keys; absent means none); ``external`` holds
    ``(direction, pod, range, connections)`` with ``Egress`` for pod to range.
    """

    pods: dict[tuple[str, str], PortSet]
    external: tuple[tuple[str, str, AddressRange, PortSet], ...]

    def pod_pair(self, src: str, dst: str) -> PortSet:
        """Connections from pod ``src`` to pod ``dst``."""
        return self.pods.get((src, dst), PortSet())

    def with_address(self, pod: str, address: str, direction: str) -> PortSet:
        """Connections between ``pod`` and ``address`` in ``direction``."""
        ip = ipaddress.ip_address(address)
        out = PortSet()
        for d, p, rng, conns in self.external:
            if d == direction and p == pod and ip in rng:
                out = out | conns
        return out


def parse_connections(text: str) -> PortSet:
    """Read one NCA connection description.

    Examples
    --------
    >>> str(parse_connections("{protocols:TCP,UDP,dst_ports:53,80-90}"))
    'TCP 53,TCP 80-90,UDP 53,UDP 80-90'
    >>> parse_connections("All connections").is_all()
    True
    """
    text = text.strip()
    if text == "All connections":
        return PortSet.all()
    if text == "No connections":
        return PortSet()
    m = _CONN.match(re.sub(r",\s+", ",", text))  # NCA writes "TCP, UDP" for some sets
    if not m:
        raise NcaError(f"unreadable NCA connection set {text!r}")
    protos = [p for p in m["protos"].split(",") if p in PROTOCOLS]
    spans = []
    for part in (m["ports"] or f"{MIN_PORT}-{MAX_PORT}").split(","):
        lo, _, hi = part.partition("-")
        spans.append((int(lo), int(hi or lo)))
    return PortSet.of(PortRange(p, lo, hi) for p in protos for lo, hi in spans)


def _address_range(text: str) -> AddressRange | None:
    try:
        if "/" in text:
            net = ipaddress.ip_network(text, strict=False)
            return AddressRange(net[0], net[-1])
        first, _, last = text.partition("-")
        return AddressRange(ipaddress.ip_address(first), ipaddress.ip_address(last or first))
    except ValueError:
        return None


def _prefix(index: int) -> str:
    return f"c{index}-"


def _livesim(match: re.Match | None, prefix: str) -> bool:
    """Whether a pod NCA printed is one of its own "livesim" pods (``kube-dns-livesim``
    and the like, added when a policy names labels no pod of the config carries)."""
    return match is not None and match["name"].endswith(LIVESIM_SUFFIX) and not match["name"].startswith(prefix)


def parse_output(text: str, prefix: str = "") -> NcaConnectivity:
    """Read NCA's ``txt_no_fw_rules`` connectivity output (``prefix`` is cut off pod names).

    Lines about NCA's livesim pods are left out: they are not in the config (every pod of
    the config carries ``prefix``), and they change nothing between its pods.
    """
    pods: dict[tuple[str, str], PortSet] = {}
    external = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        m = _LINE.match(line)
        if not m:
            raise NcaError(f"unreadable NCA output line {line!r}")
        conns = parse_connections(m["conn"])
        src, dst = _POD.match(m["src"]), _POD.match(m["dst"])
        if prefix and (_livesim(src, prefix) or _livesim(dst, prefix)):
            continue
        if src and dst:
            key = (_pod_key(src, prefix), _pod_key(dst, prefix))
            pods[key] = pods.get(key, PortSet()) | conns
            continue
        pod, direction, endpoints = (src, "Egress", m["dst"]) if src else (dst, "Ingress", m["src"])
        # Several address ranges may be listed, comma-separated.
        ranges = [_address_range(part) for part in endpoints.split(",")]
        if pod is None or any(r is None for r in ranges):
            raise NcaError(f"unreadable NCA endpoints in {line!r}")
        for r in ranges:
            external.append((direction, _pod_key(pod, prefix), r, conns))
    return NcaConnectivity(pods=pods, external=tuple(external))


def _pod_key(match: re.Match, prefix: str) -> str:
    name = match["name"]
    if not name.startswith(prefix):
        raise NcaError(f"NCA printed pod {name!r} outside this config (expected prefix {prefix!r})")
    return f"{match['ns']}/{name[len(prefix) :]}"


def cluster_resources(cluster: Cluster, prefix: str = "") -> list[dict]:
    """The namespaces, pods and policies of ``cluster`` as NCA reads them.

    ``prefix`` goes in front of pod and policy names (names carry no
    meaning for policy semantics): NCA keeps process-wide registries keyed
    by ``namespace/name``, so equal names in two configs of one run leak
    named ports from one into the other.

    NCA models no admin policy and no hostNetwork pod: a cluster with either
    is refused rather than compared on a different question.
    """
    if cluster.admin_policies or any(p.host_network for p in cluster.pods):
        raise NcaError(
            "NCA models NetworkPolicies only: expected a cluster without admin policies and hostNetwork pods"
        )
    pods = [pod_to_dict(p) for p in cluster.pods]
    for pod in pods:
        # NCA reports owned pods by owner; bare pods keep its answers per pod.
        pod["metadata"].pop("ownerReferences", None)
    policies = [policy_to_dict(p) for p in cluster.policies]
    for obj in (*pods, *policies):
        obj["metadata"]["name"] = prefix + obj["metadata"]["name"]
    return [namespace_to_dict(n) for n in cluster.namespaces] + pods + policies


def run_nca(
    executable: str | Path, clusters: Sequence[Cluster], workdir: str | Path, timeout: float = 900
) -> list[NcaConnectivity]:
    """NCA's connectivity map of every cluster, in one NCA run.

    Parameters
    ----------
    executable : path
        The ``nca`` entry point of NCA's environment.
    clusters : sequence of Cluster
        Each becomes one network config and one query.
    workdir : path
        An empty directory for the scheme, resources and outputs.
    """
    work = Path(workdir)
    configs, queries = [], []
    for i, cluster in enumerate(clusters):
        resources = work / f"cluster{i}.yaml"
        resources.write_text(
            yaml.safe_dump_all(cluster_resources(cluster, _prefix(i)), sort_keys=True),
            encoding="utf-8",
        )
        configs.append({"name": f"c{i}", "resourceList": [str(resources)]})
        queries.append(
            {
                "name": f"q{i}",
                "connectivityMap": [f"c{i}"],
                "outputConfiguration": {
                    "outputFormat": "txt_no_fw_rules",
                    "outputPath": str(work / f"out{i}.txt"),
                },
            }
        )
    scheme = work / "scheme.yaml"
    scheme.write_text(
        yaml.safe_dump({"networkConfigList": configs, "queries": queries}, sort_keys=False),
        encoding="utf-8",
    )
    proc = subprocess.run(
        [str(executable), "--scheme", str(scheme)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    results = []
    for i in range(len(clusters)):
        out = work / f"out{i}.txt"
        if not out.exists():
            raise NcaError(
                f"NCA wrote no output for cluster {i} (exit {proc.returncode}): {proc.stderr[-2000:] or proc.stdout[-2000:]}"
            )
        results.append(parse_output(out.read_text(encoding="utf-8"), _prefix(i)))
    return results
