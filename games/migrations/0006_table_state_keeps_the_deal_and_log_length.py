"""The action log is stored once, as the hand's Action rows (issue 12): `Table.state` keeps how the hand
was dealt and the log's length (`moves`), not the copy of the log it used to rewrite on every action."""

from django.db import migrations


def drop_log_copy(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.exclude(state=None).only("pk", "state").iterator():
        if isinstance(table.state, dict) and "actions" in table.state:
            table.state["moves"] = len(table.state.pop("actions"))
            table.save(update_fields=["state"])


def restore_log_copy(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Action = apps.get_model("games", "Action")
    for table in Table.objects.exclude(state=None).only("pk", "state", "hand_id").iterator():
        if isinstance(table.state, dict) and "moves" in table.state:
            moves = table.state.pop("moves")
            log = Action.objects.filter(hand_id=table.hand_id, seq__lte=moves).order_by("seq")
            table.state["actions"] = list(log.values_list("action", flat=True))
            table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_table_choices"),
    ]

    operations = [
        migrations.RunPython(drop_log_copy, restore_log_copy),
    ]
