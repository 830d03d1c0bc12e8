"""The repair IR: small, named edits to NetworkPolicy objects.

An edit names its policy (namespace, name), its direction and, for in-place
edits, the rule (and peer or port entry) by its index in the policy AS
OBSERVED. :func:`patch_ops` turns the edits of one policy into one RFC 6902
patch, in an order that keeps those indices valid (in-place changes, then
removals from the highest index down, then appends), preceded by ``test``
operations that pin every rule the patch touches to its observed content.
The same ops drive the model's own patch application and the emitted
``kubectl patch``, so what is verified is what is sent.

Every edit has a ``weight``: the planner minimises the total weight, so
repairing a rule in place beats adding a new one, and the narrowest addition
beats re-opening all egress.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import jsonpatch

from netmend.k8s.model import NAMESPACE_NAME_LABEL, Labels
from netmend.repair.errors import EmissionError

INGRESS, EGRESS = "Ingress", "Egress"
_FIELDS = {INGRESS: ("ingress", "from"), EGRESS: ("egress", "to")}


def _labels_text(labels: Labels) -> str:
    return ",".join(f"{k}={v}" for k, v in labels) or "<all>"


@dataclass(frozen=True, order=True)
class PeerSpec:
    """A ``from``/``to`` entry: a pod selector, optionally in other namespaces,
    or (with ``cidr``) an ipBlock for addresses outside the cluster.

    ``namespace_labels`` ``None`` means the policy's own namespace.
    """

    pod_labels: Labels = ()
    namespace_labels: Labels | None = None
    cidr: str = ""  # "" for a selector peer
    excepts: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """The Kubernetes form of the peer."""
        if self.cidr:
            block: dict[str, Any] = {"cidr": self.cidr}
            if self.excepts:
                block["except"] = list(self.excepts)
            return {"ipBlock": block}
        out: dict[str, Any] = {"podSelector": {"matchLabels": dict(self.pod_labels)} if self.pod_labels else {}}
        if self.namespace_labels is not None:
            out["namespaceSelector"] = (
                {"matchLabels": dict(self.namespace_labels)} if self.namespace_labels else {}
            )
        return out

    def __str__(self) -> str:
        if self.cidr:
            return f"ipBlock {self.cidr}" + (f" except {', '.join(self.excepts)}" if self.excepts else "")
        text = _labels_text(self.pod_labels)
        if self.namespace_labels is not None:
            ns = dict(self.namespace_labels).get(NAMESPACE_NAME_LABEL)
            text += f" in ns {ns}" if ns else f" in ns({_labels_text(self.namespace_labels)})"
        return text


@dataclass(frozen=True, order=True)
class PortSpec:
    """A ``ports`` entry: a number (or container port name) and a protocol."""

    port: int | str
    protocol: str = "TCP"

    def to_dict(self) -> dict:
        """The Kubernetes form of the port entry."""
        return {"port": self.port, "protocol": self.protocol}

    def __str__(self) -> str:
        return f"{self.port}/{self.protocol}"


@dataclass(frozen=True, order=True)
class Edit:
    """Base of every edit: the policy it changes and the direction."""

    namespace: str
    policy: str
    direction: str

    kind: ClassVar[str] = "edit"
    weight: ClassVar[int] = 1
    # 0: in place, 1: removal, 2: append (the order patch_ops applies them in)
    stage: ClassVar[int] = 0

    @property
    def key(self) -> str:
        """``namespace/name`` of the policy."""
        return f"{self.namespace}/{self.policy}"

    @property
    def rules_field(self) -> str:
        """``ingress`` or ``egress``."""
        return _FIELDS[self.direction][0]

    @property
    def peers_field(self) -> str:
        """``from`` or ``to``."""
        return _FIELDS[self.direction][1]

    @property
    def rule_index(self) -> int | None:
        """The observed rule index an in-place edit or removal touches."""
        return getattr(self, "rule", None)

    def describe(self) -> str:
        """One line for people."""
        raise NotImplementedError

    def expand(self) -> tuple[Edit, ...]:
        """The primitive edits this one stands for (itself, for primitives)."""
        return (self,)

    def _where(self) -> str:
        return f"{self.key} {self.rules_field}"


@dataclass(frozen=True, order=True)
class SetPort(Edit):
    """Set the port of entry ``entry`` of rule ``rule``."""

    rule: int = 0
    entry: int = 0
    port: int | str = 0
    kind: ClassVar[str] = "set_port"

    def describe(self) -> str:
        return f"{self._where()}[{self.rule}] ports[{self.entry}]: set port {self.port}"


@dataclass(frozen=True, order=True)
class SetProtocol(Edit):
    """Set the protocol of entry ``entry`` of rule ``rule``."""

    rule: int = 0
    entry: int = 0
    protocol: str = "TCP"
    kind: ClassVar[str] = "set_protocol"

    def describe(self) -> str:
        return f"{self._where()}[{self.rule}] ports[{self.entry}]: set protocol {self.protocol}"


@dataclass(frozen=True, order=True)
class RemovePeer(Edit):
    """Remove peer ``peer`` of rule ``rule`` (never its last one)."""

    rule: int = 0
    peer: int = 0
    kind: ClassVar[str] = "remove_peer"

    def describe(self) -> str:
        return f"{self._where()}[{self.rule}]: remove {self.peers_field}[{self.peer}]"


@dataclass(frozen=True, order=True)
class AddPeer(Edit):
    """Add peers to rule ``rule`` (which must already list peers)."""

    rule: int = 0
    peers: tuple[PeerSpec, ...] = ()
    kind: ClassVar[str] = "add_peer"
    weight: ClassVar[int] = 2

    def describe(self) -> str:
        shown = "; ".join(str(p) for p in self.peers)
        return f"{self._where()}[{self.rule}]: add {self.peers_field} {shown}"


@dataclass(frozen=True, order=True)
class RemoveRule(Edit):
    """Remove rule ``rule``."""

    rule: int = 0
    kind: ClassVar[str] = "remove_rule"
    stage: ClassVar[int] = 1

    def describe(self) -> str:
        return f"{self._where()}[{self.rule}]: remove rule"


@dataclass(frozen=True, order=True)
class AddRule(Edit):
    """Append a rule admitting ``peers`` on ``ports``."""

    peers: tuple[PeerSpec, ...] = ()
    ports: tuple[PortSpec, ...] = ()
    kind: ClassVar[str] = "add_rule"
    weight: ClassVar[int] = 3
    stage: ClassVar[int] = 2

    def rule_dict(self) -> dict:
        """The appended rule."""
        return {
            self.peers_field: [p.to_dict() for p in self.peers],
            "ports": [p.to_dict() for p in self.ports],
        }

    def describe(self) -> str:
        peers = "; ".join(str(p) for p in self.peers)
        ports = ", ".join(str(p) for p in self.ports)
        return f"{self._where()}: add rule {self.peers_field} [{peers}] ports [{ports}]"


@dataclass(frozen=True, order=True)
class AllowDNS(Edit):
    """Append an egress rule to kube-dns on 53/UDP and 53/TCP."""

    dns_peer: PeerSpec = PeerSpec()
    kind: ClassVar[str] = "allow_dns"
    weight: ClassVar[int] = 2
    stage: ClassVar[int] = 2

    def rule_dict(self) -> dict:
        """The appended rule."""
        return {
            "to": [self.dns_peer.to_dict()],
            "ports": [PortSpec(53, "UDP").to_dict(), PortSpec(53, "TCP").to_dict()],
        }

    def describe(self) -> str:
        return f"{self._where()}: allow DNS to {self.dns_peer} on 53/UDP, 53/TCP"


@dataclass(frozen=True, order=True)
class AllowAll(Edit):
    """Append the empty rule ``{}``: the direction is open again (restores egress)."""

    kind: ClassVar[str] = "allow_all"
    weight: ClassVar[int] = 4
    stage: ClassVar[int] = 2

    def rule_dict(self) -> dict:
        """The appended rule."""
        return {}

    def describe(self) -> str:
        return f"{self._where()}: add allow-all rule {{}}"


@dataclass(frozen=True, order=True)
class AddPolicyType(Edit):
    """Make the policy apply to ``direction`` again (its rules start to isolate)."""

    kind: ClassVar[str] = "add_policy_type"
    weight: ClassVar[int] = 2

    def describe(self) -> str:
        return f"{self.key}: add policy type {self.direction}"


@dataclass(frozen=True, order=True)
class RemovePolicyType(Edit):
    """Stop the policy applying to ``direction`` (a type added by mistake isolates pods)."""

    kind: ClassVar[str] = "remove_policy_type"
    weight: ClassVar[int] = 2

    def describe(self) -> str:
        return f"{self.key}: remove policy type {self.direction}"


@dataclass(frozen=True, order=True)
class SetValue(Edit):
    """Set, add or remove one field of the spec: the single-field edit.

    ``path`` is the field's place under ``spec`` (``("ingress", 0, "from",
    1, "podSelector", "matchLabels", "app")``); ``value`` is the JSON text of
    the new value (``None`` removes the field or list entry). The patch
    first tests the old value, so it applies only to the policy as read.
    ``cost`` is the size of the change in the policy text (1: one scalar
    replaced; 2: a field or entry added or removed; 3: a structure rebuilt).
    """

    path: tuple = ()
    value: str | None = None
    cost: int = 1
    note: str = ""
    kind: ClassVar[str] = "set_value"

    @property
    def weight(self) -> int:  # type: ignore[override]
        return self.cost

    @property
    def rule(self) -> int | None:
        """The rule index the field lies in, when it lies in a rule."""
        if len(self.path) >= 2 and self.path[0] in ("ingress", "egress") and isinstance(self.path[1], int):
            return self.path[1]
        return None

    @property
    def pointer(self) -> str:
        """The JSON pointer of the field."""
        parts = [str(p).replace("~", "~0").replace("/", "~1") for p in self.path]
        return "/spec/" + "/".join(parts)

    def describe(self) -> str:
        what = self.note or ("remove" if self.value is None else f"set {self.value}")
        return f"{self.key} spec.{'.'.join(str(p) for p in self.path)}: {what}"


def set_value(namespace: str, policy: str, direction: str, path: tuple, value: Any, cost: int = 1, note: str = "") -> SetValue:
    """A :class:`SetValue` with ``value`` as JSON (``None``: remove the field)."""
    import json

    text = None if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"))
    return SetValue(namespace, policy, direction, path=tuple(path), value=text, cost=cost, note=note)


@dataclass(frozen=True, order=True)
class SetPodSelector(Edit):
    """Point a policy that selects no pod back at a workload's pods."""

    labels: tuple[tuple[str, str], ...] = ()
    kind: ClassVar[str] = "set_pod_selector"
    weight: ClassVar[int] = 2

    def describe(self) -> str:
        return f"{self.key}: select pods {_labels_text(self.labels)}"


@dataclass(frozen=True, order=True)
class NarrowRule(Edit):
    """Replace the allow-all rule ``rule`` by one rule per destination still needed.

    ``keeps`` are the (peer, port) pairs the selected pods reach now and must
    keep reaching; ``dns_peer`` adds the kube-dns rule when names must resolve.
    """

    rule: int = 0
    keeps: tuple[tuple[PeerSpec, PortSpec], ...] = ()
    dns_peer: PeerSpec | None = None
    kind: ClassVar[str] = "narrow_rule"
    weight: ClassVar[int] = 3
    stage: ClassVar[int] = 1

    def expand(self) -> tuple[Edit, ...]:
        out: list[Edit] = [RemoveRule(self.namespace, self.policy, self.direction, rule=self.rule)]
        out += [
            AddRule(self.namespace, self.policy, self.direction, peers=(peer,), ports=(port,))
            for peer, port in self.keeps
        ]
        if self.dns_peer is not None:
            out.append(AllowDNS(self.namespace, self.policy, self.direction, dns_peer=self.dns_peer))
        return tuple(out)

    def describe(self) -> str:
        kept = "; ".join(f"{peer} {port}" for peer, port in self.keeps) or "nothing"
        dns = " and DNS" if self.dns_peer is not None else ""
        return f"{self._where()}[{self.rule}]: narrow allow-all to {kept}{dns}"


def plan_weight(edits: Sequence[Edit]) -> int:
    """Total weight of an edit set (what the planner minimises)."""
    return sum(e.weight for e in edits)


def _rules(obj: dict, edit: Edit) -> list | None:
    return (obj.get("spec") or {}).get(edit.rules_field)


def _check(obj: dict, edit: Edit) -> dict | None:
    """The observed rule an in-place edit or removal touches, validated."""
    index = edit.rule_index
    if index is None:
        return None
    rules = _rules(obj, edit)
    if not isinstance(rules, list) or not 0 <= index < len(rules):
        raise EmissionError(f"{edit.describe()}: {edit.key} has no {edit.rules_field}[{index}]")
    rule = rules[index]
    if isinstance(edit, SetPort | SetProtocol):
        ports = rule.get("ports")
        if not isinstance(ports, list) or not 0 <= edit.entry < len(ports):
            raise EmissionError(f"{edit.describe()}: the rule has no ports[{edit.entry}]")
    if isinstance(edit, RemovePeer | AddPeer):
        peers = rule.get(edit.peers_field)
        if not isinstance(peers, list) or not peers:
            raise EmissionError(f"{edit.describe()}: the rule admits every peer; there is no list to edit")
        if isinstance(edit, RemovePeer) and not 0 <= edit.peer < len(peers):
            raise EmissionError(f"{edit.describe()}: the rule has no {edit.peers_field}[{edit.peer}]")
    return rule


def _order(edit: Edit) -> tuple:
    # Removals from the highest index down keep lower indices valid; peer
    # removals likewise inside a rule; appends last, in the given order.
    if isinstance(edit, RemovePeer):
        return (edit.stage, edit.direction, 1, -edit.rule, -edit.peer)
    if isinstance(edit, AddPeer):
        return (edit.stage, edit.direction, 2, edit.rule, 0)
    if isinstance(edit, RemoveRule):
        return (edit.stage, edit.direction, 0, -edit.rule, 0)
    if edit.stage == 2:
        return (edit.stage, "", 0, 0, 0)
    return (edit.stage, edit.direction, 0, edit.rule_index or 0, 0)


def patch_ops(obj: dict, edits: Sequence[Edit]) -> list[dict]:
    """The RFC 6902 patch applying ``edits`` (all of one policy) to ``obj``.

    Raises
    ------
    EmissionError
        When an edit names another policy or an index the object lacks, or
        two edits contradict each other.
    """
    meta = obj.get("metadata") or {}
    key = f"{meta.get('namespace', 'default')}/{meta.get('name')}"
    edits = [primitive for edit in edits for primitive in edit.expand()]
    guards: dict[tuple[str, int], dict] = {}
    for edit in edits:
        if edit.key != key:
            raise EmissionError(f"{edit.describe()}: edit is for {edit.key}, object is {key}")
        rule = _check(obj, edit)
        if rule is not None:
            guards[(edit.rules_field, edit.rule_index)] = rule
    if len(set(edits)) != len(edits):
        raise EmissionError(f"{key}: the same edit appears twice")
    ops: list[dict] = [
        {"op": "test", "path": f"/spec/{field}/{index}", "value": copy.deepcopy(rule)}
        for (field, index), rule in sorted(guards.items())
    ]
    lengths = {
        field: len(rules) if isinstance(rules := (obj.get("spec") or {}).get(field), list) else None
        for field in ("ingress", "egress")
    }
    for edit in sorted(edits, key=_order):
        base = f"/spec/{edit.rules_field}"
        if isinstance(edit, SetPort):
            ops.append({"op": "replace", "path": f"{base}/{edit.rule}/ports/{edit.entry}/port", "value": edit.port})
        elif isinstance(edit, SetProtocol):
            entry = obj["spec"][edit.rules_field][edit.rule]["ports"][edit.entry]
            op = "replace" if "protocol" in entry else "add"
            ops.append({"op": op, "path": f"{base}/{edit.rule}/ports/{edit.entry}/protocol", "value": edit.protocol})
        elif isinstance(edit, RemovePeer):
            ops.append({"op": "remove", "path": f"{base}/{edit.rule}/{edit.peers_field}/{edit.peer}"})
        elif isinstance(edit, AddPeer):
            for peer in edit.peers:
                ops.append({"op": "add", "path": f"{base}/{edit.rule}/{edit.peers_field}/-", "value": peer.to_dict()})
        elif isinstance(edit, RemoveRule):
            ops.append({"op": "remove", "path": f"{base}/{edit.rule}"})
        elif isinstance(edit, AddPolicyType):
            ops.extend(_policy_type_ops(obj, edit.direction))
        elif isinstance(edit, RemovePolicyType):
            ops.extend(_remove_type_ops(obj, edit.direction))
        elif isinstance(edit, SetValue):
            ops.extend(_value_ops(obj, edit))
        elif isinstance(edit, SetPodSelector):
            ops.append({"op": "test", "path": "/spec/podSelector", "value": copy.deepcopy((obj.get("spec") or {}).get("podSelector", {}))})
            ops.append({"op": "replace", "path": "/spec/podSelector", "value": {"matchLabels": dict(edit.labels)}})
        else:
            rule = edit.rule_dict()  # type: ignore[attr-defined]
            if lengths[edit.rules_field] is None:
                ops.append({"op": "add", "path": base, "value": [rule]})
                lengths[edit.rules_field] = 1
            else:
                ops.append({"op": "add", "path": f"{base}/-", "value": rule})
    return ops


def _policy_type_ops(obj: dict, direction: str) -> list[dict]:
    spec = obj.get("spec") or {}
    types = spec.get("policyTypes")
    if types:
        if direction in types:
            raise EmissionError(f"the policy already has policy type {direction}")
        return [
            {"op": "test", "path": "/spec/policyTypes", "value": list(types)},
            {"op": "add", "path": "/spec/policyTypes/-", "value": direction},
        ]
    # absent: Kubernetes defaults to Ingress, plus Egress when egress rules exist
    current = ["Ingress"] + (["Egress"] if spec.get("egress") else [])
    if direction in current:
        raise EmissionError(f"the policy already has policy type {direction}")
    wanted = [t for t in ("Ingress", "Egress") if t in current or t == direction]
    return [{"op": "add", "path": "/spec/policyTypes", "value": wanted}]


_MISSING = object()


def _at(obj: Any, path: tuple) -> Any:
    for part in path:
        if isinstance(part, int):
            if not isinstance(obj, list) or not 0 <= part < len(obj):
                return _MISSING
            obj = obj[part]
        else:
            if not isinstance(obj, dict) or part not in obj:
                return _MISSING
            obj = obj[part]
    return obj


def _value_ops(obj: dict, edit: SetValue) -> list[dict]:
    import json

    spec = obj.get("spec") or {}
    old = _at(spec, edit.path)
    parent = _at(spec, edit.path[:-1])
    if parent is _MISSING:
        raise EmissionError(f"{edit.describe()}: the policy has no spec.{'.'.join(map(str, edit.path[:-1]))}")
    if edit.value is None:
        if old is _MISSING:
            raise EmissionError(f"{edit.describe()}: there is no such field to remove")
        return [{"op": "test", "path": edit.pointer, "value": copy.deepcopy(old)}, {"op": "remove", "path": edit.pointer}]
    new = json.loads(edit.value)
    if old is _MISSING:
        if isinstance(parent, list) and edit.path[-1] != len(parent):
            raise EmissionError(f"{edit.describe()}: a list entry can only be appended")
        pointer = edit.pointer if not isinstance(parent, list) else edit.pointer.rsplit("/", 1)[0] + "/-"
        parent_ptr = edit.pointer.rsplit("/", 1)[0]
        return [{"op": "test", "path": parent_ptr, "value": copy.deepcopy(parent)}, {"op": "add", "path": pointer, "value": new}]
    if old == new:
        raise EmissionError(f"{edit.describe()}: the field already has that value")
    return [{"op": "test", "path": edit.pointer, "value": copy.deepcopy(old)}, {"op": "replace", "path": edit.pointer, "value": new}]


def _remove_type_ops(obj: dict, direction: str) -> list[dict]:
    spec = obj.get("spec") or {}
    types = spec.get("policyTypes") or (["Ingress"] + (["Egress"] if spec.get("egress") else []))
    if direction not in types or len(types) < 2:
        raise EmissionError(f"the policy cannot lose policy type {direction}")
    kept = [t for t in types if t != direction]
    if spec.get("policyTypes"):
        return [{"op": "test", "path": "/spec/policyTypes", "value": list(types)}, {"op": "replace", "path": "/spec/policyTypes", "value": kept}]
    return [{"op": "add", "path": "/spec/policyTypes", "value": kept}]


def apply_ops(obj: dict, ops: list[dict]) -> dict:
    """``obj`` with the patch applied (a new object; ``obj`` is untouched).

    Raises
    ------
    EmissionError
        When the patch does not apply (a failing ``test`` or a bad path).
    """
    try:
        return jsonpatch.apply_patch(obj, ops, in_place=False)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
        raise EmissionError(f"patch does not apply: {exc}") from None


def apply_edits(obj: dict, edits: Sequence[Edit]) -> dict:
    """``obj`` after ``edits`` (through the same ops that are emitted)."""
    return apply_ops(obj, patch_ops(obj, edits)) if edits else copy.deepcopy(obj)
