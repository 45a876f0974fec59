"""Request bodies and headers are bounded while they arrive, on a real process.

The memory checks read the process's resident memory (``VmRSS``) before an oversized
request, after resetting its peak, and its peak (``VmHWM``) after: a body or headers that
were buffered whole would show as hundreds of MiB.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable, Iterator
from pathlib import Path

import httpx2
import pytest

from tests.scale.harness import Instance, running

MIB = 1 << 20
BODY_LIMIT = 16 * 1024
# "Within a few MiB of the baseline": a buffered body or header would be 100 MiB or more.
MEMORY_BOUND_KIB = 8 * 1024
BODY_TIMEOUT = 2


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    workdir: Path = tmp_path_factory.mktemp("bodies")
    target = Instance("bodies", "memory://", workdir, body_timeout_seconds=BODY_TIMEOUT)
    with running(target) as started:
        yield started


def _send(instance: Instance, head: bytes, parts: Iterable[bytes] = ()) -> bytes:
    """Sends ``head``, then ``parts`` for as long as the service takes them; returns all
    the service answered (nothing if it reset the connection before it was read)."""
    sock = socket.create_connection(("127.0.0.1", instance.port), timeout=30)
    answer = b""
    try:
        try:
            sock.sendall(head)
            for part in parts:
                sock.sendall(part)
        except OSError:
            pass  # the service closed the connection: it is not reading any more
        sock.settimeout(10)
        while chunk := sock.recv(65536):
            answer += chunk
    except OSError:
        pass
    finally:
        sock.close()
    return answer


def _status(answer: bytes) -> int | None:
    if not answer.startswith(b"HTTP/1.1 "):
        return None
    return int(answer.split(b" ", 2)[1])


def _problem(answer: bytes) -> dict[str, object]:
    body = answer.partition(b"\r\n\r\n")[2]
    problem: dict[str, object] = json.loads(body)
    return problem


def _peak_growth_kib(instance: Instance, attack: Iterator[bytes] | None, head: bytes) -> int:
    instance.reset_peak_memory()
    baseline = instance.memory_kib("VmRSS")
    _send(instance, head, attack or ())
    return instance.memory_kib("VmHWM") - baseline


def _megabytes(count: int) -> Iterator[bytes]:
    block = b"x" * MIB
    for _ in range(count):
        yield block


def _chunked_megabytes(count: int) -> Iterator[bytes]:
    block = b"100000\r\n" + b"x" * MIB + b"\r\n"
    for _ in range(count):
        yield block
    yield b"0\r\n\r\n"


def _post_head(extra: str) -> bytes:
    return (
        f"POST /games HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n{extra}\r\n"
    ).encode()


def test_a_body_announced_over_the_limit_is_refused_before_it_is_sent(instance: Instance) -> None:
    answer = _send(instance, _post_head(f"content-length: {200 * MIB}\r\n"))
    assert _status(answer) == 413, answer[:300]
    problem = _problem(answer)
    assert problem["code"] == "frame_too_large" and problem["status"] == 413, problem
    assert b"connection: close" in answer.lower()


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_200_mib_body_leaves_memory_at_its_baseline(instance: Instance, framing: str) -> None:
    if framing == "chunked":
        head = _post_head("transfer-encoding: chunked\r\n")
        growth = _peak_growth_kib(instance, _chunked_megabytes(200), head)
    else:
        head = _post_head(f"content-length: {200 * MIB}\r\n")
        growth = _peak_growth_kib(instance, _megabytes(200), head)
    assert growth < MEMORY_BOUND_KIB, f"the service grew by {growth} KiB"
    assert not instance.errors(), instance.errors()[:3]


def test_a_chunked_body_is_refused_once_it_passes_the_limit(instance: Instance) -> None:
    head = _post_head("transfer-encoding: chunked\r\n")
    # Just over the limit, then the client waits for the answer: no end of the body.
    answer = _send(instance, head, [b"4001\r\n" + b" " * (BODY_LIMIT + 1) + b"\r\n"])
    assert _status(answer) == 413, answer[:300]
    assert _problem(answer)["code"] == "frame_too_large"


def test_a_body_at_the_limit_is_still_served(instance: Instance) -> None:
    body = b'{"game": "TF"}'
    body += b" " * (BODY_LIMIT - len(body))
    with httpx2.Client(trust_env=False, timeout=10) as http:
        headers = {"content-type": "application/json"}
        response = http.post(f"{instance.url}/games", content=body, headers=headers)
        assert response.status_code == 201, response.text
        response = http.post(f"{instance.url}/games", content=iter([body]), headers=headers)
        assert response.status_code == 201, response.text


def test_a_body_that_stops_coming_gets_408(instance: Instance) -> None:
    # Ten of the 100 bytes announced, then nothing: the answer comes after the timeout.
    answer = _send(instance, _post_head("content-length: 100\r\n") + b'{"game": "')
    assert _status(answer) == 408, answer[:300]
    assert _problem(answer)["code"] == "bad_message"


def test_headers_of_1_mib_are_refused_and_leave_memory_at_its_baseline(
    instance: Instance,
) -> None:
    def headers() -> Iterator[bytes]:
        for i in range(100):
            yield f"x-big-{i}: ".encode() + b"a" * MIB + b"\r\n"
        yield b"\r\n"

    growth = _peak_growth_kib(instance, headers(), b"GET /healthz HTTP/1.1\r\nhost: test\r\n")
    assert growth < MEMORY_BOUND_KIB, f"the service grew by {growth} KiB"
    answer = _send(instance, b"GET /healthz HTTP/1.1\r\nhost: test\r\nx-big: " + b"a" * 20_000)
    assert _status(answer) == 431, answer[:300]
    assert _problem(answer)["code"] == "frame_too_large"
    assert not instance.errors(), instance.errors()[:3]


def test_too_many_headers_are_refused(instance: Instance) -> None:
    lines = "".join(f"x-small-{i}: 1\r\n" for i in range(150))
    answer = _send(instance, f"GET /healthz HTTP/1.1\r\nhost: test\r\n{lines}\r\n".encode())
    assert _status(answer) == 431, answer[:300]
    assert _problem(answer)["code"] == "frame_too_large"
    # Within the limit, the same request is served.
    lines = "".join(f"x-small-{i}: 1\r\n" for i in range(90))
    answer = _send(
        instance,
        f"GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n{lines}\r\n".encode(),
    )
    assert _status(answer) == 200, answer[:300]
