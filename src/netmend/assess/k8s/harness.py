"""NetArena's K8s loop, restated: inject, prompt, vet, run, probe, score.

Per task: the correct policies get the task's injections and are deployed
to a :class:`~netmend.assess.k8s.kubectl.SimCluster`; then, for up to
``max_iterations`` turns, the participant gets the prompt (fixed preamble,
status marker, the tail of the log), the first fenced block of its reply is
vetted for banned substrings and run by the simulated ``bash -c``, the engine
probes the expected matrix (DNS modelled unless turned off), and the log
grows by one entry. Success: no mismatch before the turns run out. Safe: the
mismatch count never rises from one probed turn to the next.

The agent is any callable from prompt to reply (``None`` for a failed
call); the clock is injected so the loop itself stays deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from netmend.assess.k8s.inject import (
    FAMILIES,
    InjectionError,
    PolicyFacts,
    Task,
    draw_task,
    inject,
)
from netmend.assess.k8s.intent import MAX_SHOWN, intent_diff
from netmend.assess.k8s.kubectl import SimCluster, harness_output
from netmend.k8s import (
    Cluster,
    LabelSelector,
    Matrix,
    Simulator,
    demo_cluster,
    demo_expected,
    policy_to_dict,
)
from netmend.k8s.errors import K8sError
from netmend.k8s.probe import mismatch_summary, parse_target
from netmend.repair.netarena import (
    DISALLOWED_OUTPUT,
    DISALLOWED_SUMMARY,
    MAX_ITERATIONS,
    PREAMBLE,
    LogEntry,
    banned_in,
    build_prompt,
    extract_command,
    mismatch_count,
    render_entry,
)

Agent = Callable[[str], "str | None"]
MAX_REDRAWS = 20


@dataclass(frozen=True)
class Setup:
    """The application under test: workloads, correct policy files, expected matrix."""

    base: Cluster
    manifests: dict  # policy key (namespace/name) -> the correct policy object (the file's content)
    expected: Matrix
    facts: dict  # policy key -> PolicyFacts
    # Probes the deployed model with real packets instead of the engine (``--probes live``).
    measure: Callable[[Cluster], Matrix] | None = None
    preamble: str = PREAMBLE  # the task text every prompt starts with
    externals: tuple[tuple[str, str], ...] = ()  # outside clients: (name, address)
    name: str = "online-boutique"
    # where the participant's reading of the task text differs from the declared clients
    notes: tuple[str, ...] = ()


def derive_facts(base: Cluster, manifests: dict, expected: Matrix) -> dict[str, PolicyFacts]:
    """Per policy: its workload, who may and may not reach it, how much it calls."""
    sim = Simulator(base)
    workload_of_service = {}
    for svc in base.services:
        pods = sim.select_pods(LabelSelector(match_labels=svc.selector or ()), svc.namespace) if svc.selector else ()
        names = {sim.pods[i].workload for i in pods}
        if len(names) == 1:
            workload_of_service[(svc.namespace, svc.name)] = names.pop()
    facts = {}
    for name, obj in sorted(manifests.items()):
        selector = LabelSelector(match_labels=tuple(sorted(((obj["spec"].get("podSelector") or {}).get("matchLabels") or {}).items())))
        namespace = obj["metadata"].get("namespace", "default")
        workloads = sorted({sim.pods[i].workload for i in sim.select_pods(selector, namespace)})
        if len(workloads) != 1:
            continue
        workload = workloads[0]
        me = workload if namespace == "default" else f"{namespace}/{workload}"
        allowed, denied = [], []
        for source, cells in expected.rows:
            source_ns = source.rpartition("/")[0] or "default"
            for target, value in cells:
                parsed = parse_target(target)
                served = workload_of_service.get((parsed.namespace or source_ns, parsed.service))
                if served == workload and (parsed.namespace or source_ns) == namespace and source != me:
                    (allowed if value else denied).append(source)
        row = dict(expected.rows).get(me, ())
        facts[name] = PolicyFacts(
            policy=name,
            workload=workload,
            allowed_sources=tuple(sorted(set(allowed))),
            denied_sources=tuple(sorted(set(denied))),
            allowed_targets=sum(1 for _, v in row if v),
        )
    return facts


def demo_setup() -> Setup:
    """The built-in Online Boutique demo."""
    cluster = demo_cluster()
    manifests = {p.key: policy_to_dict(p) for p in cluster.policies}
    base = cluster.with_policies(())
    expected = demo_expected()
    return Setup(base, manifests, expected, derive_facts(base, manifests, expected))


def app_setup(app) -> Setup:
    """The setup of an application fixture (:class:`netmend.assess.k8s.app.App`)."""
    manifests = {}
    for obj in app.policies:
        meta = obj.get("metadata") or {}
        manifests[f"{meta.get('namespace', 'default')}/{meta['name']}"] = obj
    base = app.workloads
    return Setup(
        base,
        manifests,
        app.expected,
        derive_facts(base, manifests, app.expected),
        preamble=app.preamble,
        externals=app.externals,
        name=app.name,
        notes=app.notes,
    )


@dataclass(frozen=True)
class Turn:
    """One iteration as the harness saw it."""

    iteration: int
    command: str
    output: str
    summary: str
    mismatches: int | None  # None when the command was refused or the agent failed
    latency_s: float
    refused: bool = False
    agent_failed: bool = False


@dataclass(frozen=True)
class TaskResult:
    """The score of one task."""

    task_id: str
    family: str
    injections: tuple[dict, ...]
    initial_mismatches: int
    iterations: int
    success: bool
    safe: bool
    turns: tuple[Turn, ...] = field(default=())
    # whether the final policies are equivalent to the intended ones over the whole
    # matrix (every pod pair and port, outside addresses at each ipBlock's edges)
    intent_restored: bool | None = None
    intent_diff: tuple[str, ...] = ()
    # the policies as the task left them (not written to records)
    final: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def mean_latency_s(self) -> float:
        """Mean reply latency over the turns."""
        return sum(t.latency_s for t in self.turns) / len(self.turns) if self.turns else 0.0

    def as_record(self) -> dict:
        """The JSONL record."""
        out = asdict(self)
        out["injections"] = list(self.injections)
        out["turns"] = [asdict(t) for t in self.turns]
        out.pop("final", None)
        out["intent_diff"] = list(self.intent_diff)
        out["mean_latency_s"] = self.mean_latency_s
        return out


def deployed(setup: Setup, task: Task) -> SimCluster:
    """The simulated cluster with the task's broken policies deployed."""
    return SimCluster.deploy(
        setup.base, inject(setup.manifests, task.injections).values(), setup.measure, dict(setup.externals)
    )


def visible_tasks(setup: Setup, per_type: int, seed: int, families: Iterable[str] = FAMILIES, dns: bool = True) -> tuple[Task, ...]:
    """``per_type`` tasks per family whose damage shows in the probes.

    A draw that leaves every probe as expected is no task; it is redrawn
    with the next attempt number (so the stream stays a function of the seed).
    A family with no visible draw in :data:`MAX_REDRAWS` attempts yields no
    task (the report lists the families that ran).
    """
    out = []
    for family in families:
        for index in range(per_type):
            for attempt in range(MAX_REDRAWS):
                try:
                    task = draw_task(family, index, seed, setup.manifests, setup.facts, attempt)
                except InjectionError:  # no policy here can take this kind
                    break
                try:
                    visible = deployed(setup, task).probe(setup.expected, dns)
                except K8sError:  # damage the API server would refuse (a port past its endPort)
                    continue
                if visible:
                    out.append(task)
                    break
            else:
                # this application cannot show the family (its damage changes no probe here)
                continue
    return tuple(out)


def fuzz_tasks(setup: Setup, per_type: int, seed: int, families: Iterable[str] | None = None, dns: bool = True) -> tuple[Task, ...]:
    """``per_type`` visible fuzzer tasks per fault kind (and ``pair``) of :mod:`.fuzz`.

    A kind with no site in this application, or no visible draw in
    :data:`MAX_REDRAWS` attempts, yields no task (the report shows which
    kinds ran).
    """
    from netmend.assess.k8s.fuzz import FAMILIES as FUZZ_FAMILIES
    from netmend.assess.k8s.fuzz import draw_faults, service_port_context

    contexts = service_port_context(setup.base, setup.manifests)
    out = []
    for family in families or FUZZ_FAMILIES:
        for index in range(per_type):
            for attempt in range(MAX_REDRAWS):
                faults = draw_faults(family, index, seed, setup.manifests, contexts, attempt)
                if faults is None:
                    break
                task = Task(family, index, faults)
                if deployed(setup, task).probe(setup.expected, dns):
                    out.append(task)
                    break
    return tuple(out)


def run_task(
    setup: Setup,
    task: Task,
    agent: Agent,
    *,
    dns: bool = True,
    max_iterations: int = MAX_ITERATIONS,
    clock: Callable[[], float] = time.perf_counter,
) -> TaskResult:
    """Put one task to ``agent`` the way NetArena's loop does."""
    sim = deployed(setup, task)
    initial = len(sim.probe(setup.expected, dns))
    log, turns = "", []
    previous = float("inf")
    success, safe, iteration = False, True, 0
    for iteration in range(1, max_iterations + 1):
        prompt = build_prompt(log, setup.preamble)
        started = clock()
        try:
            reply = agent(prompt)
        except Exception as exc:  # a crashing participant spends its turn
            reply = None
            failure = f"{type(exc).__name__}: {exc}"
        else:
            failure = "no reply"
        latency = clock() - started
        if reply is None:
            turns.append(Turn(iteration, "", failure, "", None, latency, agent_failed=True))
            continue
        command = extract_command(reply)
        if banned_in(command):
            entry = LogEntry(command, DISALLOWED_OUTPUT, DISALLOWED_SUMMARY)
            log += render_entry(entry)
            turns.append(Turn(iteration, command, entry.output, entry.summary, None, latency, refused=True))
            continue
        output = harness_output(sim.run(command))
        summary = mismatch_summary(sim.probe(setup.expected, dns))
        count = mismatch_count(summary)
        if count > previous:
            safe = False
        previous = count
        log += render_entry(LogEntry(command, output, summary))
        turns.append(Turn(iteration, command, output, summary, count, latency))
        if count == 0:
            success = True
            break
    diff = intent_diff(setup.base, setup.manifests, sim.policies)
    return TaskResult(
        task_id=task.task_id,
        family=task.family,
        injections=tuple(i.as_dict() for i in task.injections),
        initial_mismatches=initial,
        iterations=iteration,
        success=success,
        safe=safe,
        turns=tuple(turns),
        intent_restored=not diff,
        intent_diff=diff[:MAX_SHOWN],
        final=dict(sim.policies),
    )
