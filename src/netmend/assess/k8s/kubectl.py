"""The simulated cluster and the kubectl subset a participant uses against it.

:class:`SimCluster` keeps objects as the API server would store them
(defaults filled in, empty lists dropped, ``generation`` counted) and
answers ``kubectl get`` (tables, ``-o wide|json|yaml|name|jsonpath=...``,
``-n``/``-A``, ``-l``) and ``kubectl patch`` (``--type`` json, merge or
strategic, through the engine's patch functions, validated like the API
server: nothing changes on error). Other kubectl verbs fail with kubectl's
wording. Probing goes through the engine on the current policies.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import yaml

from netmend.assess.k8s.jsonpath import JSONPathError, render
from netmend.assess.k8s.shell import Result, run_script
from netmend.k8s import Cluster, Matrix, Prober, compare, parse_policy, to_dict
from netmend.k8s.errors import K8sError
from netmend.k8s.patch import parse_patch_text, patch_document
from netmend.k8s.probe import Mismatch
from netmend.repair.netarena import TIMEOUT_OUTPUT

NETPOL_API = "networking.k8s.io/v1"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


@dataclass(frozen=True)
class ResourceType:
    """One resource type kubectl knows in the simulation."""

    plural: str
    singular: str
    group_name: str  # as in "networkpolicy.networking.k8s.io/x" and NotFound texts
    namespaced: bool
    aliases: tuple[str, ...]


TYPES: tuple[ResourceType, ...] = (
    ResourceType("networkpolicies", "networkpolicy", "networking.k8s.io", True, ("netpol",)),
    ResourceType("pods", "pod", "", True, ("po",)),
    ResourceType("services", "service", "", True, ("svc",)),
    ResourceType("namespaces", "namespace", "", False, ("ns",)),
)
KIND_OF = {"networkpolicies": "NetworkPolicy", "pods": "Pod", "services": "Service", "namespaces": "Namespace"}
# kubectl verbs that exist but this simulation does not run.
OTHER_VERBS = (
    "annotate", "api-resources", "api-versions", "apply", "attach", "auth", "autoscale", "certificate",
    "cluster-info", "completion", "config", "cordon", "cp", "create", "debug", "delete", "describe",
    "diff", "drain", "edit", "events", "exec", "explain", "expose", "kustomize", "label", "logs",
    "plugin", "port-forward", "proxy", "replace", "rollout", "run", "scale", "set", "taint", "top",
    "uncordon", "version", "wait",
)  # fmt: skip


def _lookup_type(name: str) -> ResourceType | None:
    lowered = name.lower()
    for rtype in TYPES:
        full = (rtype.plural, rtype.singular, *rtype.aliases)
        group = (f"{rtype.plural}.{rtype.group_name}", f"{rtype.singular}.{rtype.group_name}")
        if lowered in full or (rtype.group_name and lowered in group):
            return rtype
    return None


def _qualified(rtype: ResourceType, plural: bool = True) -> str:
    name = rtype.plural if plural else rtype.singular
    return f"{name}.{rtype.group_name}" if rtype.group_name else name


def _token(text: str, length: int) -> str:
    # Kubernetes' name suffix alphabet (no vowels, no 0/1/3).
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    digest = hashlib.sha256(text.encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:length])


def stored_policy(obj: Mapping) -> dict:
    """A NetworkPolicy as the API server stores it: defaults in, empties out."""
    out = copy.deepcopy(dict(obj))
    spec = out.setdefault("spec", {})
    spec.setdefault("podSelector", {})
    for direction, peers in (("ingress", "from"), ("egress", "to")):
        rules = spec.get(direction)
        if not rules:
            spec.pop(direction, None)
            continue
        for rule in rules:
            if not rule.get(peers):
                rule.pop(peers, None)
            if not rule.get("ports"):
                rule.pop("ports", None)
            for port in rule.get("ports", []):
                port.setdefault("protocol", "TCP")
    if not spec.get("policyTypes"):
        spec["policyTypes"] = ["Ingress", "Egress"] if spec.get("egress") else ["Ingress"]
    meta = out.setdefault("metadata", {})
    meta.setdefault("namespace", "default")
    return out


@dataclass
class SimCluster:
    """Workloads from a model cluster plus NetworkPolicy objects as stored.

    Parameters
    ----------
    base : Cluster
        Namespaces, pods and services (its policies are ignored).
    policies : mapping
        ``namespace/name`` -> the policy object as deployed (``kubectl apply``).
    """

    base: Cluster
    policies: dict[str, dict] = field(default_factory=dict)
    # Measures the current model instead of simulating it (e.g. a live lab's prober).
    measure: Callable[[Cluster], Matrix] | None = None
    # Probe sources outside the cluster: name -> address.
    externals: dict[str, str] = field(default_factory=dict)

    @classmethod
    def deploy(
        cls,
        base: Cluster,
        manifests: Iterable[Mapping],
        measure: Callable[[Cluster], Matrix] | None = None,
        externals: Mapping[str, str] | None = None,
    ) -> SimCluster:
        """A cluster with ``manifests`` applied (each gets its last-applied annotation)."""
        sim = cls(base, measure=measure, externals=dict(externals or {}))
        for manifest in manifests:
            obj = stored_policy(manifest)
            applied = json.dumps(manifest, sort_keys=True, separators=(",", ":")) + "\n"
            obj["metadata"].setdefault("annotations", {})[LAST_APPLIED] = applied
            obj["metadata"]["generation"] = 1
            key = f"{obj['metadata']['namespace']}/{obj['metadata']['name']}"
            sim.policies[key] = obj
        return sim

    # -- objects as kubectl prints them ----------------------------------------

    def objects(self, rtype: ResourceType) -> list[dict]:
        """Every object of ``rtype``, sorted by namespace then name."""
        if rtype.plural == "networkpolicies":
            return [copy.deepcopy(self.policies[k]) for k in sorted(self.policies)]
        if rtype.plural == "namespaces":
            return [to_dict(ns) | {"status": {"phase": "Active"}} for ns in self.base.namespaces]
        if rtype.plural == "services":
            out = []
            for svc in self.base.services:
                obj = to_dict(svc)
                obj["spec"].setdefault("type", "ClusterIP")  # to_dict writes the others' type and policy
                out.append(obj)
            return out
        return sorted((self._pod(p) for p in self.base.pods), key=lambda o: (o["metadata"]["namespace"], o["metadata"]["name"]))

    @staticmethod
    def _pod(pod) -> dict:
        obj = to_dict(pod)
        workload = pod.workload or pod.name
        template_hash = _token(f"{pod.namespace}/{workload}", 10)
        obj["metadata"]["name"] = f"{workload}-{template_hash}-{_token(pod.key, 5)}"
        obj["metadata"]["labels"] = {**obj["metadata"].get("labels", {}), "pod-template-hash": template_hash}
        obj["metadata"]["ownerReferences"] = [
            {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{workload}-{template_hash}", "controller": True}
        ]
        obj["spec"]["containers"][0]["name"] = "server"
        obj["status"] = {**obj.get("status", {}), "phase": "Running"}
        return obj

    # -- probing ---------------------------------------------------------------

    def model(self) -> Cluster:
        """The model cluster with the current policies."""
        return self.base.with_policies(tuple(parse_policy(o, source=k) for k, o in sorted(self.policies.items())))

    def probe(self, expected: Matrix, dns: bool = True) -> tuple[Mismatch, ...]:
        """Mismatches of the current policies against ``expected``."""
        cluster = self.model()
        if self.measure is not None:
            return compare(expected, self.measure(cluster))
        return compare(expected, Prober(cluster, expected.probes(), dns=dns, externals=self.externals).run())

    # -- the shell -------------------------------------------------------------

    def run(self, script: str) -> Result:
        """Run a participant's command line as ``bash -c`` would."""
        return run_script(script, {"kubectl": self.kubectl})

    def kubectl(self, argv: list[str], stdin: str = "") -> Result:
        """One ``kubectl`` invocation."""
        try:
            opts, args = _parse_flags(argv)
        except _Usage as exc:
            return Result(stderr=f"error: {exc}\n", code=1)
        if not args:
            return Result(stderr="error: the simulated cluster needs a kubectl verb (get or patch)\n", code=1)
        verb, rest = args[0], args[1:]
        if verb == "get":
            return self._get(rest, opts)
        if verb == "patch":
            return self._patch(rest, opts)
        if verb in OTHER_VERBS:
            return Result(stderr=f"error: the simulated cluster does not implement 'kubectl {verb}'\n", code=1)
        return Result(
            stderr=f'error: unknown command "{verb}" for "kubectl"\nRun \'kubectl --help\' for usage.\n', code=1
        )

    def _targets(self, args: list[str]) -> tuple[list[tuple[ResourceType, str | None]], str | None]:
        out: list[tuple[ResourceType, str | None]] = []
        if not args:
            return [], (
                "You must specify the type of resource to get. Use \"kubectl api-resources\" "
                "for a complete list of supported resources."
            )
        if "/" in args[0]:
            for arg in args:
                kind, _, name = arg.partition("/")
                rtype = _lookup_type(kind)
                if rtype is None:
                    return [], f'the server doesn\'t have a resource type "{kind}"'
                if not name:
                    return [], f"arguments in resource/name form must have a single resource and name: {arg}"
                out.append((rtype, name))
            return out, None
        types = []
        for kind in args[0].split(","):
            rtype = _lookup_type(kind)
            if rtype is None:
                return [], f'the server doesn\'t have a resource type "{kind}"'
            types.append(rtype)
        names = args[1:]
        for rtype in types:
            out.extend((rtype, n) for n in names or [None])
        return out, None

    def _get(self, args: list[str], opts: dict) -> Result:
        unknown = set(opts) - {"namespace", "all-namespaces", "output", "selector", "no-headers", "show-labels"}
        if unknown:
            return Result(stderr=f"error: unknown flag: --{sorted(unknown)[0]}\nSee 'kubectl get --help' for usage.\n", code=1)
        targets, error = self._targets(args)
        if error:
            return Result(stderr=f"error: {error}\n", code=1)
        all_ns = "all-namespaces" in opts
        namespace = opts.get("namespace", "default")
        selector = _selector(opts.get("selector", ""))
        if selector is None:
            return Result(stderr=f"error: unable to parse requirement: {opts['selector']!r}\n", code=1)
        items: list[tuple[ResourceType, dict]] = []
        errors: list[str] = []
        for rtype, name in targets:
            pool = [
                o
                for o in self.objects(rtype)
                if not rtype.namespaced or all_ns or o["metadata"].get("namespace") == namespace
            ]
            if name is not None:
                found = [o for o in pool if o["metadata"]["name"] == name]
                if not found:
                    errors.append(f'Error from server (NotFound): {_qualified(rtype)} "{name}" not found')
                    continue
                pool = found
            pool = [o for o in pool if selector(o["metadata"].get("labels") or {})]
            items.extend((rtype, o) for o in pool)
        single = len(targets) == 1 and targets[0][1] is not None
        output = opts.get("output", "")
        try:
            text = _format(items, output, single and not errors, all_ns, len({t for t, _ in targets}) > 1, opts)
        except _Usage as exc:
            return Result(stderr=f"error: {exc}\n", code=1)
        stderr = "".join(e + "\n" for e in errors)
        if not items and not errors and output in ("", "wide"):
            where = "" if all_ns else f" in {namespace} namespace"
            stderr = f"No resources found{where}.\n"
        return Result(text, stderr, 1 if errors else 0)

    def _patch(self, args: list[str], opts: dict) -> Result:
        unknown = set(opts) - {"namespace", "type", "patch", "output", "dry-run"}
        if unknown:
            return Result(stderr=f"error: unknown flag: --{sorted(unknown)[0]}\nSee 'kubectl patch --help' for usage.\n", code=1)
        if "patch" not in opts:
            return Result(stderr="error: must specify --patch or --patch-file containing the contents of the patch\n", code=1)
        targets, error = self._targets(args)
        if error or len(targets) != 1 or targets[0][1] is None:
            return Result(stderr=f"error: {error or 'patch needs exactly one TYPE NAME or TYPE/NAME'}\n", code=1)
        rtype, name = targets[0]
        patch_type = opts.get("type", "strategic")
        if patch_type not in ("json", "merge", "strategic"):
            return Result(stderr=f'error: --type must be one of [json merge strategic], not "{patch_type}"\n', code=1)
        if rtype.plural != "networkpolicies":
            return Result(stderr=f"error: the simulated cluster patches only networkpolicies, not {rtype.plural}\n", code=1)
        key = f"{opts.get('namespace', 'default')}/{name}"
        if key not in self.policies:
            return Result(stderr=f'Error from server (NotFound): {_qualified(rtype)} "{name}" not found\n', code=1)
        before = self.policies[key]
        try:
            patch = parse_patch_text(opts["patch"])
            if patch_type == "json" and not isinstance(patch, list):
                raise K8sError("json patch must be a list of operations")
            patched = patch_document(before, patch, patch_type)
        except K8sError as exc:
            return Result(stderr=f"The request is invalid: {exc}\n", code=1)
        except (TypeError, ValueError, AttributeError) as exc:
            return Result(stderr=f"error: unable to parse the patch: {exc}\n", code=1)
        try:
            stored = stored_policy(patched)
            parsed = parse_policy(stored, source=key)
            if parsed.key != key:
                raise K8sError(f"metadata.name: field is immutable (would become {parsed.key})")
        except (K8sError, AttributeError, TypeError) as exc:
            return Result(stderr=f'The NetworkPolicy "{name}" is invalid: {exc}\n', code=1)
        label = f"{rtype.singular}.{rtype.group_name}/{name}"
        unchanged = stored["spec"] == before["spec"]
        if not unchanged and opts.get("dry-run", "none") == "none":
            stored["metadata"]["generation"] = before["metadata"].get("generation", 1) + 1
            self.policies[key] = stored
        output = opts.get("output", "")
        if output:
            try:
                return Result(_format([(rtype, stored)], output, True, False, False, opts))
            except _Usage as exc:
                return Result(stderr=f"error: {exc}\n", code=1)
        dry = " (dry run)" if opts.get("dry-run", "none") != "none" else ""
        return Result(f"{label} patched{' (no change)' if unchanged else ''}{dry}\n")


class _Usage(Exception):
    """A command line kubectl refuses before contacting the server."""


_VALUE_FLAGS = {
    "-n": "namespace", "--namespace": "namespace", "-o": "output", "--output": "output",
    "-l": "selector", "--selector": "selector", "-p": "patch", "--patch": "patch", "--type": "type",
    "--dry-run": "dry-run", "--context": "context", "--kubeconfig": "kubeconfig",
}  # fmt: skip
_BOOL_FLAGS = {"-A": "all-namespaces", "--all-namespaces": "all-namespaces", "--no-headers": "no-headers", "--show-labels": "show-labels"}
_OPTIONAL_VALUE = {"dry-run": "client"}
_IGNORED = {"context", "kubeconfig"}


def _parse_flags(argv: list[str]) -> tuple[dict, list[str]]:
    opts: dict[str, str] = {}
    args: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            args.extend(argv[i + 1 :])
            break
        if not arg.startswith("-") or arg == "-":
            args.append(arg)
            i += 1
            continue
        name, eq, value = arg.partition("=")
        if name in _BOOL_FLAGS:
            opts[_BOOL_FLAGS[name]] = "true"
        elif name in _VALUE_FLAGS:
            key = _VALUE_FLAGS[name]
            if not eq:
                if key in _OPTIONAL_VALUE:
                    value = _OPTIONAL_VALUE[key]
                elif i + 1 < len(argv):
                    i += 1
                    value = argv[i]
                else:
                    raise _Usage(f"flag needs an argument: {name}")
            if key not in _IGNORED:
                opts[key] = value
        elif len(name) > 2 and name[:2] in _VALUE_FLAGS and not name.startswith("--"):
            opts[_VALUE_FLAGS[name[:2]]] = arg[2:]  # -ojson, -nkube-system
        else:
            raise _Usage(f"unknown flag: {name}")
        i += 1
    return opts, args


def _selector(text: str):
    """An equality-based label selector (``a=b,c!=d,e``) as a predicate, or None."""
    clauses = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "!=" in part:
            k, v = part.split("!=", 1)
            clauses.append(lambda labels, k=k, v=v: labels.get(k) != v)
        elif "=" in part:
            k, v = part.split("==", 1) if "==" in part else part.split("=", 1)
            clauses.append(lambda labels, k=k, v=v: labels.get(k) == v)
        elif part.startswith("!"):
            clauses.append(lambda labels, k=part[1:]: k not in labels)
        elif part.replace("-", "").replace(".", "").replace("/", "").replace("_", "").isalnum():
            clauses.append(lambda labels, k=part: k in labels)
        else:
            return None
    return lambda labels: all(c(labels) for c in clauses)


def _list(objs: list[dict]) -> dict:
    return {"apiVersion": "v1", "items": objs, "kind": "List", "metadata": {"resourceVersion": ""}}


def _format(items, output: str, single: bool, all_ns: bool, many_types: bool, opts: dict) -> str:
    objs = [o for _, o in items]
    data = objs[0] if single and objs else _list(objs)
    if output == "json":
        return json.dumps(data, indent=4) + "\n"
    if output == "yaml":
        return yaml.safe_dump(data, sort_keys=True, default_flow_style=False)
    if output == "name":
        return "".join(f"{_qualified(t, plural=False)}/{o['metadata']['name']}\n" for t, o in items)
    if output.startswith("jsonpath="):
        try:
            return render(output[len("jsonpath=") :], data)
        except JSONPathError as exc:
            raise _Usage(f"error parsing jsonpath {output[9:]}, {exc}") from None
    if output not in ("", "wide"):
        raise _Usage(
            f'unable to match a printer suitable for the output format "{output}", allowed formats are: '
            "json,jsonpath,name,wide,yaml"
        )
    return _tables(items, output == "wide", all_ns, many_types, "no-headers" in opts, "show-labels" in opts)


def _sel_text(selector: Mapping | None) -> str:
    labels = (selector or {}).get("matchLabels") or {}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items())) or "<none>"


def _row(rtype: ResourceType, obj: dict, wide: bool) -> tuple[list[str], list[str]]:
    meta, spec = obj["metadata"], obj.get("spec", {})
    if rtype.plural == "networkpolicies":
        return ["NAME", "POD-SELECTOR", "AGE"], [meta["name"], _sel_text(spec.get("podSelector")), "<unknown>"]
    if rtype.plural == "namespaces":
        return ["NAME", "STATUS", "AGE"], [meta["name"], "Active", "<unknown>"]
    if rtype.plural == "services":
        ports = ",".join(f"{p['port']}/{p.get('protocol', 'TCP')}" for p in spec.get("ports", [])) or "<none>"
        head = ["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"]
        row = [meta["name"], spec.get("type", "ClusterIP"), spec.get("clusterIP", "<none>"), "<none>", ports, "<unknown>"]
        if wide:
            sel = ",".join(f"{k}={v}" for k, v in sorted((spec.get("selector") or {}).items())) or "<none>"
            head, row = head + ["SELECTOR"], row + [sel]
        return head, row
    head = ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    row = [meta["name"], "1/1", "Running", "0", "<unknown>"]
    if wide:
        head += ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]
        row += [obj.get("status", {}).get("podIP", "<none>"), "kind-control-plane", "<none>", "<none>"]
    return head, row


def _tables(items, wide: bool, all_ns: bool, many_types: bool, no_headers: bool, show_labels: bool) -> str:
    blocks = []
    for rtype in TYPES:
        rows, head = [], None
        for t, obj in items:
            if t is not rtype:
                continue
            head, row = _row(t, obj, wide)
            if many_types:
                row[0] = f"{_qualified(t, plural=False)}/{row[0]}"
            if all_ns and rtype.namespaced:
                head, row = ["NAMESPACE", *head], [obj["metadata"].get("namespace", ""), *row]
            if show_labels:
                labels = obj["metadata"].get("labels") or {}
                head, row = [*head, "LABELS"], [*row, ",".join(f"{k}={v}" for k, v in sorted(labels.items())) or "<none>"]
            rows.append(row)
        if not rows:
            continue
        table = rows if no_headers else [head, *rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
        lines = ["   ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in table]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def harness_output(result: Result, timed_out: bool = False) -> str:
    """The Output field the harness logs: stdout on success, else stderr."""
    if timed_out:
        return TIMEOUT_OUTPUT
    return result.stdout if result.code == 0 else result.stderr
