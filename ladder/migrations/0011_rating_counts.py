# The leaderboard's counts (issue 24): see RatingCount and ladder/rank_counts.py.

from django.db import migrations, models

# One statement-level trigger a change (INSERT, UPDATE, DELETE) on each standings
# table: it appends the statement's net change per (ladder, bot, rating, day), so
# a bulk insert of a million rows costs one grouped insert, and a rated game two
# small ones. PostgreSQL only; SQLite leaves RatingCount empty (the leaderboard
# counts directly there). A TRUNCATE of a table empties its ladders' counts.
TABLES = {"ladder_player": "'ace-in-the-hole'", "ladder_rating": "ladder"}
TRUNCATED = {"ladder_player": "ladder = 'ace-in-the-hole'", "ladder_rating": "ladder <> 'ace-in-the-hole'"}


def _rows(transition, ladder, sign):
    return (f"SELECT {ladder} AS ladder, is_bot, rating, (last_active AT TIME ZONE 'UTC')::date AS day,"
            f" {sign}1 AS n FROM {transition} WHERE last_active IS NOT NULL")


def _function(table, ladder):
    changes = {"INSERT": [_rows("new_rows", ladder, "")], "DELETE": [_rows("old_rows", ladder, "-")],
               "UPDATE": [_rows("new_rows", ladder, ""), _rows("old_rows", ladder, "-")]}
    branches = "\n".join(
        f"  {'IF' if i == 0 else 'ELSIF'} TG_OP = '{op}' THEN\n"
        "    INSERT INTO ladder_ratingcount (ladder, is_bot, rating, day, n)\n"
        f"    SELECT ladder, is_bot, rating, day, SUM(n) FROM ({' UNION ALL '.join(parts)}) AS c\n"
        "    GROUP BY ladder, is_bot, rating, day HAVING SUM(n) <> 0;"
        for i, (op, parts) in enumerate(changes.items()))
    truncated = f"  ELSIF TG_OP = 'TRUNCATE' THEN\n    DELETE FROM ladder_ratingcount WHERE {TRUNCATED[table]};"
    return (f"CREATE OR REPLACE FUNCTION {table}_count_ratings() RETURNS trigger LANGUAGE plpgsql AS $$\n"
            f"BEGIN\n{branches}\n{truncated}\n  END IF;\n  RETURN NULL;\nEND $$")


def _triggers(table):
    referencing = {"INSERT": "NEW TABLE AS new_rows", "UPDATE": "OLD TABLE AS old_rows NEW TABLE AS new_rows",
                   "DELETE": "OLD TABLE AS old_rows"}
    return [f"CREATE TRIGGER {table}_count_{op.lower()} AFTER {op} ON {table} REFERENCING {ref}"
            f" FOR EACH STATEMENT EXECUTE FUNCTION {table}_count_ratings()" for op, ref in referencing.items()] + [
        f"CREATE TRIGGER {table}_count_truncate AFTER TRUNCATE ON {table}"
        f" FOR EACH STATEMENT EXECUTE FUNCTION {table}_count_ratings()"]


def create_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # No query of the leaderboard reads enough of these tables for parallel
    # workers to pay for their start-up (several ms on a small machine).
    for table in (*TABLES, "ladder_ratingcount"):
        schema_editor.execute(f"ALTER TABLE {table} SET (parallel_workers = 0)")
    for table, ladder in TABLES.items():
        schema_editor.execute(_function(table, ladder))
        for statement in _triggers(table):
            schema_editor.execute(statement)
        # The players already there (the triggers hold the table until this commits).
        schema_editor.execute(
            "INSERT INTO ladder_ratingcount (ladder, is_bot, rating, day, n)"
            f" SELECT ladder, is_bot, rating, day, COUNT(*) FROM ({_rows(table, ladder, '')}) AS c"
            " GROUP BY ladder, is_bot, rating, day")


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"ALTER TABLE {table} RESET (parallel_workers)")
    for table in TABLES:
        for op in ("insert", "update", "delete", "truncate"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_count_{op} ON {table}")
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {table}_count_ratings()")


class Migration(migrations.Migration):

    dependencies = [
        ('ladder', '0010_moderators_see_playbans'),
    ]

    operations = [
        migrations.CreateModel(
            name='RatingCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ladder', models.CharField(max_length=24)),
                ('is_bot', models.BooleanField()),
                ('rating', models.IntegerField()),
                ('day', models.DateField(null=True)),
                ('n', models.IntegerField()),
            ],
            options={
                'indexes': [models.Index(fields=['ladder', 'day'], include=('rating', 'is_bot', 'n'), name='rating_count_day_idx')],
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
