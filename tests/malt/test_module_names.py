"""No module of the MALT front end binds a top-level name twice: a second table under a
name already in use silently changes what the first one's readers see."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import netmend.malt

MODULES = sorted(Path(netmend.malt.__file__).parent.glob("*.py"))


def _bound_twice(source: str) -> list[str]:
    counts: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            counts[node.name] += 1
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        value = getattr(node, "value", None)
        for target in targets:
            extends = value is not None and any(
                isinstance(n, ast.Name) and n.id == getattr(target, "id", None)
                for n in ast.walk(value))  # "CRITICAL = CRITICAL | ..." extends the table
            if isinstance(target, ast.Name) and not extends:
                counts[target.id] += 1
    return sorted(name for name, count in counts.items() if count > 1)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_top_level_name_is_bound_twice(path: Path) -> None:
    assert _bound_twice(path.read_text()) == []


def test_a_second_binding_is_found() -> None:
    assert _bound_twice("A = 1\nB = 2\nA = 3\nC = C if False else 0\n") == ["A"]
