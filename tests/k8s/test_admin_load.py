"""Reading admin policies: what the API server accepts, round trips, kubectl lists, findings."""

from __future__ import annotations

import json

import pytest
import yaml
from admin_cases import ANP_API, CNP_API, anp, banp, cnp, ns_peer, pods_peer, rule, tcp
from k8s_cases import pod

from netmend.k8s import ManifestError, as_list, load_cluster
from netmend.k8s.admin import admin_policy_to_dict, parse_admin_policy
from netmend.k8s.cluster import build_cluster
from netmend.k8s.load import read_all_policies, read_policies
from netmend.k8s.semantics import Simulator
from netmend.k8s.tiers import findings


def _cnp_spec(**spec):
    base = {"tier": "Admin", "priority": 1, "subject": {"namespaces": {}}}
    base.update(spec)
    return {"apiVersion": CNP_API, "kind": "ClusterNetworkPolicy", "metadata": {"name": "x"}, "spec": base}


@pytest.mark.parametrize(
    ("obj", "field"),
    [
        (_cnp_spec(priority=1001), "spec.priority"),
        (_cnp_spec(priority=-1), "spec.priority"),
        (_cnp_spec(tier="Platform"), "spec.tier"),
        (_cnp_spec(subject={}), "spec.subject"),
        (_cnp_spec(subject={"namespaces": {}, "pods": {"podSelector": {}}}), "spec.subject"),
        (_cnp_spec(subject={"pods": {"namespaceSelector": {}}}), "spec.subject.pods.podSelector"),
        (_cnp_spec(ingress=[{"action": "Allow", "from": [{"namespaces": {}}]}]), "spec.ingress[0].action"),
        (_cnp_spec(ingress=[{"action": "Deny"}]), "spec.ingress[0].from"),
        (_cnp_spec(ingress=[{"action": "Deny", "from": []}]), "spec.ingress[0].from"),
        (_cnp_spec(ingress=[{"action": "Deny", "from": [{"networks": ["10.0.0.0/8"]}]}]), "spec.ingress[0].from[0].networks"),
        (_cnp_spec(egress=[{"action": "Deny", "to": [{"namespaces": {}, "pods": {"podSelector": {}}}]}]), "spec.egress[0].to[0]"),
        (_cnp_spec(egress=[{"action": "Deny", "to": [{"networks": ["10.0.0.0/33"]}]}]), "spec.egress[0].to[0].networks[0]"),
        (_cnp_spec(egress=[{"action": "Deny", "to": [{"domainNames": ["example.com"]}]}]), "spec.egress[0].to[0]"),
        (_cnp_spec(egress=[{"action": "Accept", "to": [{"domainNames": ["exa mple.com"]}]}]), "spec.egress[0].to[0].domainNames[0]"),
        (_cnp_spec(egress=[{"action": "Accept", "to": [{"networks": ["10.0.0.0/8"]}],
                            "protocols": [{"destinationNamedPort": "web"}]}]), "spec.egress[0].to[0]"),
        (_cnp_spec(ingress=[{"action": "Deny", "from": [{"namespaces": {}}],
                             "protocols": [{"tcp": {"destinationPort": {"range": {"start": 90, "end": 80}}}}]}]),
         "spec.ingress[0].protocols[0].tcp.destinationPort.range.end"),
        (_cnp_spec(ingress=[{"action": "Deny", "from": [{"namespaces": {}}],
                             "protocols": [{"tcp": {"destinationPort": {"number": 80}}, "udp": {"destinationPort": {"number": 80}}}]}]),
         "spec.ingress[0].protocols[0]"),
        (_cnp_spec(ingress=[{"action": "Deny", "from": [{"namespaces": {}}], "protocols": [{"tcp": {}}]}]),
         "spec.ingress[0].protocols[0].tcp.destinationPort"),
        (_cnp_spec(ingress=[{"action": "Deny", "from": [{"namespaces": {}}]}] * 26), "spec.ingress"),
        (_cnp_spec(ingress=[{"action": "Deny", "name": "n" * 101, "from": [{"namespaces": {}}]}]), "spec.ingress[0].name"),
        (_cnp_spec(unknown=1), "spec.unknown"),
        ({**_cnp_spec(), "apiVersion": ANP_API}, "apiVersion"),
        ({**_cnp_spec(), "metadata": {"name": "x", "namespace": "default"}}, "metadata.namespace"),
        ({"apiVersion": ANP_API, "kind": "BaselineAdminNetworkPolicy", "metadata": {"name": "other"},
          "spec": {"subject": {"namespaces": {}}}}, "metadata.name"),
        ({"apiVersion": ANP_API, "kind": "BaselineAdminNetworkPolicy", "metadata": {"name": "default"},
          "spec": {"subject": {"namespaces": {}}, "ingress": [{"action": "Pass", "from": [{"namespaces": {}}]}]}},
         "spec.ingress[0].action"),
        ({"apiVersion": ANP_API, "kind": "AdminNetworkPolicy", "metadata": {"name": "a"},
          "spec": {"priority": 1, "subject": {"namespaces": {}},
                   "ingress": [{"action": "Accept", "from": [{"namespaces": {}}]}]}}, "spec.ingress[0].action"),
        ({"apiVersion": ANP_API, "kind": "AdminNetworkPolicy", "metadata": {"name": "a"},
          "spec": {"subject": {"namespaces": {}}}}, "spec.priority"),
        ({"apiVersion": ANP_API, "kind": "AdminNetworkPolicy", "metadata": {"name": "a"},
          "spec": {"priority": 1, "subject": {"namespaces": {}},
                   "ingress": [{"action": "Deny", "from": [{"namespaces": {}}],
                                "ports": [{"portRange": {"protocol": "TCP", "start": 5, "end": 5}}]}]}},
         "spec.ingress[0].ports[0].portRange.end"),
    ],
)
def test_refused_with_the_bad_field_named(obj, field):
    with pytest.raises(ManifestError) as err:
        parse_admin_policy(obj, "f.yaml")
    assert err.value.field == field, str(err.value)
    assert err.value.source == "f.yaml"


def test_v1alpha1_ports_and_peers():
    pol = anp(
        "a",
        egress=[{
            "name": "out",
            "action": "Pass",
            "to": [{"networks": ["10.0.0.0/8"]}, {"nodes": {}}, {"pods": {"namespaceSelector": {}, "podSelector": {}}}],
            "ports": [{"portNumber": {"protocol": "UDP", "port": 53}}, {"portRange": {"start": 1, "end": 9}}],
        }],
    )
    (r,) = pol.egress
    assert (r.action, r.written_action, r.name) == ("Pass", "Pass", "out")
    assert [p.kind for p in r.peers] == ["networks", "nodes", "pods"]
    assert [(p.protocol, p.start, p.end) for p in r.ports] == [("UDP", 53, 53), ("TCP", 1, 9)]
    assert anp("b", ingress=[{"action": "Allow", "from": [ns_peer()]}]).ingress[0].action == "Accept"


def test_a_flipped_v1alpha1_rule_is_written_with_its_new_action():
    """``Allow`` read from the manifest must not survive ``replace(action="Deny")``."""
    from dataclasses import replace

    pol = anp("a", ingress=[{"action": "Allow", "from": [ns_peer()]}])
    denied = replace(pol, ingress=(replace(pol.ingress[0], action="Deny"),))
    assert denied.ingress[0].written_action in ("", "Deny")
    assert admin_policy_to_dict(denied)["spec"]["ingress"][0]["action"] == "Deny"
    assert parse_admin_policy(admin_policy_to_dict(denied)).ingress[0].action == "Deny"
    back = replace(denied, ingress=(replace(denied.ingress[0], action="Accept"),))
    assert admin_policy_to_dict(back)["spec"]["ingress"][0]["action"] == "Allow"


@pytest.mark.parametrize(
    "policy",
    [
        cnp("c", tier="Baseline", priority=3, ingress=[rule("Pass", pods_peer(app="x"), protocols=[tcp(80), tcp(90, 99)], name="r")],
            egress=[rule("Accept", {"domainNames": ["*.example.com"]}, {"networks": ["::/0"]}, direction="to"),
                    rule("Deny", ns_peer(), protocols=[{"destinationNamedPort": "web"}, {"sctp": {"destinationPort": {"number": 7}}}], direction="to")]),
        anp("a", priority=0, egress=[{"action": "Allow", "to": [{"nodes": {"matchLabels": {"role": "w"}}}],
                                      "ports": [{"portNumber": {"protocol": "TCP", "port": 1}}, {"portRange": {"protocol": "UDP", "start": 2, "end": 3}}]}]),
        banp(subject={"pods": {"namespaceSelector": {}, "podSelector": {"matchLabels": {"a": "b"}}}},
             ingress=[{"action": "Deny", "from": [ns_peer()], "ports": [{"namedPort": "http"}]}]),
    ],
)
def test_round_trip(policy):
    assert parse_admin_policy(admin_policy_to_dict(policy)) == policy


def test_loaded_from_yaml_and_kubectl_json_lists(tmp_path):
    pol = cnp("guard", ingress=[rule("Deny", ns_peer())])
    base = banp(ingress=[{"action": "Deny", "from": [ns_peer()]}])
    (tmp_path / "p.yaml").write_text(yaml.safe_dump_all([admin_policy_to_dict(pol)]))
    (tmp_path / "b.json").write_text(json.dumps(as_list([admin_policy_to_dict(base)])))
    nps, admin = read_all_policies([tmp_path])
    assert nps == [] and sorted(p.key for p in admin) == ["BaselineAdminNetworkPolicy/default", "ClusterNetworkPolicy/guard"]
    manifests = tmp_path / "m.yaml"
    manifests.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": []}}))
    cluster = load_cluster([manifests], [tmp_path / "p.yaml", tmp_path / "b.json"], kube_dns=False)
    assert [p.key for p in cluster.admin_policies] == ["BaselineAdminNetworkPolicy/default", "ClusterNetworkPolicy/guard"]
    with pytest.raises(ManifestError):
        read_policies([tmp_path])  # NetworkPolicies only


def test_host_network_read_from_manifests():
    from netmend.k8s.manifest import parse_object

    obj = {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent"},
           "spec": {"template": {"metadata": {"labels": {"app": "agent"}}, "spec": {"hostNetwork": True, "containers": []}}}}
    p = parse_object(obj)
    assert p.host_network
    assert build_cluster([p]).pods[0].ip == "172.18.0.2"
    with pytest.raises(ManifestError):
        parse_object({**obj, "spec": {"template": {"spec": {"hostNetwork": "yes", "containers": []}}}})


def test_duplicate_admin_policy_refused():
    with pytest.raises(ManifestError):
        build_cluster([cnp("x"), cnp("x", priority=2)])
    assert len(build_cluster([cnp("x"), anp("x")]).admin_policies) == 2  # different kinds


def test_same_priority_overlap_is_a_finding():
    objs = [pod("a", app="a"), pod("b", app="b"),
            cnp("one", priority=5, ingress=[rule("Deny", pods_peer(app="a"))]),
            cnp("two", priority=5, ingress=[rule("Accept", ns_peer())]),
            cnp("three", priority=6, ingress=[rule("Accept", ns_peer())])]
    found = findings(Simulator(build_cluster(objs)))
    assert [(f.kind, f.policies) for f in found] == [
        ("same-priority-overlap", ("ClusterNetworkPolicy/one", "ClusterNetworkPolicy/two"))
    ]
    assert "different actions" in found[0].message


def test_same_priority_without_common_traffic_is_not_a_finding():
    objs = [pod("a", app="a"), pod("b", app="b"),
            cnp("one", priority=5, ingress=[rule("Deny", pods_peer(app="a"), protocols=[tcp(80)])]),
            cnp("two", priority=5, ingress=[rule("Deny", pods_peer(app="a"), protocols=[tcp(81)])]),
            cnp("base", tier="Baseline", priority=5, ingress=[rule("Deny", pods_peer(app="a"))])]
    assert findings(Simulator(build_cluster(objs))) == ()


def test_nodes_and_domain_names_are_reported_not_modelled():
    objs = [pod("a"), cnp("p", egress=[rule("Accept", {"nodes": {}}, {"domainNames": ["example.com"]}, direction="to")])]
    found = findings(Simulator(build_cluster(objs)))
    assert [f.kind for f in found] == ["not-modelled", "not-modelled"]
    assert "nodes" in found[0].message and "domainNames" in found[1].message


def test_nca_adapter_refuses_admin_policies():
    from netmend.k8s.nca import NcaError, cluster_resources

    cluster = build_cluster([pod("a"), cnp("p", ingress=[rule("Deny", ns_peer())])])
    with pytest.raises(NcaError):
        cluster_resources(cluster)
    assert cluster_resources(cluster.with_admin_policies(()))
