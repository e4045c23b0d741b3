"""In real browsers (issue 30): four people press 快速开始 in one pool and land at one table, sent there
by the lobby's socket; one person alone with "fill with bots after 5 s" lands at a table with three
bots; the new lobby at four sizes."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import Page, expect

from .pages import other_browser, resize, sign_up

WAIT_MS = 30_000
TABLE_URL = re.compile(r"/table/(\d+)/$")
SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "390x844": (390, 844), "844x390": (844, 390)}


def new_pool(manage, name: str) -> int:
    """A room of its own with one quick-start pool (stake 2): no other test's people wait in it."""
    script = (
        "from decimal import Decimal; from games.models import Pool, Room; "
        f"r = Room.objects.create(name={name!r}, bot_delay=Decimal('0.5'), claim_pause=Decimal('0'), "
        "discard_timeout=60, claim_timeout=8); "
        "print(Pool.objects.create(room=r, preset='standard', stake=2).pk)"
    )
    return int(manage("shell", "-c", script).strip().splitlines()[-1])


def seats_of(manage, table_id: int) -> list[dict]:
    script = (
        "import json; from games.models import Seat; "
        f"print(json.dumps(list(Seat.objects.filter(table_id={table_id}).order_by('index')"
        ".values('user__username', 'is_bot'))))"
    )
    return json.loads(manage("shell", "-c", script).strip().splitlines()[-1])


def test_four_browsers_in_one_pool_are_seated_at_one_table(page: Page, server_url: str, manage, results_dir):
    pool = new_pool(manage, "快速开始 E2E")
    people = [page, *(other_browser(page) for _ in range(3))]
    try:
        for i, person in enumerate(people):
            sign_up(person, server_url, f"quick{i}")
        button = f"[data-testid=quick-start][data-pool='{pool}']"
        for waiting, person in enumerate(people[:3], start=1):
            person.click(button)
            expect(person.locator("[data-testid=leave-pool]")).to_be_visible(timeout=WAIT_MS)
            # The others' lobbies count them over the socket.
            expect(people[3].locator(f"[data-testid=pool-waiting][data-pool='{pool}']")).to_have_text(
                str(waiting), timeout=WAIT_MS
            )
        for size, (width, height) in SIZES.items():
            resize(people[3], {"width": width, "height": height})
            people[3].screenshot(path=str(results_dir / f"lobby-pools-{size}.png"), full_page=True)
        people[0].screenshot(path=str(results_dir / "lobby-pool-waiting.png"), full_page=True)
        fourth_click = time.monotonic()
        people[3].click(button)
        tables = set()
        for person in people:
            expect(person).to_have_url(TABLE_URL, timeout=WAIT_MS)
            expect(person.locator("#board .seats")).to_be_visible(timeout=WAIT_MS)
            tables.add(TABLE_URL.search(person.url).group(1))
        print(f"fourth click to four boards: {time.monotonic() - fourth_click:.2f} s")
        assert len(tables) == 1
        seats = seats_of(manage, int(tables.pop()))
        assert sorted(s["user__username"] for s in seats) == [f"quick{i}" for i in range(4)]
        assert not any(s["is_bot"] for s in seats)
        people[0].screenshot(path=str(results_dir / "quick-start-table.png"))
        # Seated at a live table, the lobby offers the way back instead of another pool.
        people[0].goto(server_url + "/")
        expect(people[0].locator("[data-testid=back-to-table]")).to_be_visible()
        expect(people[0].locator("[data-testid=quick-start]")).to_have_count(0)
    finally:
        for person in people[1:]:
            person.context.close()


def test_alone_with_bots_after_five_seconds(page: Page, server_url: str, manage, results_dir):
    pool = new_pool(manage, "快速开始 机器人 E2E")
    sign_up(page, server_url, "quick-alone")
    # Leaving is one click and costs nothing.
    page.click(f"[data-testid=quick-start][data-pool='{pool}']")
    expect(page.locator(f"[data-testid=pool-waiting][data-pool='{pool}']")).to_have_text("1")
    page.click("[data-testid=leave-pool]")
    expect(page.locator(f"[data-testid=pool-waiting][data-pool='{pool}']")).to_have_text("0")
    expect(page.locator("[data-testid=leave-pool]")).to_have_count(0)

    page.check("[data-testid=pool-fill-bots]")
    page.fill("[data-testid=pool-fill-after]", "5")
    clicked = time.monotonic()
    page.click(f"[data-testid=quick-start][data-pool='{pool}']")
    expect(page.locator("[data-testid=leave-pool]")).to_be_visible()
    expect(page).to_have_url(TABLE_URL, timeout=WAIT_MS)
    waited = time.monotonic() - clicked
    expect(page.locator("#board .seats")).to_be_visible(timeout=WAIT_MS)
    print(f"alone with bots after 5 s: at the table after {waited:.2f} s")
    assert 4.5 <= waited <= 15
    seats = seats_of(manage, int(TABLE_URL.search(page.url).group(1)))
    assert sorted(s["is_bot"] for s in seats) == [False, True, True, True]
    page.screenshot(path=str(results_dir / "quick-start-bots.png"))
