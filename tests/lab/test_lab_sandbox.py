"""Sandbox bookkeeping that needs no namespaces: names, tools, stale state."""

from __future__ import annotations

import os

import pytest

from netmend.lab import sandbox
from netmend.lab.errors import LabStateError, MissingToolError
from netmend.lab.sysns import check_tools


@pytest.mark.parametrize("name", ["", "Upper", "has space", "../escape", "x" * 33])
def test_bad_lab_names_are_refused(name):
    with pytest.raises(LabStateError, match="lowercase letters"):
        sandbox.lab_dir(name)


def test_missing_tools_name_their_debian_packages(monkeypatch):
    monkeypatch.setenv("PATH", "")
    with pytest.raises(MissingToolError) as caught:
        check_tools()
    assert "nft" in caught.value.tools
    assert "apt-get install -y" in str(caught.value) and "nftables" in str(caught.value)


def test_a_lab_that_is_not_running_is_reported_and_stale_state_removed(tmp_path, monkeypatch):
    monkeypatch.setenv(sandbox.STATE_ENV, str(tmp_path))
    directory = sandbox.lab_dir("ghost")
    directory.mkdir()
    (directory / "pid").write_text("999999999")  # no such process
    assert not sandbox.is_running(directory)
    with pytest.raises(LabStateError, match="netmend lab up"):
        sandbox.request(directory, {"op": "ping"})
    assert sandbox.stop(directory) is False
    assert not directory.exists()


def test_a_reused_pid_is_not_mistaken_for_the_lab(tmp_path, monkeypatch):
    monkeypatch.setenv(sandbox.STATE_ENV, str(tmp_path))
    directory = sandbox.lab_dir("reused")
    directory.mkdir()
    (directory / "pid").write_text(str(os.getpid()))  # alive, but not this lab's sandbox
    assert not sandbox.is_running(directory)
