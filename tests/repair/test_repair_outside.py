"""Outside clients the task text cannot give an address to, in NetArena's loop.

The fixture still declares where the harness probes such a client from; the
participant reads only the task text, so it places the client in every
address class its lines fit: in each, the client's other probes keep their
values, and its reported ones may only move towards the expected value. No
line of that client appears that the fault did not cause, and no turn raises
the count.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from netmend.agent.k8s import respond_k8s
from netmend.assess.k8s.app import parse_app
from netmend.assess.k8s.harness import app_setup, fuzz_tasks, run_task
from netmend.k8s.probe import Matrix, Mismatch
from netmend.repair.clients import TaskClients, extract_clients, outside_model, outside_moves

APPS = Path(__file__).parents[1] / "k8s" / "apps"


def _texts(name: str) -> dict[str, str]:
    return {f: (APPS / name / f).read_text(encoding="utf-8") for f in ("app.yaml", "workloads.yaml", "policies.yaml", "expected.yaml")}


def _lines(summary: str, source: str) -> frozenset[str]:
    return frozenset(line for line in summary.splitlines() if line.startswith(f"Mismatch: {source} "))


def _run_without_address(app: str, wording: tuple[str, str], client: str, per_type: int, seed: int, families=None):
    texts = _texts(app)
    texts["app.yaml"] = texts["app.yaml"].replace(*wording)
    loaded = parse_app(texts)
    assert any(client in note and "unmodelled" in note for note in loaded.notes), loaded.notes
    setup = app_setup(loaded)
    out = []
    for task in fuzz_tasks(setup, per_type, seed, families):
        result = run_task(setup, task, respond_k8s)
        counts = [t.mismatches for t in result.turns if t.mismatches is not None]
        assert result.safe and max(counts) <= result.initial_mismatches, task.task_id
        # a probe of the unmodellable client that matched keeps matching: its lines only go
        probed = [t for t in result.turns if t.mismatches is not None]
        first = _lines(probed[0].summary, client)
        assert all(_lines(t.summary, client) <= first for t in probed), task.task_id
        out.append((task, result, bool(first)))
    return out


# Kinds whose damage sits on either side of the outside clients' policies (a turn that
# cannot plan searches deeper first, so the kinds are few to keep the test short).
KINDS = ("peer-pod-label", "port-number", "protocol", "ipblock-cidr", "ipblock-except-changed", "rule-removed", "allow-all-added", "pair")


@pytest.mark.parametrize(
    ("app", "wording", "client"),
    [
        ("tiny-shop", ("(`abuser`, 203.0.113.200)", "(`abuser`)"), "abuser"),
        ("clinic", ("Patients (`patient`, 192.0.2.10)", "Patients (`patient`)"), "patient"),
    ],
)
def test_a_client_without_address_is_held_where_it_may_be(app, wording, client):
    runs = _run_without_address(app, wording, client, 1, 0, KINDS)
    untouched = [r for _, r, hit in runs if not hit]
    # a task whose damage does not reach that client is still repaired where the hold allows
    assert untouched and sum(r.success for r in untouched) >= len(untouched) // 2, [
        (t.task_id, r.success) for t, r, _ in runs
    ]


def test_a_mismatch_from_a_client_without_address_is_repaired_where_the_text_places_clients():
    # tiny-shop's abuser stripped of its address: its lines are planned on the classes
    # they fit inside the narrowest network of the text holding one, never guessed wider
    runs = _run_without_address("tiny-shop", ("(`abuser`, 203.0.113.200)", "(`abuser`)"), "abuser", 2, 3)
    hit = [(t, r) for t, r, h in runs if h]
    assert hit, "no task in this draw reports the client; pick another seed"
    assert all(r.success and r.iterations == 2 for _, r in hit), [(t.task_id, r.success, r.iterations) for t, r in hit]


def _clients(text: str) -> TaskClients:
    return extract_clients(text)


def test_unmodelled_clients_stand_for_every_address_class_of_both_families():
    policies = [{"spec": {"ingress": [{"from": [{"ipBlock": {"cidr": "192.0.2.0/24", "except": ["192.0.2.128/25"]}}]}]}}]
    outside = outside_model(_clients("Guests (`guest`) browse."), policies)
    addresses = [ipaddress.ip_address(a) for a in outside.externals.values()]
    assert outside.unmodelled == {"guest"} and len(outside.witnesses) == len(addresses)
    for net in ("192.0.2.0/25", "192.0.2.128/25", "0.0.0.0/1", "::/0"):
        assert any(a in ipaddress.ip_network(net) for a in addresses), net


def test_a_range_client_moves_only_the_classes_its_observation_fits():
    clients = _clients("VPN users (`vpn`) come from 10.8.0.0/16.")
    policies = [{"spec": {"ingress": [{"from": [{"ipBlock": {"cidr": "10.8.0.0/24"}}]}]}}]
    outside = outside_model(clients, policies)
    sources = outside.stands_for["vpn"]
    inside = [s for s in sources if ipaddress.ip_address(s.split("@")[1]) in ipaddress.ip_network("10.8.0.0/24")]
    current = Matrix(tuple((s, (("portal.default:80", s in inside),)) for s in sources))
    modelled, alone = outside.translate([Mismatch("vpn", "portal.default:80", True, False)], current)
    assert {m.source for m in modelled} == set(sources) - set(inside) and not alone
    modelled, alone = outside.translate([Mismatch("guest", "portal.default:80", True, False)], current)
    assert modelled and not alone  # a name the text does not give is no outside client here


def test_the_check_sees_an_edit_that_names_an_address_no_class_told_apart():
    from netmend.assess.k8s.app import load_app

    app = load_app(APPS / "tiny-shop")
    before = {f"{p['metadata'].get('namespace', 'default')}/{p['metadata']['name']}": p for p in app.policies}
    key = next(k for k, p in before.items() if "ipBlock" in str(p))
    after = dict(before)
    spec = dict(after[key]["spec"])
    rules = [dict(r) for r in spec["ingress"]]
    for rule in rules:
        if "ipBlock" in str(rule):
            rule["from"] = [*rule["from"], {"ipBlock": {"cidr": "198.51.100.77/32"}}]
    after[key] = {**after[key], "spec": {**spec, "ingress": rules}}
    clients = extract_clients(app.description.replace("(`abuser`, 203.0.113.200)", "(`abuser`)"))
    moved = outside_moves(app.workloads, before, after, clients, [])
    assert moved and all(s.startswith("*@") for s, _, _ in moved)
    assert not outside_moves(app.workloads, before, before, clients, [])


def test_an_outside_target_written_by_its_short_name_is_the_service_outside_clients_reach():
    # a harness may name a Service an outside client probes as `service:port` (no namespace
    # to resolve in); the model names it `service.namespace:port`, and the lines must still
    # be planned on, not left alone as a source with no usable address
    import yaml

    texts = _texts("clinic")
    expected = yaml.safe_load(texts["expected.yaml"])
    for client in ("patient", "vpn", "crawler"):
        expected[client] = {t.replace("portal.default:", "portal:"): v for t, v in expected[client].items()}
    texts["expected.yaml"] = yaml.safe_dump(expected)
    setup = app_setup(parse_app(texts))
    tasks = fuzz_tasks(setup, 2, 0, ["ipblock-cidr", "ipblock-except-changed"])
    assert tasks
    for task in tasks:
        result = run_task(setup, task, respond_k8s)
        assert "→ portal:" in result.turns[0].summary, task.task_id
        assert (result.success, result.safe, result.iterations) == (True, True, 2), task.task_id


def test_a_client_without_address_stands_for_the_classes_its_lines_fit_and_aims_where_the_text_places_clients():
    clients = _clients("Guests (`guest`) browse. `vpn` comes from 10.8.0.0/16. The portal accepts 10.0.0.0/8.")
    assert clients.client("vpn") is not None and [n for n, _ in clients.unmodelled] == ["guest"]
    policies = [{"spec": {"ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}]}}]
    outside = outside_model(clients, policies)
    portal, other = "portal.default:80", "portal.default:30080"

    def at(source):
        return ipaddress.ip_address(outside.externals[source])

    rows = [(w, ((portal, at(w) in ipaddress.ip_network("10.0.0.0/8")), (other, True))) for w in outside.witnesses]
    rows += [(s, ((portal, True), (other, True))) for s in outside.stands_for["vpn"]]
    current = Matrix(tuple(rows))
    line = Mismatch("guest", portal, False, True)
    cut = outside.restricted([line], current)
    # only the classes where the portal is reached now fit the line: the others are no source
    assert cut.witnesses and all(at(w) in ipaddress.ip_network("10.0.0.0/8") for w in cut.witnesses)
    modelled, alone = cut.translate([line], current)
    vpn = ipaddress.ip_network("10.8.0.0/16")
    # the vpn keeps the portal (it reports nothing): its class is held, every other class moves
    assert {m.source for m in modelled} == {w for w in cut.witnesses if at(w) not in vpn} and not alone
    assert all(not m.expected for m in modelled) and not cut.free
    # the guest's other probe holds in every class it may be in
    assert all((w, other) not in cut.free for w in cut.witnesses)
    # no network of the text holds a class it may move in: the line is left alone, never aimed wider
    bare = outside_model(_clients("Guests (`guest`) browse. `vpn` comes from 10.8.0.0/16."), policies)
    rows = [(w, ((portal, True),)) for w in bare.witnesses] + [(s, ((portal, True),)) for s in bare.stands_for["vpn"]]
    current = Matrix(tuple(rows))
    cut = bare.restricted([line], current)
    modelled, alone = cut.translate([line], current)
    assert not modelled and alone == (line,)
    assert cut.free and all(at_ not in vpn for at_ in (ipaddress.ip_address(cut.externals[w]) for w, _ in cut.free))
    # two clients without an address: either may sit in any class, so nothing is translated
    two = outside_model(_clients("Guests (`guest`) and auditors (`auditor`) browse. The portal accepts 10.0.0.0/8."), policies)
    current = Matrix(tuple((w, ((portal, True),)) for w in two.witnesses))
    modelled, alone = two.restricted([line], current).translate([line], current)
    assert not modelled and alone


_SHOPPERS = (
    "Customers on the internet (`customer`, 203.0.113.10) open the storefront through its LoadBalancer Service `web` "
    "on port 80; the storefront accepts the range 203.0.113.0/24 except 203.0.113.128/25.",
    "Shoppers open the storefront through its LoadBalancer Service `web` on port 80 from the range 203.0.113.0/24 "
    "except the reseller block 203.0.113.128/25, such as `customer` at 203.0.113.10.",
)


def test_a_client_bound_ambiguously_is_placed_at_the_addresses_its_readings_give():
    found = extract_clients(_SHOPPERS[1])
    assert [n for n, _ in found.unmodelled] == ["customer"]
    (name, nets), = found.within
    assert name == "customer" and "203.0.113.10/32" in nets
    # no reading gives it an address: it may be anywhere
    assert not extract_clients("Guests (`guest`) browse; the portal accepts 192.0.2.0/24.").within


@pytest.mark.parametrize("family", ["rule-peers-dropped", "allow-all-added"])
def test_a_fault_that_opens_the_storefront_is_repaired_though_its_customer_is_bound_ambiguously(family):
    # the customer reports nothing; it may be at any address its readings give, never elsewhere,
    # so closing the storefront to the rest of the internet moves none of its probes
    texts = _texts("tiny-shop")
    texts["app.yaml"] = texts["app.yaml"].replace(*_SHOPPERS)
    loaded = parse_app(texts)
    assert any("customer" in note and "ambiguously" in note for note in loaded.notes), loaded.notes
    setup = app_setup(loaded)
    tasks = fuzz_tasks(setup, 2, 0, [family])
    assert tasks
    for task in tasks:
        result = run_task(setup, task, respond_k8s)
        assert (result.success, result.safe, result.iterations) == (True, True, 2), task.task_id
