"""Invite codes of 64 random bits or more (issue 24 item 3): the column takes 14 characters, and the
private tables still open get a new code (their old six-character code, 30 bits, could be guessed).
The old link stops working; the table page shows the new one to its players."""

import secrets

from django.db import migrations, models

# Frozen copies of games.services.table_settings' INVITE_ALPHABET and INVITE_LENGTH at this migration.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 14


def reissue_short_codes(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(invite_code__isnull=False).exclude(status="finished"):
        if len(table.invite_code) < LENGTH:
            table.invite_code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
            table.save(update_fields=["invite_code"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_gengfeng_count"),
    ]

    operations = [
        migrations.AlterField(
            model_name="table",
            name="invite_code",
            field=models.CharField(
                blank=True, max_length=16, null=True, unique=True, verbose_name="私人桌邀请码"
            ),
        ),
        migrations.RunPython(reissue_short_codes, migrations.RunPython.noop),
    ]
