"""The NetArena K8s participant: read once, then send the whole verified repair.

Each turn is decided from the prompt alone (the participant keeps no state):

- no log yet, or no read since the last command that may have changed the
  cluster: send a read (:func:`~netmend.repair.observe.reads_for`: the compact
  jsonpath one first, plainer ones after each read that failed, down to the
  namespaces the mismatches name);
- otherwise: rebuild the cluster from that read, read the outside clients
  and networks the task text names, take the latest mismatch lines as the
  intent over the whole probe universe (every workload to every service,
  every named outside client to every NodePort/LoadBalancer port; a model
  that contradicts an observed value is refused), and plan. Whether the
  harness resolves names through kube-dns is decided from the observations:
  DNS is modelled unless that contradicts an observed value. The plan moves
  only the reported probes, towards their expected values, and nothing else
  in the universe; when only some can be reached so, the verified part is
  sent (the mismatch count strictly falls) and the rest is said.

A turn that cannot plan does not repeat itself. Its search first goes deeper
in the same turn; a partial plan is sent when it strictly lowers the count.
If nothing is found, the next rung is chosen from the log: the admin-tier read
when none was made since the cluster last changed (an admin rule may decide
what no NetworkPolicy edit can), else a clear stop. An observation equal to
one an earlier turn already planned on with the same mismatch lines (and sent
no patch after) is never searched again: planning is deterministic, so the
log alone says what was tried. A read that cannot be parsed leads to a
plainer read not made since the cluster last changed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from netmend.k8s.errors import K8sError, MismatchParseError
from netmend.k8s.model import Cluster
from netmend.k8s.probe import Matrix, Mismatch, Prober, parse_mismatches
from netmend.repair.admin import admin_no_plan
from netmend.repair.clients import (
    TaskClients,
    description_of,
    extract_clients,
    names_of,
    outside_model,
    outside_moves,
    qualify_outside_targets,
    workload_of,
)
from netmend.repair.emit import plan_command
from netmend.repair.errors import ModelContradiction, NoPlan, RepairError
from netmend.repair.hints import port_ranges
from netmend.repair.intent import intent_from_feedback, probe_universe, with_probes
from netmend.repair.netarena import NO_MISMATCHES, LogEntry, log_of_prompt, parse_log, task_text
from netmend.repair.observe import (
    READ_JSON_ADMIN,
    Observation,
    align_sources,
    is_read,
    parse_read,
    reads_for,
)
from netmend.repair.planner import Plan, plan_repair

# A logged command that only reads: every part is a ``kubectl get``.
_PART_SPLIT = re.compile(r"&&|\|\||;|\n")
# After a search that ran into its limits, the same turn searches this much deeper.
DEEP_EFFORT = 4


@dataclass(frozen=True)
class Decision:
    """One turn: the command to run and why."""

    command: str
    explanation: str
    plan: Plan | None = None

    def reply(self) -> str:
        """The reply text: the command in the first fence, then the explanation."""
        return f"```{self.command}```\n\n{self.explanation}\n"


def is_read_only(command: str) -> bool:
    """Whether a logged command cannot have changed the cluster."""
    parts = [p.strip() for p in _PART_SPLIT.split(command) if p.strip()]
    return bool(parts) and all((re.match(r"kubectl\s+get\b", p) or p == "true") and ">" not in p for p in parts)


def fresh_read(entries: tuple[LogEntry, ...]) -> LogEntry | None:
    """The latest read of ours with no possibly-mutating command after it."""
    for entry in reversed(entries):
        if is_read(entry.command):
            return entry
        if not is_read_only(entry.command) and not entry.was_refused:
            return None
    return None


def plan_from_feedback(
    obs: Observation,
    mismatches: tuple[Mismatch, ...],
    clients: TaskClients | None = None,
    effort: int = 1,
    port_ranges: tuple[tuple[int, int], ...] = (),
) -> Plan:
    """Plan the repair the mismatch lines ask for.

    The universe is every probe the cluster and the task's outside clients
    define, plus the reported ones; every probe the lines do not mention
    keeps its value. DNS is modelled unless the model then contradicts an
    observed value (then it is not). A partial plan (``Plan.unresolved``)
    is returned when only some reported probes can be reached safely.

    Raises
    ------
    ModelContradiction
        When the model contradicts the observation with DNS modelled and without.
    RepairError
        When the intent is malformed or not one reported probe can be reached.
    """
    clients = clients or TaskClients()
    # outside clients as model sources: hosts, the address classes of ranges, and for a
    # client that cannot be modelled every class of both families, held (netmend.repair.clients)
    whole = outside_model(clients, obs.policies.values())
    listed = [(m.source, m.target) for m in mismatches if m.source not in whole.names]
    first: ModelContradiction | None = None
    for dns in (True, False):
        outside = whole
        externals = dict(outside.externals)
        universe = with_probes(probe_universe(obs.cluster, externals=externals), listed)
        prober = Prober(obs.cluster, universe, dns=dns, externals=externals)
        current = prober.run()
        if outside.witnesses:
            # a client with no usable address stands for the classes its lines fit, no other
            outside = whole.restricted(mismatches, current).with_connections(prober.connections().values())
            externals = dict(outside.externals)
            universe = tuple(
                (s, kept)
                for s, targets in with_probes(probe_universe(obs.cluster, externals=externals), listed)
                if (kept := tuple(t for t in targets if (s, t) not in outside.free))
            )
            prober = Prober(obs.cluster, universe, dns=dns, externals=externals)
            current = prober.run()
        modelled, alone = outside.translate(mismatches, current)
        if not modelled:
            left = ", ".join(sorted({m.source for m in alone}))
            raise NoPlan(f"every reported probe comes from an outside source the task text gives no usable address ({left})")
        try:
            intent = intent_from_feedback(current, implied(prober, modelled))
        except ModelContradiction as exc:
            first = first or exc
            continue
        try:
            plan = plan_repair(
                obs.cluster, obs.policies, intent, dns=dns, prober=prober,
                externals=externals, networks=clients.networks, partial=True, effort=effort, port_ranges=port_ranges,
                ranges=tuple(n for c in clients.found if c.address is None for n in c.networks),
            )
        except NoPlan as exc:  # say when an admin rule decides
            blocked = _admin_reason(obs, mismatches, dns)
            raise (NoPlan(f"{exc.reason}; {blocked}") if blocked else exc) from None
        if outside.externals and plan.patches:
            after = dict(obs.policies) | {f"{p.namespace}/{p.name}": p.after for p in plan.patches}
            moved = outside_moves(obs.cluster, obs.policies, after, clients, mismatches, dns=dns)
            if moved:
                shown = "; ".join(f"{s} -> {t}" for s, t, _ in moved[:3])
                raise NoPlan(f"the plan would move what an outside address reaches ({shown})")
        blocked = _admin_reason(obs, plan.unresolved, dns) if plan.unresolved else None
        if blocked:
            plan = replace(plan, reason=f"{plan.reason} {blocked}".strip())
        if alone:
            why = "no address for its source can be read from the task text; left alone"
            plan = replace(
                plan, changes=(*plan.changes, *alone), unresolved=(*plan.unresolved, *alone), reason=f"{plan.reason} {why}".strip()
            )
        return plan
    assert first is not None
    raise first


def _admin_reason(obs: Observation, mismatches, dns: bool) -> str | None:
    """Why an admin-tier rule keeps these probes from any NetworkPolicy edit (or None)."""
    if not obs.cluster.admin_policies:
        return None
    rows: dict[str, dict[str, bool]] = {}
    for m in mismatches:
        rows.setdefault(m.source, {})[m.target] = m.expected
    try:
        return admin_no_plan(obs.cluster, Matrix.from_dict(rows), dns=dns)
    except (K8sError, ValueError):  # a probe the explainer cannot name (an outside client)
        return None


def implied(prober: Prober, mismatches: tuple[Mismatch, ...]) -> tuple[Mismatch, ...]:
    """The reported mismatches plus every probe that is the same connection as
    one of them (it has the same value in any cluster, so it wants the same)."""
    reported = {(m.source, m.target): m for m in mismatches}
    out = list(mismatches)
    for probes in prober.connections().values():
        wants = {reported[p].expected: reported[p] for p in probes if p in reported}
        if len(wants) != 1:
            continue  # not reported, or reported both ways (the contradiction check speaks)
        (want, seen), = wants.items()
        out.extend(Mismatch(s, t, want, seen.actual) for s, t in probes if (s, t) not in reported)
    return tuple(out)


def clients_of(prompt: str, obs: Observation, sources: tuple[str, ...] = ()) -> TaskClients:
    """The outside clients and networks the prompt's task text names; probe
    ``sources`` that are no workload of ``obs`` count as outside names."""
    outside = tuple(s for s in sources if not workload_of(obs.cluster, s))
    return extract_clients(description_of(task_text(prompt)), names_of(obs.cluster), outside)


def _read(why: str, entries: tuple[LogEntry, ...] = (), workloads: Cluster | None = None, namespaces: tuple[str, ...] = ()) -> Decision:
    """A read: the compact one, or the next plainer one after each read that failed."""
    reads = reads_for(namespaces)
    failed = sum(1 for e in entries if is_read(e.command) and not _usable(e, workloads))
    return Decision(reads[failed % len(reads)], why)


def mismatch_namespaces(mismatches: tuple[Mismatch, ...], externals: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The namespaces the mismatch lines name (sources ``ns/workload``, targets
    ``service.ns:port``; unqualified names are in ``default`` or the source's), in order.

    Examples
    --------
    >>> from netmend.k8s.probe import Mismatch
    >>> mismatch_namespaces((Mismatch("payments/ledger", "postgres.data:5432", True, False),))
    ('payments', 'data')
    """
    out: dict[str, None] = {}
    for m in mismatches:
        source_ns = None if m.source in externals else (m.source.split("/", 1)[0] if "/" in m.source else "default")
        if source_ns is not None:
            out[source_ns] = None
        service = m.target.rsplit(":", 1)[0]
        target_ns = service.split(".", 1)[1] if "." in service else source_ns
        if target_ns is not None:
            out[target_ns] = None
    return tuple(out)


def _usable(entry: LogEntry, workloads: Cluster | None) -> bool:
    try:
        parse_read(entry.command.strip(), entry.output, workloads)
    except (RepairError, ValueError):
        return False
    return True


def parse_feedback(summary: str) -> tuple[Mismatch, ...]:
    """The mismatch lines of a summary; other lines (probe errors) are skipped.

    Raises
    ------
    MismatchParseError
        When the summary holds no mismatch line at all.
    """
    lines = [line for line in summary.splitlines() if line.strip().startswith("Mismatch:")]
    if not lines:
        raise MismatchParseError(f"no mismatch line in {summary[:120]!r}")
    return parse_mismatches("\n".join(lines))


def decide(prompt: str, workloads: Cluster | None = None) -> Decision:
    """The next command for a NetArena K8s prompt.

    ``workloads`` (namespaces, pods, services of the application, no
    policies) is used only when the cluster's reads yield no pod.
    """
    log = log_of_prompt(prompt)
    entries = parse_log(log or "")
    if not entries:
        return _read("First turn: reading namespaces, pods, services and network policies (compact jsonpath).")
    latest = entries[-1]
    if latest.summary.strip() == NO_MISMATCHES:
        return _read("Every probe matches the intent; nothing to repair. Reading the state once more.", entries, workloads)
    try:
        mismatches = parse_feedback(latest.summary)
    except MismatchParseError as exc:
        return _read(f"The latest connectivity status has no usable mismatch line ({exc}); reading again.", entries, workloads)
    namespaces = mismatch_namespaces(mismatches)
    read = fresh_read(entries)
    if read is None:
        return _read("The cluster may have changed since the last read; reading it again before repairing.", entries, workloads, namespaces)
    try:
        obs = parse_read(read.command.strip(), read.output, workloads)
    except (RepairError, ValueError) as exc:
        return _other_read(f"The read output could not be used: {exc}", read, entries, workloads, namespaces)
    if planned_before(entries, observation_key(obs), latest.summary, workloads):
        # planning is deterministic: the same observation and lines fail the same way
        return _after_no_plan(
            "An earlier turn already searched this very observation with these mismatch lines and found no verified repair",
            entries,
        )
    try:
        clients = clients_of(prompt, obs)
        obs = align_sources(obs, [m.source for m in mismatches if m.source not in clients.names])
        clients = clients_of(prompt, obs, tuple(m.source for m in mismatches))
        mismatches = qualify_outside_targets(obs.cluster, mismatches, clients.names)
        namespaces = mismatch_namespaces(mismatches, clients.names)
        ranges = port_ranges(task_text(prompt))
        try:
            plan = plan_from_feedback(obs, mismatches, clients, port_ranges=ranges)
        except NoPlan:
            # a search that found nothing within its limits: search deeper before giving the turn up
            plan = plan_from_feedback(obs, mismatches, clients, effort=DEEP_EFFORT, port_ranges=ranges)
        if plan.is_empty:
            return _after_no_plan("The model already shows the intended connectivity", entries)
        command = plan_command(plan)
    except RepairError as exc:
        return _after_no_plan(f"No safe repair: {exc}", entries)
    except ValueError as exc:
        return _other_read(f"The read output could not be used: {exc}", read, entries, workloads, namespaces)
    lines = "\n".join(f"- {e.describe()}" for e in plan.edits)
    mode = "with" if plan.dns else "without"
    fixed = len(plan.changes) - len(plan.unresolved)
    explanation = (
        f"Repair verified on the model ({mode} DNS modelling): {fixed} probe(s) "
        f"change to the intended value and no other probe moves. Edits:\n{lines}"
    )
    if plan.unresolved:
        left = "; ".join(f"{m.source} -> {m.target}" for m in plan.unresolved)
        explanation += f"\nLeft as they are (no verified safe edit reaches them yet): {left}. {plan.reason}"
    return Decision(command, explanation, plan)


def _other_read(
    why: str, read: LogEntry, entries: tuple[LogEntry, ...], workloads: Cluster | None, namespaces: tuple[str, ...] = ()
) -> Decision:
    """After a read that led to no plan, a read not made since the cluster last
    changed (the namespaces the mismatches name included), so no turn repeats one."""
    reads = reads_for(namespaces)
    since: set[str] = set()
    for entry in reversed(entries):
        if not is_read_only(entry.command) and not entry.was_refused:
            break
        since.add(entry.command.strip())
    fresh = [r for r in reads if r not in since]
    if fresh:
        return Decision(fresh[0], f"{why}. Reading the cluster another way instead of repeating a read.")
    used = reads.index(read.command.strip()) if read.command.strip() in reads else -1
    return Decision(reads[(used + 1) % len(reads)], f"{why}. Every read has been made; reading again in turn.")


# What a turn sends once no read can add to what was searched: a listing that reads
# nothing the planner uses, so it is never mistaken for a read to plan from.
STOP_COMMAND = "kubectl get networkpolicies -A -o name"


def observation_key(obs: Observation) -> tuple:
    """What planning depends on in an observation: the workloads, services, namespaces and
    admin-tier rules, and each policy's spec (not its metadata, which reads differ in)."""
    c = obs.cluster
    specs = json.dumps({k: o.get("spec") for k, o in obs.policies.items()}, sort_keys=True)
    return (c.namespaces, c.pods, c.services, c.admin_policies, specs)


def planned_before(entries: tuple[LogEntry, ...], key: tuple, summary: str, workloads: Cluster | None = None) -> bool:
    """Whether an earlier turn planned on an observation equal to ``key`` with the same
    mismatch lines and sent no patch (so it found none: the participant is deterministic).

    The log is the only state: the turn after entry ``k - 1`` saw ``entries[:k]``; it
    planned when a fresh read was among them, and it found nothing when its own command
    (``entries[k]``) only read.
    """
    parsed: dict[int, tuple | None] = {}
    for k in range(1, len(entries)):
        if not is_read_only(entries[k].command) or entries[k - 1].summary.strip() != summary.strip():
            continue
        read = fresh_read(entries[:k])
        if read is None:
            continue
        at = next(i for i in range(k - 1, -1, -1) if entries[i] is read)
        if at not in parsed:
            try:
                parsed[at] = observation_key(parse_read(read.command.strip(), read.output, workloads))
            except (RepairError, ValueError):
                parsed[at] = None
        if parsed[at] == key:
            return True
    return False


def _admin_read_since_change(entries: tuple[LogEntry, ...]) -> bool:
    for entry in reversed(entries):
        if entry.command.strip() == READ_JSON_ADMIN:
            return True
        if not is_read_only(entry.command) and not entry.was_refused:
            return False
    return False


def _after_no_plan(why: str, entries: tuple[LogEntry, ...]) -> Decision:
    """The next rung once a read was planned on and gave no plan: the admin-tier read
    when none was made since the cluster last changed (an admin rule may decide what no
    NetworkPolicy edit can), else a clear stop; never the same search or read again."""
    if not _admin_read_since_change(entries):
        return Decision(READ_JSON_ADMIN, f"{why}. Reading the admin-tier policies too, which may decide these connections.")
    return Decision(
        STOP_COMMAND,
        f"{why}. Every view that could change the plan has been read; stopping here: no verified safe "
        "repair exists for the remaining mismatches on this model, and no edit is sent.",
    )
