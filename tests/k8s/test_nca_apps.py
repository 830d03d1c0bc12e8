"""The test applications' correct policies, and fuzzer-damaged ones, against IBM NCA."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_nca_differential import _check_batch

from netmend.assess.k8s.app import load_app
from netmend.assess.k8s.harness import app_setup, deployed, fuzz_tasks
from netmend.assess.k8s.intent import nca_readable

pytestmark = pytest.mark.needs_nca
APPS = Path(__file__).parent / "apps"


def test_applications_agree_with_nca(nca, tmp_path):
    batch = []
    for name in ("bank", "clinic", "iot", "tiny-shop", "streamhub"):
        setup = app_setup(load_app(APPS / name))
        batch.append(nca_readable(deployed(setup, _no_faults()).model()))
        batch.extend(nca_readable(deployed(setup, task).model()) for task in fuzz_tasks(setup, 1, 3)[::4])
    _check_batch(nca, batch, tmp_path)


def _no_faults():
    from netmend.assess.k8s.inject import Task

    return Task("none", 0, ())
