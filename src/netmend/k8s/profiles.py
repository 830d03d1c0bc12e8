"""Implementation profiles: the corners where network plugins read policies differently.

A profile is a :class:`~netmend.k8s.semantics.Semantics` value. It is written
as ``knob=value`` items (or a preset name), for example
``--profile ipblock=external-only --profile service-port=service``:

================  ==========================  ===========================================
knob              values (first: upstream)    what changes
================  ==========================  ===========================================
``ipblock``       ``pods``, ``external-only``  whether an ipBlock covers pod addresses
``named-ports``   ``per-pod``, ``union``,      a port name resolves on each destination
                  ``unsupported``              pod / to any pod's number / to nothing
``node-local``    ``allow``, ``filter``        traffic with the pod's node (hostNetwork
                                               pods) always allowed / filtered by address
``sctp``          ``supported``,               SCTP as TCP / not through Services /
                  ``no-service``,              SCTP entries of policies ignored
                  ``unsupported``
``service-port``  ``target``, ``service``      policies see the pod port after Service
                                               translation / the Service's port
================  ==========================  ===========================================

Presets (from plugin issue trackers, see the policy landscape notes):
``upstream`` (all defaults), ``cilium-like`` (ipblock=external-only,
sctp=no-service), ``kube-router-like`` (named-ports=unsupported),
``over-permissive-names`` (named-ports=union).

:func:`probe_differences` lists every probe whose verdict a profile changes,
with the knobs that change it on their own. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from netmend.k8s.errors import K8sError
from netmend.k8s.model import Cluster
from netmend.k8s.probe import Prober
from netmend.k8s.semantics import (
    DEFAULT_SEMANTICS,
    NAMED_PORT_MODES,
    NODE_LOCAL_MODES,
    SCTP_MODES,
    SERVICE_PORT_MODES,
    Semantics,
)


class ProfileError(K8sError, ValueError):
    """A profile item is not ``knob=value`` with a known knob and value, nor a preset."""


# knob -> (Semantics field, {written value: field value}); the first value is upstream.
KNOBS: dict[str, tuple[str, dict[str, object]]] = {
    "ipblock": ("ipblock_selects_pods", {"pods": True, "external-only": False}),
    "named-ports": ("named_ports", {v: v for v in NAMED_PORT_MODES}),
    "node-local": ("node_local", {v: v for v in NODE_LOCAL_MODES}),
    "sctp": ("sctp", {v: v for v in SCTP_MODES}),
    "service-port": ("service_port", {v: v for v in SERVICE_PORT_MODES}),
}
PRESETS: dict[str, dict[str, str]] = {
    "upstream": {},
    "cilium-like": {"ipblock": "external-only", "sctp": "no-service"},
    "kube-router-like": {"named-ports": "unsupported"},
    "over-permissive-names": {"named-ports": "union"},
}


def parse_profile(items: Iterable[str]) -> Semantics:
    """A profile from ``knob=value`` items and preset names (later items win).

    Examples
    --------
    >>> parse_profile(["cilium-like", "service-port=service"]).service_port
    'service'
    >>> describe_profile(parse_profile(["ipblock=external-only"]))
    'ipblock=external-only'
    """
    chosen: dict[str, str] = {}
    for item in items:
        text = item.strip()
        if text in PRESETS:
            chosen.update(PRESETS[text])
            continue
        knob, sep, value = text.partition("=")
        if not sep or knob not in KNOBS:
            raise ProfileError(
                f"profile item {item!r}: expected a preset ({', '.join(PRESETS)}) or knob=value "
                f"with a knob among {', '.join(KNOBS)}"
            )
        values = KNOBS[knob][1]
        if value not in values:
            raise ProfileError(f"profile item {item!r}: {knob} takes one of {', '.join(values)}")
        chosen[knob] = value
    return _build(chosen)


def _build(chosen: Mapping[str, str]) -> Semantics:
    return replace(DEFAULT_SEMANTICS, **{KNOBS[k][0]: KNOBS[k][1][v] for k, v in chosen.items()})


def profile_items(semantics: Semantics) -> dict[str, str]:
    """The knobs where ``semantics`` leaves the upstream reading, as written."""
    out = {}
    for knob, (attr, values) in KNOBS.items():
        value = getattr(semantics, attr)
        if value != getattr(DEFAULT_SEMANTICS, attr):
            out[knob] = next(w for w, v in values.items() if v == value)
    return out


def describe_profile(semantics: Semantics) -> str:
    """``knob=value`` items of the non-upstream knobs, comma-separated (``upstream`` for none)."""
    items = profile_items(semantics)
    return ",".join(f"{k}={v}" for k, v in items.items()) or "upstream"


@dataclass(frozen=True)
class ProfileDifference:
    """One probe the profile decides otherwise than the upstream reading."""

    source: str
    target: str
    upstream: bool
    profile: bool
    knobs: tuple[str, ...]  # the knobs that flip it on their own ("" when only together)

    def __str__(self) -> str:
        cause = ", ".join(self.knobs) if self.knobs else "the knobs together"
        return (
            f"{self.source} -> {self.target}: upstream {self.upstream}, profile {self.profile} (changed by {cause})"
        )

    def to_dict(self) -> dict:
        return {"source": self.source, "target": self.target, "upstream": self.upstream,
                "profile": self.profile, "knobs": list(self.knobs)}


def probe_differences(
    cluster: Cluster, probes, semantics: Semantics, *, dns: bool = True
) -> tuple[ProfileDifference, ...]:
    """Every probe whose verdict ``semantics`` changes from the upstream reading, in probe order."""
    probes = tuple(probes)
    base = Prober(cluster, probes, dns=dns).run()
    varied = Prober(cluster, probes, dns=dns, semantics=semantics).run()
    items = profile_items(semantics)
    singles = {
        knob: Prober(cluster, probes, dns=dns, semantics=_build({knob: value})).run()
        for knob, value in items.items()
    }
    out = []
    for (source, cells), (_, new_cells) in zip(base.rows, varied.rows, strict=True):
        for (target, before), (_, after) in zip(cells, new_cells, strict=True):
            if before == after:
                continue
            knobs = tuple(k for k, m in singles.items() if m.get(source, target) == after)
            out.append(ProfileDifference(source, target, before, after, knobs))
    return tuple(out)


__all__ = [
    "KNOBS", "PRESETS", "ProfileDifference", "ProfileError", "describe_profile", "parse_profile",
    "probe_differences", "profile_items",
]  # fmt: skip
