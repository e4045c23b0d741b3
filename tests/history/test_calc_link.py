"""The 算番器 link of a finished hand: from the replay's settlement (and the match page) it opens the
calculator on the same win, which shows the same pattern, value and payments; a result stored before
the engine kept its win contexts gets no link."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from history.replay import frame_at, source_from_hand


def _calc_page(client, url: str) -> dict:
    text = client.get(url).content.decode()
    payments = dict(re.findall(r'<tr data-seat="(\d)">.*?data-payment="(-?\d+)"', text, re.S))
    return {
        "pattern": re.search(r'data-pattern="([a-z_]+)"', text).group(1),
        "value": int(re.search(r'data-testid="value">(-?\d+)<', text).group(1)),
        "payments": [int(payments[str(s)]) for s in range(4)],
    }


def test_the_link_from_a_replayed_hand_opens_the_calculator_on_the_same_win(client, played):
    _, _, hands = played
    checked = paid = 0
    for hand in hands:
        winners = hand.result["winners"]
        if not winners:
            continue
        total = hand.actions.count()
        body = client.get(reverse("history:replay", args=[hand.pk]), {"step": total}).content.decode()
        links = [html.unescape(u) for u in re.findall(r'<a href="([^"]+)" data-testid="calc-link">', body)]
        assert len(links) == len(winners)
        for link, winner in zip(links, winners, strict=True):
            assert link.startswith("/calc/?")
            page = _calc_page(client, link)
            assert (page["pattern"], page["value"]) == (winner["pattern"], winner["value"])
            if len(winners) == 1 and not hand.result.get("gengfeng"):
                assert page["payments"] == hand.result["payments"]
                paid += 1
            checked += 1
    assert checked >= 3 and paid >= 1


def test_the_match_page_links_each_win_from_the_stored_result(client, played):
    _, match, hands = played
    body = client.get(reverse("history:match", args=[match.pk])).content.decode()
    wins = sum(len(h.result["winners"]) for h in hands)
    links = [html.unescape(u) for u in re.findall(r'<a href="([^"]+)" data-testid="calc-link"', body)]
    assert wins and len(links) == wins
    first = next(h for h in hands if h.result["winners"])
    assert _calc_page(client, links[0])["pattern"] == first.result["winners"][0]["pattern"]


def test_a_result_stored_without_contexts_gets_no_link_but_still_replays(client, played):
    _, match, hands = played
    hand = next(h for h in hands if h.result["winners"])
    old = {k: v for k, v in hand.result.items() if k != "contexts"}
    hand.result = old
    hand.save(update_fields=["result"])
    body = client.get(reverse("history:match", args=[match.pk])).content.decode()
    wins = sum(len(h.result["winners"]) for h in hands)
    assert body.count('data-testid="calc-link"') == wins - len(old["winners"])
    hand.result = {**old, "contexts": [{"winner": "nonsense"}] * len(old["winners"])}
    hand.save(update_fields=["result"])
    body = client.get(reverse("history:match", args=[match.pk])).content.decode()
    assert body.count('data-testid="calc-link"') == wins - len(old["winners"])
    actions = list(hand.actions.order_by("seq").values_list("action", flat=True))
    frame = frame_at(source_from_hand(hand, actions), len(actions))
    assert frame.result["winners"][0]["calc_url"].startswith("/calc/?")  # a replay rescores the hand
