"""Fixtures of the K8s engine tests: the NCA oracle (kubectl comes from tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from k8s_oracles import nca_executable


@pytest.fixture(scope="session")
def nca() -> Path:
    exe = nca_executable()
    if exe is None:
        pytest.skip("network-config-analyzer not installed in .venv-nca (created by .ci/run)")
    return exe
