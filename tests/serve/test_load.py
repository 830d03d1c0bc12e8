"""Load on loopback: many concurrent clients, bounded memory, slow clients.

The server runs in its own process (``echo_server.py``) so its memory can be
read from ``/proc`` and the client does not share its interpreter.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from .serve_helpers import echo, message_request, sse_payload

HERE = Path(__file__).resolve().parent
CONCURRENT = 1000

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    process = subprocess.Popen(
        [sys.executable, str(HERE / "echo_server.py")], cwd=HERE, stdout=subprocess.PIPE, text=True
    )
    try:
        port = int(process.stdout.readline())
        yield process, f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc status")


def _check_reply(i: int, text: str, status: int, body: bytes) -> None:
    assert status == 200, (status, body[:300])
    if i % 2:
        parts = sse_payload(body)["result"]["artifacts"][-1]["parts"]
    else:
        parts = json.loads(body)["result"]["parts"]
    assert parts[0]["text"] == echo(text)


def _request(i: int) -> tuple[str, dict, dict]:
    method = "message/stream" if i % 2 else "message/send"
    text = f"request {i} " + "x" * (i % 97)
    headers = {"Accept": "text/event-stream"} if i % 2 else {}
    return text, message_request(method, text, request_id=i), headers


async def _one(client: httpx.AsyncClient, url: str, i: int) -> float:
    text, payload, headers = _request(i)
    started = time.perf_counter()
    response = await client.post(url, json=payload, headers=headers)
    elapsed = time.perf_counter() - started
    _check_reply(i, text, response.status_code, response.content)
    return elapsed


async def _raw_one(port: int, i: int) -> None:
    """One request on its own connection, spoken directly over a socket: httpx's
    pool is quadratic in its connection count and would dominate a burst."""
    text, payload, headers = _request(i)
    body = json.dumps(payload).encode()
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{head}"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
    )
    status_line, _, rest = (await reader.read(-1)).partition(b"\r\n")
    writer.close()
    _headers, _, reply = rest.partition(b"\r\n\r\n")
    _check_reply(i, text, int(status_line.split()[1]), reply)


async def _burst(port: int, count: int) -> None:
    await asyncio.gather(*(_raw_one(port, i) for i in range(count)))


def test_a_thousand_concurrent_requests_all_succeed_in_bounded_memory(server):
    process, url = server
    port = int(url.rsplit(":", 1)[1].strip("/"))
    asyncio.run(_burst(port, 20))
    baseline = _rss_mib(process.pid)
    asyncio.run(_burst(port, CONCURRENT))  # raises on any failed request
    after_first = _rss_mib(process.pid)
    asyncio.run(_burst(port, CONCURRENT))
    after_second = _rss_mib(process.pid)
    assert after_first - baseline < 64, (baseline, after_first)
    # A second identical burst must not keep growing: nothing is retained per request.
    assert after_second - after_first < 10, (after_first, after_second)
    assert process.poll() is None


async def _drip_body(url_port: int, seconds: float) -> None:
    """A client that declares a body and sends it one byte at a time, then leaves."""
    reader, writer = await asyncio.open_connection("127.0.0.1", url_port)
    writer.write(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        writer.write(b" ")
        await writer.drain()
        await asyncio.sleep(0.05)
    writer.close()


async def _half_open(url_port: int, seconds: float) -> None:
    """A client that sends half a request line and goes silent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", url_port)
    writer.write(b"POST / HT")
    await writer.drain()
    await asyncio.sleep(seconds)
    writer.close()


def test_slow_and_half_open_clients_do_not_stall_others(server):
    _process, url = server
    port = int(url.rsplit(":", 1)[1].strip("/"))

    async def scenario() -> list[float]:
        hostile = [asyncio.create_task(_drip_body(port, 2.0)) for _ in range(20)]
        hostile += [asyncio.create_task(_half_open(port, 2.0)) for _ in range(20)]
        await asyncio.sleep(0.2)  # let them all connect first
        async with httpx.AsyncClient(timeout=10) as client:
            latencies = [await _one(client, url, i) for i in range(100)]
        await asyncio.wait_for(asyncio.gather(*hostile), timeout=10)
        return latencies

    latencies = asyncio.run(scenario())
    assert max(latencies) < 0.5, max(latencies)
