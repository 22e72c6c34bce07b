"""A moderator's rating correction is a RatingChange with no game (issue 37):
its game, opponent, opponent's rating, score and K may be empty, and a note says why."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_live_ratings'),
        ('ladder', '0013_rating_counts_summed_by_rating'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='ratingchange',
            name='note',
            field=models.TextField(blank=True),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='game',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.game'),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='k',
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='opponent',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='opponent_rating',
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='score',
            field=models.FloatField(blank=True, null=True),
        ),
    ]
