"""The lab layout of a cluster (pure)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from netmend.k8s import ContainerPort, Pod, Service, ServicePort, build_cluster, demo_cluster
from netmend.lab.errors import PlanError
from netmend.lab.plan import LabPlan, Listener, Translation, mac_of, plan_lab, resolv_conf


def test_demo_plan_translates_every_service_port_to_its_pod_port():
    cluster = demo_cluster()
    plan = plan_lab(cluster)
    assert [p.key for p in plan.pods] == sorted(p.key for p in cluster.pods)
    ips = {p.key: p.ip for p in cluster.pods}
    email = cluster.service("emailservice")
    assert Translation(email.cluster_ip, "TCP", 5000, ips["default/emailservice-0"], 8080) in (
        plan.translations
    )
    # One translation per (service, port) with an endpoint; kube-dns has three ports.
    expected = sum(len(s.ports) for s in cluster.services)
    assert len(plan.translations) == expected
    assert plan.nameserver == cluster.service("kube-dns", "kube-system").cluster_ip


def test_demo_plan_listens_on_target_ports_and_leaves_dns_to_the_dns_server():
    plan = plan_lab(demo_cluster())
    assert Listener("TCP", 8080) in plan.pod("default/emailservice-0").listeners
    dns = plan.pod(plan.dns_pod)
    assert Listener("UDP", 53) not in dns.listeners and Listener("TCP", 53) not in dns.listeners
    assert Listener("TCP", 9153) in dns.listeners


def test_plan_names_are_unique_and_short_enough_for_links():
    plan = plan_lab(demo_cluster())
    assert len({p.netns for p in plan.pods}) == len(plan.pods)
    assert all(len(p.veth) <= 15 for p in plan.pods)


def test_plan_round_trips_through_json():
    plan = plan_lab(demo_cluster())
    assert LabPlan.from_json(plan.to_json()) == plan


def test_resolv_conf_has_the_cluster_search_list_and_ndots():
    plan = plan_lab(demo_cluster())
    text = resolv_conf(plan.pod("default/frontend-0"), "10.96.0.10")
    assert (
        text.splitlines()[0] == "search default.svc.cluster.local svc.cluster.local cluster.local"
    )
    assert "nameserver 10.96.0.10" in text and "ndots:5" in text


def test_named_target_port_resolves_on_the_endpoint():
    cluster = build_cluster(
        [
            *demo_cluster().namespaces,
            *(p for p in demo_cluster().pods if p.namespace == "kube-system"),
            *(s for s in demo_cluster().services if s.namespace == "kube-system"),
            Pod(name="web", labels=(("app", "web"),), ports=(ContainerPort(8443, "TCP", "https"),)),
            Service(name="web", selector=(("app", "web"),), ports=(ServicePort(443, "https"),)),
        ]
    )
    plan = plan_lab(cluster)
    web = plan.pod("default/web")
    assert [t.target_port for t in plan.translations if t.pod_ip == web.ip] == [8443]


def test_mac_is_derived_from_the_ip():
    assert mac_of("10.244.1.2") == "02:00:0a:f4:01:02"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda c: replace(c, pods=c.pods + (replace(c.pods[0], name="twin"),)), "share the IP"),
        (lambda c: replace(c, pods=(replace(c.pods[0], ip="not-an-ip"),) + c.pods[1:]), "IPv4"),
        (
            lambda c: replace(c, services=tuple(s for s in c.services if s.name != "kube-dns")),
            "kube-dns",
        ),
    ],
)
def test_bad_clusters_are_refused_with_a_reason(change, message):
    with pytest.raises(PlanError, match=message):
        plan_lab(change(demo_cluster()))
