"""Between hands every seat is ready or waited for (the settlement panel's 下一局): a press marks the
seat ready, the last press deals; bots and seats in 托管 are ready; the clock deals whoever never
presses once the room's ready timeout has passed, once, and only with someone there to play."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.models import Hand, Seat, Table
from games.presentation import rendering
from games.services import ServiceError

from .helpers import play_until_ended, press_next_hand_for_all, start_match, state_of


@pytest.fixture
def ended(room, alice, bob):
    """A match of alice (seat 0), bob (seat 1) and two bots whose first hand has just ended (the ready
    timeout is long: on a busy machine a test's steps must not outlast it; the clock is given its
    moments explicitly)."""
    room.ready_timeout = 600
    room.save(update_fields=["ready_timeout"])
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    services.table_fill_bots(table_id=table.pk, user=alice)
    start_match(table.pk)
    table.refresh_from_db()
    play_until_ended(table, {0: alice, 1: bob})
    table.refresh_from_db()
    return table


def hand_numbers(table: Table) -> list[int]:
    return list(Hand.objects.filter(match__table=table).order_by("number").values_list("number", flat=True))


def ready_flags(table: Table) -> list[bool]:
    return list(Seat.objects.filter(table=table).order_by("index").values_list("ready", flat=True))


def due(table: Table):
    """When the clock deals the next hand whoever has not pressed."""
    return Hand.objects.get(pk=table.hand_id).ended + timedelta(seconds=table.room.ready_timeout)


def test_the_end_of_a_hand_schedules_the_next_deal_after_the_ready_timeout(ended):
    assert state_of(ended).phase == "ended"
    assert ended.deadline == due(ended)
    assert ready_flags(ended) == [False] * 4  # the pre-match check's flags were cleared at the start


def test_one_press_of_two_people_does_not_deal(ended, alice):
    version = ended.version
    services.table_next_hand(table_id=ended.pk, user=alice, version=version)
    ended.refresh_from_db()
    assert hand_numbers(ended) == [1] and state_of(ended).phase == "ended"
    assert ready_flags(ended) == [True, False, False, False]
    assert ended.version == version + 1  # everyone's panel shows the press
    assert ended.deadline == due(ended)  # the timeout still runs from the hand's end


def test_the_last_press_deals_and_clears_every_flag(ended, alice, bob):
    first, timeout = Hand.objects.get(pk=ended.hand_id), due(ended)
    services.table_next_hand(table_id=ended.pk, user=alice)
    services.table_next_hand(table_id=ended.pk, user=bob, version=ended.version + 1)
    ended.refresh_from_db()
    assert hand_numbers(ended) == [1, 2]
    state = state_of(ended)
    assert state.phase != "ended" and state.dealer == first.result["dealer_next"]
    assert ready_flags(ended) == [False] * 4  # the next settlement starts from nobody ready
    # The new hand's own schedule: its first move or its turn timer, well before the old timeout.
    assert ended.deadline <= ended.turn_deadline < timeout


def test_a_second_press_is_refused_and_changes_nothing(ended, alice):
    services.table_next_hand(table_id=ended.pk, user=alice)
    ended.refresh_from_db()
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=ended.pk, user=alice, version=ended.version)
    assert err.value.code == "already_ready"
    assert "已经准备" in str(err.value.message)
    with translation.override("en"):
        assert "already ready" in str(err.value.message)
    assert Table.objects.get(pk=ended.pk).version == ended.version
    assert hand_numbers(ended) == [1] and ready_flags(ended) == [True, False, False, False]


@pytest.mark.parametrize("sent", [lambda v: float(v), lambda v: f" {v}", lambda v: f"0{v}"])
def test_the_version_is_compared_as_a_number_not_as_text(ended, alice, sent):
    version = ended.version
    services.table_next_hand(table_id=ended.pk, user=alice, version=sent(version))
    assert Table.objects.get(pk=ended.pk).version == version + 1 and ready_flags(ended)[0]


@pytest.mark.parametrize("sent", ["", "abc", "1e400", [1]])
def test_a_press_whose_version_is_no_number_is_refused(ended, alice, sent):
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=ended.pk, user=alice, version=sent)
    assert err.value.code == "stale_version"
    assert Table.objects.get(pk=ended.pk).version == ended.version and ready_flags(ended) == [False] * 4


def test_a_press_on_an_old_view_is_refused(ended, alice):
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=ended.pk, user=alice, version=ended.version - 1)
    assert err.value.code == "stale_version"
    assert Table.objects.get(pk=ended.pk).version == ended.version and ready_flags(ended) == [False] * 4


@pytest.mark.parametrize("who", ["spectator", "anonymous"])
def test_someone_not_seated_cannot_press(ended, make_user, who):
    user = make_user("carol") if who == "spectator" else AnonymousUser()
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=ended.pk, user=user, version=ended.version)
    assert err.value.code == ("not_seated" if who == "spectator" else "login_required")
    assert Table.objects.get(pk=ended.pk).version == ended.version and hand_numbers(ended) == [1]


def test_pressing_during_a_hand_is_refused(ended):
    press_next_hand_for_all(ended.pk)
    table = Table.objects.get(pk=ended.pk)
    with pytest.raises(ServiceError) as err:
        services.table_next_hand(table_id=table.pk, user=table.owner, version=table.version)
    assert err.value.code == "hand_in_progress"
    assert ready_flags(table) == [False] * 4


def test_a_seat_in_autoplay_is_ready_so_one_press_deals(room, alice, bob):
    table = services.table_create(room_id=room.pk, user=alice)
    services.table_sit(table_id=table.pk, user=bob)
    services.table_fill_bots(table_id=table.pk, user=alice)
    start_match(table.pk)
    services.table_request_autoplay(table_id=table.pk, user=bob)  # 托管: the clock plays bob's seat
    table.refresh_from_db()
    play_until_ended(table, {0: alice})
    with pytest.raises(ServiceError) as err:  # his seat is ready already
        services.table_next_hand(table_id=table.pk, user=bob)
    assert err.value.code == "already_ready"
    services.table_next_hand(table_id=table.pk, user=alice)
    assert hand_numbers(table) == [1, 2]


def test_going_into_autoplay_between_hands_lets_the_clock_deal_at_once(ended, alice, bob):
    services.table_next_hand(table_id=ended.pk, user=alice)
    services.table_request_autoplay(table_id=ended.pk, user=bob)
    ended.refresh_from_db()
    assert hand_numbers(ended) == [1] and ended.deadline <= timezone.now()
    services.clock_tick(now=ended.deadline)
    assert hand_numbers(ended) == [1, 2]


def test_the_last_unready_person_leaving_lets_the_clock_deal_at_once(ended, alice, bob):
    services.table_next_hand(table_id=ended.pk, user=alice)
    assert services.table_stand(table_id=ended.pk, user=bob) is None  # between hands: no penalty
    ended.refresh_from_db()
    services.clock_tick(now=ended.deadline)
    assert hand_numbers(ended) == [1, 2]
    assert Seat.objects.get(table=ended, index=1).is_bot


def test_the_clock_deals_after_the_timeout_once(ended, alice):
    services.table_next_hand(table_id=ended.pk, user=alice)  # bob never presses
    at = due(ended)
    services.clock_tick(now=at - timedelta(seconds=1))
    assert hand_numbers(ended) == [1] and Table.objects.get(pk=ended.pk).deadline == at
    services.clock_tick(now=at)
    assert hand_numbers(ended) == [1, 2]
    assert ready_flags(ended) == [False] * 4
    services.clock_tick(now=at)  # a second tick (another process's, say) plays on, never deals again
    assert hand_numbers(ended) == [1, 2]


def test_the_clock_deals_when_nobody_pressed_but_a_person_is_connected(ended, alice):
    services.seat_connected(table_id=ended.pk, user=alice)
    services.clock_tick(now=due(ended))
    assert hand_numbers(ended) == [1, 2]


def test_a_table_nobody_is_at_rests_until_someone_presses(ended, alice):
    at = due(ended)
    services.clock_tick(now=at)  # nobody connected, nobody pressed: the bots do not play on alone
    assert hand_numbers(ended) == [1] and Table.objects.get(pk=ended.pk).deadline is None
    services.table_next_hand(table_id=ended.pk, user=alice)
    table = Table.objects.get(pk=ended.pk)
    assert table.deadline == at  # alice is back: the clock deals the others in at the timeout
    services.clock_tick(now=at)
    assert hand_numbers(ended) == [1, 2]


def ready_states(html: str) -> dict[int, str]:
    return {int(s): r for s, r in re.findall(r'<li data-seat="(\d)" data-ready="(\w+)"', html)}


def test_the_settlement_shows_who_is_ready_and_the_pressed_button_waits(ended, alice, bob, make_user):
    services.table_next_hand(table_id=ended.pk, user=alice)
    with translation.override("en"):
        _, mine = rendering.render_table_fragments(ended.pk, alice)
        _, his = rendering.render_table_fragments(ended.pk, bob)
        _, watcher = rendering.render_table_fragments(ended.pk, make_user("carol"))
    for html in (mine, his, watcher):
        assert ready_states(html) == {0: "yes", 1: "no", 2: "yes", 3: "yes"}  # the bots are ready
        assert 'class="is-ready">alice ✓ Ready</li>' in html and ">bob Waiting</li>" in html
        deadline = int(due(ended).timestamp())
        assert f'data-deadline="{deadline}"' in html and "Next hand starts in" in html
    assert 'data-testid="next-hand-waiting"' in mine and "Ready · waiting for others" in mine
    assert 'value="next_hand"' not in mine
    assert 'data-testid="next-hand"' in his and 'data-testid="next-hand-waiting"' not in his
    assert 'value="next_hand"' not in watcher and 'data-testid="next-hand-waiting"' not in watcher


def test_the_settlement_speaks_chinese_too(ended, alice):
    services.table_next_hand(table_id=ended.pk, user=alice)
    with translation.override("zh-hans"):
        _, mine = rendering.render_table_fragments(ended.pk, alice)
    assert "alice ✓ 已准备" in mine and "bob 等待中" in mine and "已准备 · 等待其他玩家" in mine


def test_the_page_form_press_marks_the_seat(ended, bob, client_for):
    response = client_for(bob).post(reverse("games:table_next_hand", args=[ended.pk]))
    assert response.status_code in (200, 302)
    assert ready_flags(ended) == [False, True, False, False] and hand_numbers(ended) == [1]
