"""Each entry's final place (issue 22, finding 12), kept when a tournament
finishes; tournaments finished before this get theirs here."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def places_of_finished_tournaments(apps: Any, schema_editor: Any) -> None:
    # The ranking is the running code's (tiebreaks, brackets), which reads the
    # current models: the rows are the same, this migration only adds a column.
    # Only the columns this migration's state knows are read: later migrations
    # add others (0006 chat_for) that do not exist yet when this one runs.
    from tournaments import scoring
    from tournaments.models import Tournament

    historical = apps.get_model("tournaments", "Tournament")
    finished = list(historical.objects.filter(status="finished").values_list("pk", flat=True))
    known = [field.name for field in historical._meta.concrete_fields]
    for tournament in Tournament.objects.only(*known).filter(pk__in=finished):
        scoring.store_places(tournament)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0004_tiebreaks_by_format"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="place",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(places_of_finished_tournaments, migrations.RunPython.noop),
    ]
