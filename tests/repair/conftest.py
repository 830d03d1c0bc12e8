"""Fixtures of the repair tests: the demo setup, the real kubectl, repair helpers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from netmend.assess.k8s_harness import demo_setup

_ORACLES = Path(__file__).resolve().parents[1] / "k8s" / "k8s_oracles.py"


def _kubectl_executable() -> str | None:
    # The engine tests' locator (versioned binary beside the wrapper; no network).
    spec = importlib.util.spec_from_file_location("k8s_oracles_for_repair", _ORACLES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kubectl_executable()


@pytest.fixture(scope="session")
def setup():
    return demo_setup()


@pytest.fixture(scope="session")
def kubectl() -> str:
    exe = _kubectl_executable()
    if exe is None:
        pytest.skip("kubectl is not installed")
    return exe
