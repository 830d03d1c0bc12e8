"""Fixtures of the live-lab tests: skip with a reason where namespaces or nftables are missing."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

from netmend.k8s import demo_cluster
from netmend.lab.errors import LabError
from netmend.lab.lab import Lab


@functools.cache
def lab_unavailable() -> str | None:
    """Why no lab can run here, or ``None`` when one can (tried once per session)."""
    try:
        with Lab.start(demo_cluster().with_policies(()), tied=True):
            return None
    except LabError as exc:
        return f"the live lab cannot run here: {exc}"


@pytest.fixture(scope="session")
def lab_ok() -> None:
    reason = lab_unavailable()
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="module")
def demo_lab(lab_ok):
    """One demo lab for a whole module; denied packets are rejected so probes stay fast.

    Tests re-apply the policies they need; each test starts from whatever
    the previous one left, so every test applies before it probes.
    """
    with Lab.start(demo_cluster(), tied=True, deny="reject") as lab:
        yield lab


# The engine's hypothesis strategies live beside its tests; the lab reuses them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "k8s"))
