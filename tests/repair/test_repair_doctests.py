"""The examples in the repair modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["netmend.repair.netarena", "netmend.repair.intent", "netmend.repair.emit", "netmend.repair.observe"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
