"""``netmend serve``: run netmend as an A2A participant (AgentBeats convention)."""

from __future__ import annotations

from urllib.parse import urlsplit

import click


def _check_card_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(f"expected an absolute http(s) URL such as http://agent:9009/, got {value!r}")
    return value


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=9009, show_default=True, type=click.IntRange(0, 65535),
    help="Port to listen on (0 picks a free one).",
)
@click.option(
    "--card-url", default=None, callback=_check_card_url,
    help="URL advertised in the agent card, where clients send requests. "
    "Default: http://HOST:PORT/; for a wildcard HOST (0.0.0.0, ::) the address "
    "each client used to fetch the card.",
)
def serve(host: str, port: int, card_url: str | None) -> None:
    """Serve netmend over A2A: the agent card at /.well-known/agent-card.json and
    JSON-RPC (A2A 0.3 message/send, message/stream; A2A 1.0 SendMessage,
    SendStreamingMessage) at the card URL."""
    from netmend.agent import respond, warm
    from netmend.serve import bind, default_card_url, make_app
    from netmend.serve import serve as run

    try:
        sock = bind(host, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    warm()  # the first answer must not pay for building caches
    bound_port = sock.getsockname()[1]
    url = card_url or default_card_url(host, bound_port)
    advertised = url or "the address each client used (wildcard host)"
    click.echo(
        f"netmend serve: listening on {host}:{bound_port}; card URL: {advertised}", err=True
    )
    run(make_app(respond, card_url=url), sock)
