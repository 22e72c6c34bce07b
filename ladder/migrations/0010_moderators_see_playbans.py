"""Moderators may look at playbans (ladder/playban.py), which the rules give and
take; changing one is left to superusers."""

from django.db import migrations


def allow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name="Moderators")
    content_type, _ = ContentType.objects.get_or_create(app_label="ladder", model="ban")
    permission, _ = Permission.objects.get_or_create(content_type=content_type, codename="view_ban",
                                                     defaults={"name": "Can view ban"})
    group.permissions.add(permission)


def disallow(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Moderators"):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="ladder", codename="view_ban"))


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0009_playbans"),
        ("moderation", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(allow, disallow)]
