"""Reading the API's NDJSON streams from a test: a thread per stream puts each
line in a queue, so a test can wait for the next one with a timeout."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import requests


class StreamReader:
    """GET ``url`` as a stream; ``next()`` is the next JSON line (keep-alives are
    counted in ``keepalives``, not returned)."""

    def __init__(self, url: str, token: str) -> None:
        self.response = requests.get(url, headers={"Authorization": f"Bearer {token}"}, stream=True,
                                     timeout=(5, 60))
        self.status = self.response.status_code
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.keepalives = 0
        self.raw: list[bytes] = []  # every line as sent, for leak checks on the bytes themselves
        self.listening = threading.Event()  # the first line (empty) has come: the server listens
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                self.raw.append(line)
                self.listening.set()
                if line:
                    self.lines.put(json.loads(line))
                else:
                    self.keepalives += 1
        except (requests.RequestException, AttributeError, ValueError):
            pass  # closed by the test
        self.lines.put(None)  # the server ended the stream, or the test closed it

    def wait_listening(self, timeout: float = 10) -> StreamReader:
        assert self.listening.wait(timeout), "the stream sent nothing"
        return self

    def next(self, timeout: float = 15) -> dict[str, Any] | None:
        return self.lines.get(timeout=timeout)

    def until(self, check: Any, timeout: float = 15) -> dict[str, Any]:
        """The first line ``check`` accepts (others are skipped)."""
        while True:
            line = self.next(timeout)
            assert line is not None, "the stream ended"
            if check(line):
                return line

    def close(self) -> None:
        self.response.close()
