"""A BOT account that plays random legal moves of Ace in the Hole and Rhombus
through the aceweb API: the example that docs/api.md walks through.

Standard library plus one HTTP library (requests). It listens to the
account's event stream; accepts every challenge for two players (and
declines the rest); plays each of its games from that game's stream:
an Ace in the Hole view lists its ``legal`` actions, and a Rhombus action is
built a use at a time from the card ``sets`` the view names and the
``options`` the server answers (docs/api.md, "Playing Rhombus step by
step"); and it can start games against the site's computer players itself.

    python docs/examples/random_bot.py --server http://127.0.0.1:8000 --token acew_... \\
        --upgrade --play-computer greedy --rated --games 1 [--rules rhombus]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import requests

ACE = "ace-in-the-hole"


class Api:
    """The few calls a bot needs; every error body is {"error": "..."}."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"

    def get(self, path: str) -> Any:
        return self._answer(self.session.get(self.server + path, timeout=10))

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._answer(self.session.post(self.server + path, json=body or {}, timeout=10))

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """One JSON object per line; empty lines are keep-alives. The read
        timeout is well above the server's keep-alive interval, so a dead
        connection is noticed rather than waited on for ever."""
        with self.session.get(self.server + path, stream=True, timeout=(10, 60)) as response:
            self._check(response)
            for line in response.iter_lines():
                if line:
                    yield json.loads(line)

    @staticmethod
    def _check(response: requests.Response) -> None:
        if response.status_code >= 400:
            try:
                message = response.json()["error"]
            except (ValueError, KeyError):
                message = response.text
            raise ApiError(response.status_code, message)

    def _answer(self, response: requests.Response) -> Any:
        self._check(response)
        return response.json()


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status


def play_game(api: Api, game_id: int, done: threading.Event, log: Any) -> None:
    """Follow our seat's stream of one game and move whenever it is our turn."""
    acted_at = -1  # the last ply we acted on: a line at the same ply (a presence change) is not a new turn
    for view in api.stream(f"/api/stream/game/{game_id}"):
        if view["type"] == "chatLine":  # the players' chat
            print(f"game {game_id}: {view['username']} says {view['text']!r}", file=log)
            continue
        game = view["game"]
        if game["status"] != "running":
            print(f"game {game_id} over: {game['status']}, winner {game['winner']} ({game['reason']})", file=log)
            say_good_game(api, game_id, log)
            break
        if view["to_move"] == view["seat"] and (view.get("legal") or view.get("sets")) and view["ply"] > acted_at:
            acted_at = view["ply"]
            try:
                action = random.choice(view["legal"]) if view.get("legal") else build_rhombus_action(api, game_id, view)
                api.post(f"/api/games/{game_id}/actions", {"ply": view["ply"], "action": action})
            except ApiError as refusal:  # e.g. out of time: the stream's next line says what happened
                print(f"game {game_id}: refused: {refusal}", file=log)
    done.set()


def build_rhombus_action(api: Api, game_id: int, view: dict[str, Any]) -> str:
    """A random legal Rhombus action, built as the game page builds one: a card set
    from ``sets``, then a use at a time from the server's ``options`` (a one-card
    set's first answer is in the view's ``firsts``) until the uses take every
    chosen card, or a whole action (an Eliminator, a discard, ...) as it is."""
    cards: list[str] = random.choice(view["sets"])
    done: list[str] = []
    while True:
        first = view.get("firsts", {}).get(cards[0]) if len(cards) == 1 and not done else None
        answer = first or api.get(f"/api/games/{game_id}/options?ply={view['ply']}"
                                  f"&cards={quote(','.join(cards))}&done={quote(','.join(done))}")
        choice = random.choice(answer["uses"] + answer["actions"])
        if choice in answer["actions"]:
            return choice
        done.append(choice)
        if sum(len(use.split(" ")[0].split("+")) for use in done) == len(cards):  # "QH+7H c2xc5" takes two
            return ", ".join(done)


def say_good_game(api: Api, game_id: int, log: Any) -> None:
    """The preset "Good game" in the players' chat, shown in each reader's language."""
    try:
        api.post(f"/api/games/{game_id}/chat", {"room": "player", "preset": "goodgame"})
    except ApiError as refusal:  # e.g. a moderator's chat timeout: the game is over all the same
        print(f"game {game_id}: chat refused: {refusal}", file=log)


def answer_challenge(api: Api, challenge: dict[str, Any], log: Any) -> None:
    if challenge["direction"] != "incoming" or challenge["status"] != "pending":
        return
    # "rules" is {"key": "ace-in-the-hole", "title": "Ace in the Hole"} (docs/api.md); every game is
    # played the same way, but this example plays only for two players.
    playable = challenge["players"] == 2
    verdict = "accept" if playable else "decline"
    print(f"challenge {challenge['id']} from {challenge['challenger']}: {verdict}", file=log)
    try:
        api.post(f"/api/challenges/{challenge['id']}/{verdict}")
    except ApiError as refusal:
        print(f"could not {verdict} challenge {challenge['id']}: {refusal}", file=log)


def run(api: Api, args: argparse.Namespace, log: Any = sys.stdout) -> int:
    account = api.get("/api/account")
    if args.upgrade and not account["bot"]:
        account = api.post("/api/bot/account/upgrade")
    print(f"playing as {account['username']} (BOT: {account['bot']})", file=log)
    if args.play_computer:
        game = api.post("/api/computer", {"level": args.play_computer, "time_control": args.time_control,
                                          "rated": args.rated, "rules": args.rules})
        print(f"started game {game['game']} against the {args.play_computer} bot", file=log)
    games: dict[int, threading.Event] = {}
    for event in api.stream("/api/stream/event"):
        if event["type"] == "challenge":
            answer_challenge(api, event["challenge"], log)
        elif event["type"] == "game_started" and event["game"] not in games:
            games[event["game"]] = threading.Event()
            threading.Thread(target=play_game, args=(api, event["game"], games[event["game"]], log),
                             daemon=True).start()
        elif event["type"] == "game_finished" and event["game"] in games:
            games[event["game"]].wait(timeout=30)  # its stream has said the last word
            finished = sum(done.is_set() for done in games.values())
            if args.games and finished >= args.games:
                print(f"played {finished} game(s): done", file=log)
                return 0
    return 1  # the server closed the event stream


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a personal access token with the bot:play scope")
    parser.add_argument("--upgrade", action="store_true", help="turn the account into a BOT account first (for ever)")
    parser.add_argument("--play-computer", metavar="LEVEL", help="start a game against this computer level")
    parser.add_argument("--rated", action="store_true", help="that game is rated")
    parser.add_argument("--rules", default=ACE, help="that game's rules: ace-in-the-hole, rhombus, rhombus-formation")
    parser.add_argument("--time-control", default="5+3")
    parser.add_argument("--games", type=int, default=0, help="stop after this many finished games (0: never)")
    args = parser.parse_args()
    return run(Api(args.server, args.token), args)


if __name__ == "__main__":
    sys.exit(main())
