"""In a real browser, under the site's Content-Security-Policy: the lobby, a table with its socket,
the history pages (a stored replay with its in-browser hash check), the scoring calculator and the
account pages work and log no console error; every page carries the policy, with no 'unsafe-inline'
or 'unsafe-eval'."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

WAIT_MS = 20_000
NAME = "csp-player"

STORED_HANDS = """
from decimal import Decimal
from django.contrib.auth import get_user_model
from games import services
from games.models import Room
from history.simulation import play_stored_hands, seated_table
user = get_user_model().objects.get(username="{name}")
room = Room.objects.create(name="CSP room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy")
table, match = seated_table(room, [user, None, None, None])
hands = play_stored_hands(table, match, 3, seed="csp")
services.table_close(table_id=table.pk)
print(user.pk, room.pk, match.pk, hands[-1].pk)
"""


def test_pages_run_under_the_policy_without_console_errors(page: Page, server_url: str, manage, results_dir):
    problems: list[str] = []
    page.on(
        "console", lambda msg: problems.append(f"{page.url}: {msg.text}") if msg.type == "error" else None
    )
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))

    def visit(path: str) -> None:
        response = page.goto(server_url + path)
        assert response.status == 200, path
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, (path, policy)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, (path, policy)

    visit("/accounts/signup/")
    page.fill("input[name=username]", NAME)
    page.fill("input[name=password1]", "tile-pass-77")
    page.fill("input[name=password2]", "tile-pass-77")
    page.click("button[type=submit]")
    expect(page.locator("[data-testid=create-table]").first).to_be_visible()

    with page.expect_websocket(timeout=WAIT_MS):  # the lobby's socket is allowed by connect-src 'self'
        visit("/")
    with page.expect_websocket(timeout=WAIT_MS) as table_socket:
        page.locator("[data-testid=create-table]").first.click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    expect(page.locator("#board .seats")).to_be_visible(timeout=WAIT_MS)
    assert not table_socket.value.is_closed()
    page.screenshot(path=str(results_dir / "csp-table.png"), full_page=True)

    user_id, room_id, match_id, hand_id = (
        manage("shell", "-c", STORED_HANDS.format(name=NAME)).strip().splitlines()[-1].split()
    )
    for path in (
        "/history/matches/",
        f"/history/matches/{match_id}/",
        f"/history/players/u{user_id}/matches/",
        "/history/leaderboard/",
        "/history/replay/import/",
        "/calc/",
        "/accounts/profile/",
        "/accounts/password_change/",
    ):
        visit(path)
    visit(f"/history/hands/{hand_id}/")  # the replay's script (static/js/replay.js) checks the commitment
    expect(page.locator("[data-testid=browser-check]")).to_have_attribute("data-result", "ok")
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=step]")).to_have_text("1")  # htmx swapped the board

    visit(f"/history/players/u{user_id}/")  # charts, avatar, recent matches
    expect(page.locator("[data-testid=avatar]")).to_have_text("C")
    expect(page.locator(f"[data-testid=recent-matches] tr[data-match='{match_id}']")).to_be_visible()
    page.select_option("select[name=room]", room_id)  # static/js/site.js submits the form
    expect(page).to_have_url(re.compile(rf"\?room={room_id}$"))
    page.screenshot(path=str(results_dir / "csp-player-page.png"), full_page=True)

    assert problems == []
