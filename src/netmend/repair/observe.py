"""One compact read of everything the planner needs, and its parser.

The read is a single ``kubectl get`` of namespaces, pods, services and
NetworkPolicies in every namespace, printed through a jsonpath template as
one tab-separated line per object with only the fields that shape the
network (labels, pod IPs and container ports, service selectors, ports with
their nodePorts, type and externalTrafficPolicy, policy specs). Maps and lists print as compact JSON, so policy rules arrive
exactly as the API server stores them and patch ``test`` guards match.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from netmend.k8s.cluster import build_cluster, with_kube_dns
from netmend.k8s.errors import K8sError
from netmend.k8s.manifest import parse_object
from netmend.k8s.model import Cluster, NetworkPolicy, Pod
from netmend.repair.errors import ObservationError

FIELDS: tuple[tuple[str, str], ...] = (
    ("kind", ".kind"),
    ("namespace", ".metadata.namespace"),
    ("name", ".metadata.name"),
    ("labels", ".metadata.labels"),
    ("owners", ".metadata.ownerReferences[*].kind"),
    ("pod_ip", ".status.podIP"),
    ("container_ports", ".spec.containers[*].ports"),
    ("selector", ".spec.selector"),
    ("service_ports", ".spec.ports"),
    ("pod_selector", ".spec.podSelector"),
    ("policy_types", ".spec.policyTypes"),
    ("ingress", ".spec.ingress"),
    ("egress", ".spec.egress"),
    # Which services clients outside the cluster reach, and whether their address survives.
    ("service_type", ".spec.type"),
    ("traffic_policy", ".spec.externalTrafficPolicy"),
)
KINDS = "namespaces,pods,services,networkpolicies"
TEMPLATE = "{range .items[*]}" + '{"\\t"}'.join("{" + path + "}" for _, path in FIELDS) + '{"\\n"}{end}'
READ_COMMAND = f"kubectl get {KINDS} -A -o jsonpath='{TEMPLATE}'"
# Fallbacks, plainer each, for a kubectl that refuses the compact read:
# whole objects as JSON in every namespace, then the default namespace only.
READ_JSON = f"kubectl get {KINDS} -A -o json"
# The same, then each admin-tier kind on its own (a cluster lacking a kind's CRD only
# says so on stderr, and refuses a command naming it beside other kinds).
ADMIN_KINDS_READ = (
    "clusternetworkpolicies.policy.networking.k8s.io",
    "adminnetworkpolicies.policy.networking.k8s.io",
    "baselineadminnetworkpolicies.policy.networking.k8s.io",
)
# It ends in ``|| true``: a harness logs stderr alone when the command fails, and the last
# kind's read fails on a cluster lacking its CRD, which would hide every object read before.
READ_JSON_ADMIN = "; ".join([READ_JSON, *(f"kubectl get {kind} -o json" for kind in ADMIN_KINDS_READ)]) + " || true"
# What kubectl prints (on stderr, which a harness may show with stdout) for a kind with no CRD.
_ABSENT_KIND = re.compile(r"^error: the server doesn't have a resource type .*$", re.MULTILINE)
READ_DEFAULT_JSON = "kubectl get pods,services,networkpolicies -o json"
# The last resort reads policies only; the workloads then come from the
# caller's model of the application (see ``workloads`` below).
READ_POLICIES = "kubectl get networkpolicy -n default -o json"
READS: tuple[str, ...] = (READ_COMMAND, READ_JSON, READ_JSON_ADMIN, READ_DEFAULT_JSON, READ_POLICIES)
_NAMESPACE = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_NAMESPACED_READS = (
    re.compile(rf"kubectl get pods,services,networkpolicies -n {_NAMESPACE} -o json"),
    re.compile(rf"kubectl get networkpolicy -n {_NAMESPACE} -o json"),
)


def reads_for(namespaces: Iterable[str] = ()) -> tuple[str, ...]:
    """Every read, in the order a participant tries them: the cluster-wide ones
    (the last also reads the admin-tier kinds), then per namespace (those the mismatches name, in order, and
    ``default``) its workloads and policies, then its policies only.

    Examples
    --------
    >>> reads_for(["payments"])[3:]
    ('kubectl get pods,services,networkpolicies -n payments -o json', 'kubectl get pods,services,networkpolicies -o json', 'kubectl get networkpolicy -n payments -o json', 'kubectl get networkpolicy -n default -o json')
    """
    names = [n for n in dict.fromkeys([*namespaces, "default"]) if re.fullmatch(_NAMESPACE, n)]
    whole = [READ_DEFAULT_JSON if n == "default" else f"kubectl get pods,services,networkpolicies -n {n} -o json" for n in names]
    policies = [f"kubectl get networkpolicy -n {n} -o json" for n in names]
    return (READ_COMMAND, READ_JSON, READ_JSON_ADMIN, *whole, *policies)


def is_read(command: str) -> bool:
    """Whether ``command`` is one of the reads :func:`reads_for` can give."""
    command = command.strip()
    return command in READS or any(r.fullmatch(command) for r in _NAMESPACED_READS)
_HASH_SUFFIX = re.compile(r"-[a-z0-9]{5}$")
_ORDINAL = re.compile(r"-[0-9]+$")


@dataclass(frozen=True, eq=False)
class Observation:
    """What a read saw: the cluster model and the policy objects as stored."""

    cluster: Cluster
    policies: dict  # namespace/name -> NetworkPolicy object, exactly as read


def _json(text: str, where: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise ObservationError(f"{where}: expected JSON, got {text[:80]!r}") from None


def _json_sequence(text: str, where: str) -> list:
    """Space-separated JSON values, as jsonpath prints several results."""
    decoder = json.JSONDecoder()
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        try:
            value, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            raise ObservationError(f"{where}: expected JSON values, got {text[i:i + 80]!r}") from None
        out.append(value)
    return out


def workload_of(name: str, labels: dict, owner_kinds: list[str]) -> str:
    """The workload a live pod belongs to (what probes call it).

    Deployment pods are ``<deployment>-<pod-template-hash>-<suffix>``,
    StatefulSet pods ``<set>-<ordinal>``, DaemonSet pods ``<set>-<suffix>``.

    Examples
    --------
    >>> workload_of("frontend-7d9c8b6f5-x2x4z", {"pod-template-hash": "7d9c8b6f5"}, ["ReplicaSet"])
    'frontend'
    >>> workload_of("db-0", {}, ["StatefulSet"])
    'db'
    >>> workload_of("debug", {}, [])
    'debug'
    """
    hash_ = labels.get("pod-template-hash")
    if hash_ and f"-{hash_}-" in name:
        return name[: name.rindex(f"-{hash_}-")]
    if "StatefulSet" in owner_kinds and _ORDINAL.search(name):
        return _ORDINAL.sub("", name)
    if ("DaemonSet" in owner_kinds or "ReplicaSet" in owner_kinds) and _HASH_SUFFIX.search(name):
        return _HASH_SUFFIX.sub("", name)
    return name


def _object(fields: dict[str, str], where: str) -> dict | None:
    kind = fields["kind"]
    meta: dict = {"name": fields["name"]}
    if fields["namespace"]:
        meta["namespace"] = fields["namespace"]
    if fields["labels"]:
        meta["labels"] = _json(fields["labels"], f"{where} labels")
    if kind == "Namespace":
        return {"apiVersion": "v1", "kind": kind, "metadata": meta}
    if kind == "Pod":
        containers = [
            {"name": f"c{i}", "ports": ports}
            for i, ports in enumerate(_json_sequence(fields["container_ports"], f"{where} ports"))
        ]
        obj = {"apiVersion": "v1", "kind": kind, "metadata": meta, "spec": {"containers": containers}}
        if fields["pod_ip"]:
            obj["status"] = {"podIP": fields["pod_ip"]}
        return obj
    if kind == "Service":
        spec: dict = {}
        if fields["selector"]:
            spec["selector"] = _json(fields["selector"], f"{where} selector")
        spec["ports"] = _json(fields["service_ports"], f"{where} ports") if fields["service_ports"] else []
        for key, field in (("type", "service_type"), ("externalTrafficPolicy", "traffic_policy")):
            if fields[field]:
                spec[key] = fields[field]
        return {"apiVersion": "v1", "kind": kind, "metadata": meta, "spec": spec}
    if kind == "NetworkPolicy":
        spec = {"podSelector": _json(fields["pod_selector"], f"{where} podSelector") if fields["pod_selector"] else {}}
        for key, field in (("policyTypes", "policy_types"), ("ingress", "ingress"), ("egress", "egress")):
            if fields[field]:
                spec[key] = _json(fields[field], f"{where} {key}")
        return {"apiVersion": "networking.k8s.io/v1", "kind": kind, "metadata": meta, "spec": spec}
    return None


def parse_observation(output: str, workloads: Cluster | None = None) -> Observation:
    """Build the cluster model from the output of :data:`READ_COMMAND`.

    Raises
    ------
    ObservationError
        When the output is not what the read prints or describes no pod.
    """
    objects = []
    for number, line in enumerate(output.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        where = f"read output line {number}"
        if len(parts) != len(FIELDS):
            raise ObservationError(f"{where}: expected {len(FIELDS)} tab-separated fields, got {len(parts)}")
        fields = dict(zip((name for name, _ in FIELDS), parts, strict=True))
        obj = _object(fields, where)
        if obj is not None:
            if fields["owners"]:
                obj["metadata"]["ownerReferences"] = [{"kind": k} for k in fields["owners"].split()]
            objects.append(obj)
    return observation_from_objects(objects, workloads)


def parse_read(command: str, output: str, workloads: Cluster | None = None) -> Observation:
    """The observation printed by one of the reads of :func:`reads_for` (``workloads``: as below)."""
    if command == READ_COMMAND:
        return parse_observation(output, workloads)
    if command == READ_JSON_ADMIN:
        output = _ABSENT_KIND.sub("", output)
    items: list = []
    docs = _json_sequence(output, "read output")
    if not docs:  # every kubectl of the read failed (its stderr is not in a successful output)
        raise ObservationError("the read printed no object")
    for doc in docs:
        if isinstance(doc, dict) and doc.get("kind") == "List":
            items.extend(doc.get("items") or [])
        elif isinstance(doc, dict):
            items.append(doc)
        else:
            raise ObservationError("read output: expected Kubernetes objects or Lists")
    return observation_from_objects(items, workloads)


def align_sources(obs: Observation, sources: Iterable[str]) -> Observation:
    """Name pods after the probe sources that prefix their names.

    A harness names a probe source by a pod-name prefix (its first pod whose
    name starts with it). Pods whose workload could not be derived from
    labels or owners take the longest such source as their workload.
    """
    names = sorted({s for s in sources if "/" not in s}, key=len, reverse=True)
    known = {p.workload for p in obs.cluster.pods}
    missing = [s for s in names if s not in known]
    if not missing:
        return obs
    pods = []
    for pod in obs.cluster.pods:
        match = next((s for s in missing if pod.name == s or pod.name.startswith(s + "-")), None)
        pods.append(replace(pod, workload=match) if match and pod.workload not in names else pod)
    return Observation(cluster=replace(obs.cluster, pods=tuple(pods)), policies=obs.policies)


def observation_from_objects(items: list[dict], workloads: Cluster | None = None) -> Observation:
    """Build the cluster model from Kubernetes objects (``kubectl get -o json`` items).

    Live pods are named after their workload as probes name them; kube-dns
    is added in its standard form when the objects lack it (a read limited
    to some namespaces), since every cluster resolves names.

    When the objects describe no pod (a read that could only list
    policies), the namespaces, pods and services of ``workloads`` stand in,
    if given: a model of the application the policies belong to.

    Raises
    ------
    ObservationError
        When an object is malformed or no pod is described (nor given).
    """
    objects, policies = [], {}
    for index, obj in enumerate(items):
        where = f"object {index} ({obj.get('kind', '?')} {(obj.get('metadata') or {}).get('name', '?')})"
        try:
            model = parse_object(obj, source=where)
        except K8sError as exc:
            raise ObservationError(str(exc)) from None
        if isinstance(model, Pod):
            owners = [o.get("kind", "") for o in (obj.get("metadata") or {}).get("ownerReferences") or []]
            model = replace(model, workload=workload_of(model.name, dict(model.labels), owners))
        if isinstance(model, NetworkPolicy):
            stored = copy.deepcopy(obj)
            stored["metadata"].setdefault("namespace", model.namespace)
            policies[model.key] = stored
        objects.append(model)
    if not any(isinstance(o, Pod) for o in objects):
        if workloads is None or not workloads.pods:
            raise ObservationError("the cluster state describes no pod")
        objects = [*workloads.namespaces, *workloads.pods, *workloads.services, *objects]
    try:
        cluster = build_cluster(with_kube_dns(objects))
    except K8sError as exc:
        raise ObservationError(str(exc)) from None
    return Observation(cluster=cluster, policies=policies)
