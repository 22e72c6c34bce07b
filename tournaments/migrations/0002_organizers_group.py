"""The "Organizers" group: membership, granted in the admin, lets a user run
tournaments from the site (tournaments.organize_tournament) and edit them in
the admin (a staff member in the group)."""

from django.db import migrations

MODELS = ("tournament", "entry", "round", "pairing", "forbiddenpairing")
PERMISSIONS = [("organize_tournament", "tournament", "Can organize tournaments")] + [
    (f"{action}_{model}", model, f"Can {action} {model}")
    for model in MODELS for action in ("add", "change", "view")
] + [("delete_entry", "entry", "Can delete entry"), ("delete_forbiddenpairing", "forbiddenpairing",
                                                       "Can delete forbidden pairing")]


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name="Organizers")
    for codename, model, name in PERMISSIONS:
        # Permissions are made after migrating (post_migrate); make the ones the group needs now.
        content_type, _ = ContentType.objects.get_or_create(app_label="tournaments", model=model)
        permission, _ = Permission.objects.get_or_create(
            content_type=content_type, codename=codename, defaults={"name": name})
        group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Organizers").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
