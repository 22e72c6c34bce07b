from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotifyConfig(AppConfig):
    """Notifications (lila's modules/notify): what a player is told, on the
    site, by web push and by e-mail. Lowest floor: a notice names what it is
    about by a plain key (``game:12``, ``tournament:7``) and carries only
    public facts, so this app never imports games, the ladder or tournaments;
    they call :func:`notify.notices.send` (STYLE.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "notify"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from notify import live, notices, tasks

        notices.deliver_with(live.deliver)  # the bell and toast on the player's open pages
        notices.deliver_with(tasks.queue_push)  # web push to the player's subscribed browsers
        notices.deliver_with(tasks.queue_mail)  # one e-mail a notice, for the kinds chosen by e-mail
