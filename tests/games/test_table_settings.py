"""Tables with players' choices (issue 14): validation against the room, private invite codes, the
lobby, immutability once a match starts, and hands dealt and played with each §11 option."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.utils import timezone, translation

from games import services
from games.engine.rules import Rules
from games.models import Hand, Room, Table
from games.presentation import rendering
from games.services.room_settings import table_rules, table_timers
from games.services.rooms import RoomSettingsError, check_room_settings, room_save
from games.services.table_settings import (
    INVITE_ALPHABET,
    INVITE_LENGTH,
    TableChoices,
    table_change_settings,
    table_open,
)
from games.table_options import DEFAULTS, OPTIONS_BY_KEY, applies

from .helpers import replay_hand, state_of

HAN = re.compile(r"[\u3400-\u9fff]")


def lazi_choices(**changes) -> TableChoices:
    values = {
        "preset": "lazi",
        "options": {"payment": "bao_chong", "declare_ready": True},
        "discard_timeout": 30,
        "claim_timeout": 10,
        "private": False,
        "stake": 2,
    }
    values.update(changes)
    return TableChoices(**values)


def test_a_table_opened_with_choices_deals_with_them(room, alice):
    room.rules_options = {"menqing": "lezi"}
    room.save()
    table = table_open(room_id=room.pk, user=alice, choices=lazi_choices())
    assert (table.preset, table.stake, table_timers(table)) == ("lazi", 2, (30, 10))
    rules = table_rules(table)
    # 包冲 is `standard`'s only (§11): a lazi table does not keep it.
    assert (rules.preset, rules.payment, rules.declare_ready, rules.menqing) == (
        "lazi",
        "discarder",
        True,
        "lezi",
    )
    assert table.options == {"declare_ready": True}
    assert table.seats.get(index=0).stake_accepted  # the creator chose the stake
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    hand = Hand.objects.get(pk=table.hand_id)
    assert Rules.from_json(hand.rules) == rules
    assert state_of(table).rules == rules
    assert (table.turn_deadline - table.changed).total_seconds() == 30  # the dealer's turn: 30 s


@pytest.mark.parametrize(
    ("room_changes", "choices", "code"),
    [
        ({"allowed_presets": ["standard"]}, lazi_choices(), "preset_not_allowed"),
        ({}, lazi_choices(preset="mahjong"), "preset_not_allowed"),
        ({"allowed_options": ["payment"]}, lazi_choices(), "option_not_allowed"),
        ({}, lazi_choices(options={"payment": "everyone"}), "bad_options"),
        ({}, lazi_choices(options={"no_such": 1}), "bad_options"),
        ({}, lazi_choices(options={"garden": -5}), "bad_options"),
        ({}, lazi_choices(options=["payment"]), "bad_options"),
        ({"timer_min": 15}, lazi_choices(claim_timeout=10), "bad_timer"),
        ({"timer_max": 25}, lazi_choices(discard_timeout=30), "bad_timer"),
        ({}, lazi_choices(discard_timeout="30"), "bad_timer"),
        ({}, lazi_choices(stake=3), "bad_stake"),
    ],
)
def test_choices_the_room_does_not_allow_are_refused(room, alice, room_changes, choices, code):
    Room.objects.filter(pk=room.pk).update(**room_changes)
    with pytest.raises(services.ServiceError) as refused:
        table_open(room_id=room.pk, user=alice, choices=choices)
    assert refused.value.code == code
    with translation.override("zh-hans"):
        assert HAN.search(refused.value.message)
    with translation.override("en"):
        assert refused.value.message and not HAN.search(refused.value.message)
    assert not Table.objects.exists()


def test_a_private_table_has_a_unique_invite_code_and_stays_out_of_the_lobby(room, alice, bob):
    codes = set()
    for _ in range(20):
        table = table_open(room_id=room.pk, user=alice, choices=lazi_choices(private=True))
        assert len(table.invite_code) == INVITE_LENGTH and set(table.invite_code) <= set(INVITE_ALPHABET)
        codes.add(table.invite_code)
    assert len(codes) == 20
    assert not set("01OIL") & set(INVITE_ALPHABET)
    public = table_open(room_id=room.pk, user=alice, choices=lazi_choices())
    assert public.invite_code is None

    def listed(user):
        return [t["table"].pk for item in rendering.lobby_context(user)["rooms"] for t in item["tables"]]

    assert listed(bob) == [public.pk]  # bob sees only the public one
    assert len(listed(alice)) == 21  # alice is seated at all of them
    services.table_sit(table_id=table.pk, user=bob)  # anyone with the link may sit
    assert table.pk in listed(bob)


def test_choices_cannot_change_once_a_match_starts(room, alice):
    table = table_open(room_id=room.pk, user=alice, choices=lazi_choices())
    changed = table_change_settings(
        table_id=table.pk, user=alice, choices=lazi_choices(options={"swap_tiles": True}, private=True)
    )
    assert table_rules(changed).swap_tiles and not table_rules(changed).declare_ready
    assert changed.invite_code
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    with pytest.raises(services.ServiceError) as refused:
        table_change_settings(table_id=table.pk, user=alice, choices=lazi_choices(preset="home"))
    assert refused.value.code == "settings_locked"
    table.refresh_from_db()
    assert (table.preset, table.options) == ("lazi", {"swap_tiles": True})


def test_only_the_owner_changes_the_choices(room, alice, bob):
    table = table_open(room_id=room.pk, user=alice, choices=lazi_choices())
    services.table_sit(table_id=table.pk, user=bob)
    with pytest.raises(services.ServiceError) as refused:
        table_change_settings(table_id=table.pk, user=bob, choices=lazi_choices(preset="home"))
    assert refused.value.code == "not_owner"


OPTION_SETS = [
    {"declare_ready": True},
    {"swap_tiles": True},
    {"qingyise_9_bao": True},
    {"garden": 50},
    {"payment": "chu_chong", "menqing": "lezi", "gangkai": "double", "hand_loss_cap_lezi": None},
]


@pytest.mark.parametrize("preset", ["standard", "lazi", "home"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o))
def test_bots_and_the_clock_play_a_hand_with_each_option(room, alice, preset, options, caplog):
    """Every seat a bot (alice on auto-play): the clock alone deals with the option to the hand's end."""
    table = table_open(room_id=room.pk, user=alice, choices=lazi_choices(preset=preset, options=options))
    services.table_fill_bots(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    table.seats.filter(index=0).update(autoplay=True)
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now())  # the clock looks again now
    for _ in range(2000):
        if state_of(table).phase == "ended":
            break
        assert services.clock_tick(now=timezone.now()) > 0
    state = state_of(table)
    assert state.phase == "ended"
    kept = {key: value for key, value in options.items() if applies(OPTIONS_BY_KEY[key], preset)}
    assert all(getattr(state.rules, key) == value for key, value in kept.items())
    assert all(getattr(state.rules, key) == DEFAULTS[key] for key in options.keys() - kept.keys())
    hand = Hand.objects.get(pk=table.hand_id)
    assert hand.result is not None and sum(hand.result["payments"]) == 0
    assert replay_hand(hand).result.to_json() == state.result.to_json()
    assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]


# --- room settings through the service ---------------------------------------------------------


def room_values(**changes) -> dict:
    values = {
        "name": "Options room",
        "preset": "standard",
        "rules_options": {},
        "discard_timeout": 20,
        "claim_timeout": 20,
        "bot_delay": Decimal("1"),
        "claim_pause": Decimal("1"),
        "bot_level": "easy",
        "stakes": [5, 1],
        "ready_timeout": 15,
        "grace_period": 60,
        "is_open": True,
        "allowed_presets": ["lazi", "standard"],
        "allowed_options": ["garden", "menqing"],
        "timer_min": 10,
        "timer_max": 60,
    }
    values.update(changes)
    return values


def test_room_save_creates_and_changes_rooms(db):
    room = room_save(room_id=None, values=room_values(rules_options={"menqing": "lezi"}))
    assert (room.stakes, room.allowed_presets, room.allowed_options) == (
        [1, 5],
        ["standard", "lazi"],
        ["menqing", "garden"],
    )
    changed = room_save(room_id=room.pk, values=room_values(timer_max=90, discard_timeout=90))
    assert (changed.timer_max, changed.discard_timeout, changed.rules_options) == (90, 90, {})


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rules_options": {"no_such_option": 1}}, "rules_options"),
        ({"rules_options": {"menqing": "triple"}}, "rules_options"),
        ({"rules_options": [1]}, "rules_options"),
        ({"preset": "home"}, "allowed_presets"),
        ({"allowed_options": ["fly"]}, "allowed_options"),
        ({"timer_min": 0}, "timer_min"),
        ({"discard_timeout": 5}, "discard_timeout"),
        ({"stakes": []}, "stakes"),
        ({"bot_level": "grandmaster"}, "bot_level"),
        ({"name": " "}, "name"),
    ],
)
def test_bad_room_settings_are_refused_by_the_service(db, changes, field):
    with pytest.raises(RoomSettingsError) as refused:
        check_room_settings(room_values(**changes))
    assert refused.value.field == field
    with translation.override("zh-hans"):
        assert HAN.search(refused.value.message)
    with translation.override("en"):
        assert refused.value.message and not HAN.search(refused.value.message)
