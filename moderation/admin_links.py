"""Where a moderator goes next from an admin page: the pages about one player,
the act form filled in for them, and the game or tournament a chat room
belongs to. Only links the viewer may open are made: a link that answers 403
is one more thing to click for nothing."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_lazy

from ladder.models import ACE, LADDERS, Ban, Player, Rating
from moderation import restrictions
from moderation.models import ModerationAction, Restriction

Kind = ModerationAction.Kind
Link = tuple[str, str]  # (label, url)

# The fields of the act form each kind uses, its target first; kind and reason
# are always shown. A kind not named here (added later) shows every field.
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    Kind.RESTRICT_RATED: ("user", "report", "days"),
    Kind.RESTRICT_LOBBY: ("user", "report", "days"),
    Kind.CLOSE_ACCOUNT: ("user", "report"),
    Kind.REOPEN_ACCOUNT: ("user", "report"),
    Kind.LIFT_RATED: ("user", "report"),
    Kind.LIFT_LOBBY: ("user", "report"),
    Kind.REFUND: ("user", "report", "since", "until"),
    Kind.ADJUDICATE: ("game", "winner", "user", "report"),
    Kind.UNDO_RATING: ("game", "user", "report"),
    Kind.CHAT_TIMEOUT: ("user", "minutes", "chat_reason", "report"),
    Kind.CHAT_REMOVE: ("chat_line", "user", "report"),
    Kind.CHAT_CLEAR: ("user", "report"),
    Kind.CHAT_LOCK: ("room", "minutes", "report"),
    Kind.ABORT_GAME: ("game", "user", "report"),
    Kind.CORRECT_RATING: ("user", "ladder", "rating", "report"),
    Kind.LIFT_PLAYBAN: ("user", "until", "report"),
}
ALWAYS_SHOWN = ("kind", "reason")


def fields_of(kind: str, every_field: Iterable[str]) -> list[str]:
    """The act form's fields shown for ``kind``: its own, or all for an unknown kind."""
    every_field = list(every_field)
    if kind not in KIND_FIELDS:
        return every_field
    return [name for name in every_field if name in ALWAYS_SHOWN or name in KIND_FIELDS[kind]]


def act_url(kind: str, **query: Any) -> str:
    """The act form for ``kind``, filled in with ``query`` (user, report, game...)."""
    return f"{reverse('admin:moderation_moderationaction_add')}?{urlencode(query | {'kind': kind})}"


def lift_kind(scope: str) -> str | None:
    """The act that lifts a restriction of ``scope`` (rated → lift_rated), or a
    playban (lift_playban), if there is one."""
    kind = f"lift_{scope}"
    return kind if kind in Kind.values else None


def acts_on_accounts() -> list[str]:
    """The kinds whose target is an account (its first field the user)."""
    return [kind for kind in Kind.values if KIND_FIELDS.get(kind, ("user",))[0] == "user"]


def admin_url(request: HttpRequest, app_model: str, view: str = "changelist", args: Iterable[Any] = (),
              query: Mapping[str, Any] | None = None) -> str | None:
    """An admin page's address if it is registered and the viewer may see it, else None."""
    app, model = app_model.split(".")
    if not request.user.has_perm(f"{app}.view_{model}") and not request.user.has_perm(f"{app}.change_{model}"):
        return None
    try:
        url = reverse(f"admin:{app}_{model}_{view}", args=list(args))
    except NoReverseMatch:  # not in the admin (yet)
        return None
    return f"{url}?{urlencode(query)}" if query else url


def _keep(links: Iterable[tuple[Any, str | None]]) -> list[Link]:
    return [(str(label), url) for label, url in links if url]


def user_links(request: HttpRequest, user: Any) -> list[tuple[str, list[Link]]]:
    """The User page's "Links" block: sections of (label, url), each link one the viewer may open."""
    mine = {"user__id__exact": user.pk}
    sections = [
        (gettext("On the site"), _keep([
            (gettext("Profile and recent games"), reverse("ladder:profile", args=[user.get_username()]))])),
        (gettext("Games and ratings"), _keep([
            (gettext("Games in the admin"), admin_url(request, "games.game", query={"player": user.pk})),
            *_rating_links(request, user),
            (gettext("Rating changes"), admin_url(request, "ladder.ratingchange", query=mine)),
            (gettext("Playbans"), admin_url(request, "ladder.ban", query=mine)),
        ])),
        (gettext("Reports and acts"), _keep([
            (gettext("Reports about them"),
             admin_url(request, "moderation.report", query={"reported__id__exact": user.pk, "status": "all"})),
            (gettext("Reports by them"),
             admin_url(request, "moderation.report", query={"reporter__id__exact": user.pk, "status": "all"})),
            (gettext("Acts on them"), admin_url(request, "moderation.moderationaction", query={"user": user.pk})),
            (gettext("Restrictions"), admin_url(request, "moderation.restriction", query=mine)),
            (gettext("Chat lines"), admin_url(request, "chat.line", query={"author": user.pk})),
            (gettext("API tokens"), admin_url(request, "api.apitoken", query=mine)),
        ])),
        (gettext("Act on them"), _act_links(request, user)),
    ]
    return [(title, links) for title, links in sections if links]


def _rating_links(request: HttpRequest, user: Any) -> list[tuple[str, str | None]]:
    """One link per ladder they are rated on: the profile on that ladder, with the rating."""
    standings: list[tuple[str, int, str | None]] = []
    player = Player.objects.filter(user=user).first()
    if player is not None:
        standings.append((ACE, player.rating, admin_url(request, "ladder.player", "change", [user.pk])))
    for rating in Rating.objects.filter(user=user).order_by("ladder"):
        standings.append((rating.ladder, rating.rating, admin_url(request, "ladder.rating", "change", [rating.pk])))
    links: list[tuple[str, str | None]] = []
    for ladder, value, admin_row in standings:
        name = gettext(LADDERS.get(ladder, ladder))
        profile = reverse("ladder:profile", args=[user.get_username()]) + "?" + urlencode({"ladder": ladder})
        links.append((gettext("%(ladder)s: %(rating)s") % {"ladder": name, "rating": value}, profile))
        links.append((gettext("%(ladder)s in the admin") % {"ladder": name}, admin_row))
    return links


def _act_links(request: HttpRequest, user: Any) -> list[Link]:
    """The act form for each act on an account, and "Lift" for each restriction in force."""
    if not request.user.has_perm("moderation.add_moderationaction"):
        return []
    links = [(str(Kind(kind).label), act_url(kind, user=user.pk)) for kind in acts_on_accounts()]
    for restriction in restrictions.active(user):
        if (url := lift_url(restriction)) is not None:
            links.insert(0, (lift_label(restriction), url))
    now = timezone.now()
    if (kind := lift_kind("playban")) and Ban.objects.filter(user=user, started__lte=now, ends__gt=now).exists():
        links.insert(0, (gettext("Lift: %(scope)s") % {"scope": gettext("playban")}, act_url(kind, user=user.pk)))
    return links


def lift_label(restriction: Restriction) -> str:
    return gettext("Lift: %(scope)s") % {"scope": restriction.get_scope_display()}


def lift_url(restriction: Restriction) -> str | None:
    kind = lift_kind(restriction.scope)
    return act_url(kind, user=restriction.user_id) if kind else None


# --- Chat rooms ---------------------------------------------------------------

_ROOM = re.compile(r"^(?P<kind>game|tournament):(?P<number>[0-9]+)(?:/.*)?$")


def room_links(room: str) -> list[Link]:
    """The site's and the admin's page of the game or tournament a room belongs to
    ('game:12', 'game:12/w' for its watchers, 'tournament:7'); none for another room."""
    match = _ROOM.match(room)
    if match is None:
        return []
    number = int(match["number"])
    if match["kind"] == "game":
        site, admin_row, label = "games:game", "admin:games_game_change", gettext("game %(number)s")
    else:
        site, admin_row, label = "tournaments:detail", "admin:tournaments_tournament_change", \
            gettext("tournament %(number)s")
    links = [(label % {"number": number}, reverse(site, args=[number]))]
    try:
        links.append((gettext("admin"), reverse(admin_row, args=[number])))
    except NoReverseMatch:
        pass
    return links


LINKS_HEADING = gettext_lazy("Links")
