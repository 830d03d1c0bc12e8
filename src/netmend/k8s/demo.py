"""The built-in Online Boutique cluster, read from the package's YAML data."""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

from netmend.k8s.cluster import build_cluster
from netmend.k8s.load import parse_text
from netmend.k8s.manifest import ModelObject, Skipped
from netmend.k8s.model import Cluster, NetworkPolicy
from netmend.k8s.probe import Matrix

DEMO_PACKAGE = "netmend.k8s.data"
DEMO_DIR = "online-boutique"


def _text(name: str) -> str:
    return resources.files(DEMO_PACKAGE).joinpath(DEMO_DIR, name).read_text(encoding="utf-8")


def _objects(name: str) -> list[ModelObject | Skipped]:
    return parse_text(_text(name), f"{DEMO_DIR}/{name}")


@cache
def demo_policies() -> tuple[NetworkPolicy, ...]:
    """The twelve correct policies, in file order (one per workload)."""
    return tuple(o for o in _objects("policies.yaml") if isinstance(o, NetworkPolicy))


@cache
def demo_deny_all() -> NetworkPolicy:
    """The deny-all policy that ships with the demo but is not deployed."""
    (policy,) = _objects("deny-all.yaml")
    assert isinstance(policy, NetworkPolicy)
    return policy


@cache
def demo_workloads() -> Cluster:
    """Namespaces, pods, services and kube-dns of the demo, without policies."""
    return build_cluster(_objects("workloads.yaml"))


@cache
def demo_cluster() -> Cluster:
    """The demo cluster with its twelve correct policies deployed."""
    return demo_workloads().with_policies(demo_policies())


@cache
def demo_expected() -> Matrix:
    """The probe set and its expected outcome under the correct policies."""
    return Matrix.from_dict(yaml.safe_load(_text("expected.yaml")))
