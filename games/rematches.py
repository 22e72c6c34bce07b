"""Rematches: the players of a finished game ask for another, which starts
once all of them have (RH28, RH37)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from games import bots, broadcast, starting, store
from games.models import Game
from games.refusals import Refusal


def rematch(game_id: int, user: Any) -> Game:
    """Offer a rematch of a game that is over, or accept the others' offer.

    Once every player has asked (bots accept at once), a new game starts
    with the same game, time control and rated flag. Ace in the Hole swaps
    the colours; in Rhombus everyone keeps their seat and the winning side
    deals, so the losers move first (RH28, RH37; after a draw or an abort
    the deal passes on). Repeats (double clicks) change nothing.
    """
    with transaction.atomic():
        game = store.locked(game_id)
        seat = store.player_seat(game, user)
        if game.running:
            raise Refusal(gettext("the game is still running: finish it before asking for a rematch"))
        if game.event:  # its players' next game is the event's (a rematch would be outside it)
            raise Refusal(gettext("this game belongs to %(event)s, so it has no rematch: your next game "
                                  "there starts with the next round") % {"event": game.event})
        if game.rematch_game_id is not None or seat in game.rematch_offers:
            return game
        if any(not bots.bot_plays(game, name) for name in game.seat_names if name != seat):
            starting.may_start(user, game.rated)  # playing the computer again is never refused
        starting.may_sit_together([s.user for s in game.table])  # refused at the offer, not only at the last answer
        game.rematch_offers = [*game.rematch_offers, seat]
        waiting = [name for name in game.seat_names
                   if name not in game.rematch_offers and not bots.bot_plays(game, name)]
        if not waiting:
            users = [s.user for s in game.table]
            dealer = game.rules.dealer_after(game.rules.from_json(game.position), game.winner or None)
            if dealer is None:  # no dealer in the rules: each player moves on one seat
                users = users[-1:] + users[:-1]
            game.rematch_game = starting.start_game(*users, rated=game.rated, time_control=game.time_control,
                                           setup=starting.Setup(game.kind, game.variant, dealer))
        game.save(update_fields=["rematch_game", "rematch_offers"])
        # Only a new game changes anyone's "your turn" list: then everyone's.
        broadcast.notify_on_commit(game, turns_for=[s.user_id for s in game.table] if not waiting else [])
    return game
