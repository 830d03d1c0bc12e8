"""Where the K8s tests find their environment-bound oracles and data."""

from __future__ import annotations

import glob
import os
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def nca_executable() -> Path | None:
    """NCA's entry point: $NETMEND_NCA, else the repository's .venv-nca."""
    candidate = Path(os.environ.get("NETMEND_NCA", REPO / ".venv-nca" / "bin" / "nca"))
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None


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
