"""How the service runs under uvicorn: its options, and a WebSocket protocol whose close
never waits on a peer that stopped reading."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import struct
from typing import TYPE_CHECKING, Any, ClassVar

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame

from .config import Settings
from .guards.connections import (
    ConnectionGuard,
    connection_cap,
    guarded_http_protocol,
    open_files_limit,
)
from .support.metrics import CONNECTIONS

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent

log = logging.getLogger("service.connections")

CLOSE_INVALID_DATA = 1007
CLOSE_POLICY = 1008


class BoundedCloseProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with a close that cannot hang.

    uvicorn waits for the transport to take more data before it writes any frame, the
    close frame included, and after the close timeout it closes the transport, which
    waits for the buffer to drain. A client that stops reading therefore was never
    closed. Here the close frame goes into the buffer at once, behind the frames already
    queued, so a client that resumes reading gets them all and then the close code; one
    that does not is dropped (the connection reset) when the close timeout ends.

    It also never logs frames or upgrade headers, whatever the log level; closes with
    1007 a text frame that is not UTF-8 (one log line, no traceback); closes with 1008 a
    client that sends nothing within ``hello_timeout`` seconds of the upgrade; and gives
    the connection back to the ``guard`` that admitted it (``GuardedHttpProtocol``).
    """

    guard: ClassVar[ConnectionGuard | None] = None
    hello_timeout: ClassVar[float | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # At debug level websockets logs every frame and the upgrade headers, and those
        # carry player tokens (subscribe and action frames, Authorization): never log them.
        self.conn.debug = False
        self.hello_timer: asyncio.TimerHandle | None = None
        # A client may send its hello right behind the upgrade request, before the accept.
        self.heard_from = False

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_hello_timer()
        if self.guard is not None:
            self.guard.release(self.client[0] if self.client else "")
        super().connection_lost(exc)

    def handle_text(self, event: Frame) -> None:
        self.heard_from = True
        self._cancel_hello_timer()
        super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        self.heard_from = True
        self._cancel_hello_timer()
        super().handle_bytes(event)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError as exc:
                # uvicorn would log a traceback for what is only a client's mistake.
                self.frames = []
                CONNECTIONS.bad_frames.labels("invalid_utf8").inc()
                log.info("WebSocket closed: a text frame is not UTF-8 (%s)", exc.reason)
                self._close_now(CLOSE_INVALID_DATA, "text frame is not valid UTF-8")
                return
        super().send_receive_event_to_app()

    def _cancel_hello_timer(self) -> None:
        if self.hello_timer is not None:
            self.hello_timer.cancel()
            self.hello_timer = None

    def _hello_timed_out(self) -> None:
        self.hello_timer = None
        if self.close_sent or self.disconnected or self.transport.is_closing():
            return
        CONNECTIONS.timeouts.labels("hello").inc()
        log.info("WebSocket closed: nothing sent within %g s of the upgrade", self.hello_timeout)
        self._close_now(CLOSE_POLICY, f"no message within {self.hello_timeout:g} s: send hello")

    async def send(self, message: ASGISendEvent) -> None:
        if (
            message["type"] == "websocket.close"
            and self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and not self.transport.is_closing()
        ):
            self._close_now(message.get("code", 1000), message.get("reason"))
            return
        await self.writable.wait()
        if message["type"] == "websocket.send" and self.close_sent:
            # A send that waited for room while the connection was being closed: the
            # application sees a disconnect, as after any other lost connection.
            raise ClientDisconnected()
        await super().send(message)
        if (
            message["type"] == "websocket.accept"
            and self.handshake_complete
            and self.hello_timeout is not None
            and not self.heard_from
            and not self.transport.is_closing()
        ):
            self.hello_timer = self.loop.call_later(self.hello_timeout, self._hello_timed_out)

    def _close_now(self, code: int, reason: str | None) -> None:
        reason = reason or ""
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        if self.read_paused:
            # The peer's answer to the close must still be read.
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(self.close_timeout, self._drop)

    def _drop(self) -> None:
        """Ends the connection now, whatever is still unsent.

        close() would wait for the buffer to drain, and even abort() leaves the kernel
        trying to deliver its send buffer (megabytes) to a peer that takes none: a zero
        linger time makes closing the socket reset the connection and free both.
        """
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


# Young objects collected every 20,000 allocations instead of 700: an action allocates
# hundreds of short-lived objects (views, patches, frames), freed by reference counting.
GC_THRESHOLDS = (20_000, 20, 100)


def tune_garbage_collector() -> None:
    """Moves what exists at start-up (modules, the app, its schemas) out of the collector's
    sight and makes collections of young objects rarer.

    Without it a full collection walks every object the imports created, hundreds of
    thousands, and stalls every connection for tens of milliseconds: under load that was
    the service's p99 (36-48 ms against 15-17 ms with it, 50 WebSocket games). Frozen
    objects are still freed by reference counting; only cycles among them would stay.
    Process-wide, so it belongs to the process that serves, not to the app (tests build
    many apps in one process).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def server_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options of the service (benchmarks use them for their servers too)."""
    guard = ConnectionGuard(
        connection_cap(settings, open_files_limit()), settings.max_connections_per_address
    )
    websocket = type(
        "ServiceWebSocketProtocol",
        (BoundedCloseProtocol,),
        {"guard": guard, "hello_timeout": settings.hello_timeout_seconds},
    )
    return {
        "http": guarded_http_protocol(settings, guard),
        "ws": websocket,
        "timeout_keep_alive": settings.keep_alive_timeout_seconds,
        # Frames above our own limit are answered with an error; far larger ones are abuse.
        "ws_max_size": max(settings.max_frame_bytes * 8, 1 << 20),
        # Frames are small JSON; compressing each costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "proxy_headers": False,
    }
