"""Assertions that contradict each other once Service targets are resolved to the pods
and ports behind them (the probe needs DNS and one endpoint), and ones that only look so."""

from __future__ import annotations

import pytest
from k8s_oracles import REPO

from netmend.k8s import build_cluster, parse_text, with_kube_dns
from netmend.k8s.check import check
from netmend.k8s.intent_code import IntentContradiction, parse_intent_code

TINY_SHOP = REPO / "tests" / "k8s" / "apps" / "tiny-shop"
# A second api pod (a canary) and a Service that fronts the api pods as well.
CANARY = """
apiVersion: v1
kind: Pod
metadata: {name: api-canary, namespace: shop, labels: {app: api, tier: backend, track: canary}}
spec: {containers: [{name: api, image: api, ports: [{name: grpc, containerPort: 9000}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: api-alias, namespace: shop}
spec:
  selector: {app: api}
  ports: [{port: 80, targetPort: grpc}]
"""


def cluster(extra: str = ""):
    text = "\n---\n".join(
        [(TINY_SHOP / "workloads.yaml").read_text(encoding="utf-8"), (TINY_SHOP / "policies.yaml").read_text(encoding="utf-8"),
         *([extra] if extra else [])]
    )
    return build_cluster(with_kube_dns(parse_text(text, "tiny-shop")))


def assertions(*items):
    return parse_intent_code({"assertions": [dict(item) for item in items]}).assertions


WEB = {"namespace": "shop", "workload": "web"}
API_SVC = {"service": "api", "namespace": "shop"}
API_PODS = {"namespace": "shop", "labels": {"app": "api"}}
KUBE_DNS = {"namespace": "kube-system", "labels": {"k8s-app": "kube-dns"}}


def contradiction(c, items, dns=True) -> IntentContradiction:
    with pytest.raises(IntentContradiction) as caught:
        check(c, assertions(*items), dns=dns)
    return caught.value


def test_denying_dns_contradicts_allowing_a_service():
    items = [{"name": "web-calls-api", "allow": {"from": WEB, "to": API_SVC}},
             {"name": "web-resolves-nothing", "deny": {"from": WEB, "to": KUBE_DNS, "ports": ["53/UDP"]}}]
    error = contradiction(cluster(), items)
    assert [a.name for a in error.assertions] == ["web-calls-api", "web-resolves-nothing"]
    assert "which needs DNS from shop/web-0: kube-system/coredns-" in error.where
    # Without DNS modelling the name needs no resolver: both can hold.
    check(cluster(), assertions(*items), dns=False)


def test_a_denied_service_beside_an_allowed_pod_port_contradicts_once_dns_must_work():
    deny_svc = {"name": "web-never-calls-api", "deny": {"from": WEB, "to": API_SVC}}
    allow_pods = {"name": "web-reaches-api-pods", "allow": {"from": WEB, "to": API_PODS, "ports": [9000]}}
    # DNS modelled and free: the Service probe can fail on name resolution alone.
    check(cluster(), assertions(deny_svc, allow_pods))
    error = contradiction(cluster(), [deny_svc, allow_pods], dns=False)
    assert (error.first.name, error.second.name) == ("web-reaches-api-pods", "web-never-calls-api")
    assert error.where == "shop/web -> api:9000, which lands on shop/api-0 TCP 9000"
    # An allow on kube-dns makes DNS work: the three together contradict, and all are named.
    resolves = {"name": "web-resolves", "allow": {"from": WEB, "to": KUBE_DNS, "ports": ["53/UDP"]}}
    error = contradiction(cluster(), [deny_svc, allow_pods, resolves])
    assert [a.name for a in error.assertions] == ["web-reaches-api-pods", "web-never-calls-api", "web-resolves"]


def test_one_denied_endpoint_of_two_is_no_contradiction_but_all_of_them_are():
    c = cluster(CANARY)
    allow = {"name": "web-calls-api", "allow": {"from": WEB, "to": API_SVC}}
    canary = {"name": "no-canary", "deny": {"from": WEB, "to": {"namespace": "shop", "labels": {"track": "canary"}}}}
    # The stable pod can serve the Service: satisfiable.
    check(c, assertions(allow, canary))
    stable = {"name": "no-stable", "deny": {"from": WEB, "to": {"namespace": "shop", "workload": "api"}, "ports": [9000]}}
    error = contradiction(c, [allow, canary, stable])
    assert [a.name for a in error.assertions] == ["web-calls-api", "no-stable", "no-canary"]
    assert error.where == "shop/web -> api:9000, which lands on shop/api-0 TCP 9000 or shop/api-canary TCP 9000"


def test_two_services_in_front_of_the_same_pods_are_one_connection():
    c = cluster(CANARY)
    allow = {"name": "web-calls-api", "allow": {"from": WEB, "to": API_SVC}}
    alias = {"name": "web-never-calls-the-alias", "deny": {"from": WEB, "to": {"service": "api-alias", "namespace": "shop"}}}
    error = contradiction(c, [allow, alias])
    assert (error.first.name, error.second.name) == ("web-calls-api", "web-never-calls-the-alias")


def test_an_outside_client_on_a_local_load_balancer_meets_the_pod_port():
    client = {"address": "203.0.113.10"}
    allow = {"name": "customers-reach-the-storefront", "allow": {"from": client, "to": {"service": "web", "namespace": "shop"},
                                                                 "ports": [80]}}
    deny = {"name": "customer-kept-off-the-pods", "deny": {"from": client, "to": {"namespace": "shop", "labels": {"app": "web"}},
                                                           "ports": [8080]}}
    error = contradiction(cluster(), [allow, deny])
    assert error.where == "203.0.113.10 -> web.shop:80, which lands on shop/web-0 TCP 8080"
    # Another address, or another port of the pods: no common connection.
    check(cluster(), assertions(allow, {**deny, "deny": {**deny["deny"], "ports": [9090]}}))
    check(cluster(), assertions(allow, {**deny, "deny": {**deny["deny"], "from": {"address": "203.0.113.11"}}}))
