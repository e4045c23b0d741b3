"""axe-core (WCAG 2 A and AA) over the site's pages at a desktop's 1280×800 and a phone's 390×844:
the lobby, the table during play and at its settlement, history, a replay, stats, the leaderboard,
the calculator, the rules page, the account pages, an error page and the Django admin. Every page: 0 violations."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .pages import MAX_MOVES, WAIT_MS, answer, new_table, resize, sign_up

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
PAGES = [
    "/",
    "/history/matches/",
    "/history/stats/",
    "/history/leaderboard/",
    "/calc/",
    "/rules/",
    "/calc/?hand=1112345678999m&tile=5m&win=self_draw&winner=0&flowers=12f&dealer=0&dice=25",
    "/accounts/profile/",
    "/accounts/password_change/",
    "/history/replay/import/",
    "/no-such-page/",
]
ADMIN = ["/admin/", "/admin/games/table/", "/admin/auth/user/"]
STAFF = (
    "from django.contrib.auth import get_user_model; "
    "get_user_model().objects.create_superuser('axe-admin', 'axe@example.com', 'tile-pass-77')"
)


def _violations(page: Page, where: str) -> list[str]:
    out = []
    for size, (width, height) in SIZES.items():
        resize(page, {"width": width, "height": height})
        result = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}})
        for v in result.response["violations"]:
            targets = [n["target"] for n in v["nodes"]][:3]
            out.append(f"{where} at {size}: {v['id']} ({len(v['nodes'])}) {targets}")
    return out


def test_every_page_has_no_axe_violations(page: Page, server_url: str, manage):
    sign_up(page, server_url, "axe-player")
    found: list[str] = []
    new_table(page)
    found += _violations(page, "the table")
    for _ in range(MAX_MOVES):
        if not answer(page):
            break
    expect(page.locator("#settlement.open")).to_be_visible(timeout=WAIT_MS)
    found += _violations(page, "the settlement")
    for path in PAGES:
        page.goto(server_url + path)
        found += _violations(page, path)
    page.goto(server_url + "/history/matches/")
    match_link = page.locator("main a[href*='/history/matches/']").first
    if match_link.count():
        match_link.click()
        found += _violations(page, "a match")
        hand_link = page.locator("main a[href*='/history/hands/']").first
        if hand_link.count():
            hand_link.click()
            found += _violations(page, "a replay")
    manage("shell", "-c", STAFF)
    admin = page.context.browser.new_context().new_page()
    try:
        admin.goto(server_url + "/admin/login/")
        admin.fill("input[name=username]", "axe-admin")
        admin.fill("input[name=password]", "tile-pass-77")
        admin.click("input[type=submit], button[type=submit]")
        for path in ADMIN:
            admin.goto(server_url + path)
            expect(admin.locator("#site-name")).to_be_visible()
            expect(admin.locator("#user-tools")).to_be_visible()  # signed in, not the login form
            found += _violations(admin, path)
    finally:
        admin.context.close()
    assert found == [], "\n".join(found)
