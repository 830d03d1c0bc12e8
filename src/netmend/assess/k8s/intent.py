"""Whether a repair restored the intended policies, not only the probes.

The probes sample a few cells of the connectivity matrix; a repair can fix
every probe and still differ from the policies the task started from (a
rule added to a neighbouring policy, an ipBlock fitted to the probed client,
a port range closed at the probed port). This check compares the final
policies with the intended ones over the whole matrix: every ordered pod
pair, every protocol and port, and outside addresses at the boundary of
every ipBlock either set names (:func:`netmend.k8s.policydiff.diff_policy_sets`,
netmend's own engine).

With the NCA oracle the same question goes to IBM's network-config-analyzer:
its connectivity maps of both policy sets must agree pod pair by pod pair
and at the same outside addresses.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from netmend.k8s.manifest import parse_policy
from netmend.k8s.model import POLICY_TYPES, Cluster, NetworkPolicy, Requirement
from netmend.k8s.nca import NcaError
from netmend.k8s.policydiff import diff_policy_sets, external_addresses

MAX_SHOWN = 3  # differing rows kept per task
MAX_LABEL_VALUE = 63


def policies_of(objects: Mapping[str, Mapping]) -> tuple[NetworkPolicy, ...]:
    """Parsed policies of ``namespace/name`` -> object, in key order."""
    return tuple(parse_policy(dict(obj), source=key) for key, obj in sorted(objects.items()))


def intent_diff(base: Cluster, intended: Mapping[str, Mapping], final: Mapping[str, Mapping]) -> tuple[str, ...]:
    """Connections ``final`` allows or denies unlike ``intended`` (empty: equivalent)."""
    diff = diff_policy_sets(base.with_policies(()), policies_of(intended), policies_of(final))
    out = []
    for row in diff.rows:
        parts = []
        if row.gained:
            parts.append(f"gained {row.gained}")
        if row.lost:
            parts.append(f"lost {row.lost}")
        out.append(f"{row.source} -> {row.target}: {', '.join(parts)}")
    return tuple(out)


# -- the NCA oracle ------------------------------------------------------------


def nca_executable(root: str | Path = ".") -> Path | None:
    """NCA's entry point: ``$NETMEND_NCA``, else ``.venv-nca/bin/nca`` under ``root``."""
    candidate = Path(os.environ.get("NETMEND_NCA") or Path(root) / ".venv-nca" / "bin" / "nca")
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None


def nca_readable(cluster: Cluster) -> Cluster:
    """The same cluster as IBM NCA 2.1.0 reads it the way Kubernetes does (its deviations:
    tests/k8s/data/nca_deviations/): each ``Exists`` / ``DoesNotExist`` of an AND peer's
    podSelector written as ``In`` / ``NotIn`` over the values the cluster's pods carry for
    that key (the same pods match; NCA admits nothing through either there), without
    the rules of a type the policy's policyTypes does not list (they do nothing in
    Kubernetes; NCA refuses such a policy), policyTypes in the order Ingress, Egress (NCA
    refuses ``[Egress, Ingress]``), and every label value that reads as an integer
    (``"2"``, ``"007"``: NCA reads even a quoted one as a number and refuses it in a
    selector) renamed alike on pods, namespaces, Services and selectors (see
    :func:`nca_label_values`). NCA's own ``*-livesim`` pods are dropped by
    :func:`netmend.k8s.nca.parse_output`."""

    def rewrite(expr: Requirement) -> Requirement:
        if expr.operator not in ("Exists", "DoesNotExist"):
            return expr
        values = sorted({dict(p.labels)[expr.key] for p in cluster.pods if expr.key in dict(p.labels)})
        return Requirement(expr.key, "In" if expr.operator == "Exists" else "NotIn", tuple(values)) if values else expr

    def peer(p):
        if p.namespace_selector is None or p.pod_selector is None:
            return p
        sel = p.pod_selector
        return replace(p, pod_selector=replace(sel, match_expressions=tuple(rewrite(e) for e in sel.match_expressions)))

    def rules(pol, direction, rs):
        if rs is None or (pol.policy_types and direction not in pol.policy_types):
            return None
        return tuple(replace(r, peers=None if r.peers is None else tuple(peer(p) for p in r.peers)) for r in rs)

    def types(pol):
        return None if pol.policy_types is None else tuple(t for t in POLICY_TYPES if t in pol.policy_types)

    return nca_label_values(cluster.with_policies(tuple(
        replace(p, policy_types=types(p), ingress=rules(p, "Ingress", p.ingress), egress=rules(p, "Egress", p.egress))
        for p in cluster.policies
    )))


def _int_like(value: str) -> bool:
    """Whether NCA 2.1.0's YAML reader turns ``value`` into a number (it tries ``int()``
    on every scalar, quoted or not)."""
    try:
        int(value)
    except ValueError:
        return False
    return True


def nca_label_values(cluster: Cluster) -> Cluster:
    """``cluster`` with every label value that reads as an integer given a name no label
    value of the cluster has (``"2"`` becomes ``"x2"``), the same everywhere: pod,
    namespace and Service labels and every selector's values. Selection is by equality
    of values, so the same pods match every selector; NCA can then read them.

    Examples
    --------
    >>> from netmend.k8s.model import Pod
    >>> nca_label_values(Cluster(pods=(Pod("a", labels=(("v", "2"), ("w", "x2"))),))).pods[0].labels
    (('v', 'xx2'), ('w', 'x2'))
    """
    values: set[str] = set()
    for pod in cluster.pods:
        values.update(v for _, v in pod.labels)
    for ns in cluster.namespaces:
        values.update(v for _, v in ns.labels)
    for svc in cluster.services:
        values.update(v for _, v in svc.selector or ())
    selectors = [p.pod_selector for p in cluster.policies]
    selectors += [s for p in cluster.policies for d in ("Ingress", "Egress") for r in p.rules(d) for peer in r.peers or ()
                  for s in (peer.pod_selector, peer.namespace_selector) if s is not None]
    for sel in selectors:
        values.update(v for _, v in sel.match_labels)
        values.update(v for e in sel.match_expressions for v in e.values)
    renamed: dict[str, str] = {}
    for value in sorted(v for v in values if _int_like(v)):
        new = "x" + value
        while new in values or new in renamed.values():
            new = "x" + new
        if len(new) > MAX_LABEL_VALUE:
            raise NcaError(f"label value {value!r}: NCA reads it as a number and no longer name fits a label value")
        renamed[value] = new
    if not renamed:
        return cluster

    def labels(pairs):
        return tuple((k, renamed.get(v, v)) for k, v in pairs)

    def selector(sel):
        if sel is None:
            return None
        return replace(sel, match_labels=labels(sel.match_labels), match_expressions=tuple(
            replace(e, values=tuple(renamed.get(v, v) for v in e.values)) for e in sel.match_expressions))

    def rules(rs):
        if rs is None:
            return None
        return tuple(replace(r, peers=None if r.peers is None else tuple(
            replace(p, pod_selector=selector(p.pod_selector), namespace_selector=selector(p.namespace_selector))
            for p in r.peers)) for r in rs)

    return replace(
        cluster,
        pods=tuple(replace(p, labels=labels(p.labels)) for p in cluster.pods),
        namespaces=tuple(replace(n, labels=labels(n.labels)) for n in cluster.namespaces),
        services=tuple(replace(s, selector=None if s.selector is None else labels(s.selector)) for s in cluster.services),
        policies=tuple(replace(p, pod_selector=selector(p.pod_selector), ingress=rules(p.ingress), egress=rules(p.egress))
                       for p in cluster.policies),
    )


def nca_intent(
    executable: str | Path, base: Cluster, intended: Mapping[str, Mapping], finals: Sequence[Mapping[str, Mapping]]
) -> list[tuple[str, ...]]:
    """Per final policy set, where NCA's connectivity differs from the intended set's
    (empty: NCA sees them as equivalent). One NCA run for all of them."""
    from netmend.k8s.nca import run_nca

    want = policies_of(intended)
    sets = [want, *(policies_of(f) for f in finals)]
    clusters = [nca_readable(base.with_policies(s)) for s in sets]
    with tempfile.TemporaryDirectory(prefix="netmend-nca-") as work:
        maps = run_nca(executable, clusters, work)
    ref = maps[0]
    pods = [p.key for p in base.pods]
    out = []
    for policies, got in zip(sets[1:], maps[1:], strict=True):
        diffs = []
        for src in pods:
            for dst in pods:
                if src != dst and ref.pod_pair(src, dst) != got.pod_pair(src, dst):
                    diffs.append(f"{src} -> {dst}: NCA {got.pod_pair(src, dst)} instead of {ref.pod_pair(src, dst)}")
        for address in external_addresses((*want, *policies)):
            for pod in pods:
                for direction in ("Ingress", "Egress"):
                    a, b = ref.with_address(pod, address, direction), got.with_address(pod, address, direction)
                    if a != b:
                        diffs.append(f"{pod} {direction} {address}: NCA {b} instead of {a}")
        out.append(tuple(diffs[:MAX_SHOWN]))
    return out
