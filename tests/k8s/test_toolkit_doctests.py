"""The examples in the policy toolkit modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["netmend.k8s.intent_code", "netmend.k8s.check", "netmend.k8s.writeback"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
