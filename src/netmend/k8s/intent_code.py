"""Intent as code: allow/deny assertions over workloads, namespaces and labels.

A document is a mapping with an ``assertions`` list (``version: 1`` and a
``description`` may stand beside it)::

    version: 1
    assertions:
      - name: storefront-calls-api          # optional; default "assertion-<n>"
        allow:                              # or deny:
          from: {namespace: shop, workload: web}
          to: {namespace: shop, service: api}
          ports: [9000]
      - name: data-is-a-sink
        deny:
          from: {namespace: data}
          to: {namespace: "*"}
          ports: ["1-65535/TCP", "53/UDP"]

``from`` and ``to`` each select pods with any of these keys (all given must hold):

``namespace``
    a name or glob (``shop``, ``team-*``), or a list of them;
``namespaceLabels``
    ``{key: value-glob}`` on the namespace's labels (``"*"``: the key exists);
``labels``
    ``{key: value-glob}`` on the pod's labels;
``workload``
    a name or glob, or a list, of the owning Deployment/StatefulSet/...

``to`` may instead name Services: ``service`` (a name or glob) with an optional
``namespace``; such a connection is probed the way ``k8s probe`` does it
(TCP to the Service, any endpoint, after name resolution when DNS is
modelled), and its ``ports`` are Service ports. From an ``address`` the
Service is reached from outside: a LoadBalancer port or a nodePort.

``{address: 203.0.113.10}`` stands for one address outside the cluster, as
``from`` (it opens connections to the pods or Services in ``to``) or as ``to``
(the pods in ``from`` open connections to it); one end must be in the cluster.

``ports`` lists ``80``, ``"8000-8100"``, ``"53/UDP"`` or ``"8000-8100/TCP"``
(TCP by default). Without ``ports`` every port of every protocol counts (every
TCP port of a Service). ``allow`` holds when every selected connection is
allowed on every listed port; ``deny`` holds when none is allowed on any.
A pod's traffic to itself is never counted.

Globs never match system namespaces (``kube-system`` ...); name one exactly
to include it. An assertion that selects no connection is an error, never a
vacuous pass. Unknown keys are refused.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from netmend.k8s.errors import K8sError
from netmend.k8s.model import PROTOCOLS
from netmend.k8s.portset import MAX_PORT, MIN_PORT, PortRange, PortSet

SYSTEM_NAMESPACES = ("kube-system", "kube-public", "kube-node-lease")
EXPECTATIONS = ("allow", "deny")
_TOP_KEYS = ("version", "description", "assertions")
_ASSERTION_KEYS = ("name", *EXPECTATIONS)
_BODY_KEYS = ("from", "to", "ports")
_POD_KEYS = ("namespace", "namespaceLabels", "labels", "workload")
_SERVICE_KEYS = ("namespace", "service")
_PORT = re.compile(r"^(?P<lo>[0-9]{1,5})(?:-(?P<hi>[0-9]{1,5}))?(?:/(?P<proto>[A-Za-z]+))?$")
_NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")

Path = tuple[str | int, ...]
LabelGlobs = tuple[tuple[str, str], ...]


class IntentCodeError(K8sError, ValueError):
    """An intent document is malformed.

    Attributes
    ----------
    source : str
        The file (or other origin) of the document.
    path : str
        Where in the document, e.g. ``assertions[2].allow.ports[0]``.
    line : int
        1-based line of that place, 0 when unknown.
    expected : str
        What should have been there.
    """

    def __init__(self, source: str, path: str, expected: str, got: object = ..., line: int = 0):
        self.source, self.path, self.expected, self.got, self.line = source, path, expected, got, line
        found = "missing" if got is ... else f"got {got!r}"
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {path}: expected {expected}, {found}")


class IntentContradiction(K8sError, ValueError):
    """Assertions of one intent that no policy set can satisfy together.

    ``first`` (an allow) and ``second`` (a deny) select a common connection, or
    ``where`` says how they meet once Service targets are resolved to the
    pods and ports behind them; ``others`` are further assertions the
    contradiction needs (several deny assertions that together cover every
    endpoint of a Service, say). ``source`` is the intent file.
    """

    def __init__(self, first: Assertion, second: Assertion, where: str, source: str = "",
                 others: tuple[Assertion, ...] = ()):
        self.first, self.second, self.where, self.source = first, second, where, source
        self.others = tuple(a for a in dict.fromkeys(others) if a not in (first, second))

        def named(a: Assertion) -> str:
            return f"{a.name!r}" + (f" (line {a.line})" if a.line else "")

        names = [named(a) for a in self.assertions]
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        super().__init__(
            (f"{source}: " if source else "")
            + f"assertions {listed} contradict: {first.expect} and {second.expect} of {where}"
        )

    @property
    def assertions(self) -> tuple[Assertion, ...]:
        """Every assertion the contradiction involves, the allow first."""
        return (self.first, self.second, *self.others)

    def in_file(self, source: str) -> IntentContradiction:
        """The same contradiction, naming the intent file."""
        return IntentContradiction(self.first, self.second, self.where, source, self.others)


def shared_ports(a: PortSet, b: PortSet) -> PortSet | None:
    """The ports two assertions share (empty ``ports`` means every port), or None."""
    if not a and not b:
        return PortSet.all()
    shared = (a or PortSet.all()) & (b or PortSet.all())
    return shared or None


def syntactic_contradiction(assertions: Sequence[Assertion]) -> IntentContradiction | None:
    """An allow and a deny assertion that select the same connections on their face: the
    same probe cell, or the same ``from`` and ``to`` with ports in common (no cluster needed)."""
    for a in assertions:
        if not a.allow:
            continue
        for d in assertions:
            if d.allow:
                continue
            shared_cells = [c for c in a.cells if c in d.cells]
            if shared_cells:
                s, t = shared_cells[0]
                return IntentContradiction(a, d, f"{s} -> {t}")
            if a.cells or d.cells or (a.source, a.target) != (d.source, d.target):
                continue
            shared = shared_ports(a.ports, d.ports)
            if shared is not None:
                return IntentContradiction(a, d, f"{a.source} -> {a.target} on {shared}")
    return None


def is_glob(pattern: str) -> bool:
    """Whether ``pattern`` holds a wildcard (``*``, ``?`` or ``[...]``)."""
    return any(ch in pattern for ch in "*?[")


def namespace_matches(patterns: tuple[str, ...], namespace: str) -> bool:
    """Whether ``namespace`` is named by one of ``patterns`` (empty: every non-system one).

    Examples
    --------
    >>> namespace_matches(("shop-*",), "shop-eu"), namespace_matches(("*",), "kube-system")
    (True, False)
    >>> namespace_matches(("kube-system",), "kube-system"), namespace_matches((), "data")
    (True, True)
    """
    if not patterns:
        return namespace not in SYSTEM_NAMESPACES
    for pattern in patterns:
        if not is_glob(pattern):
            if pattern == namespace:
                return True
        elif namespace not in SYSTEM_NAMESPACES and fnmatch.fnmatchcase(namespace, pattern):
            return True
    return False


def labels_match(globs: LabelGlobs, labels: Mapping[str, str]) -> bool:
    """Whether ``labels`` has every key of ``globs`` with a value its glob matches.

    Examples
    --------
    >>> labels_match((("app", "web*"),), {"app": "web-eu"}), labels_match((("tier", "*"),), {})
    (True, False)
    """
    return all(key in labels and fnmatch.fnmatchcase(labels[key], glob) for key, glob in globs)


@dataclass(frozen=True)
class PodSelection:
    """Pods chosen by namespace and labels (every key given must hold)."""

    namespaces: tuple[str, ...] = ()
    namespace_labels: LabelGlobs = ()
    labels: LabelGlobs = ()
    workloads: tuple[str, ...] = ()

    def matches(self, namespace: str, namespace_labels: Mapping[str, str],
                labels: Mapping[str, str], workload: str) -> bool:
        """Whether a pod with these facts is selected."""
        if self.namespaces:
            if not namespace_matches(self.namespaces, namespace):
                return False
        elif namespace in SYSTEM_NAMESPACES:
            return False
        if not labels_match(self.namespace_labels, namespace_labels):
            return False
        if not labels_match(self.labels, labels):
            return False
        return not self.workloads or any(fnmatch.fnmatchcase(workload, w) for w in self.workloads)

    def __str__(self) -> str:
        parts = []
        if self.namespaces:
            parts.append("namespace " + "|".join(self.namespaces))
        if self.namespace_labels:
            parts.append("namespace labels " + ",".join(f"{k}={v}" for k, v in self.namespace_labels))
        if self.workloads:
            parts.append("workload " + "|".join(self.workloads))
        if self.labels:
            parts.append("labels " + ",".join(f"{k}={v}" for k, v in self.labels))
        return "pods (" + "; ".join(parts) + ")" if parts else "every pod"


@dataclass(frozen=True)
class ServiceSelection:
    """Services chosen by name glob, in namespaces named by globs."""

    service: str
    namespaces: tuple[str, ...] = ()

    def matches(self, name: str, namespace: str) -> bool:
        """Whether the Service ``namespace/name`` is selected."""
        return fnmatch.fnmatchcase(name, self.service) and namespace_matches(self.namespaces, namespace)

    def __str__(self) -> str:
        where = f" in namespace {'|'.join(self.namespaces)}" if self.namespaces else ""
        return f"service {self.service}{where}"


@dataclass(frozen=True)
class AddressSelection:
    """One address outside the cluster (a client on the internet, an external API)."""

    address: str

    def __str__(self) -> str:
        return f"address {self.address}"


@dataclass(frozen=True)
class Assertion:
    """One allow or deny assertion.

    ``cells`` holds literal probes (``source``, ``service[.ns]:port``) for
    intents in the probe-matrix formats; ``source``/``target`` are unused then.
    ``ports`` empty means every port (every TCP Service port for Services).
    """

    name: str
    expect: str
    source: PodSelection | AddressSelection = PodSelection()
    target: PodSelection | ServiceSelection | AddressSelection = PodSelection()
    ports: PortSet = PortSet()
    cells: tuple[tuple[str, str], ...] = ()
    line: int = 0

    @property
    def allow(self) -> bool:
        """True for an allow assertion, False for a deny one."""
        return self.expect == "allow"

    def describe(self) -> str:
        """``allow pods (namespace shop) -> service api on TCP 9000``."""
        if self.cells:
            return f"{self.expect} " + ", ".join(f"{s} -> {t}" for s, t in self.cells)
        ports = f" on {self.ports}" if self.ports else ""
        return f"{self.expect} {self.source} -> {self.target}{ports}"


@dataclass(frozen=True)
class IntentDocument:
    """A parsed intent: its assertions in written order."""

    source: str
    assertions: tuple[Assertion, ...]


def load_yaml_with_lines(text: str, source: str) -> tuple[Any, dict[Path, int]]:
    """One YAML (or JSON) document and the 1-based line of every node by path."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise IntentCodeError(
            source, "document", f"valid YAML or JSON ({getattr(exc, 'problem', exc)})",
            line=mark.line + 1 if mark else 0,
        ) from None
    finally:
        loader.dispose()
    lines: dict[Path, int] = {}

    def walk(n: yaml.Node, path: Path) -> None:
        lines[path] = n.start_mark.line + 1
        if isinstance(n, yaml.MappingNode):
            for key, value in n.value:
                if isinstance(key, yaml.ScalarNode):
                    walk(value, (*path, key.value))
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                walk(item, (*path, i))

    if node is not None:
        walk(node, ())
    return data, lines


def is_intent_code(data: Any) -> bool:
    """Whether a document is intent as code (a mapping with an ``assertions`` list)."""
    return isinstance(data, Mapping) and "assertions" in data


def _text(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class _Reader:
    def __init__(self, source: str, lines: Mapping[Path, int]):
        self.source, self.lines = source, lines

    def fail(self, path: Path, expected: str, got: object = ...) -> IntentCodeError:
        line = 0
        for cut in range(len(path), -1, -1):
            if path[:cut] in self.lines:
                line = self.lines[path[:cut]]
                break
        return IntentCodeError(self.source, _text(path) or "document", expected, got, line)

    def mapping(self, value: Any, path: Path, allowed: tuple[str, ...]) -> Mapping:
        if not isinstance(value, Mapping):
            raise self.fail(path, f"a mapping with keys {', '.join(allowed)}", value)
        for key in value:
            if key not in allowed:
                raise self.fail((*path, str(key)), f"one of the keys {', '.join(allowed)}", key)
        return value

    def names(self, value: Any, path: Path, what: str) -> tuple[str, ...]:
        items = value if isinstance(value, list) else [value]
        if not items:
            raise self.fail(path, f"a {what} or a non-empty list of them", value)
        for i, item in enumerate(items):
            where = (*path, i) if isinstance(value, list) else path
            if not isinstance(item, str) or not item or any(c.isspace() for c in item):
                raise self.fail(where, f"a {what} (a name or a glob such as 'team-*')", item)
        return tuple(items)

    def label_globs(self, value: Any, path: Path) -> LabelGlobs:
        if not isinstance(value, Mapping) or not value:
            raise self.fail(path, "a non-empty mapping of label key to value glob", value)
        out = []
        for key, glob in value.items():
            if not isinstance(key, str) or not isinstance(glob, str | int | bool) or isinstance(glob, bool):
                raise self.fail((*path, str(key)), "a label key with a string value glob", glob)
            out.append((key, str(glob)))
        return tuple(sorted(out))

    def pods(self, value: Any, path: Path) -> PodSelection:
        at = self.mapping(value, path, _POD_KEYS)
        return PodSelection(
            namespaces=self.names(at["namespace"], (*path, "namespace"), "namespace") if "namespace" in at else (),
            namespace_labels=self.label_globs(at["namespaceLabels"], (*path, "namespaceLabels"))
            if "namespaceLabels" in at else (),
            labels=self.label_globs(at["labels"], (*path, "labels")) if "labels" in at else (),
            workloads=self.names(at["workload"], (*path, "workload"), "workload") if "workload" in at else (),
        )

    def address(self, value: Any, path: Path) -> AddressSelection:
        at = self.mapping(value, path, ("address",))
        text = at["address"]
        try:
            ip = ipaddress.ip_address(text) if isinstance(text, str) else None
        except ValueError:
            ip = None
        if ip is None:
            raise self.fail((*path, "address"), "one IPv4 or IPv6 address (outside the cluster)", text)
        return AddressSelection(str(ip))

    def origin(self, value: Any, path: Path) -> PodSelection | AddressSelection:
        if isinstance(value, Mapping) and "address" in value:
            return self.address(value, path)
        return self.pods(value, path)

    def target(self, value: Any, path: Path) -> PodSelection | ServiceSelection | AddressSelection:
        if isinstance(value, Mapping) and "address" in value:
            return self.address(value, path)
        if isinstance(value, Mapping) and "service" in value:
            at = self.mapping(value, path, _SERVICE_KEYS)
            (service,) = self.names(at["service"], (*path, "service"), "service name")
            namespaces = self.names(at["namespace"], (*path, "namespace"), "namespace") if "namespace" in at else ()
            return ServiceSelection(service, namespaces)
        return self.pods(value, path)

    def ports(self, value: Any, path: Path, service: bool) -> PortSet:
        if not isinstance(value, list) or not value:
            raise self.fail(path, "a non-empty list of ports such as 80, '8000-8100' or '53/UDP'", value)
        ranges = []
        for i, item in enumerate(value):
            m = _PORT.match(str(item)) if isinstance(item, int | str) and not isinstance(item, bool) else None
            proto = (m["proto"] or "TCP").upper() if m else ""
            lo = int(m["lo"]) if m else 0
            hi = int(m["hi"] or lo) if m else 0
            if not m or proto not in PROTOCOLS or not MIN_PORT <= lo <= hi <= MAX_PORT:
                raise self.fail(
                    (*path, i),
                    f"a port 1..65535 or a range lo-hi, optionally /{'|/'.join(PROTOCOLS)}",
                    item,
                )
            if service and proto != "TCP":
                raise self.fail(
                    (*path, i), "a TCP port: Services are probed over TCP (select the pods to check UDP or SCTP)", item
                )
            ranges.append(PortRange(proto, lo, hi))
        return PortSet.of(ranges)


def parse_intent_code(data: Any, source: str = "intent", lines: Mapping[Path, int] | None = None) -> IntentDocument:
    """Read an intent-as-code document (see the module docstring).

    Examples
    --------
    >>> doc = parse_intent_code({"assertions": [{"allow": {
    ...     "from": {"namespace": "shop"}, "to": {"service": "api"}, "ports": [9000]}}]})
    >>> a = doc.assertions[0]
    >>> a.name, a.expect, str(a.source), str(a.target), str(a.ports)
    ('assertion-1', 'allow', 'pods (namespace shop)', 'service api', 'TCP 9000')
    """
    read = _Reader(source, lines or {})
    top = read.mapping(data, (), _TOP_KEYS)
    if "version" in top and top["version"] != 1:
        raise read.fail(("version",), "1", top["version"])
    if "description" in top and not isinstance(top["description"], str):
        raise read.fail(("description",), "a string", top["description"])
    items = top.get("assertions")
    if not isinstance(items, list) or not items:
        raise read.fail(("assertions",), "a non-empty list of assertions", items if "assertions" in top else ...)
    out: list[Assertion] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        path: Path = ("assertions", i)
        at = read.mapping(item, path, _ASSERTION_KEYS)
        kinds = [k for k in EXPECTATIONS if k in at]
        if len(kinds) != 1:
            raise read.fail(path, "exactly one of the keys allow, deny", sorted(kinds) if kinds else ...)
        expect = kinds[0]
        name = at.get("name", f"assertion-{i + 1}")
        if not isinstance(name, str) or not _NAME.match(name):
            raise read.fail((*path, "name"), "a name of letters, digits, '-', '_' and '.'", name)
        if name in seen:
            raise read.fail((*path, "name"), "a name no other assertion has", name)
        seen.add(name)
        body_path = (*path, expect)
        body = read.mapping(at[expect], body_path, _BODY_KEYS)
        for key in ("from", "to"):
            if key not in body:
                raise read.fail((*body_path, key), f"a '{key}' selection")
        source = read.origin(body["from"], (*body_path, "from"))
        target = read.target(body["to"], (*body_path, "to"))
        if isinstance(source, AddressSelection) and isinstance(target, AddressSelection):
            raise read.fail((*body_path, "to"), "pods or a Service: an assertion needs one end in the cluster", body["to"])
        is_service = isinstance(target, ServiceSelection)
        ports = read.ports(body["ports"], (*body_path, "ports"), is_service) if "ports" in body else PortSet()
        out.append(Assertion(
            name=name,
            expect=expect,
            source=source,
            target=target,
            ports=ports,
            line=read.lines.get(path, 0),
        ))
    contradiction = syntactic_contradiction(out)
    if contradiction is not None:
        raise contradiction.in_file(read.source)
    return IntentDocument(source, tuple(out))


def assertions_from_cells(
    cells: tuple[tuple[str, str, bool], ...], lines: Mapping[tuple[str, str], int] | None = None
) -> tuple[Assertion, ...]:
    """One assertion per probe cell of a matrix-format intent (``source -> target``)."""
    return tuple(
        Assertion(
            name=f"{source} -> {target}",
            expect="allow" if allowed else "deny",
            cells=((source, target),),
            line=(lines or {}).get((source, target), 0),
        )
        for source, target, allowed in cells
    )
