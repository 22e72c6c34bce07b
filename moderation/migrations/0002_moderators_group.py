"""The "Moderators" group: exactly what moderating needs, so a moderator is a
staff member in this group, never a superuser. See docs/moderation.md."""

from django.db import migrations

ACTS = [
    ("restrict_account", "Can restrict an account from rated games or the lobby"),
    ("close_account", "Can close or reopen an account"),
    ("adjudicate_game", "Can adjudicate a game's result"),
    ("undo_rating", "Can undo a game's rating effect"),
    ("refund_rating", "Can refund rating points taken by an offender"),
    ("lift_restriction", "Can lift a restriction"),
]
# (app label, model, codename, name)
PERMISSIONS = [
    ("moderation", "report", "view_report", "Can view report"),
    ("moderation", "report", "change_report", "Can change report"),  # closing it
    ("moderation", "moderationaction", "view_moderationaction", "Can view moderation action"),
    ("moderation", "moderationaction", "add_moderationaction", "Can add moderation action"),  # acting
    ("moderation", "restriction", "view_restriction", "Can view restriction"),
    ("auth", "user", "view_user", "Can view user"),
    ("games", "game", "view_game", "Can view game"),
    ("ladder", "ratingchange", "view_ratingchange", "Can view rating change"),
] + [("moderation", "moderationaction", codename, name) for codename, name in ACTS]


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name="Moderators")
    for app_label, model, codename, name in PERMISSIONS:
        # Permissions are made after migrating (post_migrate); make the ones the group needs now.
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        permission, _ = Permission.objects.get_or_create(
            content_type=content_type, codename=codename, defaults={"name": name})
        group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("games", "0006_seats"),
        ("ladder", "0006_pool_chooses_the_game"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
