"""A running lab as an object: build a cluster, apply policies, probe, stop.

The policy logic stays in :mod:`netmend.k8s` (the effective view) and
:mod:`netmend.lab.nft` (its compilation); this module computes rulesets and
probe jobs here and sends them to the lab's sandbox, which only executes.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from netmend.k8s import (
    Cluster,
    Matrix,
    NetworkPolicy,
    Prober,
    build_cluster,
    demo_cluster,
    effective_view,
    parse_policy,
    parse_text,
    policy_to_dict,
    with_kube_dns,
)
from netmend.k8s.probe import PROBE_PROTOCOL, parse_target
from netmend.lab import sandbox
from netmend.lab.errors import LabStateError, MissingToolError
from netmend.lab.nft import DENY_ACTIONS, compile_filter
from netmend.lab.plan import LabPlan, plan_lab
from netmend.lab.prober import ProbeJob, ProbeResult
from netmend.lab.sysns import netcat_is_openbsd

PROBE_MODES: tuple[str, ...] = ("socket", "nc")
STATE_FILE = "state.json"
DEFAULT_TIMEOUT = 1.0  # nc -w 1, as NetArena's harness probes
_unique = itertools.count()


@dataclass(frozen=True)
class ProbeRecord:
    """One measured probe: the matrix cell and what the sockets saw."""

    source: str
    target: str
    pod: str
    host: str
    port: int
    ok: bool
    detail: str


@dataclass(frozen=True)
class LiveMatrix:
    """A probed matrix and the evidence behind every cell."""

    matrix: Matrix
    records: tuple[ProbeRecord, ...]


def unique_name(prefix: str = "lab") -> str:
    """A lab name no other lab of this machine uses (process id and a counter)."""
    return f"{prefix}-{os.getpid()}-{next(_unique)}"[:32]


class Lab:
    """A handle on a running lab (use :meth:`start` or :meth:`attach`).

    Parameters
    ----------
    name : str
        The lab's name; its state lives in ``sandbox.lab_dir(name)``.
    cluster : Cluster
        The cluster it was built from, with the policies applied last.
    """

    def __init__(
        self,
        name: str,
        cluster: Cluster,
        plan: LabPlan,
        source: dict | None = None,
        deny: str = "drop",
    ):
        self.name, self.cluster, self.plan = name, cluster, plan
        self.source, self.deny = source, deny
        self.directory = sandbox.lab_dir(name)

    @classmethod
    def start(
        cls,
        cluster: Cluster,
        name: str | None = None,
        *,
        tied: bool = False,
        deny: str = "drop",
        source: dict | None = None,
        userns: bool | None = None,
    ) -> Lab:
        """Start a sandbox, build ``cluster`` in it and apply its policies.

        Parameters
        ----------
        deny : {"drop", "reject"}
            How isolated pods treat denied packets (see :func:`compile_filter`).
        source : dict, optional
            How to rebuild ``cluster``'s pods and services (see
            :func:`cluster_from_source`); given, :meth:`attach` works from
            other processes.
        tied, userns : bool
            See :func:`netmend.lab.sandbox.start`.

        Raises
        ------
        PlanError, ValueError
            Before anything starts, when the cluster cannot be laid out or
            ``deny`` is unknown.
        MissingToolError, SandboxError, LabStateError
        """
        if deny not in DENY_ACTIONS:
            raise ValueError(f"deny action {deny!r}: expected one of {', '.join(DENY_ACTIONS)}")
        plan = plan_lab(cluster)
        name = name or unique_name()
        directory = sandbox.start(name, tied=tied, userns=userns)
        lab = cls(name, cluster, plan, source, deny)
        try:
            sandbox.request(directory, {"op": "setup", "plan": plan.to_json()})
            lab.apply(cluster.policies)
        except BaseException:
            sandbox.stop(directory)
            raise
        return lab

    @classmethod
    def attach(cls, name: str) -> Lab:
        """The running lab ``name`` started with a ``source`` (as ``netmend lab up`` does)."""
        directory = sandbox.lab_dir(name)
        if not sandbox.is_running(directory):
            raise LabStateError(f"no lab named {name!r} is running; start it with `netmend lab up`")
        try:
            state = json.loads((directory / STATE_FILE).read_text())
        except (OSError, ValueError) as exc:
            raise LabStateError(f"lab {name!r} has no readable {STATE_FILE}: {exc}") from exc
        workloads = cluster_from_source(state["source"])
        cluster = workloads.with_policies(tuple(parse_policy(p) for p in state["policies"]))
        return cls(name, cluster, plan_lab(cluster), state["source"], state["deny"])

    def _save(self) -> None:
        if self.source is None:
            return
        state = {
            "source": self.source,
            "deny": self.deny,
            "policies": [policy_to_dict(p) for p in self.cluster.policies],
        }
        # Written whole then renamed: a torn file would strand the lab.
        tmp = self.directory / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(state, sort_keys=True))
        tmp.replace(self.directory / STATE_FILE)

    def rebuild(self, cluster: Cluster) -> None:
        """Replace the pods by those of ``cluster`` in the same sandbox, then apply its policies."""
        plan = plan_lab(cluster)
        sandbox.request(self.directory, {"op": "setup", "plan": plan.to_json()})
        self.cluster, self.plan = cluster, plan
        self.apply(cluster.policies)

    def apply(self, policies: Iterable[NetworkPolicy]) -> tuple[str, ...]:
        """Enforce exactly ``policies``; the keys of the pods whose rules changed.

        Every pod's ruleset is compiled (denied packets handled as
        ``self.deny`` says); the sandbox reloads only those that differ from
        what it holds, each with one atomic ``nft -f``.
        """
        cluster = self.cluster.with_policies(tuple(policies))
        views = {view.pod: view for view in effective_view(cluster)}
        rulesets = {pod.netns: compile_filter(views[pod.key], self.deny) for pod in self.plan.pods}
        if not sandbox.is_running(self.directory):
            raise LabStateError(f"lab {self.name!r} is not running")
        # Two `lab apply` at once: the state file must record the set loaded last.
        with open(self.directory / "apply.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            reply = sandbox.request(self.directory, {"op": "apply", "rulesets": rulesets})
            self.cluster = cluster
            self._save()
        by_netns = {pod.netns: pod.key for pod in self.plan.pods}
        return tuple(by_netns[n] for n in reply["changed"])

    def ruleset(self, pod: str) -> str:
        """What ``nft list ruleset`` prints inside pod ``pod`` (a key ``namespace/name``)."""
        reply = sandbox.request(
            self.directory, {"op": "ruleset", "netns": self.plan.pod(pod).netns}
        )
        return reply["ruleset"]

    def jobs(
        self, probes: Iterable[tuple[str, Iterable[str]]], *, dns: bool = True
    ) -> list[tuple[str, str, str, ProbeJob]]:
        """``(source, target, source pod, job)`` for each probe, in probe order.

        Sources and targets are resolved exactly as the simulated prober
        resolves them (same errors for unknown names). With ``dns`` the
        pod asks the cluster DNS for the service name; without, it dials the
        ClusterIP.
        """
        probes = [(source, tuple(targets)) for source, targets in probes]
        simulated = Prober(self.cluster, probes, dns=False)
        out = []
        for source, targets in probes:
            if not targets:
                continue
            pod = simulated.explain(source, targets[0]).source_pod
            netns = self.plan.pod(pod).netns
            namespace = pod.split("/")[0]
            for target in targets:
                parsed = parse_target(target)
                host = (
                    parsed.service
                    if parsed.namespace is None
                    else f"{parsed.service}.{parsed.namespace}"
                )
                if not dns:
                    service = self.cluster.service(parsed.service, parsed.namespace or namespace)
                    host = service.cluster_ip
                out.append(
                    (source, target, pod, ProbeJob(netns, host, parsed.port, PROBE_PROTOCOL))
                )
        return out

    def probe(
        self,
        probes: Iterable[tuple[str, Iterable[str]]],
        *,
        dns: bool = True,
        mode: str = "socket",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> LiveMatrix:
        """Measure ``probes`` (``Matrix.probes()`` shape) with real packets."""
        if mode not in PROBE_MODES:
            raise ValueError(f"probe mode {mode!r}: expected one of {', '.join(PROBE_MODES)}")
        if mode == "nc" and not netcat_is_openbsd():
            # busybox and traditional netcats lack -z or report differently.
            raise MissingToolError(("nc (OpenBSD netcat)",), ("netcat-openbsd",))
        probes = [(source, tuple(targets)) for source, targets in probes]
        planned = self.jobs(probes, dns=dns)
        results = self.run_jobs([job for *_, job in planned], mode=mode, timeout=timeout)
        records = tuple(
            ProbeRecord(source, target, pod, job.host, job.port, result.ok, result.detail)
            for (source, target, pod, job), result in zip(planned, results, strict=True)
        )
        # Records come in probe order: rows take them in turn (a source
        # without targets keeps its empty row, as in the simulated matrix).
        taken = iter(records)
        rows = tuple(
            (source, tuple((target, next(taken).ok) for target in targets))
            for source, targets in probes
        )
        return LiveMatrix(Matrix(rows), records)

    def run_jobs(
        self, jobs: Sequence[ProbeJob], *, mode: str = "socket", timeout: float = DEFAULT_TIMEOUT
    ) -> list[ProbeResult]:
        """Run raw probe jobs in the sandbox; results in job order."""
        payload = {
            "op": "probe",
            "jobs": [[j.netns, j.host, j.port, j.protocol] for j in jobs],
            "mode": mode,
            "timeout": timeout,
        }
        reply = sandbox.request(self.directory, payload)
        return [ProbeResult(ok, detail) for ok, detail in reply["results"]]

    def stop(self) -> None:
        """Tear the lab down (namespaces, links, sockets and state directory)."""
        sandbox.stop(self.directory)

    def __enter__(self) -> Lab:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def cluster_from_source(source: dict[str, Any]) -> Cluster:
    """The cluster that ``source`` describes, with the policies it carries.

    ``{"demo": true}`` is the built-in Online Boutique with its correct
    policies; ``{"documents": [[name, text], ...]}`` are manifest files'
    contents, read again exactly as at ``up`` (kube-dns added when missing).
    """
    if source.get("demo"):
        return demo_cluster()
    objects = [obj for name, text in source["documents"] for obj in parse_text(text, name)]
    return build_cluster(with_kube_dns(objects))
