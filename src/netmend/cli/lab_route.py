"""``netmend lab route``: NetArena's router network in private namespaces, faults and repair."""

from __future__ import annotations

import random

import click

from netmend.lab import sandbox
from netmend.lab.errors import LabError
from netmend.lab.router.lab import RouterLab
from netmend.lab.router.plan import FIDELITIES

_name_option = click.option(
    "--name", default="route", show_default=True, help="Which router lab (several can run side by side)."
)


@click.group("route")
def route() -> None:
    """Router lab: one Linux router, N subnets of H hosts, Linux bridges, real kernel.

    Everything lives in a sandbox of its own (user, network, mount and PID
    namespaces when not root); `down` removes it all.
    """


@route.command()
@click.option("--switches", default=2, show_default=True, type=click.IntRange(2, 254), help="Subnets (one switch each).")
@click.option("--hosts", default=1, show_default=True, type=click.IntRange(1, 155), help="Hosts per subnet.")
@click.option("--prefix", default="p83_", show_default=True, help="Name prefix of every node, as NetArena's p<pid%100>_.")
@click.option("--fidelity", type=click.Choice(FIDELITIES), default="full", show_default=True,
              help="netarena: no iptables or nft on the nodes (as the official image); full: a working firewall.")  # fmt: skip
@_name_option
def up(switches, hosts, prefix, fidelity, name) -> None:
    """Build the network and print its first pingall."""
    from netmend.route.topology import Topology, TopologyError

    try:
        topology = Topology(prefix, switches, hosts)
        lab = RouterLab.start(topology, name, fidelity=fidelity)
        click.echo(
            f"router lab {name!r} up: {topology.router}, {switches} subnets x {hosts} hosts, "
            f"fidelity {fidelity}, netem {'available' if lab.netem else 'absent (tbf stand-in)'}"
        )
        click.echo(lab.pingall().render(), nl=False)
    except (LabError, TopologyError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None


def _attach(name: str) -> RouterLab:
    try:
        return RouterLab.attach(name)
    except LabError as exc:
        raise click.ClickException(str(exc)) from None


@route.command("break")
@click.argument("family")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the fault's parameters.")
@click.option("--legit/--no-legit", default=False, show_default=True,
              help="First put legitimate configuration on the router (what a repair must keep).")  # fmt: skip
@_name_option
def break_(family, seed, legit, name) -> None:
    """Inject a fault FAMILY (e.g. remove_ip, disable_routing+wrong_routing_table, arp_off)."""
    from netmend.assess.route import legit as legit_items
    from netmend.assess.route.faults import FaultError, draw_family

    lab = _attach(name)
    rng = random.Random(f"{seed}:{family}")
    try:
        if legit:
            for item in legit_items.items(lab.topology, rng, firewall=lab.fidelity == "full"):
                for command in item.setup:
                    lab.run(lab.topology.router, command)
                click.echo(f"legitimate: {item.name}")
        for fault in draw_family(family, lab.topology, rng, netem=lab.netem):
            for command in fault.commands:
                lab.run(fault.machine, command)
                click.echo(f"{fault.machine}$ {command}")
        click.echo(lab.pingall().render(), nl=False)
    except (FaultError, LabError) as exc:
        raise click.ClickException(str(exc)) from None


@route.command()
@click.option("--diagnose", is_flag=True, help="Also read the router's state and name every deviation from its intent.")
@_name_option
def probe(diagnose, name) -> None:
    """Print the pingall (NetArena's format) and, with --diagnose, the deviations and their fixes."""
    from netmend.route.diagnose import diagnose as find
    from netmend.route.evidence import Evidence
    from netmend.route.intent import from_topology
    from netmend.route.program import DUMP, STATE_MARK
    from netmend.route.state import parse_state

    lab = _attach(name)
    try:
        pingall = lab.pingall()
        click.echo(pingall.render(), nl=False)
        if diagnose:
            dump = "; ".join(f"echo {STATE_MARK} {part}; {command} 2>/dev/null" for part, command in DUMP)
            state = parse_state(lab.run(lab.topology.router, dump).output)
            found = find(state, from_topology(lab.topology), Evidence.from_pingall(pingall, lab.topology))
            for d in found:
                click.echo(f"{d.kind}: {d.evidence}" + (f"\n  fix: {' '.join(d.command)}" if d.command else ""))
            if not found:
                click.echo("no deviation from the intent")
    except LabError as exc:
        raise click.ClickException(str(exc)) from None


@route.command()
@click.option("--max-turns", default=9, show_default=True, type=click.IntRange(1, 50))
@_name_option
def repair(max_turns, name) -> None:
    """Repair the network as the participant does: one reply per pingall until no loss."""
    from netmend.agent import respond
    from netmend.assess.route.run import agent_loop

    def show(turn) -> None:
        click.echo(f"[loss {turn.loss}%] {turn.machine}: {turn.why}")
        for line in turn.output.splitlines():
            if line.startswith("netmend:"):
                click.echo(f"  {line}")

    lab = _attach(name)
    try:
        loop = agent_loop(lab, respond, max_iterations=max_turns, on_turn=show)
        click.echo(f"success={loop.success} safe={loop.safe} iterations={loop.iterations}")
    except LabError as exc:
        raise click.ClickException(str(exc)) from None


@route.command("exec")
@click.argument("node")
@click.argument("command")
@_name_option
def exec_(node, command, name) -> None:
    """Run COMMAND on NODE's shell (as the evaluator runs an agent's command)."""
    lab = _attach(name)
    try:
        done = lab.run(node, command)
    except LabError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(done.output)
    if done.blocked:
        raise click.ClickException("the command blocked and was killed")


@route.command()
@_name_option
def down(name) -> None:
    """Stop the router lab and remove everything in it."""
    try:
        was_running = sandbox.stop(sandbox.lab_dir(name))
    except LabError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"router lab {name!r} stopped" if was_running else f"no lab {name!r} was running")
