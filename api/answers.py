"""A move's answer, handed to the mover's own game streams in this process.

An API move's POST answers the mover's view of the game after it
(api.playing.act). The mover's game stream, if open, then receives the
move's group message and would load the game and build that same view again
on a database thread: a hop, a statement and a view a move, a sixth of
daphne's CPU for an API move (bench/api_streams.py, issue 24). Instead the
request's thread hands its answer to that user's open streams of that game in
this process, and a stream whose next message is that very move (``moved``,
same ply) sends the answer. Only the same user's streams get it, so the view
is the one their seat may see (games.payloads.seat_view built it). Streams in
another process, another user's, or a message for anything else load as
before.

Writes happen on the event loop (a stream opens or closes); the request's
thread only reads, one dict lookup, then sets an attribute per stream.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from games import payloads


class Answer(NamedTuple):
    language: str | None  # the view's words are in this language
    payload: payloads.PayloadJSON  # the mover's view after the move, as seat_view(..., since=None) built it


class Listener(Protocol):
    answered: Answer | None


_open: dict[tuple[int, int], tuple[Listener, ...]] = {}


def listen(game_id: int, user_id: int, stream: Listener) -> None:
    key = (game_id, user_id)
    _open[key] = (*_open.get(key, ()), stream)


def stop(game_id: int, user_id: int, stream: Listener) -> None:
    key = (game_id, user_id)
    left = tuple(s for s in _open.get(key, ()) if s is not stream)
    if left:
        _open[key] = left
    else:
        _open.pop(key, None)


def answered(game_id: int, user_id: int, language: str | None, payload: payloads.PayloadJSON) -> None:
    """On the request's thread, after commit: ``payload`` is user's view of the game."""
    for stream in _open.get((game_id, user_id), ()):
        stream.answered = Answer(language, payload)


def answer_to(stream: Listener, message: dict[str, Any], language: str | None) -> payloads.PayloadJSON | None:
    """The answer ``stream`` was handed, if ``message`` is the move it answered
    (the game's only change to reach that ply) and it is worded in ``language``."""
    answer = stream.answered
    if answer is None or not message.get("moved") or message.get("ply") != answer.payload["ply"]:
        return None
    stream.answered = None
    return answer.payload if answer.language == language else None
