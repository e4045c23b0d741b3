"""Steps the browser tests share."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

# A browser as the tests' players use it: reading the site in Chinese, its default language.
VISITOR = {"locale": "zh-CN"}
WAIT_MS = 30_000  # how long a step may wait for the live table (the bots' clock, a slow CI host)
MAX_MOVES = 200  # more answers than one hand can ask of one seat


def resize(page: Page, size: dict) -> None:
    """Set the window to `size` ({"width", "height"}) and wait until the page is laid out at it: the
    browser applies a new viewport a frame later, and a check made before that reads the old layout
    (a menu button still shown, then gone when clicked)."""
    page.set_viewport_size(size)
    page.wait_for_function(
        "([w, h]) => innerWidth === w && innerHeight === h"
        " && new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))",
        arg=[size["width"], size["height"]],
    )


def other_browser(page: Page) -> Page:
    """A page in a new browser context (another person, no shared cookies) set up like `page`'s."""
    return page.context.browser.new_context(**VISITOR).new_page()


def sign_up(page: Page, server_url: str, name: str) -> None:
    """Make an account through the sign-up form and land on the lobby."""
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", "tile-pass-77")
    page.fill("input[name=password2]", "tile-pass-77")
    page.click("button[type=submit]")
    expect(page.locator("[data-testid=create-table]").first).to_be_visible()


def new_table(page: Page, room_id: int | None = None) -> int:
    """From the lobby: open a table (in the first room, or in `room_id`), fill it with bots and start
    the match; returns the table's id once its board shows."""
    room = f"[data-room='{room_id}'] " if room_id is not None else ""
    page.locator(f"{room}[data-testid=create-table]").first.click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    expect(page.locator("#board .seats")).to_be_visible()
    return int(re.search(r"/table/(\d+)/", page.url).group(1))


def board_version(page: Page) -> str:
    return page.locator("#frame-stamp").get_attribute("data-version") or ""


def my_turn(page: Page) -> None:
    """Pass claims until it is your turn: the clock then waits for you, so a rig cannot race a bot."""
    for _ in range(MAX_MOVES):
        page.locator("#controls .choices, #controls [data-testid=discard]").first.wait_for(timeout=WAIT_MS)
        if page.locator("#controls [data-testid=discard]").count():
            return
        version = board_version(page)
        page.locator("[data-testid=choice-pass]").first.click()
        page.wait_for_function(
            "v => document.querySelector('#frame-stamp').dataset.version !== v", arg=version
        )
    raise AssertionError("never my turn")


def answer(page: Page) -> bool:
    """Answer what the table asks (a win; else pass; else discard the drawn tile); False once the hand
    has ended."""
    prompt = page.locator("#controls .choices, #controls [data-testid=discard], #settlement.open")
    prompt.first.wait_for(timeout=WAIT_MS)
    if page.locator("#settlement.open").count():
        return False
    version = board_version(page)
    page.evaluate("document.getElementById('table-error').replaceChildren()")
    win = page.locator("[data-testid=choice-win], [data-testid=choice-self_win]")
    if win.count():
        win.first.click()
    elif page.locator("[data-testid=choice-pass]").count():
        page.locator("[data-testid=choice-pass]").first.click()
    elif page.locator("[data-testid=discard-drawn]").count():
        page.locator("[data-testid=discard-drawn]").first.dblclick()
    else:
        page.locator("[data-testid=discard]").last.dblclick()
    page.wait_for_function(
        """v => document.querySelector('#frame-stamp').dataset.version !== v
               || document.querySelector('#table-error [data-error-code]') !== null""",
        arg=version,
        timeout=WAIT_MS,
    )
    return True
