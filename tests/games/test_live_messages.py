"""The socket's inbound messages: a closed set, parsed once; every bad message is refused with an
error frame on that socket, never a traceback, and changes nothing (issue 17 item 2)."""

from __future__ import annotations

import logging

import pytest

from games.live import messages
from games.services import ServiceError

from .test_consumers import send, setup_table, snapshot, until_human
from .wsclient import Reader, connect

HOSTILE = [
    "[" * 2000 + "]" * 2000,  # RecursionError in the JSON parser before
    '{"a":' * 1000 + "1" + "}" * 1000,
    '{"command": ["start"]}',  # unhashable: TypeError before
    '{"command": {"x": 1}}',
    '{"command": 7}',
    '{"command": "drop_tables"}',
    '{"command": "set_stake", "stake": [1]}',
    '{"action": ["0:pass"]}',
    '{"action": {"kind": "pass"}}',
    '{"action": 5}',
    '{"kind": {"a": 1}}',
    '{"action": "0:pass", "version": [1]}',
    '{"action": "0:pass", "version": {"v": 1}}',
    '{"command": "swap", "tiles": {"a": "1m"}}',
    '{"command": "swap", "tiles": ["1m", 2]}',
    '{"command": "swap", "tiles": [["1m"]]}',
    "x" * (messages.MAX_MESSAGE + 1),
    "",
    "null",
    '"text"',
    "42",
    "\ud800",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_parse_refuses_every_bad_message_with_bad_message(text):
    with pytest.raises(ServiceError) as error:
        messages.parse(text)
    assert error.value.code == "bad_message"


def test_parse_reads_each_kind_of_message():
    assert messages.parse('{"action": "0:discard:5p", "version": 3}') == messages.Act("0:discard:5p", 3)
    assert messages.parse(
        '{"kind": "discard", "tile": "5p", "version": "3", "HEADERS": {"HX-Request": "true"}}'
    ) == (messages.Act({"kind": "discard", "tile": "5p"}, "3"))
    assert messages.parse('{"command": "next_hand", "version": 9}') == messages.NextHand(9)
    assert messages.parse('{"command": "snapshot"}') == messages.Snapshot()
    assert messages.parse('{"command": "set_stake", "stake": "2"}') == messages.SetStake("2")
    assert messages.parse('{"command": "swap", "tiles": "1m 5m 5m 7z 9s", "version": 4}') == messages.Swap(
        "1m 5m 5m 7z 9s", 4
    )
    assert messages.parse('{"command": "swap", "tiles": ["1m", "5m"], "version": 4}') == messages.Swap(
        ("1m", "5m"), 4
    )
    assert messages.parse('{"command": "swap", "version": 4}') == messages.Swap((), 4)
    for name in messages.PLAIN_COMMANDS:
        assert messages.parse(f'{{"command": "{name}"}}') == messages.TableCommand(name)


@pytest.mark.django_db(transaction=True)
async def test_hostile_messages_over_the_socket_get_an_error_and_change_nothing(caplog):
    table_id, (alice,) = await setup_table(humans=1)
    reader = Reader(await connect(f"/ws/table/{table_id}/", alice))
    try:
        version, _ = await until_human(table_id, 0, [reader])
        with caplog.at_level(logging.ERROR):
            for text in [t for t in HOSTILE if t]:  # the test client cannot send an empty frame
                await send(reader, text)
                frame = await reader.next()
                assert 'data-error-code="bad_message"' in frame, text[:40]
            await reader.communicator.send_to(bytes_data=b'{"action": "0:pass"}')
            assert 'data-error-code="bad_message"' in await reader.next()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a message raised"
        assert (await snapshot(table_id))[0] == version
    finally:
        await reader.communicator.disconnect()


def test_every_kind_of_command_has_exactly_one_handler():
    """The closed set: each type `parse` can return is handled by the table consumer's one table,
    and each plain command names a service."""
    from typing import get_args

    from games.live.consumers import PLAIN_SERVICES, TableConsumer

    assert set(TableConsumer.HANDLERS) == set(get_args(messages.Command))
    assert set(PLAIN_SERVICES) == messages.PLAIN_COMMANDS
