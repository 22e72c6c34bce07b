"""What games announce to the apps above them (STYLE: dependencies point down,
events flow up). ``games`` never imports the ladder or tournaments; they
connect here in their ``AppConfig.ready()``."""

from django.dispatch import Signal

# Sent by Game.finish, inside the transaction that records the result, with
# ``game`` (the finished Game, not yet saved). A receiver's error rolls the
# result back with it, so ratings and standings never disagree with the game.
game_finished = Signal()

# Sent when a game is called off (R17, RH27), inside that transaction, with
# ``game`` and ``seat``: the seat that aborted it, or that let its first-move
# window pass (then ``no_show`` is True). Penalties listen (ladder/playban.py).
game_aborted = Signal()

# Sent when a user's account closes: ``is_active`` went from True to False,
# however it was saved (the admin's "Active" box, a moderator's "Close the
# account", ``user.save()`` in a shell; games.signins notices it), with
# ``user``. Sent inside one transaction with the save when there is one (the
# admin's and the moderator's), so that a receiver's error keeps the account
# open. Receivers take the account out of everything it was waiting for: the
# ladder (seeks, challenges, the pool), tournaments not over, API tokens, and
# its open sockets. A queryset ``update(is_active=False)`` sends nothing:
# no model is saved.
account_closed = Signal()
