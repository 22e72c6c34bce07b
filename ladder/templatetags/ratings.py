"""{% rating username kind players %}: a player's rating on the ladder of the
game shown ("1512?" while provisional), Ace in the Hole's by default."""

from __future__ import annotations

from django import template
from django.contrib.auth import get_user_model

from ladder import elo
from ladder.models import ACE, Player, Rating, ladder_of

register = template.Library()


@register.simple_tag
def rating(username: str, kind: str = ACE, players: int = 2) -> str:
    """One small query; for pages that show a name or a few (the game page's players)."""
    ladder = ladder_of(kind, players)
    rows = (Player.objects.filter(user__username=username) if ladder == ACE
            else Rating.objects.filter(user__username=username, ladder=ladder))
    standing = rows.only("rating", "rated_games").first()
    if standing is None:
        exists = get_user_model().objects.filter(username=username).exists()
        return f"{elo.START}?" if exists else ""
    return elo.display(standing.rating, standing.rated_games)
