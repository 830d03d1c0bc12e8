"""Differential: admin tiers in the kernel (nftables chains per tier) against the engine.

Random small clusters with random ClusterNetworkPolicies, AdminNetworkPolicies
and the BaselineAdminNetworkPolicy on top of random NetworkPolicies; every
workload probes every other workload's service ports, with DNS and without.
A disagreement is saved beside the NetworkPolicy ones and replayed there.

Not covered: a pod reaching itself through its own Service (the kernel routes
that over loopback, which the lab always accepts), hostNetwork pods.
"""

from __future__ import annotations

import os

import pytest
from admin_strategies import admin_policies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_lab_differential import check, lab_clusters

from netmend.k8s import Cluster, demo_cluster
from netmend.lab.lab import Lab

pytestmark = pytest.mark.needs_root_net
EXAMPLES = int(os.environ.get("NETMEND_LAB_EXAMPLES", "12"))


@st.composite
def tiered_lab_clusters(draw) -> Cluster:
    cluster = draw(lab_clusters())
    admin = {}
    for i in range(draw(st.integers(1, 4))):
        pol = draw(admin_policies(i))
        admin[pol.key] = pol
    return cluster.with_admin_policies(tuple(admin.values()))


@pytest.fixture(scope="module")
def tier_lab(lab_ok):
    with Lab.start(demo_cluster(), tied=True, deny="reject") as lab:
        yield lab


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cluster=tiered_lab_clusters())
def test_admin_tiers_agree_with_the_kernel(tier_lab, cluster):
    check(tier_lab, cluster)
