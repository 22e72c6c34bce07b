"""Moderators look at the lists the admin gained in issue 37 that their work
needs: the ratings on the other ladders (they correct them), the quick-pairing
waits, the playban records (the outcomes a playban counts), mutes and room
locks. A look only: each of these lists is read only for everyone."""

from django.db import migrations

# (app label, model, codename, name)
PERMISSIONS = [
    ("ladder", "rating", "view_rating", "Can view rating on another ladder"),
    ("ladder", "poolentry", "view_poolentry", "Can view quick pairing wait"),
    ("ladder", "playbanrecord", "view_playbanrecord", "Can view playban record"),
    ("chat", "mute", "view_mute", "Can view mute"),
    ("chat", "roomlock", "view_roomlock", "Can view room lock"),
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
        ("moderation", "0010_verbose_names"),
        ("ladder", "0017_bot_level_choices"),
        ("chat", "0002_verbose_names"),
    ]

    operations = [migrations.RunPython(allow, disallow)]
