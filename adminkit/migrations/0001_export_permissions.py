"""The export permissions (adminkit/export.py): one per exported list, held by
no group; a superuser grants them to whom may take the data away. Made here, not
in each model's Meta, so that auth's User has one too (its Meta is Django's)."""

from django.db import migrations

# (app label, model, codename, name)
PERMISSIONS = [
    ("auth", "user", "export_user", "Can export users as CSV"),
    ("games", "game", "export_game", "Can export games as CSV"),
    ("ladder", "player", "export_player", "Can export players as CSV"),
    ("ladder", "rating", "export_rating", "Can export ratings as CSV"),
    ("ladder", "ratingchange", "export_ratingchange", "Can export rating changes as CSV"),
    ("moderation", "report", "export_report", "Can export reports as CSV"),
    ("moderation", "moderationaction", "export_moderationaction", "Can export moderation actions as CSV"),
]


def create(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    for app_label, model, codename, name in PERMISSIONS:
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        Permission.objects.get_or_create(content_type=content_type, codename=codename, defaults={"name": name})


def remove(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for app_label, _model, codename, _name in PERMISSIONS:
        Permission.objects.filter(content_type__app_label=app_label, codename=codename).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create, remove)]
