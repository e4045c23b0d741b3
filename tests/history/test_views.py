"""History pages: content from the stored hands, public replays, refusals, and bounded queries."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.models import Hand
from history.models import HandRecord, Player
from history.simulation import play_stored_hands, seated_table

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = pytest.mark.usefixtures("english")


def test_my_matches_lists_each_match_with_its_result(client, played, alice, room, bob):
    table, match, hands = played
    other_table, other_match = seated_table(room, [None, alice, None, None])
    play_stored_hands(other_table, other_match, 3, seed="second")
    client.force_login(alice)
    response = client.get(reverse("history:my_matches"))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [r["match"] for r in rows] == [other_match.pk, match.pk]  # newest first
    first = rows[1]
    assert first["hands"] == len(hands)
    assert first["total"] == sum(h.result["payments"][0] for h in hands)
    assert {p.key for p in first["others"]} == {f"u{bob.pk}", "bot-easy"}
    assert f'data-total="{first["total"]}"' in response.content.decode()


def test_my_matches_needs_a_login_and_is_empty_before_any_hand(client, make_user):
    assert client.get(reverse("history:my_matches")).status_code == 302
    client.force_login(make_user("newcomer"))
    response = client.get(reverse("history:my_matches"))
    assert response.status_code == 200
    assert b'data-testid="no-matches"' in response.content


def test_match_page_lists_hands_with_dealer_winner_pattern_and_payments(client, played):
    _, match, hands = played
    response = client.get(reverse("history:match", args=[match.pk]))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [r["hand"].pk for r in rows] == [h.pk for h in hands]
    for row, hand in zip(rows, hands, strict=True):
        assert [amount for _, amount in row["payments"]] == hand.result["payments"]
        assert [w["seat"] for w in row["winners"]] == [w["seat"] for w in hand.result["winners"]]
        assert row["dealer"] == row["seats"][hand.dealer]


def test_replay_steps_through_every_action_with_all_hands_open(client, played):
    _, _, hands = played
    hand = hands[0]
    total = hand.actions.count()
    url = reverse("history:replay", args=[hand.pk])
    start = client.get(url)  # anonymous: a spectator with the shared link
    assert start.status_code == 200
    frame = start.context["frame"]
    assert frame.step == 0 and frame.total == total
    dealt = sum(len(s.hand) + (1 if s.drawn else 0) for s in frame.seats)
    assert dealt == 53  # every concealed hand is shown: 13 × 4 + the dealer's 14th
    assert start.context["server_check"] is None
    page = start.content.decode()
    assert 'id="replay-next"' in page and hand.commitment in page and hand.seed in page
    end = client.get(url, {"step": total}, HTTP_HX_REQUEST="true")  # the board alone, for htmx
    assert end.status_code == 200
    body = end.content.decode()
    assert 'data-testid="settlement"' in body and "<html" not in body
    shown = [int(re.search(rf'data-seat-payment="{s}">([+-]\d+)<', body).group(1)) for s in range(4)]
    assert shown == hand.result["payments"]
    assert client.get(url, {"step": "nonsense"}).context["frame"].step == 0
    assert client.get(url, {"step": 10**6}).context["frame"].step == total


def test_replay_shows_the_claim_options_and_the_one_taken(client, played):
    _, _, hands = played
    for hand in hands:
        actions = list(hand.actions.values_list("action", flat=True))
        claims = [
            i for i, a in enumerate(actions) if a.split(":")[1] in ("pong", "chow", "exposed_kong", "win")
        ]
        if claims:
            step = claims[0]
            break
    else:
        pytest.skip("no claim in these hands")
    frame = client.get(reverse("history:replay", args=[hand.pk]), {"step": step}).context["frame"]
    taken = [o for s in frame.seats for o in s.options if o["taken"]]
    assert [o["text"] for o in taken] == [actions[step]]
    claimant = next(s for s in frame.seats if s.seat == int(actions[step].split(":")[0]))
    assert any(o["text"].endswith(":pass") for o in claimant.options)


def test_an_unfinished_hand_is_neither_replayed_nor_exported(client, played):
    _, match, _ = played
    hand = Hand.objects.create(match=match, number=99, commitment="a" * 64, dealer=0)
    hand.actions.create(seq=1, seat=0, action="0:discard:1m", version=1)
    response = client.get(reverse("history:replay", args=[hand.pk]))
    assert response.status_code == 409
    assert b'data-testid="unfinished"' in response.content
    # Neither the move nor its tile is shown (a bare "1m" can turn up inside the random CSRF token).
    assert b"0:discard:1m" not in response.content and b'data-tile="1m"' not in response.content
    exported = client.get(reverse("history:export", args=[hand.pk]))
    assert exported.status_code == 409 and "seed" not in exported.json()
    assert client.get(reverse("history:replay", args=[10**9])).status_code == 404


def test_export_then_import_shows_the_same_hand(client, played):
    _, _, hands = played
    hand = hands[1]
    exported = client.get(reverse("history:export", args=[hand.pk]))
    assert exported.status_code == 200
    data = json.loads(exported.content)
    assert data["commitment"] == hand.commitment and data["seed"] == hand.seed
    assert data["actions"] == list(hand.actions.order_by("seq").values_list("action", flat=True))
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("hand.json", exported.content, content_type="application/json")
    response = client.post(reverse("history:import"), {"file": upload})
    assert response.status_code == 302 and response.url == reverse("history:imported")
    shown = client.get(reverse("history:imported"), {"step": len(data["actions"])})
    assert shown.status_code == 200
    assert shown.context["frame"].result["payments"] == hand.result["payments"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "Not a hand export"),
        (b'{"seed": 1}', "Not a hand export"),
    ],
)
def test_import_refuses_bad_files_and_stores_nothing(client, db, content, message):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(reverse("history:import"), {"file": SimpleUploadedFile("x.json", content)})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert "history_import" not in client.session


def test_import_refuses_a_tampered_hand(client, played):
    from django.core.files.uploadedfile import SimpleUploadedFile

    _, _, hands = played
    data = json.loads(client.get(reverse("history:export", args=[hands[0].pk])).content)
    data["actions"] = data["actions"][:-1]
    response = client.post(
        reverse("history:import"), {"file": SimpleUploadedFile("x.json", json.dumps(data).encode())}
    )
    assert response.status_code == 400 and "The check failed" in response.content.decode()
    assert client.get(reverse("history:imported")).status_code == 302


def test_stats_page_shows_the_figures_and_two_charts(client, played, alice):
    _, _, hands = played
    player = Player.objects.get(user=alice)
    response = client.get(reverse("history:stats", args=[player.key]))
    assert response.status_code == 200
    stats = response.context["stats"]
    assert stats.hands == len(hands)
    page = response.content.decode()
    assert f'data-stat="hands">{len(hands)}<' in page
    assert page.count("<svg") == 2
    client.force_login(alice)
    assert client.get(reverse("history:my_stats")).url == reverse("history:stats", args=[player.key])


def test_leaderboard_has_a_minimum_of_hands_and_can_hide_bots(client, played, settings, alice, bob, room):
    settings.HISTORY_LEADERBOARD_MIN_HANDS = 5
    response = client.get(reverse("history:leaderboard"))
    keys = [r.player.key for r in response.context["page"].object_list]
    assert set(keys) == {f"u{alice.pk}", f"u{bob.pk}", "bot-easy"}
    ordinals = [r.ordinal for r in response.context["page"].object_list]
    assert ordinals == sorted(ordinals, reverse=True)
    hidden = client.get(reverse("history:leaderboard"), {"bots": "hide", "room": room.pk})
    assert {r.player.key for r in hidden.context["page"].object_list} == {f"u{alice.pk}", f"u{bob.pk}"}
    settings.HISTORY_LEADERBOARD_MIN_HANDS = 13
    assert [r.player.key for r in client.get(reverse("history:leaderboard")).context["page"].object_list] == [
        "bot-easy"  # 2 seats × 12 hands
    ]
    assert client.get(reverse("history:leaderboard"), {"room": "x"}).status_code == 404


def test_pages_issue_the_same_bounded_number_of_queries_however_long_the_history(
    client, played, alice, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, match, hands = played
    client.force_login(alice)
    player = Player.objects.get(user=alice)
    hand = hands[0]
    urls = [
        reverse("history:my_matches"),
        reverse("history:match", args=[match.pk]),
        reverse("history:stats", args=[player.key]),
        reverse("history:stats", args=[player.key]) + f"?room={table.room_id}",
        reverse("history:leaderboard"),
        reverse("history:replay", args=[hand.pk]),
        reverse("history:export", args=[hand.pk]),
    ]

    def counts() -> list[int]:
        out = []
        for url in urls:
            with django_assert_max_num_queries(20), CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            out.append(len(ctx.captured_queries))
        return out

    before = counts()
    for i in range(3):  # 30 more hands in 3 more matches, and 30 more in the same match
        t, m = seated_table(table.room, [alice, None, None, None])
        play_stored_hands(t, m, 10, seed=f"more{i}")
    play_stored_hands(table, match, 30, seed="same match")
    assert HandRecord.objects.filter(player=player).count() == len(hands) + 60
    assert counts() == before


def test_nav_and_profile_link_to_history(client, alice):
    client.force_login(alice)
    for url in (reverse("games:lobby"), reverse("accounts:profile")):
        page = client.get(url).content.decode()
        for target in ("history:my_matches", "history:my_stats", "history:leaderboard"):
            assert f'href="{reverse(target)}"' in page, (url, target)


def test_admin_lists_history_read_only(client, played, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-123456")
    client.force_login(admin)
    for name in ("player", "rating", "handrecord", "handreview"):
        response = client.get(reverse(f"admin:history_{name}_changelist"))
        assert response.status_code == 200
        assert client.get(reverse(f"admin:history_{name}_add")).status_code == 403


def test_a_table_links_to_its_newest_match(client, played, room, alice):
    table, match, _ = played
    response = client.get(reverse("history:table", args=[table.pk]))
    assert response.status_code == 302 and response.url == reverse("history:match", args=[match.pk])
    empty, _ = seated_table(room, [alice, None, None, None])
    empty.matches.all().delete()
    assert client.get(reverse("history:table", args=[empty.pk])).status_code == 404


def test_import_refuses_an_oversized_file(client, db):
    from django.core.files.uploadedfile import SimpleUploadedFile

    big = SimpleUploadedFile("big.json", b"[" + b"0," * 150_000 + b"0]")
    response = client.post(reverse("history:import"), {"file": big})
    assert response.status_code == 400 and "larger than" in response.content.decode()
    assert "history_import" not in client.session


def test_replay_match_and_leaderboard_name_bots_by_seat_with_their_level(client, played, settings):
    _, match, hands = played  # bots at seats 1 and 3, level easy
    replay = client.get(reverse("history:replay", args=[hands[0].pk]), {"step": hands[0].actions.count()})
    page = replay.content.decode()
    assert [s.name for s in replay.context["frame"].seats][1::2] == ["Bot B (easy)", "Bot D (easy)"]
    settlement = re.search(r'data-testid="settlement".*', page, re.S).group(0)
    assert "Bot B (easy)" in settlement and "Bot D (easy)" in settlement
    rows = client.get(reverse("history:match", args=[match.pk])).context["rows"]
    bot_dealt = [r for r in rows if r["hand"].dealer in (1, 3)]
    assert bot_dealt and all(r["dealer_name"] == f"Bot {'ABCD'[r['hand'].dealer]} (easy)" for r in bot_dealt)
    settings.HISTORY_LEADERBOARD_MIN_HANDS = 13
    assert "Bot (easy)" in client.get(reverse("history:leaderboard")).content.decode()


def test_replay_names_bots_in_chinese_for_a_chinese_reader(client, played):
    _, _, hands = played
    url = reverse("history:replay", args=[hands[0].pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "机器人·乙（简单）" in page and "机器人·丁（简单）" in page and "机器人·甲" not in page


def test_a_stored_hand_whose_log_does_not_replay_says_why_in_words(client, played):
    """A damaged log (an action the rules refuse) is a 409 page naming the rule it breaks, in the
    page's language, not the engine's English line."""
    _, _, hands = played
    hand = hands[0]
    first = hand.actions.order_by("seq").first()
    first.action = f"{(int(first.action[0]) + 1) % 4}:discard:1m"  # not that seat's turn
    first.save(update_fields=["action"])
    response = client.get(reverse("history:replay", args=[hand.pk]), {"step": 1})
    page = response.content.decode()
    assert response.status_code == 409
    assert "does not replay" in page and "not your turn" in page.lower()
    assert "RuleError" not in page and "not_your_turn" not in page
