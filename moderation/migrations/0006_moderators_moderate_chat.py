"""Moderators moderate chat (issue 25): the chat acts' permission, and a look at
the lines and timeouts in the admin."""

from django.db import migrations

# (app label, model, codename, name)
PERMISSIONS = [
    ("moderation", "moderationaction", "moderate_chat", "Can time players out of chat, remove lines and lock rooms"),
    ("chat", "line", "view_line", "Can view chat line"),
    ("chat", "chattimeout", "view_chattimeout", "Can view chat timeout"),
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
        ("moderation", "0005_chat_acts"),
        ("chat", "0001_initial"),
    ]

    operations = [migrations.RunPython(allow, disallow)]
