"""An SMTP server of the tests' own on 127.0.0.1: takes every message (RFC 5321's
minimum) and keeps it, parsed, for the test to read."""

from __future__ import annotations

import queue
import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage


class Sink(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Session)
        self.messages: queue.Queue[EmailMessage] = queue.Queue()
        self.url = f"smtp://127.0.0.1:{self.server_address[1]}"


class Session(socketserver.StreamRequestHandler):
    server: Sink

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.reply("220 sink ESMTP")
        for _ in range(1000):  # commands of one session, bounded
            command = self.rfile.readline().decode(errors="replace").strip().upper()
            if not command or command.startswith("QUIT"):
                self.reply("221 bye")
                return
            if command.startswith("DATA"):
                self.reply("354 go on")
                self.server.messages.put(self.read_message())
            self.reply("250 ok")

    def read_message(self) -> EmailMessage:
        lines = []
        for _ in range(100_000):
            line = self.rfile.readline()
            if line in (b".\r\n", b""):
                break
            lines.append(line[1:] if line.startswith(b"..") else line)
        message = message_from_bytes(b"".join(lines), policy=policy.default)
        assert isinstance(message, EmailMessage)
        return message


@contextmanager
def smtp_sink() -> Iterator[Sink]:
    sink = Sink()
    thread = threading.Thread(target=sink.serve_forever, daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        sink.shutdown()
        sink.server_close()
        thread.join(timeout=10)
