"""Typed errors of the live lab."""

from __future__ import annotations


class LabError(Exception):
    """Base class of every error raised by :mod:`netmend.lab`."""


class MissingToolError(LabError):
    """A system tool the lab needs is not installed.

    Attributes
    ----------
    tools : tuple of str
        The missing executables.
    packages : tuple of str
        The Debian packages that provide them.
    """

    def __init__(self, tools: tuple[str, ...], packages: tuple[str, ...]):
        self.tools, self.packages = tools, packages
        super().__init__(
            f"the lab needs {', '.join(tools)} on PATH; install them with "
            f"`apt-get install -y {' '.join(packages)}`"
        )


class SandboxError(LabError):
    """The sandbox could not be created, reached or torn down."""


class LabStateError(LabError):
    """A lab of that name is not running, or is already running."""


class PlanError(LabError, ValueError):
    """The cluster cannot be laid out as a lab (duplicate or invalid pod IPs, ...)."""


class PlumbingError(LabError):
    """A namespace, link, address or ruleset operation failed.

    Attributes
    ----------
    argv : tuple of str
        The command that failed.
    stderr : str
        What it printed on standard error.
    """

    def __init__(self, argv: tuple[str, ...], stderr: str):
        self.argv, self.stderr = argv, stderr
        super().__init__(f"{' '.join(argv)} failed: {stderr.strip()}")
