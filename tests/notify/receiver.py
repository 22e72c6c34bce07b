"""A push service of the tests' own: an HTTP server on 127.0.0.1 that takes
web pushes as a browser vendor's push service would (RFC 8030), and decrypts
them as the browser would (RFC 8291, aes128gcm) with the subscription's private
key, which only the test (standing in for the browser) holds."""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Push:
    """One push the receiver took: where, with which headers, and what it said."""

    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    def __init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.pushes: queue.Queue[Push] = queue.Queue()
        self.answers: dict[str, int] = {}  # path -> status to answer (201 otherwise)
        self.redirects: dict[str, str] = {}  # path -> where a 307 sends the pusher
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.pushes.put(Push(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if self.path in receiver.redirects:
                    self.send_response(307)
                    self.send_header("Location", receiver.redirects[self.path])
                else:
                    self.send_response(receiver.answers.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def subscription(self, name: str) -> dict[str, Any]:
        """A browser's PushSubscription.toJSON() for an endpoint of ours."""
        return {"endpoint": f"{self.base}/push/{name}", "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def take(self, timeout: float = 30) -> Push:
        return self.pushes.get(timeout=timeout)

    def decrypt(self, push: Push) -> bytes:
        """The plaintext, as the subscribed browser reads it."""
        assert push.headers["content-encoding"] == "aes128gcm"
        return bytes(http_ece.decrypt(push.body, private_key=self.private_key, auth_secret=self.auth,
                                      version="aes128gcm"))

    def payload(self, push: Push) -> dict[str, Any]:
        return dict(json.loads(self.decrypt(push)))


@contextmanager
def receiving() -> Iterator[Receiver]:
    receiver = Receiver()
    thread = threading.Thread(target=receiver.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()
        thread.join(timeout=10)
