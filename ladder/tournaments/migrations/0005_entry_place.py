"""Each entry's final place (issue 22, finding 12), kept when a tournament
finishes; tournaments finished before this get theirs here."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def places_of_finished_tournaments(apps: Any, schema_editor: Any) -> None:
    # The ranking is the running code's (tiebreaks, brackets), which reads the
    # current models: the rows are the same, this migration only adds a column.
    from ladder.tournaments import running
    from ladder.tournaments.models import Tournament

    for tournament in Tournament.objects.filter(status=Tournament.Status.FINISHED):
        running.store_places(tournament)


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
