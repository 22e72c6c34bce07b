"""{{ username|rating_of }}: a player's ladder rating as shown ("1512?" while provisional)."""

from __future__ import annotations

from django import template
from django.contrib.auth import get_user_model

from ladder import elo
from ladder.models import Player

register = template.Library()


@register.filter
def rating_of(username: str) -> str:
    """One small query; for pages that show a name or two (the game page's players)."""
    player = Player.objects.filter(user__username=username).only("rating", "rated_games").first()
    if player is None:
        exists = get_user_model().objects.filter(username=username).exists()
        return f"{elo.START}?" if exists else ""
    return elo.display(player.rating, player.rated_games)
