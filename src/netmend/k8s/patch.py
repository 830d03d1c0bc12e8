"""kubectl-style patches applied to NetworkPolicies, purely.

``json`` is RFC 6902 JSON Patch (through the ``jsonpatch`` library),
``merge`` is RFC 7386 JSON Merge Patch, and ``strategic`` is Kubernetes'
strategic merge patch as it behaves for NetworkPolicy: none of its lists
has a merge key, so lists (``ingress``, ``egress``, ``from``, ``ports``,
``policyTypes``, ``matchExpressions``) are replaced whole, maps merge, and
``null`` deletes; the ``$patch: replace`` / ``$patch: delete`` directives work
on maps. Every function returns new objects; on any error a
:class:`PatchError` is raised and nothing changes.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
import jsonpointer
import yaml

from netmend.k8s.errors import ManifestError, PatchError
from netmend.k8s.manifest import parse_policy, policy_to_dict
from netmend.k8s.model import Cluster, NetworkPolicy

PATCH_TYPES: tuple[str, ...] = ("json", "merge", "strategic")
_DIRECTIVE = "$patch"


def parse_patch_text(text: str) -> Any:
    """Decode a patch given as text (JSON, or YAML as kubectl also accepts)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PatchError(f"patch is neither JSON nor YAML: {exc}") from None


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: maps merge recursively, ``null`` deletes, anything else replaces.

    Examples
    --------
    >>> merge_patch({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": None, "e": 4}, "f": [1]})
    {'a': 1, 'b': {'d': 3, 'e': 4}, 'f': [1]}
    """
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def strategic_merge_patch(target: Any, patch: Any, path: str = "") -> Any:
    """Strategic merge for objects whose lists have no merge key (NetworkPolicy).

    Examples
    --------
    >>> strategic_merge_patch({"spec": {"ingress": [{"a": 1}], "x": 1}},
    ...                       {"spec": {"ingress": [{"b": 2}]}})
    {'spec': {'ingress': [{'b': 2}], 'x': 1}}
    >>> strategic_merge_patch({"spec": {"x": 1, "y": 2}}, {"spec": {"$patch": "replace", "z": 3}})
    {'spec': {'z': 3}}
    """
    if not isinstance(patch, dict):
        if isinstance(patch, list):
            return [_strip_directives(item, f"{path}[{i}]") for i, item in enumerate(patch)]
        return copy.deepcopy(patch)
    directive = patch.get(_DIRECTIVE)
    body = {k: v for k, v in patch.items() if k != _DIRECTIVE}
    if directive == "replace":
        return _strip_directives(body, path)
    if directive is not None and directive != "merge":
        raise PatchError(
            f"{path or '/'}: unsupported strategic patch directive {_DIRECTIVE}: {directive!r}"
        )
    for key in body:
        if key.startswith("$"):
            raise PatchError(
                f"{path}/{key}: unsupported strategic patch directive (lists here have no merge key)"
            )
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in body.items():
        if value is None or (isinstance(value, dict) and value.get(_DIRECTIVE) == "delete"):
            out.pop(key, None)
        else:
            out[key] = strategic_merge_patch(out.get(key), value, f"{path}/{key}")
    return out


def _strip_directives(value: Any, path: str) -> Any:
    """A replacement value; a directive inside it is refused rather than kept as data."""
    if isinstance(value, dict):
        if any(k.startswith("$") for k in value):
            raise PatchError(f"{path or '/'}: strategic patch directive inside a replaced value")
        return {k: _strip_directives(v, f"{path}/{k}") for k, v in value.items()}
    if isinstance(value, list):
        return [_strip_directives(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


def patch_document(doc: dict, patch: Any, patch_type: str = "strategic") -> dict:
    """Apply ``patch`` to a plain object; returns a new object."""
    if isinstance(patch, str):
        patch = parse_patch_text(patch)
    if patch_type == "json":
        if not isinstance(patch, list):
            raise PatchError("a JSON patch must be a list of operations")
        try:
            return jsonpatch.JsonPatch(patch).apply(doc)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as exc:
            raise PatchError(f"JSON patch failed: {exc}") from None
        except (TypeError, KeyError, AttributeError, ValueError) as exc:
            raise PatchError(f"malformed JSON patch: {exc!r}") from None
    if patch_type not in ("merge", "strategic"):
        raise PatchError(f"patch type {patch_type!r}: expected one of {', '.join(PATCH_TYPES)}")
    if not isinstance(patch, dict):
        raise PatchError(f"a {patch_type} patch must be a JSON object")
    if patch_type == "merge":
        return merge_patch(doc, patch)
    return strategic_merge_patch(doc, patch)


def apply_patch(policy: NetworkPolicy, patch: Any, patch_type: str = "strategic") -> NetworkPolicy:
    """``policy`` with ``patch`` applied, as ``kubectl patch --type=<patch_type>`` would.

    Parameters
    ----------
    policy : NetworkPolicy
        Left untouched.
    patch : list | dict | str
        The patch, decoded or as the text passed to ``kubectl patch -p``.
    patch_type : {"json", "merge", "strategic"}
        kubectl's ``--type`` (its default is ``strategic``).

    Raises
    ------
    PatchError
        A bad path, a failing ``test``, a malformed patch, a result that is
        no valid NetworkPolicy, or a change of name or namespace.

    Examples
    --------
    >>> pol = NetworkPolicy(name="web", policy_types=("Ingress",))
    >>> apply_patch(pol, '[{"op": "add", "path": "/spec/ingress", "value": [{}]}]', "json").ingress
    (Rule(peers=None, ports=None),)
    """
    doc = policy_to_dict(policy)
    patched = patch_document(doc, patch, patch_type)
    try:
        result = parse_policy(patched, f"{policy.key} after {patch_type} patch", policy.namespace)
    except ManifestError as exc:
        raise PatchError(str(exc)) from None
    if result.key != policy.key:
        raise PatchError(f"a patch cannot rename {policy.key} (it would become {result.key})")
    return result


def patch_cluster(
    cluster: Cluster,
    name: str,
    patch: Any,
    patch_type: str = "strategic",
    namespace: str = "default",
) -> Cluster:
    """A new cluster with policy ``namespace/name`` patched."""
    try:
        policy = cluster.policy(name, namespace)
    except KeyError as exc:
        raise PatchError(str(exc.args[0])) from None
    return cluster.with_policy(apply_patch(policy, patch, patch_type))
