"""scripts/dev.py decides which services `make run` and `make test` use."""

from __future__ import annotations

import socket
from types import ModuleType

import pytest

from tests.helpers import load_dev


@pytest.fixture(scope="module")
def dev() -> ModuleType:
    module: ModuleType = load_dev()
    return module


def test_a_listening_port_is_reachable_and_a_closed_one_is_not(dev: ModuleType) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert dev.reachable(f"redis://127.0.0.1:{port}/13")
    assert not dev.reachable(f"postgres://postgres@127.0.0.1:{port}/test", timeout=0.5)


def test_sqlite_needs_no_server(dev: ModuleType) -> None:
    assert dev.reachable("sqlite:////tmp/nowhere.sqlite3")


def test_printed_urls_leave_the_password_out(dev: ModuleType) -> None:
    printed = dev.where("postgres://ace:s3cret@db.example:5433/aceweb")
    assert "s3cret" not in printed
    assert printed == "postgres://db.example:5433/aceweb"


def test_an_unset_service_is_filled_in_only_when_it_answers(dev: ModuleType) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        url = f"redis://127.0.0.1:{server.getsockname()[1]}/13"
        env: dict[str, str] = {}
        dev.choose_service(env, "REDIS_URL", url)
        assert env == {"REDIS_URL": url}
    env = {}
    dev.choose_service(env, "REDIS_URL", url)  # now closed
    assert env == {}
    env = {"REDIS_URL": "redis://elsewhere:6379/2"}
    dev.choose_service(env, "REDIS_URL", url)
    assert env == {"REDIS_URL": "redis://elsewhere:6379/2"}
