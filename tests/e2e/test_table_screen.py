"""The table screen (issue 13) in a real browser, at a phone's 390×844 and a desktop's 1280×800: a hand
played to its settlement, a claim, a concealed kong seen by an opponent and a drawn hand (流局), each
saved as a screenshot in test-results/ (table-*, claim-*, kong-*, settlement-*, draw-*), with the
layout checked (your hand at the bottom on one row, four rivers, nothing covering your seat on the
phone, the settlement inside the window) and the text contrast checked by axe-core (WCAG AA)."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .pages import MAX_MOVES, WAIT_MS, answer, my_turn, new_table, resize, sign_up

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}

# Rigged hands, written into the table's state through manage.py shell: seat 0 is the person (the
# table's owner sits there), the others bots.
KONG_HANDS = ["589m149p236s1234z", "567m2356p459s123z", "234m578p1178s456z", "1111m234m567p677z9s"]
DRAW_HANDS = ["589m149p236s12345z", "567m2356p459s123z", "234m578p1178s456z", "1111m234m567p677z"]
RIG = """
from django.utils import timezone
from datetime import timedelta
from games.engine.state import GameState
from games import store
from games.engine.actions import Action
from games.models import Table
table = Table.objects.get(pk={table_id})
state = GameState.from_setup(hands={hands!r}, wall={wall!r}, dealer={dealer})
for text in {actions!r}:
    state.apply(Action.parse(text))
table.hand.actions.all().delete()
store.append(table, table.hand, state, by_clock=True, count=len(state.actions))
table.version += 1
table.state = store.state_json(state)
now = timezone.now()
table.changed = now
table.turn_deadline = table.deadline = now + timedelta(seconds=60)
table.save(update_fields=["state", "version", "changed", "turn_deadline", "deadline"])
"""


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _check_layout(page: Page, size: str) -> None:
    """Your hand below every other seat, on one row, inside the window; four rivers; on the phone the
    points of your own seat (hand and river) are not covered by anything else."""
    width, height = SIZES[size]
    expect(page.locator("#board [data-zone=river]")).to_have_count(4)
    hand = _box(page, "#controls [data-zone=hand]")
    tiles = page.locator("#controls [data-zone=hand] svg.tile")
    tops = {round(tiles.nth(i).bounding_box()["y"] / 8) for i in range(tiles.count())}
    assert len(tops) <= 2, "your hand wraps onto a second row"  # raised tiles sit a little higher
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= width + 1
    for position in ("top", "left", "right"):
        other = _box(page, f"#board .seat-{position}")
        assert other["y"] < hand["y"], f"the {position} seat is not above your hand"
    assert _box(page, "#board .seat-bottom")["y"] < hand["y"] + hand["height"]
    assert _box(page, "#board .seat-left")["x"] < _box(page, "#board .seat-right")["x"]
    if size == "desktop":
        table = _box(page, "#table-root")
        assert table["y"] + table["height"] <= height + 1, "the table does not fit the window"
    covered = page.evaluate(
        """() => {
            const out = [];
            const zones = document.querySelectorAll('#controls [data-zone=hand] svg.tile, .seat-bottom [data-zone=river] svg.tile');
            for (const el of zones) {
                const r = el.getBoundingClientRect();
                const x = r.left + r.width / 2, y = r.top + r.height / 2;
                if (y < 0 || y > innerHeight) continue;
                const hit = document.elementFromPoint(x, y);
                if (!hit || !(el === hit || el.contains(hit) || hit.contains(el))) out.push(el.outerHTML.slice(0, 80) + ' under ' + (hit && hit.outerHTML.slice(0, 80)));
            }
            return out;
        }"""
    )
    assert covered == [], covered


def _check_contrast(page: Page, name: str) -> None:
    result = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2aa"]}})
    bad = [
        (v["id"], [n["target"] for n in v["nodes"]][:5])
        for v in result.response["violations"]
        if v["id"] == "color-contrast"
    ]
    assert bad == [], f"{name}: {bad}"


def _rig(manage, table_id: int, hands, wall: str, dealer: int, actions) -> None:
    code = RIG.format(table_id=table_id, hands=hands, wall=wall, dealer=dealer, actions=list(actions))
    manage("shell", "-c", code)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_hand_at_the_table(page: Page, server_url: str, results_dir, size: str):
    resize(page, dict(zip(("width", "height"), SIZES[size], strict=True)))
    sign_up(page, server_url, f"screen-{size}")
    new_table(page)
    took_table = took_claim = False
    for _ in range(MAX_MOVES):
        page.locator("#controls .choices, #controls [data-testid=discard], #settlement.open").first.wait_for(
            timeout=WAIT_MS
        )
        if not took_claim and page.locator("#controls [data-testid=choice-pass]").count():
            page.screenshot(path=str(results_dir / f"claim-{size}.png"))
            _check_layout(page, size)
            took_claim = True
        if not took_table and page.locator("#board [data-zone=river] [data-tile]").count() >= 12:
            if page.locator("#controls [data-testid=discard]").count():
                page.locator("#controls [data-testid=discard]").first.click()  # one tap raises a tile
                expect(page.locator("#controls .tile-btn.raised")).to_have_count(1)
            page.screenshot(path=str(results_dir / f"table-{size}.png"))
            _check_layout(page, size)
            _check_contrast(page, f"table-{size}")
            took_table = True
        if not answer(page):
            break
    settlement = page.locator("#settlement.open")
    expect(settlement).to_be_visible(timeout=WAIT_MS)
    expect(settlement).to_contain_text(re.compile("结算|流局"))
    expect(page.locator("#settlement [data-payment]")).to_have_count(4)
    card = _box(page, "#settlement.open > .card")
    width, height = SIZES[size]
    assert card["y"] >= 0 and card["x"] >= 0 and card["x"] + card["width"] <= width + 1
    if size == "desktop":
        assert card["y"] + card["height"] <= height + 1, "the settlement does not fit the window"
    page.screenshot(path=str(results_dir / f"settlement-{size}.png"))
    _check_contrast(page, f"settlement-{size}")
    assert took_table


@pytest.mark.parametrize("size", list(SIZES))
def test_a_concealed_kong_is_face_down_to_an_opponent(page: Page, server_url: str, manage, results_dir, size):
    resize(page, dict(zip(("width", "height"), SIZES[size], strict=True)))
    sign_up(page, server_url, f"kong-{size}")
    table_id = new_table(page)
    my_turn(page)
    # Seat 3 (上家, on your left) deals, declares a concealed kong of 1m, discards 9s; your turn.
    _rig(manage, table_id, KONG_HANDS, "4z5z6z7z8s8s8s", 3, ["3:concealed_kong:1m", "3:discard:9s"])
    page.reload()
    left = page.locator("#board .seat-left [data-zone=melds]")
    expect(left.locator(".tile-back")).to_have_count(4, timeout=WAIT_MS)
    assert left.locator("[data-tile]").count() == 0, "the concealed kong's tiles are shown to an opponent"
    assert page.locator("#board [data-tile='1m']").count() == 0
    page.screenshot(path=str(results_dir / f"kong-{size}.png"))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_drawn_hand_shows_liuju(page: Page, server_url: str, manage, results_dir, size):
    resize(page, dict(zip(("width", "height"), SIZES[size], strict=True)))
    sign_up(page, server_url, f"draw-{size}")
    table_id = new_table(page)
    my_turn(page)
    _rig(manage, table_id, DRAW_HANDS, "7z8s", 0, [])  # two tiles left: a draw two discards after yours
    page.reload()
    for _ in range(10):
        if not answer(page):
            break
    settlement = page.locator("#settlement.open")
    expect(settlement).to_contain_text("流局", timeout=WAIT_MS)
    expect(settlement).to_contain_text("荒番")
    page.screenshot(path=str(results_dir / f"draw-{size}.png"))
