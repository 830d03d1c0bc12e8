"""Inputs the policy toolkit commands share: manifests, policies, intents and bad-input exits.

``check`` and ``diff`` exit 0 (holds / no difference that matters), 1 (an
assertion fails / a difference they were told to fail on), and 2 when the
input itself is bad, so a CI job can tell a broken pipeline from a broken
policy.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import click

from netmend.k8s import (
    K8sError,
    build_cluster,
    demo_policies,
    demo_workloads,
    parse_text,
    with_kube_dns,
)
from netmend.k8s.intent_code import (
    Assertion,
    IntentContradiction,
    assertions_from_cells,
    is_intent_code,
    load_yaml_with_lines,
    parse_intent_code,
)
from netmend.k8s.load import manifest_files
from netmend.k8s.manifest import ModelObject, Skipped, policy_to_dict
from netmend.k8s.model import AdminPolicy, Cluster, NetworkPolicy

POLICY_TYPES = (NetworkPolicy, AdminPolicy)

BAD_INPUT = 2
_ARROW = re.compile(r"\s*(?:->|\u2192)\s*")


class BadInput(click.ClickException):
    """Bad input (unreadable file, malformed manifest or intent, unknown name): exit 2."""

    exit_code = BAD_INPUT


class ContradictoryIntent(BadInput):
    """An intent whose assertions contradict each other (exit 2); ``contradiction`` names them."""

    def __init__(self, contradiction: IntentContradiction):
        self.contradiction = contradiction
        super().__init__(str(contradiction))


@dataclass(frozen=True, eq=False)
class Inputs:
    """A cluster and where each of its policies came from."""

    cluster: Cluster
    policy_files: dict[str, str] = field(default_factory=dict)  # namespace/name -> file
    # The policies exactly as a live cluster stores them (patch guards must match those).
    stored: dict[str, dict] | None = None

    def policy_objects(self) -> dict[str, dict]:
        """namespace/name -> the policy as a Kubernetes object (what the planner patches)."""
        if self.stored is not None:
            return dict(self.stored)
        return {p.key: policy_to_dict(p) for p in self.cluster.policies}


def read_files(paths: Iterable[str | Path], *, policies_only: bool = False) -> list[tuple[str, ModelObject | Skipped]]:
    """``(file, object)`` for every object under ``paths`` (files and directories, sorted)."""
    out = []
    for path in paths:
        for file in manifest_files(Path(path)):
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise BadInput(f"{file}: cannot read: {exc}") from None
            for obj in parse_text(text, str(file)):
                if policies_only and not isinstance(obj, POLICY_TYPES):
                    kind = obj.kind if isinstance(obj, Skipped) else type(obj).__name__
                    raise BadInput(
                        f"{file}: kind: expected NetworkPolicy, ClusterNetworkPolicy, AdminNetworkPolicy or "
                        f"BaselineAdminNetworkPolicy (a policy path holds policies only), got {kind!r}"
                    )
                out.append((str(file), obj))
    return out


def load_inputs(manifests: Iterable[str], policies: Iterable[str], *, dns: bool) -> Inputs:
    """The cluster of ``--manifests`` plus ``--policies`` (the built-in demo without manifests).

    With DNS modelling the standard kube-dns objects are added when missing.
    """
    manifests, policies = tuple(manifests), tuple(policies)
    try:
        if not manifests:
            read = read_files(policies, policies_only=True) if policies else []
            chosen = tuple(o for _, o in read if isinstance(o, NetworkPolicy)) if policies else demo_policies()
            admin = tuple(o for _, o in read if isinstance(o, AdminPolicy))
            cluster = demo_workloads().with_policies(chosen).with_admin_policies(admin)
            return Inputs(cluster, {o.key: f for f, o in read if isinstance(o, POLICY_TYPES)})
        read = read_files(manifests) + read_files(policies, policies_only=True)
        objects = [o for _, o in read]
        cluster = build_cluster(with_kube_dns(objects) if dns else objects)
    except K8sError as exc:
        raise BadInput(str(exc)) from None
    files = {o.key: f for f, o in read if isinstance(o, POLICY_TYPES)}
    return Inputs(cluster, files)


def file_uri(path: str) -> str:
    """A relative URI reference for a file path (what SARIF's artifactLocation takes)."""
    return urllib.parse.quote(Path(path).as_posix())


def read_intent(path: str) -> tuple[Assertion, ...]:
    """Assertions of an intent file: intent as code, or any format ``k8s repair --intent`` reads."""
    from netmend.repair.errors import IntentError
    from netmend.repair.intent import parse_intent

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: cannot read the intent: {exc}") from None
    try:
        data, lines = load_yaml_with_lines(text, path)
        if is_intent_code(data):
            return parse_intent_code(data, path, lines).assertions
        stated = parse_intent(data, path)
    except IntentContradiction as exc:
        raise ContradictoryIntent(exc) from None
    except (K8sError, IntentError) as exc:
        raise BadInput(str(exc)) from None
    return assertions_from_cells(
        tuple((s, t, v) for s, row in stated.rows for t, v in row), _cell_lines(data, lines)
    )


def _cell_lines(data, lines) -> dict[tuple[str, str], int]:
    """Line of each probe cell in a matrix-format intent."""
    out: dict[tuple[str, str], int] = {}
    if isinstance(data, dict) and data and set(data) <= {"allow", "deny"}:
        for key in ("allow", "deny"):
            for i, text in enumerate(data.get(key) or []):
                parts = _ARROW.split(text.strip()) if isinstance(text, str) else []
                if len(parts) == 2:
                    out[(parts[0], parts[1])] = lines.get((key, i), 0)
    elif isinstance(data, dict):
        for source, row in data.items():
            for target in row if isinstance(row, dict) else ():
                out[(str(source), str(target))] = lines.get((source, target), 0)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            if isinstance(item, dict):
                out[(str(item.get("source")), str(item.get("target")))] = lines.get((i,), 0)
    return out
