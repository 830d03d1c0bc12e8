"""Kubernetes NetworkPolicy engine: cluster model, exact semantics, probes, patches.

Public API (import from ``netmend.k8s``)
-----------------------------------------
Model (:mod:`.model`, frozen and hashable)
    ``Cluster(namespaces, pods, services, policies)`` with ``policy(name, ns)``,
    ``service(name, ns)``, ``with_policy(p)``, ``with_policies(ps)``,
    ``without_policy(name, ns)``; ``Namespace``, ``Pod`` (``ip``, ``ports``,
    ``workload``), ``Service`` (``cluster_ip``), ``NetworkPolicy`` (``key``,
    ``effective_types``, ``rules(direction)``), ``Rule``, ``Peer``,
    ``PolicyPort``, ``IPBlock``, ``LabelSelector``, ``Requirement``.

Loading
    ``load_cluster(manifest_paths, policy_paths, kube_dns=True)`` reads YAML
    (multi-document) and JSON (``kubectl get -o json`` List or one object)
    files and directories; ``read_policies(paths)``; ``parse_text(text)``;
    ``parse_object(dict)`` / ``parse_policy(dict)``; ``build_cluster(objects)``
    (assigns pod IPs in 10.244.0.0/16 and ClusterIPs in 10.96.0.0/12).
    Bad input raises ``ManifestError`` (``.source``, ``.field``, ``.expected``).

Back to Kubernetes
    ``policy_to_dict(policy)`` (``parse_policy`` reads it back equal),
    ``to_dict(obj)``, ``as_list(dicts)`` (what ``kubectl get -o json`` prints).

Semantics (:mod:`.semantics`)
    ``Simulator(cluster, Semantics())``; ``sim.snapshot(policies)`` ->
    ``Snapshot`` with ``allowed(src, dst, proto, port)`` (pod indices),
    ``verdict(...)`` -> ``Verdict`` naming isolating policies and admitting
    rules, ``connections(src, dst)`` -> ``PortSet``, ``connectivity()`` (every
    ordered pod pair, computed per class of indistinguishable pods), and
    ``*_external`` variants for addresses outside the cluster.
    ``Semantics(ipblock_selects_pods=True)``: whether ipBlocks cover pod IPs
    (plugins differ; network-config-analyzer says no).

Probes (:mod:`.probe`)
    ``Matrix`` (ordered ``source -> service:port -> bool``);
    ``Prober(cluster, matrix.probes(), dns=True)`` then ``prober.run(policies)``
    (cheap to repeat: policies compile once per distinct value; the demo's
    10-source matrix takes a few hundred microseconds, also right after an
    edit) and ``prober.explain(src, tgt)`` (DNS step, then each endpoint's
    verdict);
    ``probe_matrix(cluster, probes, dns=...)``; ``compare(expected, actual)``
    -> ``Mismatch`` tuple; ``mismatch_summary`` (NetArena's lines, arrow
    U+2192, or ``No mismatches found.``); ``parse_mismatches(text)``;
    ``render_grid(actual, expected)``.

Demo (:mod:`.demo`)
    ``demo_cluster()``, ``demo_workloads()``, ``demo_policies()``,
    ``demo_deny_all()``, ``demo_expected()`` (Online Boutique with kube-dns).

Patches (:mod:`.patch`)
    ``apply_patch(policy, patch, patch_type)`` with ``"json"`` (RFC 6902),
    ``"merge"`` (RFC 7386) or ``"strategic"``; returns a new policy and
    raises ``PatchError`` leaving the input untouched; ``patch_cluster(cluster,
    name, patch, type)``; ``patch_document(dict, patch, type)``.

Oracle adapter (:mod:`.nca`, runs a subprocess)
    ``run_nca(executable, clusters, workdir)``: IBM network-config-analyzer's
    connectivity map of many clusters in one run, as ``PortSet`` per pod pair.

Admin tiers (:mod:`.admin` reads them, :mod:`.tiers` evaluates them)
    ``ClusterNetworkPolicy`` (v1alpha2, tier Admin|Baseline), ``AdminNetworkPolicy``
    and ``BaselineAdminNetworkPolicy`` (v1alpha1) load with everything else
    (``load_cluster``, ``read_all_policies``) into ``Cluster.admin_policies``;
    ``parse_admin_policy(dict)``, ``admin_policy_to_dict(policy)``. Snapshots
    walk admin, NetworkPolicy (final when isolating), baseline, default allow;
    a ``DirectionVerdict`` names its ``tier`` and ``decided_by``.
    ``tier_findings(sim)``: same-priority overlaps and peers not modelled.

Effective view for packet filters (:mod:`.effective`)
    ``effective_view(cluster)`` -> ``PodView`` per pod: per direction
    ``isolated`` and ``AllowRule(rule, PeerSet(any, pod_ips, cidrs), PortSet)``
    with named ports resolved on the destination pod.
"""

from __future__ import annotations

from netmend.k8s.admin import admin_policy_to_dict, parse_admin_policy
from netmend.k8s.cluster import build_cluster, kube_dns_objects, with_kube_dns
from netmend.k8s.demo import (
    demo_cluster,
    demo_deny_all,
    demo_expected,
    demo_policies,
    demo_workloads,
)
from netmend.k8s.effective import AllowRule, Cidr, DirectionView, PeerSet, PodView, effective_view
from netmend.k8s.errors import K8sError, ManifestError, MismatchParseError, PatchError, ProbeError
from netmend.k8s.load import (
    load_cluster,
    parse_text,
    read_all_policies,
    read_objects,
    read_policies,
)
from netmend.k8s.manifest import as_list, parse_object, parse_policy, policy_to_dict, to_dict
from netmend.k8s.model import (
    AdminPeer,
    AdminPolicy,
    AdminPort,
    AdminRule,
    AdminSubject,
    Cluster,
    ContainerPort,
    IPBlock,
    LabelSelector,
    Namespace,
    NamespacedPods,
    NetworkPolicy,
    Peer,
    Pod,
    PolicyPort,
    Requirement,
    Rule,
    Service,
    ServicePort,
)
from netmend.k8s.patch import PATCH_TYPES, apply_patch, patch_cluster, patch_document
from netmend.k8s.portset import PortRange, PortSet
from netmend.k8s.probe import (
    Matrix,
    Mismatch,
    Prober,
    compare,
    mismatch_summary,
    parse_mismatches,
    probe_matrix,
    render_grid,
)
from netmend.k8s.semantics import DirectionVerdict, RuleRef, Semantics, Simulator, Snapshot, Verdict
from netmend.k8s.tiers import TierFinding, TierMatch
from netmend.k8s.tiers import findings as tier_findings

__all__ = [
    "AdminPeer", "AdminPolicy", "AdminPort", "AdminRule", "AdminSubject", "DirectionVerdict",
    "NamespacedPods", "TierFinding", "TierMatch", "admin_policy_to_dict", "parse_admin_policy",
    "read_all_policies", "tier_findings",
    "PATCH_TYPES", "AllowRule", "Cidr", "Cluster", "ContainerPort", "DirectionView", "IPBlock", "K8sError",
    "LabelSelector", "ManifestError", "Matrix", "Mismatch", "MismatchParseError", "Namespace",
    "NetworkPolicy", "PatchError", "Peer", "PeerSet", "Pod", "PodView", "PolicyPort", "PortRange",
    "PortSet", "ProbeError", "Prober", "Requirement", "Rule", "RuleRef", "Semantics", "Service",
    "ServicePort", "Simulator", "Snapshot", "Verdict", "as_list", "build_cluster", "compare",
    "demo_cluster", "demo_deny_all", "demo_expected", "demo_policies", "demo_workloads",
    "effective_view", "kube_dns_objects", "load_cluster", "mismatch_summary", "parse_mismatches",
    "parse_object", "apply_patch", "patch_cluster", "patch_document", "parse_policy", "parse_text", "policy_to_dict", "probe_matrix", "read_objects",
    "read_policies", "render_grid", "to_dict", "with_kube_dns",
]  # fmt: skip
