"""The ``netmend`` command line.

Sub-commands live in their own modules and are imported only when used, so
``netmend --help`` and one-shot commands start fast.
"""

from __future__ import annotations

import importlib

import click

# command name -> "module:attribute" of a click command or group.
COMMANDS: dict[str, str] = {
    "ask": "netmend.cli.ask:ask",
    "serve": "netmend.cli.serve:serve",
    "k8s": "netmend.cli.k8s:k8s",
    "lab": "netmend.cli.lab:lab",
    "assess": "netmend.cli.assess:assess",
    "route": "netmend.cli.route:route",
}


class LazyGroup(click.Group):
    """A click group that imports each sub-command on first use."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self._lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self._lazy:
            module_name, attr = self._lazy[cmd_name].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="netmend")
def main() -> None:
    """netmend: deterministic network repair for MALT topologies and Kubernetes policies."""
