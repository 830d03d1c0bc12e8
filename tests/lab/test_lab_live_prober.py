"""The live probe backend has the simulated prober's shape and answers."""

from __future__ import annotations

import pytest

from netmend.k8s import Prober, demo_cluster, demo_expected, demo_policies
from netmend.lab.errors import LabStateError
from netmend.lab.lab import Lab
from netmend.lab.live import LiveProber

pytestmark = pytest.mark.needs_root_net


def test_live_prober_is_a_drop_in_for_the_simulated_one(lab_ok):
    probes = demo_expected().probes()
    simulated = Prober(demo_cluster(), probes)
    with LiveProber(demo_cluster(), probes, deny="reject") as live:
        assert live.run() == simulated.run() == demo_expected()
        assert live.run(()) == simulated.run(())
        assert live.run(None) == demo_expected()  # back to the cluster's own policies
        broken = demo_policies()[1:]
        assert live.run(broken) == simulated.run(broken)
        assert live.last is not None and len(live.last.records) == sum(len(t) for _, t in probes)


def test_a_stopped_lab_says_so(lab_ok):
    lab = Lab.start(demo_cluster(), tied=True)
    lab.stop()
    with pytest.raises(LabStateError, match="not running"):
        lab.apply(())
    with pytest.raises(LabStateError, match="netmend lab up"):
        lab.probe(demo_expected().probes())
