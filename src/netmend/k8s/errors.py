"""Typed errors of the Kubernetes engine. Each says where and what was expected."""

from __future__ import annotations


class K8sError(Exception):
    """Base class of every error raised by :mod:`netmend.k8s`."""


class ManifestError(K8sError, ValueError):
    """A manifest field is missing or malformed.

    Attributes
    ----------
    source : str
        Where the object came from (``file.yaml#2`` for the third document).
    field : str
        Path of the bad field inside the object, e.g. ``spec.ingress[0].ports[1].port``.
    expected : str
        What the field should have held.
    got : object
        What it held (``...`` when the field was missing).
    """

    def __init__(self, source: str, field: str, expected: str, got: object = ...):
        self.source, self.field, self.expected, self.got = source, field, expected, got
        found = "missing" if got is ... else f"got {got!r}"
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{field}: expected {expected}, {found}")


class PatchError(K8sError, ValueError):
    """A patch could not be applied; the model it targeted is unchanged."""


class ProbeError(K8sError, ValueError):
    """A probe names an unknown source, service or port, or DNS cannot be modelled."""


class MismatchParseError(K8sError, ValueError):
    """A mismatch line is not in the NetArena format."""
