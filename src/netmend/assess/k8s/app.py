"""Application fixtures: an app's workloads, correct policies, probes and task text.

A fixture is a directory (format: README, "K8s application fixtures"):
``app.yaml`` (name, description, external clients), ``workloads.yaml``,
``policies.yaml`` (the correct NetworkPolicies) and ``expected.yaml`` (the
probe matrix under them). Loading checks that the pieces agree: the
expected matrix is what the correct policies give. The outside clients are
declared on their own (name and the address the harness probes from); what
the participant's extractor reads from the description is compared with
them and every disagreement is reported (:attr:`App.notes`), never
refused: a fixture may word a client so that it is a range, ambiguous or
given no address at all, as a held-back task may. The built-in
``online-boutique`` is NetArena's own.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from netmend.k8s import Matrix, NetworkPolicy, Prober, build_cluster, compare, with_kube_dns
from netmend.k8s.demo import demo_expected, demo_policies, demo_workloads
from netmend.k8s.errors import K8sError
from netmend.k8s.load import parse_text
from netmend.k8s.manifest import WORKLOAD_KINDS, Skipped, policy_to_dict
from netmend.k8s.model import Cluster, Namespace, Pod, Service
from netmend.repair.clients import extract_clients, names_of
from netmend.repair.netarena import ONLINE_BOUTIQUE_DESCRIPTION, preamble

BUILTIN_APPS = ("online-boutique",)
FILES = ("app.yaml", "workloads.yaml", "policies.yaml", "expected.yaml")
_APP_KEYS = ("name", "description", "external_clients")
_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


class AppError(ValueError):
    """A fixture that cannot be loaded: which file, which field, what was expected."""


@dataclass(frozen=True)
class App:
    """One application under test."""

    name: str
    description: str
    externals: tuple[tuple[str, str], ...]  # (client name, probe address)
    workloads: Cluster  # namespaces, pods, services (kube-dns included), no policies
    policies: tuple[dict, ...]  # the correct NetworkPolicy objects
    expected: Matrix
    # How the description's prose, read by the participant's extractor, differs from the declared clients.
    notes: tuple[str, ...] = ()

    @property
    def preamble(self) -> str:
        """The task text of every prompt: NetArena's preamble around the description."""
        return preamble(self.description)


def load_app(spec: str | Path) -> App:
    """A built-in application by name, or a fixture directory.

    Raises
    ------
    AppError
        When a file is missing or malformed or the pieces disagree.
    """
    if str(spec) in BUILTIN_APPS:
        return App(
            name="online-boutique",
            description=ONLINE_BOUTIQUE_DESCRIPTION,
            externals=(),
            workloads=demo_workloads(),
            policies=tuple(policy_to_dict(p) for p in demo_policies()),
            expected=demo_expected(),
        )
    root = Path(spec)
    if not root.is_dir():
        raise AppError(f"{spec}: expected a built-in application ({', '.join(BUILTIN_APPS)}) or a fixture directory")
    texts = {}
    for name in FILES:
        path = root / name
        if not path.is_file():
            raise AppError(f"{path}: missing (a fixture has {', '.join(FILES)})")
        texts[name] = path.read_text(encoding="utf-8")
    return parse_app(texts, str(root))


def _yaml(text: str, where: str):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise AppError(f"{where}: expected YAML ({exc})") from None


def parse_app(texts: dict[str, str], where: str = "app") -> App:
    """An application from the texts of its four files (see :data:`FILES`)."""
    meta = _yaml(texts["app.yaml"], f"{where}/app.yaml")
    if not isinstance(meta, dict):
        raise AppError(f"{where}/app.yaml: expected a mapping with {', '.join(_APP_KEYS)}")
    unknown = sorted(set(meta) - set(_APP_KEYS))
    if unknown:
        raise AppError(f"{where}/app.yaml: unknown key {unknown[0]!r}; expected {', '.join(_APP_KEYS)}")
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not _NAME.match(name):
        raise AppError(f"{where}/app.yaml: name: expected lowercase letters, digits and '-', got {name!r}")
    if not isinstance(description, str) or not description.strip():
        raise AppError(f"{where}/app.yaml: description: expected the application described in words")
    externals = _externals(meta.get("external_clients") or [], f"{where}/app.yaml")
    try:
        objects = parse_text(texts["workloads.yaml"], f"{where}/workloads.yaml")
        policy_objects = parse_text(texts["policies.yaml"], f"{where}/policies.yaml")
    except K8sError as exc:
        raise AppError(str(exc)) from None
    skipped = [o for o in objects if isinstance(o, Skipped)]
    if skipped:
        kinds = ", ".join(("Namespace", "Pod", "Service", *WORKLOAD_KINDS))
        raise AppError(
            f"{skipped[0].source}: {skipped[0].kind} {skipped[0].name!r} is not a kind netmend models "
            f"(a fixture's workloads are {kinds})"
        )
    stray = [o for o in objects if not isinstance(o, Namespace | Pod | Service)]
    if stray:
        raise AppError(f"{where}/workloads.yaml: {type(stray[0]).__name__} does not belong here (policies go to policies.yaml)")
    if not all(isinstance(o, NetworkPolicy) for o in policy_objects):
        raise AppError(f"{where}/policies.yaml: expected NetworkPolicy objects only")
    workloads = build_cluster(with_kube_dns(objects))
    raw = [d for d in yaml.safe_load_all(texts["policies.yaml"]) if d]
    try:
        expected = Matrix.from_dict(_yaml(texts["expected.yaml"], f"{where}/expected.yaml") or {})
    except K8sError as exc:
        raise AppError(f"{where}/expected.yaml: {exc}") from None
    taken = {n.name for n in workloads.namespaces} | {s.name for s in workloads.services} | {p.workload for p in workloads.pods}
    clash = sorted(set(dict(externals)) & taken)
    if clash:
        raise AppError(f"{where}/app.yaml: external client {clash[0]!r} has the name of a workload, service or namespace")
    notes = extraction_notes(description, externals, workloads)
    app = App(name, description, externals, workloads, tuple(raw), expected, notes)
    _check_expected(app, where)
    return app


def extraction_notes(description: str, externals: tuple[tuple[str, str], ...], workloads: Cluster) -> tuple[str, ...]:
    """How what the extractor reads from ``description`` differs from the declared clients.

    Examples
    --------
    >>> from netmend.k8s import build_cluster
    >>> extraction_notes("Guests (`guest`) browse; `bot` at 192.0.2.9 scans.", (("guest", "192.0.2.7"),), build_cluster([]))
    ("client 'guest' (probes from 192.0.2.7): unmodelled, the text gives it no address", "client 'bot': read from the text but not declared")
    """
    found = extract_clients(description, names_of(workloads))
    unmodelled = dict(found.unmodelled)
    out = []
    for name, address in externals:
        client = found.client(name)
        if client is None:
            why = unmodelled.get(name, "the text does not name it")
            out.append(f"client {name!r} (probes from {address}): unmodelled, {why}")
        elif client.address is None:
            where = "holds" if client.holds(address) else "does not hold"
            out.append(f"client {name!r} (probes from {address}): read as a range that {where} it "
                       f"({', '.join(client.networks)}{' except ' + ', '.join(client.excepts) if client.excepts else ''})")
        elif client.address != address:
            out.append(f"client {name!r} (probes from {address}): read as {client.address}")
    declared = {n for n, _ in externals}
    out += [f"client {c.name!r}: read from the text but not declared" for c in found.found if c.name not in declared]
    return tuple(out)


def _externals(items, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(items, list):
        raise AppError(f"{where}: external_clients: expected a list of {{name, address}}")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or set(item) != {"name", "address"}:
            raise AppError(f"{where}: external_clients[{i}]: expected exactly the keys name and address")
        name, address = item["name"], item["address"]
        if not isinstance(name, str) or not _NAME.match(name):
            raise AppError(f"{where}: external_clients[{i}].name: expected lowercase letters, digits and '-'")
        try:
            ipaddress.ip_address(str(address))
        except ValueError:
            raise AppError(f"{where}: external_clients[{i}].address: expected an IP address, got {address!r}") from None
        out.append((name, str(address)))
    if len({n for n, _ in out}) != len(out):
        raise AppError(f"{where}: external_clients: a name appears twice")
    return tuple(out)


def _check_expected(app: App, where: str) -> None:
    from netmend.k8s.manifest import parse_policy

    cluster = app.workloads.with_policies(tuple(parse_policy(p, source=f"{where}/policies.yaml") for p in app.policies))
    try:
        actual = Prober(cluster, app.expected.probes(), externals=dict(app.externals)).run()
        wrong = compare(app.expected, actual)
    except K8sError as exc:
        raise AppError(f"{where}/expected.yaml: {exc}") from None
    if wrong:
        raise AppError(
            f"{where}/expected.yaml: the correct policies do not give the expected matrix: "
            + "; ".join(str(m) for m in wrong[:5])
        )
