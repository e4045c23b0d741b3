"""换牌 and 敲 in a real browser, on a phone's 390×844.

换牌: at a table of a room playing `swap_tiles`, the window after the deal shows the person's own swap
screen. Tapping tiles toggles them and counts "已选 n/5"; a sixth tap is not taken; the confirm button is
enabled only at five; the others' progress is shown on their seats; confirming buries the five (the
screen becomes the hand again). 敲: raising a tile whose discard leaves the hand ready marks its 敲
button; pressing it discards the tile, the seat shows 敲, and the next drawn tile that does not win is
discarded for the person after a short pause. Saved as test-results/swap-phone.png, declare-phone.png."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Page, expect

from .pages import WAIT_MS, my_turn, new_table, resize, sign_up

ROOM = (
    "from decimal import Decimal; from games.models import Room; "
    "print(Room.objects.create(name={name!r}, rules_options={options!r}, bot_delay=Decimal('0'), "
    "claim_pause=Decimal('0'), discard_timeout=60, claim_timeout=8).pk)"
)
# alice (seat 0, dealing) declares on 5z (nine gates in m: every m tile wins); nobody else holds an m
# tile or a pair, and the wall holds no m tile, so her next draw does not win.
DECLARE_HANDS = ["1112345678999m5z", "147p147s258p258s5z", "1369p369s1234z67z", "2468p2468s1234z7z"]
DECLARE_WALL = "7s8p9s9p5p5s6p6s3p3s"
RIG = """
from datetime import timedelta
from django.utils import timezone
from games import store
from games.engine.rules import Rules
from games.engine.state import GameState
from games.models import Table
table = Table.objects.get(pk={table_id})
state = GameState.from_setup(hands={hands!r}, wall={wall!r}, dealer=0, rules=Rules(declare_ready=True))
table.hand.actions.all().delete()
table.version += 1
table.state = store.state_json(state)
now = timezone.now()
table.changed = now
table.turn_deadline = table.deadline = now + timedelta(seconds=60)
table.save(update_fields=["state", "version", "changed", "turn_deadline", "deadline"])
"""


def _table_in_new_room(page: Page, manage, name: str, options: dict) -> int:
    room_id = int(manage("shell", "-c", ROOM.format(name=name, options=options)).split()[-1])
    page.reload()  # the lobby lists the new room
    return new_table(page, room_id)


def test_choosing_five_tiles_to_bury(page: Page, server_url: str, manage, results_dir):
    resize(page, {"width": 390, "height": 844})
    sign_up(page, server_url, "swapper")
    _table_in_new_room(page, manage, "Swap room", {"swap_tiles": True})

    form = page.locator("[data-testid=swap-form]")
    expect(form).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#board [data-swap=done]")).to_have_count(3)  # the bots skip at once
    expect(page.locator("#board .seat-bottom [data-swap=waiting]")).to_have_count(1)
    tiles = page.locator("[data-testid=swap-tile]")
    confirm = page.locator("[data-testid=swap-confirm]")
    chosen = page.locator("[data-swap-chosen]")
    hand = [tiles.nth(i).get_attribute("data-choice") for i in range(tiles.count())]
    assert len(hand) in (13, 14)
    expect(confirm).to_be_disabled()
    for i in range(4):
        tiles.nth(i).click()
    expect(chosen).to_have_text("4")
    expect(confirm).to_be_disabled()
    tiles.nth(4).click()
    expect(chosen).to_have_text("5")
    expect(confirm).to_be_enabled()
    tiles.nth(5).click()  # a sixth is not taken
    expect(chosen).to_have_text("5")
    expect(tiles.nth(5)).to_have_attribute("aria-pressed", "false")
    tiles.nth(0).click()  # untoggle one, and take it again
    expect(chosen).to_have_text("4")
    expect(confirm).to_be_disabled()
    tiles.nth(0).click()
    expect(confirm).to_be_enabled()
    page.screenshot(path=str(results_dir / "swap-phone.png"))

    confirm.click()
    expect(form).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator("#table-error [data-error-code]")).to_have_count(0)
    kept = Counter(hand) - Counter(hand[:5])
    mine = page.locator("#controls [data-zone=hand] [data-tile]")
    expect(mine.first).to_be_visible(timeout=WAIT_MS)
    now = Counter(mine.nth(i).get_attribute("data-tile") for i in range(mine.count()))
    assert not kept - now, "the tiles not buried are still in the hand"


def test_declaring_ready_and_the_automatic_discard(page: Page, server_url: str, manage, results_dir):
    resize(page, {"width": 390, "height": 844})
    sign_up(page, server_url, "declarer")
    table_id = _table_in_new_room(page, manage, "Declare room", {"declare_ready": True})
    my_turn(page)
    manage("shell", "-c", RIG.format(table_id=table_id, hands=DECLARE_HANDS, wall=DECLARE_WALL))
    page.reload()
    declare = page.locator("#controls [data-testid=choice-declare]")
    expect(declare).to_have_count(4)  # 2m, 5m, 8m or 5z leave the hand ready
    page.locator("#controls [data-zone=hand] .tile-btn").last.click()  # raises the 5z
    marked = page.locator("#controls .choice-declare.for-raised")
    expect(marked).to_have_count(1)
    expect(marked.locator("[data-tile]")).to_have_attribute("data-tile", "5z")
    page.screenshot(path=str(results_dir / "declare-phone.png"))
    marked.click()
    expect(page.locator("#board .seat-bottom [data-testid=declared]")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#board [data-testid=declared]")).to_have_count(1)
    river = page.locator("#board .seat-bottom [data-zone=river] [data-tile]")
    expect(river).to_have_count(1)
    # the draw that does not win goes without a click, long before the 60 s turn timer
    expect(river).to_have_count(2, timeout=WAIT_MS)
    expect(page.locator("#table-error [data-error-code]")).to_have_count(0)
