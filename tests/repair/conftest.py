"""Fixtures of the repair tests: the demo setup (kubectl comes from tests/conftest.py)."""

from __future__ import annotations

import pytest

from netmend.assess.k8s.harness import demo_setup


@pytest.fixture(scope="session")
def setup():
    return demo_setup()
