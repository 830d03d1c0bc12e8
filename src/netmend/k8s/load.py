"""Reading manifests from files and directories (the I/O edge of the engine).

YAML files may hold many documents; JSON files hold one object or a
``kubectl get -o json`` List. Directories are read recursively in sorted
path order so the result never depends on the file system's listing order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

from netmend.k8s.cluster import build_cluster, with_kube_dns
from netmend.k8s.errors import ManifestError
from netmend.k8s.manifest import ModelObject, Skipped, expand_lists, parse_object
from netmend.k8s.model import ADMIN_KINDS, AdminPolicy, Cluster, NetworkPolicy

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def parse_text(text: str, source: str = "") -> list[ModelObject | Skipped]:
    """Parse YAML (one or many documents) or JSON text into model objects."""
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "document"
        raise ManifestError(
            source, where, f"valid YAML or JSON ({getattr(exc, 'problem', exc)})"
        ) from None
    out: list[ModelObject | Skipped] = []
    for number, doc in enumerate(docs):
        if doc is None:  # empty document between two '---'
            continue
        doc_source = f"{source}#{number}" if len(docs) > 1 else source
        for item_source, obj in expand_lists(doc, doc_source):
            out.append(parse_object(obj, item_source))
    return out


def manifest_files(path: Path) -> list[Path]:
    """``path`` itself, or the manifest files under a directory in sorted order."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in MANIFEST_SUFFIXES)
    if not path.exists():
        raise ManifestError(str(path), "path", "an existing file or directory")
    return [path]


def _read(paths: Iterable[str | Path]) -> Iterator[tuple[str, ModelObject | Skipped]]:
    """``(file, object)`` for every object of every file under ``paths``."""
    for path in paths:
        for file in manifest_files(Path(path)):
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ManifestError(
                    str(file), "file", "a readable UTF-8 text file", str(exc)
                ) from None
            if file.suffix == ".json":
                try:
                    json.loads(text)  # JSON is YAML, but JSON's own errors read better
                except json.JSONDecodeError as exc:
                    raise ManifestError(
                        str(file),
                        f"line {exc.lineno}, column {exc.colno}",
                        f"valid JSON ({exc.msg})",
                    ) from None
            for obj in parse_text(text, str(file)):
                yield str(file), obj


def read_objects(paths: Iterable[str | Path]) -> list[ModelObject | Skipped]:
    """Every object of every file under ``paths``."""
    return [obj for _, obj in _read(paths)]


def read_policies(paths: Iterable[str | Path]) -> list[NetworkPolicy]:
    """NetworkPolicies from ``paths``; any other kind there is an error."""
    policies, admin = read_all_policies(paths)
    if admin:
        raise ManifestError(
            "", "kind", "NetworkPolicy only here (admin policies need read_all_policies)", admin[0].key
        )
    return policies


def read_all_policies(
    paths: Iterable[str | Path],
) -> tuple[list[NetworkPolicy], list[AdminPolicy]]:
    """NetworkPolicies and admin policies (ClusterNetworkPolicy, AdminNetworkPolicy,
    BaselineAdminNetworkPolicy) from ``paths``; any other kind there is an error."""
    policies: list[NetworkPolicy] = []
    admin: list[AdminPolicy] = []
    for file, obj in _read(paths):
        if isinstance(obj, NetworkPolicy):
            policies.append(obj)
        elif isinstance(obj, AdminPolicy):
            admin.append(obj)
        else:
            kind = obj.kind if isinstance(obj, Skipped) else type(obj).__name__
            raise ManifestError(
                file,
                "kind",
                f"NetworkPolicy or {', '.join(ADMIN_KINDS)} (a policy path holds policies only)",
                kind,
            )
    return policies, admin


def load_cluster(
    manifests: Iterable[str | Path], policies: Iterable[str | Path] = (), *, kube_dns: bool = True
) -> Cluster:
    """A cluster from manifest paths plus policy paths.

    With ``kube_dns`` the standard kube-dns objects are added when the
    manifests lack them, as every real cluster has them.
    """
    policy_objects, admin = read_all_policies(policies)
    objects = read_objects(manifests) + policy_objects + admin
    return build_cluster(with_kube_dns(objects) if kube_dns else objects)
