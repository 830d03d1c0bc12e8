"""Fixtures of the K8s engine tests: the environment-bound oracles."""

from __future__ import annotations

from pathlib import Path

import pytest
from k8s_oracles import kubectl_executable, nca_executable


@pytest.fixture(scope="session")
def nca() -> Path:
    exe = nca_executable()
    if exe is None:
        pytest.skip("network-config-analyzer not installed in .venv-nca (created by .ci/run)")
    return exe


@pytest.fixture(scope="session")
def kubectl() -> str:
    exe = kubectl_executable()
    if exe is None:
        pytest.skip("kubectl is not installed")
    return exe
