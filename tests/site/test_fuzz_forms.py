"""Malformed form posts and GETs to every form view of a real daphne (issue 10).

Each request is one mistake away from doing something (a seek, a challenge, a
game against the computer, a login, an account): the mistake is a field or a
URL part holding a NUL, a lone surrogate (sent as the invalid UTF-8 a client
would send), control characters, or junk. Whatever the answer (a page with a
form error, a redirect with a message, 400, 404), it is never a server error,
and nothing changes.
"""

from __future__ import annotations

import http.client
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import quote_from_bytes, urlsplit

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games import starting
from ladder import challenges, seeks
from tests.games.conftest import cookies, fast_password_hashing, services, session_cookie  # noqa: F401
from tests.site.fuzz_inputs import poisoned_text
from tests.site.test_fuzz_sockets import server_errors, state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

junk = st.one_of(poisoned_text, st.text(max_size=30), st.text(min_size=300, max_size=3000))
# A password may hold any character but NUL (every Django form field refuses NUL):
# "\u202e" or an escape code in a long enough one is a valid, if odd, password,
# and signing up with it makes an account.
POISON_OF = {"password1": st.builds(lambda head, tail: head + "\x00" + tail,
                                    st.text(max_size=12), st.text(max_size=12))}

# (method, URL template, the fields (URL parts in braces, form fields and query
# parameters otherwise) a valid request needs, the valid values of every field).
FORMS: list[tuple[str, str, list[str], dict[str, Any]]] = [
    ("GET", "/@/{name}/", [], {"name": st.sampled_from(["bob", "alice"])}),
    ("POST", "/@/{name}/challenge/", ["name", "time_control"],
     {"name": st.just("bob"), "time_control": st.sampled_from(["5+3", "1d"]), "rated": st.just("1"),
      "colour": st.sampled_from(["red", "random"])}),
    ("POST", "/lobby/seek/", ["time_control"],
     {"time_control": st.sampled_from(["5+3", "1d"]), "rated": st.sampled_from(["1", "0"]),
      "colour": st.sampled_from(["black", "random"])}),
    ("POST", "/lobby/seek/{id}/accept/", ["id"], {"id": st.just("SEEK")}),
    ("POST", "/lobby/seek/{id}/cancel/", ["id"], {"id": st.just("SEEK")}),
    ("POST", "/lobby/challenge/{id}/{answer}/", ["id", "answer"],
     {"id": st.just("CHALLENGE"), "answer": st.sampled_from(["accept", "decline"])}),
    ("POST", "/lobby/computer/", ["level", "time_control"],
     {"level": st.sampled_from(["random", "greedy"]), "time_control": st.just("5+3"), "colour": st.just("red")}),
    ("POST", "/games/import/", ["record"], {"record": st.just("")}),
    ("GET", "/ladder/", [], {"q": st.sampled_from(["al", ""]), "page": st.sampled_from(["-1", "last", "2"]),
                             "show": st.just("all"), "bots": st.just("hide")}),
    ("POST", "/accounts/login/", ["login", "password"],
     {"login": st.just("alice"), "password": st.just("password"), "remember": st.just("on")}),
    ("POST", "/accounts/signup/", ["username", "email", "password1"],
     {"username": st.just("newcomer"), "email": st.just("newcomer@example.org"),
      "password1": st.just("a long enough passphrase 42")}),
]


def encoded(text: str) -> str:
    """TEXT percent-encoded as a client sends it; a lone surrogate becomes the invalid
    UTF-8 bytes it stands for."""
    return quote_from_bytes(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def requests(draw: Any) -> tuple[str, str, bytes]:
    """(method, path with query, urlencoded body) for one request, never a valid one."""
    method, template, required, valid = draw(st.sampled_from(FORMS))
    spoilt = draw(st.sampled_from(required)) if required else None
    fields = {}
    for field in valid:
        in_url = f"{{{field}}}" in template
        if field == spoilt:  # poisoned, or (a form field) missing
            poison = POISON_OF.get(field, poisoned_text)
            fields[field] = draw(poison) if in_url or draw(st.booleans()) else None
        elif in_url or draw(st.integers(0, 3)) > 0:
            fields[field] = draw(valid[field] if draw(st.integers(0, 3)) > 0 else junk)
    parts = {k: encoded(v) for k, v in fields.items() if v is not None and f"{{{k}}}" in template}
    path = template.format(**parts)
    pairs = "&".join(f"{encoded(k)}={encoded(v)}" for k, v in fields.items()
                     if f"{{{k}}}" not in template and v is not None)
    return (method, f"{path}?{pairs}", b"") if method == "GET" else (method, path, pairs.encode())


# Twisted's HTTP parser under daphne (twisted.protocols.basic.LineReceiver.MAX_LENGTH)
# closes the connection, unanswered, on a request line longer than this: a GET whose
# query holds long junk can be one. Only such a request may go unanswered.
REQUEST_LINE_LIMIT = 16384
UNANSWERED = 0


class Browser:
    """Cookies and a CSRF token against one daphne, over http.client (raw paths and bodies)."""

    def __init__(self, base_url: str, session: str | None = None) -> None:
        self.host = urlsplit(base_url).netloc
        self.cookies: dict[str, str] = {"sessionid": session} if session else {}
        self.request("GET", "/lobby/" if session else "/accounts/login/")  # pages with a form: the csrftoken cookie
        assert "csrftoken" in self.cookies

    def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, str]:
        connection = http.client.HTTPConnection(self.host, timeout=10)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Content-Type": "application/x-www-form-urlencoded",
                   "X-CSRFToken": self.cookies.get("csrftoken", "")}
        connection.request(method, path, body=body if method == "POST" else None, headers=headers)
        try:
            response = connection.getresponse()
        except http.client.RemoteDisconnected:
            if len(f"{method} {path} HTTP/1.1") <= REQUEST_LINE_LIMIT:
                raise
            return UNANSWERED, "daphne's HTTP parser dropped a request line over its limit; the site never saw it"
        text = response.read().decode(errors="replace")
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if name == "csrftoken":  # keep the session fixed: a login must not carry over
                    self.cookies[name] = morsel.value
        connection.close()
        return response.status, text


def test_fuzzed_forms_change_nothing_and_log_no_error(
        daphne_server: str, daphne_log: Callable[[], str], alice: Any, bob: Any,
        cookies: dict[str, str]) -> None:
    starting.start_game(alice, bob)
    seek = seeks.create_seek(bob, "1d")  # to accept or cancel, should a refusal fail to hold
    challenge = challenges.create_challenge(bob, "alice", "1d")
    ids = {"SEEK": str(seek.pk), "CHALLENGE": str(challenge.pk)}
    before, users = state(), get_user_model().objects.count()
    signed_in, visitor = Browser(daphne_server, cookies["alice"]), Browser(daphne_server)

    @settings(max_examples=200, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(requests())
    # What issue 10 found answering 500.
    @example(("GET", "/@/%00/?", b""))
    @example(("POST", "/@/%00/challenge/", b"time_control=1d"))
    @example(("GET", "/ladder/?q=%00", b""))
    @example(("GET", "/ladder/?page=-1&q=%00", b""))
    # A query of long junk past the request line's limit: dropped by daphne's parser, no error.
    @example(("GET", "/ladder/?q=" + "%E2%80%AE" * 2000, b""))
    def each(request: tuple[str, str, bytes]) -> None:
        method, path, body = request
        for name, pk in ids.items():
            path = path.replace(name, pk)
        browser = visitor if path.startswith("/accounts/") else signed_in
        status, page = browser.request(method, path, body)
        assert status < 500, page[:2000]

    each()
    assert state() == before
    assert get_user_model().objects.count() == users
    assert server_errors(daphne_log()) == []
