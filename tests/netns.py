"""Several hosts on one machine, as Linux network namespaces (issue 14).

``Network`` makes a private LAN for one test: a "services" namespace holding
a bridge at ``10.213.0.1`` and, joined to it by veth pairs, one namespace per
host (``10.213.0.11``, ``.12``, ...). A process started with
``Network.run(host, ...)`` sees only its host's address and the LAN.

PostgreSQL and Redis listen on this machine's 127.0.0.1, which no host
namespace can reach. ``Network.forward`` puts a relay on the services
address: its listening socket is opened inside the services namespace, and
each connection it accepts is relayed to 127.0.0.1 from the test process,
which stays in the machine's own namespace. So every host reaches the
databases over the LAN, as it would a database host, and nothing leaves the
namespaces the test made except to 127.0.0.1.

Everything is removed on leaving, whatever happened.
"""

from __future__ import annotations

import ctypes
import os
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

CLONE_NEWNET = 0x40000000
SUBNET = "10.213.0"
SERVICES_ADDRESS = f"{SUBNET}.1"
_libc = ctypes.CDLL(None, use_errno=True)


class NamespacesUnavailable(Exception):
    """This machine (or this user) cannot create network namespaces."""


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def probe(name: str) -> None:
    """Create and remove one namespace, or say why it cannot be done here."""
    try:
        _ip("netns", "add", name)
    except (OSError, RuntimeError) as error:
        raise NamespacesUnavailable(str(error)) from error
    _ip("netns", "del", name)


def _setns(fd: int) -> None:
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"setns: {os.strerror(errno)}")


@contextmanager
def entered(namespace: str) -> Iterator[None]:
    """Run the block with this thread in ``namespace``: sockets made in it
    belong to that namespace for their whole life, even after the block."""
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    target = os.open(f"/run/netns/{namespace}", os.O_RDONLY)
    try:
        _setns(target)
        try:
            yield
        finally:
            _setns(own)
    finally:
        os.close(own)
        os.close(target)


class Relay:
    """Accepts on a socket (made in another namespace) and relays each
    connection to ``target`` on this machine, byte for byte, both ways."""

    def __init__(self, listener: socket.socket, target: tuple[str, int]) -> None:
        self.listener, self.target = listener, target
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True, name=f"relay-{target[1]}").start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self.lock:
                self.open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        for sock in (source, sink):  # one side gone: end both, as a real network peer would see
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            for sock in self.open:
                sock.close()
            self.open.clear()


class Network:
    """A services namespace with a bridge, and a namespace per host on it."""

    def __init__(self, tag: str, hosts: list[str]) -> None:
        self.services = f"{tag}-svc"
        self.hosts = {host: (f"{tag}-{host}", f"{SUBNET}.{11 + i}") for i, host in enumerate(hosts)}
        self.made: list[str] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self.relays: list[Relay] = []

    def address(self, host: str) -> str:
        return self.hosts[host][1]

    def namespace(self, host: str) -> str:
        return self.hosts[host][0]

    def __enter__(self) -> Network:
        try:
            self._add(self.services)
            _ip("-n", self.services, "link", "add", "br0", "type", "bridge")
            _ip("-n", self.services, "addr", "add", f"{SERVICES_ADDRESS}/24", "dev", "br0")
            _ip("-n", self.services, "link", "set", "br0", "up")
            for i, (namespace, address) in enumerate(self.hosts.values()):
                self._add(namespace)
                # Made inside the services namespace, so the names never meet the machine's own.
                _ip("-n", self.services, "link", "add", f"h{i}", "type", "veth",
                    "peer", "name", "eth0", "netns", namespace)
                _ip("-n", self.services, "link", "set", f"h{i}", "master", "br0", "up")
                _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
                _ip("-n", namespace, "link", "set", "eth0", "up")
        except BaseException:
            self.__exit__()
            raise
        return self

    def _add(self, namespace: str) -> None:
        _ip("netns", "add", namespace)
        self.made.append(namespace)
        _ip("-n", namespace, "link", "set", "lo", "up")

    def forward(self, port: int, target: tuple[str, int]) -> str:
        """Serve ``target`` (on 127.0.0.1) at the services address's ``port``; that address."""
        with entered(self.services):
            listener = socket.create_server((SERVICES_ADDRESS, port), backlog=128)
        self.relays.append(Relay(listener, target))
        return f"{SERVICES_ADDRESS}:{port}"

    def run(self, host: str, command: list[str], **popen: Any) -> subprocess.Popen[bytes]:
        """Start ``command`` on ``host`` (inside its namespace); stopped on leaving."""
        process = subprocess.Popen(["ip", "netns", "exec", self.namespace(host), *command], **popen)
        self.processes.append(process)
        return process

    def stop_processes(self) -> None:
        with ExitStack() as stack:  # every one is stopped even if one fails
            for process in self.processes:
                stack.callback(_stop, process)

    def __exit__(self, *exc: Any) -> None:
        with ExitStack() as stack:  # every step runs even if one fails; last registered runs first
            for namespace in reversed(self.made):
                stack.callback(_ip, "netns", "del", namespace)
            for relay in self.relays:
                stack.callback(relay.close)
            stack.callback(self.stop_processes)
        self.made.clear()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
