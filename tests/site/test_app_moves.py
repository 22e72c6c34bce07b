"""Tournaments, moderation and the API moved out of ladder/ to the top level
(issue 36) with no change a database, a queue or a deployment could notice:
their app labels and migrations are the same, so a database migrated before
the move has nothing to do after it; and their Celery tasks keep the names that
queued messages and the beat schedule hold.

(Checked once by hand too: `manage.py migrate` at the commit before the move on
a fresh PostgreSQL database, then `manage.py migrate --check` after it: exit 0,
"No migrations to apply".)
"""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.db.migrations.loader import MigrationLoader

from aceweb.celery import app as celery_app

# Each moved app's label and the migrations it had when it moved.
BEFORE_THE_MOVE = {
    "tournaments": ["0001_initial", "0002_organizers_group", "0003_tournaments_choose_the_game",
                    "0004_tiebreaks_by_format", "0005_entry_place", "0006_chat_for", "0007_tournament_soon_told_at"],
    "moderation": ["0001_initial", "0002_moderators_group", "0003_restriction_reasons_and_appeals",
                   "0004_report_by_chat_filter", "0005_chat_acts", "0006_moderators_moderate_chat"],
    "api": ["0001_initial"],
}


def test_the_moved_apps_keep_their_labels_at_the_top_level() -> None:
    for label in BEFORE_THE_MOVE:
        assert apps.get_app_config(label).name == label  # tournaments/, not ladder/tournaments/


def test_a_database_migrated_before_the_move_has_the_same_migrations_to_match() -> None:
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for label, names in BEFORE_THE_MOVE.items():
        assert all((label, name) in graph.nodes for name in names), label


def test_queued_tournament_tasks_and_the_beat_schedule_keep_their_names() -> None:
    celery_app.loader.import_default_modules()
    for name in ("advance", "advance_due", "tell_starting_soon"):
        assert f"ladder.tournaments.tasks.{name}" in celery_app.tasks
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled <= set(celery_app.tasks), scheduled - set(celery_app.tasks)
