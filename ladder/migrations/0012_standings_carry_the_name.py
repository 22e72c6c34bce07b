# The leaderboard's name search (issue 24): each standing carries its user's
# name, so a prefix search reads one index holding the names with the ratings
# (an index-only scan), instead of joining thousands of users to their rows.
# PostgreSQL keeps the copy with triggers; elsewhere it stays empty and the
# search joins the users (ladder/leaderboard.py).

from django.conf import settings
from django.db import migrations, models

TABLES = ("ladder_player", "ladder_rating")
# Django's istartswith reads UPPER(name::text) LIKE UPPER('abc%'): this index
# answers it, and its INCLUDEd columns (name among them, so PostgreSQL may skip
# the table) are all the leaderboard reads of the players found.
INDEXES = {
    "ladder_player": "CREATE INDEX IF NOT EXISTS ladder_player_name_idx ON ladder_player"
                     " (UPPER(name::text) text_pattern_ops) INCLUDE (rating, user_id, last_active, is_bot, name)",
    "ladder_rating": "CREATE INDEX IF NOT EXISTS ladder_rating_name_idx ON ladder_rating"
                     " (ladder, UPPER(name::text) text_pattern_ops)"
                     " INCLUDE (rating, user_id, id, last_active, is_bot, name)",
}


def create_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    users = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
    # Every row written gets its user's name, whatever Django sent for it.
    schema_editor.execute(
        "CREATE OR REPLACE FUNCTION ladder_standing_name() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        f"BEGIN\n  NEW.name := (SELECT username FROM \"{users}\" WHERE id = NEW.user_id);\n  RETURN NEW;\nEND $$")
    # A renamed user's rows follow.
    schema_editor.execute(
        "CREATE OR REPLACE FUNCTION ladder_user_renamed() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "BEGIN\n"
        + "".join(f"  UPDATE {table} SET name = NEW.username WHERE user_id = NEW.id;\n" for table in TABLES)
        + "  RETURN NULL;\nEND $$")
    for table in TABLES:
        schema_editor.execute(f"CREATE TRIGGER {table}_name BEFORE INSERT OR UPDATE ON {table}"
                              " FOR EACH ROW EXECUTE FUNCTION ladder_standing_name()")
        schema_editor.execute(f'UPDATE {table} SET name = u.username FROM "{users}" u WHERE u.id = {table}.user_id')
        schema_editor.execute(INDEXES[table])
    schema_editor.execute(f'CREATE TRIGGER ladder_user_renamed AFTER UPDATE OF username ON "{users}"'
                          " FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username)"
                          " EXECUTE FUNCTION ladder_user_renamed()")


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    users = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
    schema_editor.execute(f'DROP TRIGGER IF EXISTS ladder_user_renamed ON "{users}"')
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_name ON {table}")
        schema_editor.execute(f"DROP INDEX IF EXISTS {table}_name_idx")
    schema_editor.execute("DROP FUNCTION IF EXISTS ladder_user_renamed()")
    schema_editor.execute("DROP FUNCTION IF EXISTS ladder_standing_name()")


class Migration(migrations.Migration):

    dependencies = [
        ('ladder', '0011_rating_counts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='name',
            field=models.CharField(blank=True, default='', editable=False, max_length=150),
        ),
        migrations.AddField(
            model_name='rating',
            name='name',
            field=models.CharField(blank=True, default='', editable=False, max_length=150),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
