"""A world of every page kind a user reaches, for the walks that read each page
in each language: test_no_english_prose.py (the server's HTML, through Django's
test client) and test_language_walk_browser.py (Chromium at phone width, with
what JavaScript draws).

Players with finished and running games of each kind (Ace in the Hole,
Rhombus for two and four, Formation), alice to move in every running one; a
chat line, a notice and a challenge for alice, open seeks; tournaments of each format (Swiss, round
robin, knockout) before, during and after; a restricted player who may appeal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import timezone

from games import chat, finishing, moving, payloads, starting
from games.models import Game
from games.timecontrols import TimeControl
from ladder import challenges, seeks
from ladder.models import ACE
from moderation.models import ModerationAction
from tournaments import advancing, entering
from tournaments.models import Tournament
from notify import notices
from tests.helpers import staff_group
from tests.moderation.conftest import act
from tests.rhombus_steps import legal_texts
from tests.site.english import KEPT_PHRASES
from tests.tournaments.conftest import play_round

RHOMBUS = starting.Setup("rhombus")
FORMATION = starting.Setup("rhombus", "formation")
# The formats a tournament page shows differently: standings, a crosstable, a bracket.
FORMATS = {"Swiss": ("S", Tournament.Format.SWISS), "round robin": ("R", Tournament.Format.ROUND_ROBIN),
           "knockout": ("K", Tournament.Format.SINGLE)}
# Clocks that outlast a walk of every page in four languages on a loaded
# machine: alice's clock runs in each running game at her turn.
CLOCK = TimeControl.parse("90+0")
MOST_ROUNDS = 8  # a bound on a tournament played to its end (5 rounds at most here)


@dataclass
class Page:
    name: str
    url: str
    user: Any  # None: an anonymous visitor
    status: int = 200


@dataclass
class World:
    pages: list[Page]
    kept: tuple[str, ...]  # names that read the same in every language: users, tournaments, games
    games: dict[str, int] = field(default_factory=dict)  # "rhombus" -> its id
    # The cards to choose on each running Rhombus game as alice (to move), so
    # that the page draws its use buttons: a 7-10 alone (RH15).
    picks: dict[int, list[str]] = field(default_factory=dict)


def play_first_legal(game: Game, plies: int) -> None:
    """Each mover plays the first action the rules list, PLIES times."""
    for _ in range(plies):
        game = Game.objects.get(pk=game.pk)
        mover = game.seat(game.to_move).user
        moving.submit(game.pk, mover, game.ply, legal_texts(game)[0])


def play_until_turn_of(game: Game, user: Any, plies: int) -> Game:
    """PLIES first legal actions, then more until it is USER's turn, and in
    Rhombus until USER holds a card that may be used alone as zero (RH15): its
    use is a button once chosen."""
    play_first_legal(game, plies)
    for _ in range(16):
        game = Game.objects.get(pk=game.pk)
        if game.seat(game.to_move).user == user and (game.kind != "rhombus" or zero_cards(game, user)):
            return game
        play_first_legal(game, 1)
    raise AssertionError(f"never {user}'s turn with a zero card in game {game.pk}")


def zero_cards(game: Game, user: Any) -> list[list[str]]:
    """USER's one-card sets of a 7, 8, 9 or 10: a zero use alone (RH15, RH19)."""
    sets = [list(cards) for cards in payloads.view_for(game, user)["sets"]]
    return [cards for cards in sets if len(cards) == 1 and cards[0][:-1] in ("7", "8", "9", "10")]


def seeded_winner(pairing: Any) -> str:
    """The better seed wins (play_round's ``decide``)."""
    return "red" if pairing.red.number < pairing.black.number else "black"


def tournament_at(make: Callable[..., Tournament], name: str, format: str, stage: str,
                  entrants: list[Any], swiss_rounds: int = 3) -> Tournament:
    """A tournament of FORMAT with ENTRANTS: "upcoming" (starts in an hour),
    "running" (its first round played, the second on) or "finished"."""
    rounds = {"rounds": swiss_rounds} if format == Tournament.Format.SWISS else {}
    if stage == "upcoming":
        t = make(name=name, format=format, time_control=CLOCK.key, **rounds)
        for user in entrants:
            entering.join(t.pk, user)
        return t
    t = make(name=name, format=format, starts_at=timezone.now(), pause_seconds=0, time_control=CLOCK.key, **rounds)
    for user in entrants:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    for _ in range(1 if stage == "running" else MOST_ROUNDS):
        play_round(Tournament.objects.get(pk=t.pk), seeded_winner)
        Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
        advancing.advance(t.pk)
        if Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED:
            break
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == (Tournament.Status.RUNNING if stage == "running" else Tournament.Status.FINISHED), t.status
    return t


def tournaments(make: Callable[..., Tournament], players: Callable[[int], list[Any]],
                alice: Any) -> dict[str, Tournament]:
    """Each format before, during and after, with 4 players (the finished
    Swiss 8 with long names, 5 rounds); alice joined the upcoming ones and
    plays in the running round robin."""
    made = {}
    for kind, (letter, format) in FORMATS.items():
        for number, stage in enumerate(("upcoming", "running", "finished"), start=1):
            entrants, rounds = players(1) + [alice] if stage == "upcoming" else players(4), 3
            if (kind, stage) == ("round robin", "running"):
                entrants = players(3) + [alice]
            if (kind, stage) == ("Swiss", "finished"):  # a crosstable wider than a phone (issue 35, finding 5)
                entrants, rounds = players(8, prefix="magdalena_the_patient_"), 5
            made[f"{stage} {kind}"] = tournament_at(make, f"Pokal {letter}{number}", format, stage, entrants, rounds)
    return made


def running_games(alice: Any, bob: Any, charlie: Any, dave: Any) -> dict[str, Game]:
    """alice's running games, each at her turn with some actions played
    before it; bob has said a line in the Ace game (its menu: report it)."""
    def start(*users: Any, seed: str, setup: starting.Setup = starting.Setup()) -> Game:
        return starting.start_game(*users, seed=seed, setup=setup, time_control=CLOCK)

    ace = play_until_turn_of(start(alice, bob, seed="walk-ace-2"), alice, 4)
    chat.say(ace.pk, bob, chat.PLAYERS, text="Viel Glück!")  # before the team game: then bob may write none (RH36)
    return {
        "Ace": ace,
        "Rhombus": play_until_turn_of(start(alice, bob, setup=RHOMBUS, seed="walk-rh-2"), alice, 2),
        "Rhombus for four": play_until_turn_of(start(alice, bob, charlie, dave, setup=RHOMBUS, seed="walk-rh-4"), alice, 4),
        "Formation": play_until_turn_of(start(alice, bob, setup=FORMATION, seed="walk-fo"), alice, 2),
    }


def finished_games(alice: Any, bob: Any) -> dict[str, Game]:
    """Games alice and bob played a few actions of before bob resigned."""
    made = {}
    for name, setup in (("Ace", starting.Setup()), ("Rhombus", RHOMBUS), ("Formation", FORMATION)):
        game = starting.start_game(alice, bob, setup=setup, seed=f"walk-done-{name}")
        play_first_legal(game, 4)
        made[name] = finishing.resign(game.pk, bob)
        assert made[name].status == Game.Status.FINISHED
    return made


def open_seeks(alice: Any, bob: Any, dave: Any, erin: Any) -> None:
    """The lobby's lists filled: an Ace seek, a 4-player Rhombus seek half
    full, and a challenge to alice (which reaches her on any page)."""
    seeks.create_seek(bob, "10+5", rated=True, colour="black")
    seeks.join_seek(seeks.create_seek(dave, "10+5", rules="rhombus", players=4).pk, erin)
    challenges.create_challenge(bob, alice.username, "1d", rules="rhombus")


def restrict(user: Any, django_user_model: Any) -> None:
    """USER may play no rated game (ModerationAction RESTRICT_RATED): the appeal page is theirs."""
    moderator = django_user_model.objects.create_user("mod", "mod@example.org", is_staff=True)
    moderator.groups.add(staff_group("Moderators"))
    act(moderator, ModerationAction.Kind.RESTRICT_RATED, user=user, reason="R9 ×3")


@pytest.fixture
def world(alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any, organizer: Any,
          players: Any, tournament: Any, django_user_model: Any) -> World:
    restrict(charlie, django_user_model)
    done = finished_games(alice, bob)
    live = running_games(alice, bob, charlie, dave)
    chat.say(live["Rhombus"].pk, erin, chat.SPECTATORS, text="¡Qué partida!")
    notices.send(alice.pk, "follower", f"user:{bob.pk}", {"username": "bob"}, "/@/bob/")
    open_seeks(alice, bob, dave, erin)
    events = tournaments(tournament, players, alice)

    both = (None, alice)
    pages = [Page(name, url, user) for name, url in [
        ("home", "/"), ("lobby", "/lobby/"), ("ladder", "/ladder/"), ("live games", "/games/live/"), ("TV", "/tv/"),
        *[(f"ladder {key}", f"/ladder/?game={key}") for key in (ACE, "rhombus", "rhombus-teams")],
        ("profile of bob", "/@/bob/"), ("rules of Ace in the Hole", "/rules/ace-in-the-hole/"),
        ("rules of Rhombus", "/rules/rhombus/"), ("import", "/games/import/"), ("tournaments", "/tournaments/"),
        *[(f"{name} tournament", f"/tournaments/{t.pk}/") for name, t in events.items()],
        *[(f"running {name} game", f"/games/{game.pk}/") for name, game in live.items()],
        *[(f"finished {name} game", f"/games/{game.pk}/") for name, game in done.items()],
        *[(f"{name} replay", f"/games/{game.pk}/replay/") for name, game in done.items()],
        ("replay of the running Rhombus game for four", f"/games/{live['Rhombus for four'].pk}/replay/"),
        ("replay of the running Ace game", f"/games/{live['Ace'].pk}/replay/"),
    ] for user in both]
    pages += [Page(name, url, None) for name, url in [
        ("sign-in", "/accounts/login/"), ("sign-up", "/accounts/signup/"),
        ("password reset", "/accounts/password/reset/"),
    ]]
    pages += [
        Page("own profile", "/@/alice/", alice),
        Page("preferences", "/account/preferences/", alice),
        Page("notifications", "/notifications/", alice),
        Page("API tokens", "/account/tokens/", alice),
        Page("e-mail addresses", "/accounts/email/", alice),
        Page("password change", "/accounts/password/change/", alice),
        Page("sign-out", "/accounts/logout/", alice),
        Page("report a player", "/report/@/bob/", alice),
        Page("report a game", f"/report/game/{done['Ace'].pk}/", alice),
        Page("appeal", "/report/appeal/", charlie),
        Page("lobby of a restricted player", "/lobby/", charlie),
        Page("running Ace game, watched", f"/games/{live['Ace'].pk}/", erin),
        Page("running Rhombus game, watched", f"/games/{live['Rhombus'].pk}/", erin),
        Page("running Rhombus game for four, watched", f"/games/{live['Rhombus for four'].pk}/", erin),
        Page("new tournament form", "/tournaments/new/", organizer),
        Page("upcoming Swiss tournament, organizer", f"/tournaments/{events['upcoming Swiss'].pk}/", organizer),
        Page("running Swiss tournament, organizer", f"/tournaments/{events['running Swiss'].pk}/", organizer),
        Page("running knockout, organizer",
             f"/tournaments/{events['running knockout'].pk}/", organizer),
        Page("new tournament form, not an organizer", "/tournaments/new/", alice, 403),
        Page("no such page", "/no-such-page/", None, 404),
        Page("no such game", "/games/999999/", alice, 404),
    ]
    names = tuple(django_user_model.objects.values_list("username", flat=True))
    titles = tuple(Tournament.objects.values_list("name", flat=True))
    games = {f"running {name}": game.pk for name, game in live.items()}
    games.update({f"finished {name}": game.pk for name, game in done.items()})
    picks = {game.pk: zero_cards(game, alice)[0] for name, game in live.items() if name != "Ace"}
    return World(pages, KEPT_PHRASES + names + titles, games, picks)
