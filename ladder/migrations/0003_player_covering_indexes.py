# The leaderboard reads these indexes alone (bench/leaderboard.py): see Player.Meta.

from django.conf import settings
from django.db import migrations, models

# The leaderboard's name search is a case-insensitive prefix search, as
# lichess's: Django writes it UPPER(username) LIKE 'ABC%', which this index
# answers without reading every user. PostgreSQL only (text_pattern_ops).
PREFIX_INDEX = "ladder_username_prefix_idx"


def create_prefix_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
        schema_editor.execute(f'CREATE INDEX IF NOT EXISTS {PREFIX_INDEX} ON "{table}" '
                              "(UPPER(username::text) text_pattern_ops)")


def drop_prefix_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {PREFIX_INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ('ladder', '0002_ladder_ratings_pool'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='player',
            name='player_rating_idx',
        ),
        migrations.RemoveIndex(
            model_name='player',
            name='player_active_idx',
        ),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['-rating', 'user'], include=('last_active', 'is_bot'), name='player_rating_idx'),
        ),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['-last_active'], include=('rating', 'is_bot'), name='player_active_idx'),
        ),
        migrations.RunPython(create_prefix_index, drop_prefix_index),
    ]
