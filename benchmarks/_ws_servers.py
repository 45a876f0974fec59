"""The servers of ``ws_load.py``, each run in a process of its own: the service, a bare
WebSocket echo, and the echo with one Redis round trip per frame (echo + store); and the
fan-out of ``arena.py``'s floor: one frame to every connection at once, after one Redis
round trip or none.

The children run ``ws_load.py`` with its hidden ``--serve`` option, which calls ``serve``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from benchmarks._processes import HOST, Process, spawn

WS_LOAD = Path(__file__).resolve().with_name("ws_load.py")


def _relay_app(settings: Any = None, to_all: bool = False) -> Any:
    """The bare echo: each text frame sent back to its sender. With ``settings``, each
    frame first makes one Redis round trip on the service's Redis store's pooled client (a
    PUBLISH), to show what one round trip costs. With ``to_all`` (``arena.py``'s floor)
    the frame goes to every connection of this server instead: the least a wave telling
    all its players at once can take on this stack."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from service.store.redis import RedisStore
    from service.store.redis_layout import channel

    store = RedisStore(settings) if settings is not None else None
    topic = f"bench-{secrets.token_hex(4)}"
    connections: set[WebSocket] = set()

    async def relay(websocket: WebSocket) -> None:
        await websocket.accept()
        connections.add(websocket)
        try:
            while True:
                text = await websocket.receive_text()
                if store is not None:
                    # One PUBLISH round trip per frame on the store's pooled client, as
                    # the yardstick has always been: not through the store's batching,
                    # which would make it a measure of pipelining instead.
                    await store._redis.publish(channel(topic), text.encode())
                if not to_all:
                    await websocket.send_text(text)
                    continue
                for connection in list(connections):
                    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                        await connection.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            connections.discard(websocket)

    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(routes=[Route("/healthz", healthz), WebSocketRoute("/ws", relay)])


def _service_app(redis_url: str) -> Any:
    from service.app import create_app
    from service.config import Settings

    settings = Settings(
        store_url=redis_url,
        rate_per_second=1e9,
        rate_burst=1_000_000_000,
        winnable_pool_size=0,  # no solving in the background of a throughput figure
        http_write_rate_per_second=1e9,
        http_write_burst=1_000_000_000,
    )
    return create_app(settings), settings


def serve(kind: str, fd: int, redis_url: str) -> None:
    """Child process: serve ``kind`` on the listening socket inherited as ``fd``."""
    import uvicorn

    _exit_with_parent()
    from service.server import server_options, tune_garbage_collector

    sock = socket.socket(fileno=fd)
    app, settings = _service_app(redis_url)
    if kind in ("echo", "fanout"):
        app = _relay_app(to_all=kind == "fanout")
    elif kind in ("echo-store", "fanout-store"):
        app = _relay_app(settings, to_all=kind == "fanout-store")
    # The same options and collector tuning as ``python -m service`` (uvloop, httptools,
    # websockets-sansio, no per-frame compression), for every server.
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
        **server_options(settings),
    )
    tune_garbage_collector()
    uvicorn.Server(config).run(sockets=[sock])


def _exit_with_parent() -> None:
    """Asks Linux for a SIGTERM (uvicorn's graceful stop) if the driver dies first."""
    import ctypes

    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG; no extra thread to profile
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def start_server(kind: str, redis_url: str) -> Process:
    """``ws_load.py --serve kind``, on a listening socket it inherits."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, 0))
    sock.listen(2048)
    port = sock.getsockname()[1]
    try:
        fd = sock.fileno()
        command = [
            sys.executable,
            str(WS_LOAD),
            *("--serve", kind, "--fd", str(fd), "--redis-url", redis_url),
        ]
        return spawn(kind, command, port, env=os.environ, pass_fds=[fd])
    finally:
        sock.close()
