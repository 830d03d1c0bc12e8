"""Fixtures of the router tests: a router lab where namespaces allow one, else a skip with the reason."""

from __future__ import annotations

import functools

import pytest

from netmend.lab.errors import LabError
from netmend.lab.router.lab import RouterLab
from netmend.route.topology import Topology


@functools.cache
def router_lab_unavailable(fidelity: str = "full") -> str | None:
    """Why no router lab can run here, or ``None`` (tried once per session and fidelity)."""
    try:
        with RouterLab.start(Topology("p0_", 2, 1), tied=True, fidelity=fidelity) as lab:
            if lab.pingall().loss != 0:
                return "the router lab's fresh network does not pass its pingall"
            return None
    except (LabError, OSError) as exc:
        return f"the router lab cannot run here: {exc}"


@pytest.fixture(scope="session")
def router_lab_ok() -> None:
    reason = router_lab_unavailable()
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="module")
def lab(router_lab_ok):
    """One full-fidelity router lab for a module; each test builds the network it needs."""
    with RouterLab.start(tied=True, fidelity="full") as running:
        yield running
