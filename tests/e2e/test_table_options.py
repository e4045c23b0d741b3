"""换牌 in a real browser, on a phone's 390×844: at a table of a room playing `swap_tiles`, the window after
the deal shows the person's own swap screen. Tapping tiles toggles them and counts "已选 n/5"; a sixth
tap is not taken; the confirm button is enabled only at five; the others' progress is shown on their
seats; confirming buries the five (the screen becomes the hand again, five new tiles in it). Saved as
test-results/swap-phone.png."""

from __future__ import annotations

import re
from collections import Counter

from playwright.sync_api import Page, expect

from .pages import sign_up

WAIT_MS = 30_000
ROOM = (
    "from decimal import Decimal; from games.models import Room; "
    "print(Room.objects.create(name='Swap room', rules_options={'swap_tiles': True}, bot_delay=Decimal('0'), "
    "claim_pause=Decimal('0'), discard_timeout=60, claim_timeout=8).pk)"
)


def test_choosing_five_tiles_to_bury(page: Page, server_url: str, manage, results_dir):
    room_id = int(manage("shell", "-c", ROOM).split()[-1])  # the shell may print a banner first
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, server_url, "swapper")
    page.locator(f"[data-room='{room_id}'] [data-testid=create-table]").click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")

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
