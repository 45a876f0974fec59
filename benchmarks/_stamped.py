"""A WebSocket client that knows when each message reached its socket, not only when the
driver got round to reading it.

On a machine where the driver shares the cores with the service, a driver with a
thousand connections reads a burst of frames (a wave telling a thousand players their
heats) tens of milliseconds after they arrived: its own loop is the queue. The kernel
stamps every segment as it arrives (``SO_TIMESTAMPNS``, wall-clock time), so this client
reads each frame to its last byte and hands out the stamp of that read with the message.
On loopback a segment is stamped as the service sends it, so the stamp is when the
service delivered the frame, whatever the driver was doing then.

The WebSocket protocol itself (handshake, frames, masking) is the ``websockets``
library's Sans-I/O ``ClientProtocol``; this module only does the socket reads, in sizes
that end on a frame's last byte so that each read completes at most one frame.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from benchmarks._processes import HOST

# Linux's values (asm-generic/socket.h); Python's socket module does not name them.
SO_TIMESTAMPNS = 35
SCM_TIMESTAMPNS = SO_TIMESTAMPNS
TIMESPEC = struct.Struct("@ll")
# A frame header from the service is at most 2 + 8 bytes (the service never masks).
HEADER_MAX = 14
HANDSHAKE_PEEK = 8192


class StampedWebSocket:
    """One connection to the service's ``/ws``: ``send`` a text, ``recv`` the next text
    with the wall-clock milliseconds at which its last byte reached the socket."""

    def __init__(self, port: int, max_size: int = 1 << 20) -> None:
        self.port = port
        self.protocol = ClientProtocol(parse_uri(f"ws://{HOST}:{port}/ws"), max_size=max_size)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.messages: asyncio.Queue[tuple[float, str] | None] = asyncio.Queue()
        self.opened: asyncio.Future[None] | None = None
        self.handshaking = True
        self.header = b""  # of the frame being read, while incomplete
        self.left = 0  # bytes to read to the end of the frame being read
        self.parts: list[bytes] = []  # of a fragmented text message

    async def __aenter__(self) -> StampedWebSocket:
        loop = asyncio.get_running_loop()
        await loop.sock_connect(self.sock, (HOST, self.port))
        self.opened = loop.create_future()
        loop.add_reader(self.sock.fileno(), self._readable)
        self.protocol.send_request(self.protocol.connect())
        await self._flush()
        async with asyncio.timeout(30):
            await self.opened
        return self

    async def __aexit__(self, *exc: object) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.sock.fileno())
        self.sock.close()

    async def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        await self._flush()

    async def recv(self, timeout: float = 15.0) -> tuple[float, str]:
        async with asyncio.timeout(timeout):
            message = await self.messages.get()
        if message is None:
            raise ConnectionError("the service closed the connection")
        return message

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        for data in self.protocol.data_to_send():
            if data:
                await loop.sock_sendall(self.sock, data)

    def _read_size(self) -> int:
        if self.handshaking:
            # Up to the end of the handshake's response, not into the first frame.
            peeked = self.sock.recv(HANDSHAKE_PEEK, socket.MSG_PEEK)
            end = peeked.find(b"\r\n\r\n")
            return end + 4 if end >= 0 else len(peeked) or 1
        if self.left:
            return self.left
        return 2 if len(self.header) < 2 else self._header_size() - len(self.header)

    def _header_size(self) -> int:
        length = self.header[1] & 0x7F
        extra = 2 if length == 126 else 8 if length == 127 else 0
        return 2 + extra + (4 if self.header[1] & 0x80 else 0)

    def _payload_size(self) -> int:
        length = self.header[1] & 0x7F
        if length == 126:
            return int.from_bytes(self.header[2:4], "big")
        if length == 127:
            return int.from_bytes(self.header[2:10], "big")
        return length

    def _readable(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(
                self._read_size(), socket.CMSG_SPACE(TIMESPEC.size)
            )
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data, ancillary = b"", []
        if not data:
            self.protocol.receive_eof()
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.messages.put_nowait(None)
            return
        stamp = 0.0
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS:
                seconds, nanoseconds = TIMESPEC.unpack(value[: TIMESPEC.size])
                stamp = seconds * 1000 + nanoseconds / 1e6
        self._track(data)
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            self._event(event, stamp)
        for answer in self.protocol.data_to_send():  # a pong or a close's: small
            if answer:
                self.sock.send(answer)

    def _track(self, data: bytes) -> None:
        """Where the bytes just read leave the frame being read."""
        if self.handshaking:
            if data.endswith(b"\r\n\r\n"):
                self.handshaking = False
            return
        if self.left:
            self.left -= len(data)
            return
        self.header += data
        if len(self.header) >= 2 and len(self.header) == self._header_size():
            self.left = self._payload_size()
            self.header = b""

    def _event(self, event: Any, stamp: float) -> None:
        if isinstance(event, Response):
            if self.opened is not None and not self.opened.done():
                if event.status_code == 101:
                    self.opened.set_result(None)
                else:
                    self.opened.set_exception(ConnectionError(f"handshake {event.status_code}"))
            return
        if not isinstance(event, Frame):
            return
        if event.opcode is Opcode.TEXT or (event.opcode is Opcode.CONT and self.parts):
            self.parts.append(bytes(event.data))
            if event.fin:
                self.messages.put_nowait((stamp, b"".join(self.parts).decode()))
                self.parts = []
        elif event.opcode is Opcode.CLOSE:
            self.messages.put_nowait(None)
