"""The tournament pages: list and create, the tournament page with its standings, join / leave /
start / remove through forms, refusals as messages, invite-only, the delayed watch page; both
languages."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Table
from games.services import table_play_bots_hand
from tests.test_i18n import chinese_in, client_in, english_in
from tournaments.models import Entry, HandScore, RoundTable, Tournament
from tournaments.services import tournament_join, tournament_start

pytestmark = pytest.mark.django_db


def _form(**fields):
    soon = timezone.localtime() + timedelta(hours=1)
    return {
        "name": "周末复式赛",
        "preset": "standard",
        "rounds": 2,
        "hands_per_round": 4,
        "action_seconds": 20,
        "starts_at": soon.strftime("%Y-%m-%dT%H:%M"),
        "max_players": 8,
        "public": "on",
        "bot_level": "normal",
        "watch_delay": 3,
        **fields,
    }


def test_a_player_creates_a_tournament_from_the_list_page(alice):
    client = client_in("zh-hans", alice)
    assert client.get("/tournaments/").status_code == 200
    response = client.post("/tournaments/new/", _form())
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/"
    assert t.organiser == alice and t.watch_delay == 180 and t.hands_per_round == 4
    assert t.entries.get().user == alice
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="tournament-start"' in page and "周末复式赛" in page


def test_a_bad_form_is_shown_again_and_creates_nothing(alice):
    response = client_in("en", alice).post("/tournaments/new/", _form(rounds=0, name=""))
    assert response.status_code == 400
    assert not Tournament.objects.exists()
    assert "This field is required." in response.content.decode()


def test_signed_out_visitors_cannot_create_or_join(make_tournament, alice):
    t = make_tournament(alice)
    visitor = client_in("zh-hans")
    assert visitor.post("/tournaments/new/", _form()).status_code == 302  # to the log-in page
    assert visitor.post(f"/tournaments/{t.pk}/join/").status_code == 302
    assert t.entries.count() == 1
    assert visitor.get("/tournaments/999/").status_code == 404


def test_join_leave_and_a_refusal_as_a_message(make_tournament, alice, bob):
    t = make_tournament(alice)
    client = client_in("en", bob)
    client.post(f"/tournaments/{t.pk}/join/")
    assert t.entries.filter(user=bob).exists()
    page = client.post(f"/tournaments/{t.pk}/join/", follow=True).content.decode()
    assert "You have already entered" in page
    client.post(f"/tournaments/{t.pk}/leave/")
    assert not t.entries.filter(user=bob).exists()
    page = client.post(f"/tournaments/{t.pk}/start/", follow=True).content.decode()
    assert "Only the organiser can do that" in page
    page = client_in("en", alice).post(f"/tournaments/{t.pk}/remove/", {"number": "x"}, follow=True)
    assert "No such entrant" in page.content.decode()


def test_an_invite_only_tournament_is_found_by_its_link_only(make_tournament, alice, bob):
    t = make_tournament(alice, public=False)
    client = client_in("zh-hans", bob)
    assert client.get(f"/tournaments/{t.pk}/").status_code == 404
    assert t.name not in client.get("/tournaments/").content.decode()
    assert client.get(f"/tournaments/{t.pk}/?code={t.invite_code}").status_code == 200
    client.post(f"/tournaments/{t.pk}/join/?code={t.invite_code}", {"code": t.invite_code})
    assert t.entries.filter(user=bob).exists()


def _play_round(t):
    round_ = t.round_set.get(number=1)
    for seed in round_.seeds:
        for rt in round_.tables.all():
            table_play_bots_hand(table_id=rt.table_id, seed=seed)


def test_standings_show_after_hands_and_the_watch_page_lags_by_the_delay(make_tournament, alice, bob):
    t = make_tournament(alice, watch_delay=600)
    tournament_join(tournament_id=t.pk, user=bob)
    tournament_start(tournament_id=t.pk, user=alice, field=8, deal=False)
    _play_round(t)
    assert HandScore.objects.count() == 2 * 2 * 4
    live = client_in("zh-hans").get(f"/tournaments/{t.pk}/live/").content.decode()
    assert live.count('data-testid="standing-hands">2<') == 8
    rt = RoundTable.objects.filter(round__tournament=t).first()
    watch = f"/tournaments/{t.pk}/tables/{rt.pk}/"
    spectator = client_in("zh-hans")
    assert 'data-testid="watch-hands"' in spectator.get(watch).content.decode()
    assert spectator.get(watch).context["hands"] == []  # the hands ended less than 10 minutes ago
    HandScore.objects.update(ended=timezone.now() - timedelta(minutes=11))
    assert len(spectator.get(watch).context["hands"]) == 2
    # the live table is private until the round ends: a spectator gets a 404, not the tiles
    assert spectator.get(f"/table/{rt.table_id}/").status_code == 404
    assert Table.objects.get(pk=rt.table_id).private


def test_the_tournament_pages_render_one_language(make_tournament, alice, bob):
    t = make_tournament(alice)
    tournament_join(tournament_id=t.pk, user=bob)
    tournament_start(tournament_id=t.pk, user=alice, field=8, deal=False)
    _play_round(t)
    rt = RoundTable.objects.filter(round__tournament=t).first()
    typed = {"alice", "bob", t.name}
    paths = ["/tournaments/", f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/live/"]
    paths.append(f"/tournaments/{t.pk}/tables/{rt.pk}/")
    failures = []
    for path in paths:
        for user in (None, alice):
            en = client_in("en", user).get(path)
            zh = client_in("zh-hans", user).get(path)
            assert en.status_code == zh.status_code == 200, path
            if left := chinese_in(en.content.decode().replace(t.name, "")):
                failures.append(f"en {path}: {sorted(left)}")
            if left := english_in(zh.content.decode(), typed):
                failures.append(f"zh {path}: {sorted(left)}")
    assert not failures, "\n".join(failures)


def test_removed_players_are_marked_in_the_standings(make_tournament, alice, bob):
    t = make_tournament(alice)
    tournament_join(tournament_id=t.pk, user=bob)
    tournament_start(tournament_id=t.pk, user=alice)
    client_in("zh-hans", alice).post(f"/tournaments/{t.pk}/remove/", {"number": "2"})
    assert Entry.objects.get(tournament=t, user=bob).removed
    page = client_in("zh-hans", alice).get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="entry-removed"' in page


def test_a_players_statistics_page_lists_their_tournaments(make_tournament, alice, bob):
    t = make_tournament(alice)
    hidden = make_tournament(alice, name="内部赛", public=False)
    tournament_start(tournament_id=t.pk, user=alice, field=8, deal=False)
    _play_round(t)
    path = f"/history/players/u{alice.pk}/"
    public = client_in("zh-hans", bob).get(path).content.decode()
    assert 'data-testid="player-tournaments"' in public
    assert f'data-tournament="{t.pk}"' in public and f'data-tournament="{hidden.pk}"' not in public
    own = client_in("en", alice).get(path).content.decode()
    assert f'data-tournament="{hidden.pk}"' in own and "Place" in own
