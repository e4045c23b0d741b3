"""Tournament verbs: create, join, leave, cancel, remove, start (bots fill the field), and rounds
advanced by the clock's step on planned tables that share their walls."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Hand, Room, Table
from games.services import ServiceError, clock_tick, planned_room
from tournaments.models import Entry, HandScore, Tournament
from tournaments.selectors import standing_rows
from tournaments.services import (
    advance_tournaments,
    tournament_cancel,
    tournament_join,
    tournament_leave,
    tournament_remove,
    tournament_start,
)

pytestmark = pytest.mark.django_db


def test_create_enters_the_organiser(make_tournament, alice):
    t = make_tournament(alice)
    assert t.status == Tournament.Status.OPEN
    assert list(t.entries.values_list("user__username", "number")) == [("alice", 1)]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": " "}, "bad_tournament"),
        ({"rounds": 0}, "bad_tournament"),
        ({"hands_per_round": 99}, "bad_tournament"),
        ({"max_players": "16"}, "bad_tournament"),
        ({"bot_level": "godlike"}, "bad_bot_level"),
        ({"preset": "nonsense"}, "preset_not_allowed"),
        ({"action_seconds": 1}, "bad_timer"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_created(make_tournament, alice, fields, code):
    with pytest.raises(ServiceError) as refused:
        make_tournament(alice, **fields)
    assert refused.value.code == code
    assert not Tournament.objects.exists()


def test_join_until_full_and_only_once(make_tournament, alice, bob, make_user):
    t = make_tournament(alice, max_players=4)
    tournament_join(tournament_id=t.pk, user=bob)
    with pytest.raises(ServiceError) as again:
        tournament_join(tournament_id=t.pk, user=bob)
    assert again.value.code == "already_entered"
    tournament_join(tournament_id=t.pk, user=make_user("carol"))
    tournament_join(tournament_id=t.pk, user=make_user("dave"))
    with pytest.raises(ServiceError) as full:
        tournament_join(tournament_id=t.pk, user=make_user("erin"))
    assert full.value.code == "tournament_full"
    assert t.entries.count() == 4


def test_an_invite_only_tournament_needs_its_code(make_tournament, alice, bob):
    t = make_tournament(alice, public=False)
    with pytest.raises(ServiceError) as refused:
        tournament_join(tournament_id=t.pk, user=bob, code="guess")
    assert refused.value.code == "invite_only"
    tournament_join(tournament_id=t.pk, user=bob, code=t.invite_code)
    assert t.entries.filter(user=bob).exists()


def test_leave_and_remove_before_the_start_delete_the_entry(make_tournament, alice, bob, make_user):
    t = make_tournament(alice)
    tournament_join(tournament_id=t.pk, user=bob)
    carol = make_user("carol")
    tournament_join(tournament_id=t.pk, user=carol)
    tournament_leave(tournament_id=t.pk, user=bob)
    with pytest.raises(ServiceError) as not_organiser:
        tournament_remove(tournament_id=t.pk, user=carol, number=1)
    assert not_organiser.value.code == "not_organiser"
    tournament_remove(tournament_id=t.pk, user=alice, number=3)
    assert list(t.entries.values_list("user__username", flat=True)) == ["alice"]


def test_cancel_only_by_the_organiser_and_only_before_the_start(make_tournament, alice, bob):
    t = make_tournament(alice)
    with pytest.raises(ServiceError):
        tournament_cancel(tournament_id=t.pk, user=bob)
    tournament_cancel(tournament_id=t.pk, user=alice)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    with pytest.raises(ServiceError) as late:
        tournament_join(tournament_id=t.pk, user=bob)
    assert late.value.code == "tournament_not_open"
    advance_tournaments(now=t.starts_at + timedelta(hours=1))
    assert not t.round_set.exists()


def test_unknown_ids_are_refused(alice):
    for verb in (tournament_join, tournament_leave, tournament_cancel):
        with pytest.raises(ServiceError) as refused:
            verb(tournament_id=999, user=alice)
        assert refused.value.code == "no_such_tournament"
    with pytest.raises(ServiceError):
        tournament_join(tournament_id="1", user=alice)


def test_the_clock_starts_it_at_its_time_and_bots_fill_the_field(make_tournament, alice, make_user):
    t = make_tournament(alice)
    for name in ("b", "c", "d", "e"):
        tournament_join(tournament_id=t.pk, user=make_user(name))
    assert advance_tournaments(now=t.starts_at - timedelta(seconds=1)) == 0
    assert advance_tournaments(now=t.starts_at) == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 1
    assert t.entries.count() == 8 and t.entries.filter(is_bot=True).count() == 3
    (round_,) = t.round_set.all()
    tables = list(round_.tables.all())
    assert len(tables) == 2
    assert sorted(n for rt in tables for n in rt.entries) == list(range(1, 9))
    for rt in tables:  # each dealt from the round's first seed, with East dealing
        hand = Hand.objects.get(match__table_id=rt.table_id)
        assert hand.commitment == round_.commitments[0] and hand.dealer == 0
        assert Table.objects.get(pk=rt.table_id).private
    assert advance_tournaments(now=t.starts_at) == 0  # nothing more to do until the round ends


def _run_clock(tournament, start, limit=400):
    """Tick the game clock and the tournament step, a minute of game time per tick, until it ends."""
    now = start
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        now += timedelta(seconds=60)
        clock_tick(now=now)
        advance_tournaments(now=now)
    raise AssertionError("the tournament did not finish")


def test_rounds_advance_by_the_clock_and_every_table_of_a_round_plays_the_same_walls(make_tournament, alice):
    Room.objects.filter(pk=planned_room().pk).update(bot_delay=0, claim_pause=0)  # bots move at once
    t = make_tournament(alice, max_players=8)
    tournament_start(tournament_id=t.pk, user=alice, field=8)
    _run_clock(t, timezone.now())
    for round_ in t.round_set.all():
        assert round_.ended is not None  # the seeds are revealed
        for rt in round_.tables.all():
            hands = Hand.objects.filter(match__table_id=rt.table_id).order_by("pk")
            assert [h.commitment for h in hands] == round_.commitments
            assert [h.dealer for h in hands] == [0, 1]
            table = Table.objects.get(pk=rt.table_id)
            assert table.status == Table.Status.FINISHED
            assert not table.private  # the round is over: its replays are public
    assert HandScore.objects.filter(round_table__round__tournament=t).count() == 2 * 2 * 2 * 4
    # alice never connected: the bot played her seat (托管) after her timeouts, and it is marked
    assert HandScore.objects.filter(entry__user=alice, autoplay=True).exists()
    (row,) = [r for r in standing_rows(t) if r.entry.user_id == alice.pk]
    assert row.autoplay == HandScore.objects.filter(entry__user=alice, autoplay=True).count()


def test_a_player_who_leaves_a_running_tournament_is_played_by_the_bot(make_tournament, alice, bob):
    t = make_tournament(alice)
    tournament_join(tournament_id=t.pk, user=bob)
    tournament_start(tournament_id=t.pk, user=alice)
    tournament_leave(tournament_id=t.pk, user=bob)
    entry = Entry.objects.get(tournament=t, user=bob)
    assert entry.removed
    rt = t.round_set.get().tables.get()
    seat = Table.objects.get(pk=rt.table_id).seats.get(index=rt.entries.index(entry.number))
    assert seat.user_id is None and seat.is_bot
    with pytest.raises(ServiceError) as gone:
        tournament_leave(tournament_id=t.pk, user=bob)
    assert gone.value.code == "not_entered"


def test_the_organiser_removes_a_player_during_the_tournament(make_tournament, alice, bob):
    t = make_tournament(alice)
    tournament_join(tournament_id=t.pk, user=bob)
    tournament_start(tournament_id=t.pk, user=alice)
    tournament_remove(tournament_id=t.pk, user=alice, number=2)
    assert Entry.objects.get(tournament=t, user=bob).removed
    with pytest.raises(ServiceError) as bots:
        tournament_remove(tournament_id=t.pk, user=alice, number=3)  # a bot's entry
    assert bots.value.code == "no_such_entry"


def test_start_twice_is_refused(make_tournament, alice):
    t = make_tournament(alice)
    tournament_start(tournament_id=t.pk, user=alice)
    with pytest.raises(ServiceError) as again:
        tournament_start(tournament_id=t.pk, user=alice)
    assert again.value.code == "tournament_not_open"
    assert t.round_set.count() == 1


def test_a_step_that_fails_half_way_leaves_nothing_and_the_next_tick_does_it(
    make_tournament, alice, make_user, monkeypatch
):
    """A process killed while seating a round: its transaction rolls back, the next tick seats it."""
    from tournaments import services

    t = make_tournament(alice, max_players=8)
    for name in ("b", "c", "d", "e"):
        tournament_join(tournament_id=t.pk, user=make_user(name))
    real, made = services.table_create_planned, []

    def dies_on_the_second_table(**kwargs):
        if made:
            raise RuntimeError("killed")
        made.append(1)
        return real(**kwargs)

    monkeypatch.setattr(services, "table_create_planned", dies_on_the_second_table)
    assert advance_tournaments(now=t.starts_at) == 0
    t.refresh_from_db()
    assert t.status == Tournament.Status.OPEN and not t.round_set.exists() and t.entries.count() == 5
    assert not Table.objects.exists()
    monkeypatch.setattr(services, "table_create_planned", real)
    assert advance_tournaments(now=t.starts_at) == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.round_set.get().tables.count() == 2


def test_a_tournament_tables_settlement_keeps_the_seed_until_the_round_ends(make_tournament, alice, bob):
    from games.services import table_play_bots_hand
    from tests.test_i18n import client_in

    t = make_tournament(alice)
    tournament_start(tournament_id=t.pk, user=alice, deal=False)
    rt = t.round_set.get().tables.get()
    hand = table_play_bots_hand(table_id=rt.table_id, seed=t.round_set.get().seeds[0])
    page = client_in("zh-hans", alice).get(f"/table/{rt.table_id}/").content.decode()
    assert 'id="settlement"' in page
    assert hand.seed and hand.seed not in page and 'data-testid="fairness"' not in page
    assert t.round_set.get().commitments[0][:8] in page  # the commitment is public all along


def test_a_tournament_tables_settlement_names_the_planned_next_dealer(make_tournament, alice):
    """The plan fixes each hand's dealer (hand k: seat k mod 4), whoever won; after the plan's last
    hand no next dealer is named."""
    import re

    from games.services import table_play_bots_hand
    from tests.test_i18n import client_in

    t = make_tournament(alice, hands_per_round=2)
    tournament_start(tournament_id=t.pk, user=alice, deal=False)
    round_, rt = t.round_set.get(), t.round_set.get().tables.get()
    table_play_bots_hand(table_id=rt.table_id, seed=round_.seeds[0])
    page = client_in("zh-hans", alice).get(f"/table/{rt.table_id}/").content.decode()
    named = re.search(r'data-testid="dealer-next">([^<]*)<', page).group(1)
    seat_one = re.search(r'data-seat="1">\s*<span class="who">\S+ ([^<]*?)(?: <span|</span>)', page).group(1)
    assert named == seat_one
    table_play_bots_hand(table_id=rt.table_id, seed=round_.seeds[1])
    page = client_in("zh-hans", alice).get(f"/table/{rt.table_id}/").content.decode()
    assert 'class="settlement open"' in page and 'data-testid="dealer-next"' not in page
