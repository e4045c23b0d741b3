"""复盘 on the site: who may review which seat, computing in the background, serving from the database."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.review import VERSION
from games.models import Hand, Table
from history import reviews
from history.models import HandReview

MISSING = 987654321


@pytest.fixture(autouse=True)
def _inline(settings):
    settings.HISTORY_REVIEW_INLINE = True


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _url(name: str, hand_id: int, seat: int) -> str:
    return reverse(name, args=[hand_id, seat])


def test_the_replay_page_offers_every_seat_of_a_public_hand(played):
    _, _, hands = played
    page = Client().get(reverse("history:replay", args=[hands[0].pk])).content.decode()
    for seat in range(4):
        assert f'data-testid="review-seat-{seat}"' in page


def test_asking_computes_stores_and_then_serves_the_review(played, alice):
    _, _, hands = played
    hand = hands[1]
    client = _client(alice)
    url = _url("history:review", hand.pk, 0)
    assert 'data-testid="review-start"' in client.get(url).content.decode()  # nothing computed yet
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == url
    row = HandReview.objects.get(hand=hand, seat=0)
    assert row.status == HandReview.DONE and row.version == VERSION
    assert row.player.user == alice
    assert row.data["decisions"] and row.decisions == row.data["summary"]["rated"]
    page = client.get(url).content.decode()
    assert 'data-testid="review-summary"' in page and 'data-testid="options"' in page
    assert "data-played" in page and "data-best" in page
    # Stepping: the board alone for htmx, a decision chosen by ?d=, clamped to the decisions there are.
    count = len(row.data["decisions"])
    board = client.get(url, {"d": count + 5}, HTTP_HX_REQUEST="true").content.decode()
    assert board.lstrip().startswith('<section id="review-board"')
    assert f'data-index="{count - 1}"' in board
    step = row.data["decisions"][count - 1]["step"]
    assert f"?step={step}" in board
    # Served from the database: asking again does not recompute.
    HandReview.objects.filter(pk=row.pk).update(data={**row.data, "marker": 1})
    client.post(url)
    assert HandReview.objects.get(pk=row.pk).data.get("marker") == 1


def test_a_pending_review_shows_progress_and_a_stale_one_is_taken_over(played, alice, settings):
    _, _, hands = played
    hand = hands[2]
    settings.HISTORY_REVIEW_INLINE = False  # nothing runs the work: the row stays pending
    client = _client(alice)
    url = _url("history:review", hand.pk, 0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reviews.transaction, "on_commit", lambda fn: None)  # a server that dies at once
        client.post(url)
        row = HandReview.objects.get(hand=hand, seat=0)
        assert row.status == HandReview.PENDING and row.started is not None
        page = client.get(url).content.decode()
        assert 'data-testid="review-progress"' in page and 'hx-trigger="every 1s"' in page
        status = client.get(_url("history:review_status", hand.pk, 0))
        assert status.status_code == 200 and "HX-Redirect" not in status
    # Work started long ago and never finished: the next poll takes it over.
    HandReview.objects.filter(pk=row.pk).update(started=row.started - 2 * reviews.STALE)
    settings.HISTORY_REVIEW_INLINE = True
    status = client.get(_url("history:review_status", hand.pk, 0))
    assert status["HX-Redirect"] == url
    assert HandReview.objects.get(pk=row.pk).status == HandReview.DONE


def test_a_broken_record_fails_cleanly_and_can_be_asked_again(played, alice, monkeypatch):
    _, _, hands = played
    hand = hands[3]

    def broken(export, seat):
        raise ValueError("broken")

    monkeypatch.setattr(reviews, "review", broken)
    client = _client(alice)
    url = _url("history:review", hand.pk, 0)
    client.post(url)
    assert HandReview.objects.get(hand=hand, seat=0).status == HandReview.FAILED
    page = client.get(url)
    assert page.status_code == 200 and b'data-testid="review-failed"' in page.content
    monkeypatch.undo()
    client.post(url)
    assert HandReview.objects.get(hand=hand, seat=0).status == HandReview.DONE


def test_an_unfinished_hand_is_never_reviewed(played, alice):
    _, match, _ = played
    hand = Hand.objects.create(match=match, number=99, commitment="a" * 64, dealer=0)
    hand.actions.create(seq=1, seat=0, action="0:discard:1m", version=1)
    client = _client(alice)
    for method in ("get", "post"):
        response = getattr(client, method)(_url("history:review", hand.pk, 0))
        assert response.status_code == 409
        assert b'data-testid="unfinished"' in response.content
    assert client.get(_url("history:review_status", hand.pk, 0)).status_code == 409
    assert not HandReview.objects.filter(hand=hand).exists()


def _answer(client: Client, name: str, method: str, hand_id: int, seat: int) -> tuple[int, str]:
    url = _url(name, hand_id, seat)
    response = getattr(client, method)(url)
    body = response.content.decode().replace(url, "<URL>")
    return response.status_code, re.sub(r"[A-Za-z0-9]{64}", "<CSRF>", body)


@pytest.fixture
def private(played):
    table, _, hands = played
    Table.objects.filter(pk=table.pk).update(private=True)
    return hands[-1]


@pytest.mark.parametrize(
    ("name", "method"),
    [("history:review", "get"), ("history:review", "post"), ("history:review_status", "get")],
)
def test_a_private_hand_answers_a_non_member_as_a_missing_id(private, make_user, name, method):
    client = _client(make_user("stranger"))
    assert _answer(client, name, method, private.pk, 0) == _answer(client, name, method, MISSING, 0)
    assert _answer(client, name, method, private.pk, 0)[0] == 404
    assert not HandReview.objects.exists()


def test_a_member_of_a_private_table_reviews_only_their_own_seats_and_staff_any(private, alice, make_user):
    replay = _client(alice).get(reverse("history:replay", args=[private.pk])).content.decode()
    assert 'data-testid="review-seat-0"' in replay and 'data-testid="review-seat-1"' not in replay
    assert _client(alice).post(_url("history:review", private.pk, 0)).status_code == 302
    for seat in (1, 2, 3):
        assert _client(alice).post(_url("history:review", private.pk, seat)).status_code == 404
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    assert _client(staff).post(_url("history:review", private.pk, 1)).status_code == 302
    assert set(HandReview.objects.values_list("seat", flat=True)) == {0, 1}


@pytest.mark.parametrize("seat", [4, 9])
def test_a_seat_outside_the_table_is_not_found(played, seat):
    _, _, hands = played
    assert Client().get(_url("history:review", hands[0].pk, seat)).status_code == 404


def test_the_statistics_page_charts_the_trend_of_reviewed_hands(played, alice):
    _, _, hands = played
    stats_url = reverse("history:stats", args=[f"u{alice.pk}"])
    assert 'data-testid="review-agreement"' not in Client().get(stats_url).content.decode()
    client = _client(alice)
    for hand in hands[:3]:
        client.post(_url("history:review", hand.pk, 0))
    page = Client().get(stats_url).content.decode()
    assert 'data-testid="review-agreement"' in page
    trend = reviews.trend(alice.history_player)
    assert len(trend) == 3
    section = page[page.index('data-testid="review-trend"') :]
    assert "<svg" in section.split("</section>")[0]


def test_a_chow_option_shows_its_three_tiles_and_the_drawn_tile_stands_apart():
    from history.review_view import decision_view

    option = {"kind": "chow", "tile": "6s", "value": -4.0, "rank": 1, "action": "1:chow:6s", "plans": []}
    passing = {"kind": "pass", "tile": None, "value": -5.0, "rank": 2, "action": "1:pass"}
    data = {
        "decisions": [
            {
                "step": 3,
                "kind": "claim",
                "options": [option, passing],
                "played": "1:pass",
                "best": "1:chow:6s",
                "verdict": "mistake",
                "gap": 1.0,
                "hand": ["7s", "8s", "8s"],
                "drawn": "8s",
                "tile": "6s",
            }
        ]
    }
    view = decision_view(data, 0)
    assert view.best.tiles == ["6s", "7s", "8s"] and view.played.tiles == []
    assert view.hand == ["7s", "8s"] and view.drawn == "8s"
    assert view.prev_index is None and view.next_index is None
