"""The test applications' correct policies, and fuzzer-damaged ones, against IBM NCA."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_nca_differential import _check_batch

from netmend.assess.k8s.app import load_app
from netmend.assess.k8s.harness import app_setup, deployed, fuzz_tasks
from netmend.k8s.model import Cluster, Requirement

pytestmark = pytest.mark.needs_nca
APPS = Path(__file__).parent / "apps"


def test_applications_agree_with_nca(nca, tmp_path):
    batch = []
    for name in ("bank", "clinic", "iot", "tiny-shop", "streamhub"):
        setup = app_setup(load_app(APPS / name))
        batch.append(_nca_readable(deployed(setup, _no_faults()).model()))
        batch.extend(_nca_readable(deployed(setup, task).model()) for task in fuzz_tasks(setup, 1, 3)[::4])
    _check_batch(nca, batch, tmp_path)


def _nca_readable(cluster: Cluster) -> Cluster:
    """The same cluster without the rules of a type its policy does not list, and with each ``Exists`` of an AND peer's podSelector written as
    ``In`` over the values the cluster's pods carry for that key: the same pods
    match, and NCA 2.1.0 reads ``In`` there as Kubernetes does (it admits
    nothing through ``Exists``, see tests/k8s/data/nca_deviations/)."""

    def rewrite(expr: Requirement) -> Requirement:
        if expr.operator not in ("Exists", "DoesNotExist"):
            return expr
        values = sorted({dict(p.labels)[expr.key] for p in cluster.pods if expr.key in dict(p.labels)})
        # DoesNotExist the same way, as NotIn over those values (NCA 2.1.0 admits nothing through it either)
        return Requirement(expr.key, "In" if expr.operator == "Exists" else "NotIn", tuple(values)) if values else expr

    def peer(p):
        if p.namespace_selector is None or p.pod_selector is None:
            return p
        sel = p.pod_selector
        return replace(p, pod_selector=replace(sel, match_expressions=tuple(rewrite(e) for e in sel.match_expressions)))

    def rules(rs):
        return None if rs is None else tuple(replace(r, peers=None if r.peers is None else tuple(peer(p) for p in r.peers)) for r in rs)

    def listed(pol, direction, rs):
        # rules of a type policyTypes does not list do nothing in Kubernetes; NCA 2.1.0
        # refuses such a policy ("egress field but no Egress in its policyTypes")
        return None if pol.policy_types and direction not in pol.policy_types else rules(rs)

    return cluster.with_policies(tuple(
        replace(pol, ingress=listed(pol, "Ingress", pol.ingress), egress=listed(pol, "Egress", pol.egress))
        for pol in cluster.policies
    ))


def _no_faults():
    from netmend.assess.k8s.inject import Task

    return Task("none", 0, ())
