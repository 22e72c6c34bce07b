"""Tiebreaks by format (issue 22, finding 10): blank means the format's
default, and round robins that had the old one-for-all default (Swiss
tiebreaks: Buchholz ranks against score in a round robin) get the round
robin's, Sonneborn-Berger, direct encounter, games won. A round robin whose
organizer chose other tiebreaks keeps them."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

OLD_DEFAULT = "BH-C1,BH,SB"
ROUND_ROBIN_DEFAULT = "SB,DE,WON"


def round_robins_to_their_default(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(format="round-robin", tiebreaks__in=[OLD_DEFAULT, ""]).update(
        tiebreaks=ROUND_ROBIN_DEFAULT)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_tournaments_choose_the_game"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="tiebreaks",
            field=models.CharField(blank=True, default="", help_text="Comma-separated, in order: BH, BH-C1, SB, DE, WON, WIN, ARO, TPR. Blank: Swiss BH-C1,BH,SB; round robin SB,DE,WON", max_length=60),
        ),
        migrations.RunPython(round_robins_to_their_default, migrations.RunPython.noop),
    ]
