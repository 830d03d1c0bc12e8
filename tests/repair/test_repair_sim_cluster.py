"""The harness side: injector, simulated bash and kubectl, jsonpath (vs the real kubectl)."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml
from repair_helpers import broken

from netmend.assess.k8s.inject import FAMILIES, Injection, InjectionError, draw_task, inject
from netmend.assess.k8s.jsonpath import JSONPathError, render
from netmend.assess.k8s.kubectl import TYPES
from netmend.assess.k8s.shell import parse, run_script, tokenize
from netmend.repair.observe import TEMPLATE


def test_injection_kinds_follow_the_documented_semantics(setup):
    m = setup.manifests
    out = inject(m, [Injection("remove_ingress", "productcatalogservice")])
    assert out["default/productcatalogservice"]["spec"]["ingress"] == []
    out = inject(m, [Injection("add_ingress", "adservice", apps=("cartservice", "loadgenerator"))])
    assert out["default/adservice"]["spec"]["ingress"][1:] == [
        {"from": [{"podSelector": {"matchLabels": {"app": "cartservice"}}}]},
        {"from": [{"podSelector": {"matchLabels": {"app": "loadgenerator"}}}]},
    ]
    out = inject(m, [Injection("change_port", "emailservice", port=7), Injection("change_protocol", "emailservice", protocol="SCTP")])
    assert out["default/emailservice"]["spec"]["ingress"][0]["ports"] == [{"port": 7, "protocol": "SCTP"}]
    out = inject(m, [Injection("add_egress", "frontend", apps=("adservice", "cartservice"))])
    assert out["default/frontend"]["spec"]["egress"] == [
        {"to": [{"podSelector": {"matchLabels": {"app": "adservice"}}}]},
        {"to": [{"podSelector": {"matchLabels": {"app": "cartservice"}}}]},
    ]
    assert m["default/frontend"]["spec"]["egress"] == [{}]  # the input is untouched
    with pytest.raises(InjectionError):
        inject(m, [Injection("rename", "frontend")])


def test_tasks_depend_only_on_seed_family_and_index(setup):
    a = draw_task("change_port+add_egress", 3, 5, setup.manifests, setup.facts)
    b = draw_task("change_port+add_egress", 3, 5, setup.manifests, setup.facts)
    c = draw_task("change_port+add_egress", 3, 6, setup.manifests, setup.facts)
    assert a == b and a != c
    assert len(FAMILIES) == 15 and len(set(FAMILIES)) == 15


def test_shell_quoting_and_lists():
    assert [t[1] for t in tokenize("a 'b c' \"d\\\"e\" $'f\\ng' h\\ i")] == ["a", "b c", 'd"e', "f\ng", "h i"]
    pipelines = parse("a && b || c; d | e\nf")
    assert [(p.connector, [c[0] for c in p.commands]) for p in pipelines] == [
        (";", ["a"]), ("&&", ["b"]), ("||", ["c"]), (";", ["d", "e"]), (";", ["f"])
    ]
    r = run_script("false && echo no; echo yes || echo never", {})
    assert (r.stdout, r.code) == ("yes\n", 0)
    r = run_script("frobnicate x", {})
    assert r.code == 127 and "frobnicate: command not found" in r.stderr
    r = run_script("echo $HOME", {})
    assert r.code == 2 and "not supported" in r.stderr
    r = run_script("echo 'unterminated", {})
    assert r.code == 2
    r = run_script("echo a; echo b | grep b", {})
    assert r.stdout == "a\nb\n"


def test_kubectl_get_formats(setup):
    sim, _ = broken(setup)
    table = sim.run("kubectl get networkpolicy").stdout.splitlines()
    assert table[0].split() == ["NAME", "POD-SELECTOR", "AGE"] and len(table) == 13
    one = json.loads(sim.run("kubectl get networkpolicy frontend -o json").stdout)
    assert one["kind"] == "NetworkPolicy" and one["spec"]["ingress"] == [{}]
    many = yaml.safe_load(sim.run("kubectl get netpol -n default -o yaml").stdout)
    assert many["kind"] == "List" and len(many["items"]) == 12
    names = sim.run("kubectl get svc -o jsonpath='{.items[*].metadata.name}'").stdout.split()
    assert "redis-cart" in names and "kube-dns" not in names
    assert "kube-dns" in sim.run("kubectl get svc -A -o wide").stdout
    assert sim.run("kubectl get pods -l app=frontend -o name").stdout.startswith("pod/frontend-")
    missing = sim.run("kubectl get networkpolicy nope")
    assert missing.code == 1 and 'networkpolicies.networking.k8s.io "nope" not found' in missing.stderr
    assert "unknown command" in sim.run("kubectl frob").stderr
    assert sim.run("kubectl get widgets").code == 1
    assert sim.run("kubectl get pods --bogus").code == 1


def test_kubectl_patch_all_three_types_and_atomic_failure(setup):
    sim, _ = broken(setup)
    before = json.loads(json.dumps(sim.policies))
    r = sim.run("""kubectl patch networkpolicy frontend --type=json -p '[{"op":"test","path":"/spec/egress","value":[{}]},{"op":"remove","path":"/spec/egress/0"}]'""")
    assert r.stdout == "networkpolicy.networking.k8s.io/frontend patched\n"
    assert "egress" not in sim.policies["default/frontend"]["spec"]
    r = sim.run("""kubectl patch networkpolicy frontend --type=merge -p '{"spec":{"egress":[{}]}}'""")
    assert r.code == 0 and sim.policies["default/frontend"]["spec"]["egress"] == [{}]
    r = sim.run("kubectl patch networkpolicy frontend -p $'spec:\\n  egress:\\n  - {}\\n'")
    assert r.stdout.endswith("patched (no change)\n")
    r = sim.run("""kubectl patch networkpolicy adservice --type=json -p '[{"op":"test","path":"/spec/egress","value":[]}]'""")
    assert r.code == 1
    r = sim.run("""kubectl patch networkpolicy adservice --type=merge -p '{"spec":{"ingress":[{"ports":[{"port":1,"protocol":"ICMP"}]}]}}'""")
    assert r.code == 1 and "is invalid" in r.stderr
    assert sim.policies["default/adservice"] == before["default/adservice"]


@pytest.mark.parametrize(
    "template",
    [TEMPLATE.replace("{range .items[*]}", "").replace("{end}", ""), "{.spec.ingress[*].ports[0].port} {..port}", "{range .spec.ingress[*]}[{.from}]{end}"],
)
@pytest.mark.needs_kubectl
def test_jsonpath_matches_the_real_kubectl(setup, kubectl, tmp_path, template):
    # (``..`` over several map keys is left out: kubectl's order there varies run to run)
    sim, _ = broken(setup, Injection("add_ingress", "cartservice", apps=("adservice", "emailservice")))
    pods = next(t for t in TYPES if t.plural == "pods")
    for obj in (sim.policies["default/cartservice"], sim.objects(pods)[0]):
        path = tmp_path / "obj.json"
        path.write_text(json.dumps(obj), encoding="utf-8")
        done = subprocess.run(
            [kubectl, "patch", "--local", "-f", str(path), "--type=merge", "-p", "{}", "-o", f"jsonpath={template}"],
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert done.returncode == 0, done.stderr
        assert render(template, obj) == done.stdout


def test_jsonpath_errors_are_typed():
    with pytest.raises(JSONPathError):
        render("{range .items[*]}", {})
    with pytest.raises(JSONPathError):
        render("{.a[x]}", {"a": [1]})
