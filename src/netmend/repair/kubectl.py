"""Cluster mode, the edge: the real kubectl, reading state and applying a plan.

Commands run as argv lists (never through a shell). Anything with the same
call shape (argv in, stdout/stderr/code out) can stand in for kubectl, which
is how the tests drive cluster mode against the simulated cluster.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from netmend.repair.cluster import RepairProposal, patch_argv, rollback_ops
from netmend.repair.errors import ObservationError
from netmend.repair.observe import Observation, observation_from_objects

READ_KINDS = "namespaces,pods,services,networkpolicies"
# The admin-tier kinds, as kubectl names their resources. Each is read on its own:
# a cluster without a kind's CRD refuses the whole command that names it.
ADMIN_RESOURCES = (
    "clusternetworkpolicies.policy.networking.k8s.io",
    "adminnetworkpolicies.policy.networking.k8s.io",
    "baselineadminnetworkpolicies.policy.networking.k8s.io",
)
# What kubectl says when the API server has no such resource (its CRD is not installed).
_ABSENT = ("the server doesn't have a resource type", "no matches for kind")


class Outcome(Protocol):
    """What a command printed and its exit status."""

    stdout: str
    stderr: str
    code: int


Runner = Callable[[list[str]], Outcome]


@dataclass(frozen=True)
class CommandResult:
    """A finished kubectl run."""

    stdout: str
    stderr: str
    code: int


class SubprocessKubectl:
    """Runs ``kubectl`` (or another binary) with a timeout; never uses a shell."""

    def __init__(self, binary: str = "kubectl", timeout_s: float = 60.0):
        self.binary = binary
        self.timeout_s = timeout_s

    def __call__(self, argv: list[str]) -> CommandResult:
        command = [self.binary, *argv[1:]]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=self.timeout_s, check=False)
        except FileNotFoundError:
            return CommandResult("", f"{self.binary}: not found\n", 127)
        except subprocess.TimeoutExpired:
            return CommandResult("", f"{self.binary}: timed out after {self.timeout_s:g} s\n", 124)
        return CommandResult(done.stdout, done.stderr, done.returncode)


def kubectl_args(kubeconfig: str | None, context: str | None) -> tuple[str, ...]:
    """Global flags selecting the cluster."""
    out: list[str] = []
    if kubeconfig:
        out += ["--kubeconfig", kubeconfig]
    if context:
        out += ["--context", context]
    return tuple(out)


def read_admin_objects(run: Runner, args: Sequence[str] = ()) -> list[dict]:
    """The admin-tier policy objects of the cluster, kind by kind, as stored.

    A kind whose CRD the cluster lacks has no objects: that is not an error.

    Raises
    ------
    ObservationError
        When kubectl fails otherwise, or prints something that is not a List.
    """
    out: list[dict] = []
    for resource in ADMIN_RESOURCES:
        result = run(["kubectl", *args, "get", resource, "-o", "json"])
        if result.code != 0:
            if any(marker in result.stderr for marker in _ABSENT):
                continue
            raise ObservationError(
                f"kubectl get {resource} failed (exit {result.code}): {result.stderr.strip()}"
            )
        try:
            data = json.loads(result.stdout)
        except json.JSONDecodeError as exc:
            raise ObservationError(f"kubectl get {resource} printed no JSON: {exc}") from None
        items = data.get("items") if isinstance(data, dict) and data.get("kind") == "List" else None
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise ObservationError(f"kubectl get {resource} printed no List of objects")
        out.extend(items)
    return out


def read_state(run: Runner, args: Sequence[str] = (), *, admin: bool = True) -> Observation:
    """Namespaces, pods, services and policies of every namespace, as one model;
    with ``admin`` also the admin-tier policies (ClusterNetworkPolicy,
    AdminNetworkPolicy, BaselineAdminNetworkPolicy) where their CRDs exist.

    Raises
    ------
    ObservationError
        When kubectl fails or prints something that is not a List.
    """
    result = run(["kubectl", *args, "get", READ_KINDS, "-A", "-o", "json"])
    if result.code != 0:
        raise ObservationError(f"kubectl get failed (exit {result.code}): {result.stderr.strip()}")
    try:
        data = json.loads(result.stdout)
    except json.JSONDecodeError as exc:
        raise ObservationError(f"kubectl get printed no JSON: {exc}") from None
    items = data.get("items") if isinstance(data, dict) and data.get("kind") == "List" else [data]
    if not isinstance(items, list):
        raise ObservationError("kubectl get printed a List without items")
    if admin:
        items = [*items, *read_admin_objects(run, args)]
    return observation_from_objects(items)


@dataclass(frozen=True)
class ApplyResult:
    """How applying went: commands run, the failure if any, what was undone."""

    applied: tuple[str, ...]
    failed: str | None
    rolled_back: tuple[str, ...]
    rollback_failed: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Every patch applied."""
        return self.failed is None


def apply(run: Runner, proposal: RepairProposal) -> ApplyResult:
    """Run the patches in order; on a failure, undo the ones already applied.

    Each patch carries ``test`` guards, so a policy changed since the read
    makes its patch fail instead of being overwritten.
    """
    applied: list[str] = []
    done = []
    failed = None
    for patch in proposal.plan.patches:
        result = run(patch_argv(patch, patch.ops, proposal.kubectl_args))
        key = f"{patch.namespace}/{patch.name}"
        if result.code != 0:
            failed = f"{key}: {result.stderr.strip() or 'kubectl patch failed'}"
            break
        applied.append(key)
        done.append(patch)
    rolled, rollback_failed = [], []
    if failed is not None:
        for patch in reversed(done):
            key = f"{patch.namespace}/{patch.name}"
            result = run(patch_argv(patch, rollback_ops(patch), proposal.kubectl_args))
            (rolled if result.code == 0 else rollback_failed).append(key)
    return ApplyResult(tuple(applied), failed, tuple(rolled), tuple(rollback_failed))
