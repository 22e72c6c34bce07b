"""Who corrects tournaments (issue 37): Moderators get the DISQUALIFY act's
permission and a look at every tournament in the admin; Organizers no longer
delete entries (an entry that has played is disqualified, never deleted)."""

from django.db import migrations

# (app label, model, codename, name)
MODERATORS = [
    ("moderation", "moderationaction", "disqualify_player", "Can disqualify a player from a tournament"),
    ("tournaments", "tournament", "view_tournament", "Can view tournament"),
    ("tournaments", "entry", "view_entry", "Can view entry"),
    ("tournaments", "round", "view_round", "Can view round"),
    ("tournaments", "pairing", "view_pairing", "Can view pairing"),
    ("tournaments", "correction", "view_correction", "Can view correction"),
]
ORGANIZERS = [("tournaments", "correction", "view_correction", "Can view correction")]
ORGANIZERS_NOT = [("tournaments", "entry", "delete_entry")]


def _permission(apps, app_label, model, codename, name):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
    permission, _ = Permission.objects.get_or_create(content_type=content_type, codename=codename,
                                                     defaults={"name": name})
    return permission


def allow(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    moderators, _ = Group.objects.get_or_create(name="Moderators")
    moderators.permissions.add(*(_permission(apps, *row) for row in MODERATORS))
    organizers, _ = Group.objects.get_or_create(name="Organizers")
    organizers.permissions.add(*(_permission(apps, *row) for row in ORGANIZERS))
    for app_label, _model, codename in ORGANIZERS_NOT:
        organizers.permissions.remove(*Permission.objects.filter(content_type__app_label=app_label,
                                                                 codename=codename))


def disallow(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name="Moderators"):
        for app_label, _model, codename, _name in MODERATORS:
            group.permissions.remove(*Permission.objects.filter(content_type__app_label=app_label, codename=codename))
    for group in Group.objects.filter(name="Organizers"):
        group.permissions.add(*Permission.objects.filter(content_type__app_label="tournaments",
                                                         codename="delete_entry"))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_disqualified_entries_and_corrections"),
        ("tournaments", "0002_organizers_group"),
        ("moderation", "0009_disqualify_act"),
        ("moderation", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(allow, disallow)]
