"""The NetArena K8s participant: read once, then send the whole verified repair.

Each turn is decided from the prompt alone (the participant keeps no state):

- no log yet, or no read since the last command that may have changed the
  cluster: send :data:`~netmend.repair.observe.READ_COMMAND`;
- otherwise: rebuild the cluster from that read, take the latest mismatch
  lines as the intent (refusing a model that contradicts an observed value;
  DNS modelling is tried on, then off, since the harness may or may not
  resolve names through kube-dns), plan, and send the patches as one line.

A turn that cannot plan says why and reads again: a read never changes the
cluster, so the mismatch count can never rise because of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from netmend.k8s.errors import MismatchParseError
from netmend.k8s.probe import Mismatch, Prober, parse_mismatches
from netmend.repair.emit import plan_command
from netmend.repair.errors import ModelContradiction, RepairError
from netmend.repair.intent import intent_from_feedback, probe_universe, with_probes
from netmend.repair.netarena import NO_MISMATCHES, LogEntry, log_of_prompt, parse_log
from netmend.repair.observe import READ_COMMAND, Observation, parse_observation
from netmend.repair.planner import Plan, plan_repair

# A logged command that only reads: every part is a ``kubectl get``.
_PART_SPLIT = re.compile(r"&&|\|\||;|\n")


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
    return bool(parts) and all(re.match(r"kubectl\s+get\b", p) and ">" not in p for p in parts)


def fresh_read(entries: tuple[LogEntry, ...]) -> LogEntry | None:
    """The latest read of ours with no possibly-mutating command after it."""
    for entry in reversed(entries):
        if entry.command.strip() == READ_COMMAND:
            return entry
        if not is_read_only(entry.command) and not entry.was_refused:
            return None
    return None


def plan_from_feedback(obs: Observation, mismatches: tuple[Mismatch, ...]) -> Plan:
    """Plan the repair the mismatch lines ask for, DNS modelling on then off.

    Raises
    ------
    ModelContradiction
        When the model contradicts the observation with DNS modelled and without.
    RepairError
        When the intent is malformed or no plan exists.
    """
    universe = with_probes(probe_universe(obs.cluster), [(m.source, m.target) for m in mismatches])
    first: ModelContradiction | None = None
    for dns in (True, False):
        prober = Prober(obs.cluster, universe, dns=dns)
        try:
            intent = intent_from_feedback(prober.run(), mismatches)
        except ModelContradiction as exc:
            first = first or exc
            continue
        return plan_repair(obs.cluster, obs.policies, intent, dns=dns, prober=prober)
    assert first is not None
    raise first


def _read(why: str) -> Decision:
    return Decision(READ_COMMAND, why)


def decide(prompt: str) -> Decision:
    """The next command for a NetArena K8s prompt."""
    log = log_of_prompt(prompt)
    entries = parse_log(log or "")
    if not entries:
        return _read("First turn: reading namespaces, pods, services and network policies (compact jsonpath).")
    latest = entries[-1]
    if latest.summary.strip() == NO_MISMATCHES:
        return _read("Every probe matches the intent; nothing to repair. Reading the state once more.")
    try:
        mismatches = parse_mismatches(latest.summary)
    except MismatchParseError as exc:
        return _read(f"The latest connectivity status is not a list of mismatch lines ({exc}); reading again.")
    read = fresh_read(entries)
    if read is None:
        return _read("The cluster may have changed since the last read; reading it again before repairing.")
    try:
        obs = parse_observation(read.output)
        plan = plan_from_feedback(obs, mismatches)
        if plan.is_empty:
            return _read("The model already shows the intended connectivity; reading again.")
        command = plan_command(plan)
    except RepairError as exc:
        return _read(f"No safe repair: {exc}. Reading again instead of guessing.")
    except ValueError as exc:
        return _read(f"The read output could not be used: {exc}. Reading again.")
    lines = "\n".join(f"- {e.describe()}" for e in plan.edits)
    mode = "with" if plan.dns else "without"
    explanation = (
        f"Repair verified on the model ({mode} DNS modelling): {len(plan.changes)} probe(s) "
        f"change to the intended value and no other probe moves. Edits:\n{lines}"
    )
    return Decision(command, explanation, plan)
