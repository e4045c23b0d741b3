"""Migration 0012 gives the private tables still open a 64-bit invite code (issue 24 item 3)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0011_gengfeng_count")]
AFTER = [("games", "0012_invite_code_64_bits")]


@pytest.mark.django_db(transaction=True)
def test_open_private_tables_get_a_long_code_finished_ones_keep_theirs():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    room = old.get_model("games", "Room").objects.create(name="old room")
    Table = old.get_model("games", "Table")
    waiting = Table.objects.create(room=room, private=True, invite_code="ABC234")
    finished = Table.objects.create(room=room, private=True, invite_code="XYZ789", status="finished")
    public = Table.objects.create(room=room)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("games", "Table")
    assert len(new.objects.get(pk=waiting.pk).invite_code) == 14
    assert new.objects.get(pk=finished.pk).invite_code == "XYZ789"
    assert new.objects.get(pk=public.pk).invite_code is None
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
