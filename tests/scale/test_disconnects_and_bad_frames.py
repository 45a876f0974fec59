"""Clients that break off or send what the protocol forbids make a quiet line and a count,
never a traceback: a client gone in the middle of a request body, and a WebSocket text
frame that is not UTF-8 (closed with 1007 and a reason).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scale.harness import Instance, Peer, http_client, metrics, running

GONE_CLIENTS = 20
WAIT_SECONDS = 10.0


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    workdir: Path = tmp_path_factory.mktemp("frames")
    with running(Instance("frames", "memory://", workdir)) as started:
        yield started


def _lines(instance: Instance, words: str) -> list[dict[str, object]]:
    found = []
    for line in instance.log().splitlines():
        entry = json.loads(line)
        if words in str(entry.get("message", "")):
            found.append(entry)
    return found


async def _gone_mid_body(instance: Instance) -> None:
    """Announces a 4000-byte body, sends 100 bytes of it and disconnects."""
    _, writer = await asyncio.open_connection("127.0.0.1", instance.port)
    head = (
        "POST /games HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n"
        "content-length: 4000\r\n\r\n"
    )
    writer.write(head.encode() + b'{"game": "DS", "pad": "' + b"x" * 77)
    await writer.drain()
    await asyncio.sleep(0.05)  # the request reaches the service before the disconnect
    writer.close()
    await writer.wait_closed()


async def test_a_client_gone_mid_body_makes_one_quiet_line_and_a_count(instance: Instance) -> None:
    async with http_client() as http:
        before = (await metrics(http, instance)).get("solitaire_client_disconnects_total", 0.0)
        for _ in range(GONE_CLIENTS):
            await _gone_mid_body(instance)
        counted = before
        for _ in range(int(WAIT_SECONDS / 0.1)):
            counted = (await metrics(http, instance)).get("solitaire_client_disconnects_total", 0.0)
            if counted - before >= GONE_CLIENTS:
                break
            await asyncio.sleep(0.1)
        assert not instance.errors(), instance.errors()[:4]
        assert counted - before == GONE_CLIENTS, "no metric counts the disconnects"
        lines = _lines(instance, "disconnected during the request body")
        assert len(lines) == GONE_CLIENTS
        assert {line["level"] for line in lines} <= {"INFO", "WARNING"}
        # The service goes on serving.
        assert (await http.post(f"{instance.url}/games", json={"game": "TF"})).status_code == 201


async def test_a_text_frame_that_is_not_utf8_closes_with_1007_and_a_reason(
    instance: Instance,
) -> None:
    async with http_client() as http:
        before = (await metrics(http, instance)).get(
            'solitaire_bad_frames_total{reason="invalid_utf8"}', 0.0
        )
        async with await Peer.open(instance, "bad-utf8") as peer:
            await peer.ping()
            # A text frame whose payload is not UTF-8 (the client library allows it).
            await peer.ws.send(b'{"type": "ping", "id": "\xff\xfe"}', text=True)
            await peer.wait(lambda: peer.closed, WAIT_SECONDS, "the close")
            assert peer.close_code == 1007
            assert peer.ws.close_reason, "the close frame gives no reason"
        after = (await metrics(http, instance)).get(
            'solitaire_bad_frames_total{reason="invalid_utf8"}', 0.0
        )
        assert after - before == 1
        assert not instance.errors(), instance.errors()[:4]
        assert len(_lines(instance, "not UTF-8")) == 1
        async with await Peer.open(instance, "next") as peer:
            await peer.ping()
