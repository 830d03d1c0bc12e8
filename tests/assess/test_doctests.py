"""The examples in the assessment modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["malt.envelopes", "malt.graphs", "malt.reference", "malt.safety", "malt.scoring", "report"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"netmend.assess.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
