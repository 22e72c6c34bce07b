"""Moderation tests: alice, bob and charlie (tests/conftest.py), a moderator in
the Moderators group, finished rated games between them, and acting as the admin does."""

from __future__ import annotations

from typing import Any

import pytest

from games import finishing, starting
from games.models import Game
from moderation import actions
from moderation.models import ModerationAction
from tests.games.conftest import fast_password_hashing  # noqa: F401
from tests.helpers import staff_group

SEED = "tests-moderation-seed"


@pytest.fixture
def moderator(django_user_model: Any) -> Any:
    """Staff, in the Moderators group (made by the migration), not a superuser."""
    user = django_user_model.objects.create_user("mod", "mod@example.org", "password", is_staff=True)
    user.groups.add(staff_group("Moderators"))
    return user


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    """Staff without the group: may enter the admin, may moderate nothing."""
    return django_user_model.objects.create_user("staffer", "staffer@example.org", "password", is_staff=True)


def finished_game(winner: Any, loser: Any, *, rated: bool = True) -> Game:
    """A game ``winner`` won by ``loser`` resigning."""
    game = starting.start_game(winner, loser, seed=SEED, rated=rated)
    return finishing.resign(game.pk, loser)


def drawn_game(one: Any, other: Any) -> Game:
    """A rated game drawn on points (R16), recorded as the end of play records it."""
    game = Game.objects.get(pk=starting.start_game(one, other, seed=SEED, rated=True).pk)
    game.finish(game.created, None, Game.Reason.POINTS, None)  # the ladder rates it (games.signals)
    game.save()
    return game


def act(moderator: Any, kind: str, **fields: Any) -> ModerationAction:
    """Do an act as the admin's add form does (after its checks)."""
    return actions.perform(ModerationAction(moderator=moderator, kind=kind, reason=fields.pop("reason", "seen it"),
                                            **fields))
