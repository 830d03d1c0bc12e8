"""Fixtures for the assessment tests: small MALT topologies and the real one when present."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from netmend.malt import topology

REAL_TOPOLOGY = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "malt" / "malt-graph.textproto.txt"


@pytest.fixture(scope="session")
def small_graph() -> nx.DiGraph:
    """The built-in synthetic topology (139 nodes); tests must not modify it."""
    return topology.default()


@pytest.fixture(scope="session")
def real_graph() -> nx.DiGraph:
    if not REAL_TOPOLOGY.exists():
        pytest.skip(f"the real MALT topology is not at {REAL_TOPOLOGY} (../shared is absent)")
    return topology.load(REAL_TOPOLOGY)
