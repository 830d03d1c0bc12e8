"""Typed errors of the repair layer."""

from __future__ import annotations


class RepairError(Exception):
    """Base class of every repair error."""


class IntentError(RepairError, ValueError):
    """An intent (file or feedback) is malformed or names unknown probes."""


class IntentContradictionError(IntentError):
    """Two statements of one intent want opposite values for the same probe."""

    def __init__(self, message: str, first: str, second: str):
        self.first, self.second = first, second
        super().__init__(message)


class ModelContradiction(RepairError):
    """The model's computed verdict disagrees with an observed one.

    Attributes
    ----------
    contradictions:
        ``(source, target, observed, modelled)`` for every disagreeing probe.
    """

    def __init__(self, contradictions: tuple[tuple[str, str, bool, bool], ...]):
        self.contradictions = contradictions
        shown = "; ".join(
            f"{src} -> {dst}: observed {obs}, model says {mod}"
            for src, dst, obs, mod in contradictions[:5]
        )
        more = f" (+{len(contradictions) - 5} more)" if len(contradictions) > 5 else ""
        super().__init__(
            f"the cluster model contradicts {len(contradictions)} observed probe(s): {shown}{more}"
        )


class NoPlan(RepairError):
    """No edit set within the edit IR reaches the intent; ``reason`` says why."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"no repair plan: {reason}")


class EmissionError(RepairError):
    """A command could not be emitted safely (for example a banned substring)."""


class ObservationError(RepairError, ValueError):
    """Output of a read command could not be parsed into cluster objects."""
