"""The socket's inbound messages: a closed set, parsed once; every bad message is refused with an
error frame on that socket, never a traceback, and changes nothing (issue 17 item 2)."""

from __future__ import annotations

import json
import logging

import pytest

from games.engine.kinds import ActionKind
from games.engine.tiles import Tile
from games.live import messages
from games.services import ServiceError, table_start
from games.services.commands import Move

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


BAD_ACTIONS = [  # game actions the engine cannot read, as a socket would send them (JSON)
    {"action": action} for action in ("garbage", "0:fly:5p", "0:discard:10p", "7:pass", "0:pass:5p")
] + [
    {"kind": "fly", "tile": "5p"},
    {"kind": "discard", "tile": "10p"},
    {"kind": "discard"},
    {"kind": "pass", "tile": "5p"},
    {"version": 3},
]


@pytest.mark.parametrize("message", BAD_ACTIONS)
def test_parse_refuses_a_game_action_it_cannot_read_with_bad_action(message):
    with pytest.raises(ServiceError) as error:
        messages.parse(json.dumps(message))
    assert error.value.code == "bad_action"


def test_parse_reads_each_kind_of_message():
    five_pin = Tile.parse("5p").code
    assert messages.parse('{"action": "0:discard:5p", "version": 3}') == messages.Act(
        Move(ActionKind.DISCARD, five_pin, 0), 3
    )
    assert messages.parse(
        '{"kind": "discard", "tile": "5p", "version": "3", "HEADERS": {"HX-Request": "true"}}'
    ) == (messages.Act(Move(ActionKind.DISCARD, five_pin), "3"))
    assert messages.parse('{"kind": "pass", "tile": "", "version": 3}') == messages.Act(
        Move(ActionKind.PASS), 3
    )
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
    assert messages.parse('{"command": "start"}') == messages.TableCommand(table_start)
    for name, service in messages.PLAIN_COMMANDS.items():
        assert messages.parse(f'{{"command": "{name}"}}') == messages.TableCommand(service)


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
            for message in BAD_ACTIONS:
                await send(reader, json.dumps(message))
                assert 'data-error-code="bad_action"' in await reader.next(), message
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a message raised"
        assert (await snapshot(table_id))[0] == version
    finally:
        await reader.communicator.disconnect()


def test_every_kind_of_command_has_exactly_one_handler():
    """The closed set: each type `parse` can return is handled by the table consumer's one table,
    and each plain command names a service verb."""
    from typing import get_args

    from games.live.consumers import TableConsumer

    assert set(TableConsumer.HANDLERS) == set(get_args(messages.Command))
    assert all(service.__name__.startswith("table_") for service in messages.PLAIN_COMMANDS.values())
