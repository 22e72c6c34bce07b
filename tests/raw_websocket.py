"""A blocking RFC 6455 client that sends whatever bytes a test asks for.

For the bad-input tests against a real daphne: invalid UTF-8 in a text frame,
binary frames, frames over daphne's limit, and reading the close code the
server sends (or seeing that it sent none). Browser-grade clients refuse to
send most of these, and autobahn's client cannot run beside Django's daphne
import (bench/live_play.py says why), so it is written out here.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import struct
from typing import Any
from urllib.parse import urlsplit

from bench.live_play import client_frame

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA
NO_CLOSE_FRAME = 1006  # what a client reports when the TCP connection ends without one


class Refused(Exception):
    """The handshake was answered with something other than 101."""

    def __init__(self, status: int) -> None:
        super().__init__(f"handshake refused with HTTP {status}")
        self.status = status


class RawSocket:
    """One websocket to BASE_URL's daphne. ``receive`` returns the next JSON text
    message, or None once the server has closed; ``close_code`` says how."""

    def __init__(self, base_url: str, path: str, cookie: str | None = None, timeout: float = 5) -> None:
        host = urlsplit(base_url).netloc
        self.sock = socket.create_connection(_address(host), timeout=timeout)
        self.buffer = b""
        self.close_code: int | None = None
        self.close_reason = ""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", f"Origin: http://{host}"]
        if cookie:
            lines.append(f"Cookie: sessionid={cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = self._read_until(b"\r\n\r\n").decode("latin-1")
        status = int(head.split(" ", 2)[1])
        if status != 101:
            self.sock.close()
            raise Refused(status)
        accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
        if f"sec-websocket-accept: {accept.lower()}" not in head.lower():
            raise ConnectionError("handshake: bad Sec-WebSocket-Accept")

    def send_frame(self, opcode: int, payload: bytes) -> None:
        try:
            self.sock.sendall(client_frame(opcode, payload))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server has gone: receive() reports how

    def send_json(self, data: Any) -> None:
        self.send_frame(TEXT, json.dumps(data).encode())  # ensure_ascii: lone surrogates travel as \\ud800

    def receive(self) -> dict[str, Any] | None:
        """The next text message as JSON, answering pings; None when the socket closed."""
        while True:
            frame = self._frame()
            if frame is None:
                self.close_code = self.close_code or NO_CLOSE_FRAME
                return None
            opcode, payload = frame
            if opcode == PING:
                self.send_frame(PONG, payload)
            elif opcode == CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close_reason = payload[2:].decode(errors="replace")
                self.send_frame(CLOSE, payload[:2])
                return None
            elif opcode == TEXT:
                message: dict[str, Any] = json.loads(payload)
                return message

    def close(self) -> None:
        if self.close_code is None:
            self.send_frame(CLOSE, struct.pack("!H", 1000))
        self.sock.close()

    def _frame(self) -> tuple[int, bytes] | None:
        try:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            return b0 & 0x0F, self._read(n)
        except (ConnectionError, EOFError):
            return None

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _read_until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(end, 1)
        return head


def _address(host: str) -> tuple[str, int]:
    name, port = host.rsplit(":", 1)
    return name, int(port)
