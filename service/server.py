"""How the service runs under uvicorn: its options, and a WebSocket protocol whose close
never waits on a peer that stopped reading."""

from __future__ import annotations

import contextlib
import socket
import struct
from typing import TYPE_CHECKING, Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .config import Settings

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent


class BoundedCloseProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with a close that cannot hang.

    uvicorn waits for the transport to take more data before it writes any frame, the
    close frame included, and after the close timeout it closes the transport, which
    waits for the buffer to drain. A client that stops reading therefore was never
    closed. Here the close frame goes into the buffer at once, behind the frames already
    queued, so a client that resumes reading gets them all and then the close code; one
    that does not is dropped (the connection reset) when the close timeout ends.

    It also never logs frames or upgrade headers, whatever the log level.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # At debug level websockets logs every frame and the upgrade headers, and those
        # carry player tokens (subscribe and action frames, Authorization): never log them.
        self.conn.debug = False

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


def server_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options of the service (benchmarks use them for their servers too)."""
    return {
        "ws": BoundedCloseProtocol,
        # Frames above our own limit are answered with an error; far larger ones are abuse.
        "ws_max_size": max(settings.max_frame_bytes * 8, 1 << 20),
        # Frames are small JSON; compressing each costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "proxy_headers": False,
    }
