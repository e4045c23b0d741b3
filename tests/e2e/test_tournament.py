"""In real browsers: one person creates a duplicate tournament through the form, starts it (bots fill
the field to eight: two tables), plays at their table and hands it to the bot (托管); the tournament
page's standings move by themselves as the round's hands end (pushed over its socket). Screenshots of the tournament page at
four sizes."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .pages import answer, other_browser, resize, sign_up

WAIT_MS = 60_000
SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "390x844": (390, 844), "844x390": (844, 390)}
FAST_ROOM = (
    "from decimal import Decimal; from games.services import planned_room; from games.models import Room; "
    "Room.objects.filter(pk=planned_room().pk).update(bot_delay=Decimal('0'), claim_pause=Decimal('0'))"
)


def test_one_person_and_bots_play_a_round_and_the_standings_move(page: Page, server_url, manage, results_dir):
    sign_up(page, server_url, "tournament-player")
    page.click("[data-testid=nav-tournaments]")
    form = page.locator("[data-testid=tournament-form]")
    form.locator("input[name=name]").fill("周末复式赛")
    form.locator("input[name=rounds]").fill("1")
    form.locator("input[name=hands_per_round]").fill("2")
    form.locator("input[name=max_players]").fill("8")
    form.locator("[data-testid=tournament-create-submit]").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    manage("shell", "-c", FAST_ROOM)  # the bots think at once, as in every browser test's room
    tournament_url = page.url

    page.check("[data-testid=tournament-fill]")
    page.click("[data-testid=tournament-start]")
    expect(page.locator("[data-testid=tournament]")).to_have_attribute("data-status", "running")
    standings = page.locator("[data-testid=standings] tbody tr")
    expect(standings).to_have_count(8)
    expect(page.locator("[data-testid=round-tables] tbody tr")).to_have_count(2)

    watcher = other_browser(page)  # a visitor keeps the tournament page open: it refreshes itself
    try:
        watcher.goto(tournament_url)
        socket = watcher.locator("[data-testid=tournament-socket]")  # pushed to, not polled
        expect(socket).to_have_attribute("ws-connect", re.compile(r"^/ws/tournament/\d+/$"))
        expect(watcher.locator("[hx-trigger]")).to_have_count(0)
        hands = watcher.locator("[data-testid=standing-hands]")
        expect(hands).to_have_count(8)
        assert "0" in hands.all_inner_texts()  # the person's table waits for them: no hand ended there

        page.click("[data-testid=my-table]")
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))
        for _ in range(3):  # the person plays a few moves of the first hand themselves
            if not answer(page):
                break
        page.locator("[data-testid=request-autoplay]").first.click()
        expect(page.locator("[data-testid=cancel-autoplay]").first).to_be_visible(timeout=WAIT_MS)

        # the standings move on the open page as the hands end, without a reload
        expect(hands).to_have_text(["2"] * 8, timeout=WAIT_MS)
        expect(watcher.locator("[data-testid=round-state]")).to_have_attribute(
            "data-ended", "1", timeout=WAIT_MS
        )
        watcher.reload()
        expect(watcher.locator("[data-testid=tournament]")).to_have_attribute("data-status", "finished")
        expect(watcher.locator("[data-testid=standing-hands]")).to_have_text(["2"] * 8)
        expect(watcher.locator("[data-testid=round-seeds] li")).to_have_count(2)
        raw = [int(t) for t in watcher.locator("[data-testid=standing-raw]").all_inner_texts()]
        assert sum(raw) == 0 and any(raw)
        for size, (width, height) in SIZES.items():
            resize(watcher, {"width": width, "height": height})
            watcher.screenshot(path=str(results_dir / f"tournament-{size}.png"), full_page=True)
    finally:
        watcher.context.close()
