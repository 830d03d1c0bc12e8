"""Fixtures every test folder may use: environment-bound oracles nobody here wrote."""

from __future__ import annotations

import glob
import os
import re
import shutil

import pytest
from hypothesis import settings

# CI is a gate, so its property tests draw the same examples every run (a fixed seed);
# local runs keep exploring new ones and save what they find.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def kubectl_executable() -> str | None:
    """A kubectl that works offline.

    Some installs put a version-picking wrapper on PATH that first calls a
    server; the versioned binaries beside it do not, so the newest of them
    wins (sorted by version number, for a deterministic choice).
    """
    wrapper = shutil.which("kubectl")
    if wrapper is None:
        return None
    real = os.path.realpath(wrapper)
    versioned = glob.glob(os.path.join(os.path.dirname(real), "kubectl.1.*"))

    def version(path: str) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", os.path.basename(path)))

    return max(versioned, key=version) if versioned else real


@pytest.fixture(scope="session")
def kubectl() -> str:
    exe = kubectl_executable()
    if exe is None:
        pytest.skip("kubectl is not installed")
    return exe
