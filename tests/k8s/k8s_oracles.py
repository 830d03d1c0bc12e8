"""Where the K8s tests find their environment-bound oracles and data."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"


def nca_executable() -> Path | None:
    """NCA's entry point: $NETMEND_NCA, else the repository's .venv-nca."""
    candidate = Path(os.environ.get("NETMEND_NCA", REPO / ".venv-nca" / "bin" / "nca"))
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None
