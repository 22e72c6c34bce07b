"""Moderators abort games, correct ratings and lift playbans (issue 37): the
acts' permissions, and a look at the players whose ratings they correct."""

from django.db import migrations

# (app label, model, codename, name)
PERMISSIONS = [
    ("moderation", "moderationaction", "abort_game", "Can abort a running game"),
    ("moderation", "moderationaction", "correct_rating", "Can correct a player's rating"),
    ("moderation", "moderationaction", "lift_playban", "Can lift or shorten a playban"),
    ("ladder", "player", "view_player", "Can view player"),
]


def allow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name="Moderators")
    for app_label, model, codename, name in PERMISSIONS:
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        permission, _ = Permission.objects.get_or_create(content_type=content_type, codename=codename,
                                                         defaults={"name": name})
        group.permissions.add(permission)


def disallow(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Moderators"):
        for app_label, _model, codename, _name in PERMISSIONS:
            group.permissions.remove(*Permission.objects.filter(content_type__app_label=app_label, codename=codename))


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0007_rating_and_playban_acts"),
        ("ladder", "0014_rating_corrections"),
    ]

    operations = [migrations.RunPython(allow, disallow)]
