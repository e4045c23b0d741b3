"""In a real browser: sign up, open a table, fill it with bots, and play a hand to its settlement."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .pages import other_browser, resize

MAX_MOVES = 200
WAIT_MS = 30_000


def _version(page: Page) -> str:
    return page.locator("#frame-stamp").get_attribute("data-version") or ""


def _wait_for_change(page: Page, version: str) -> None:
    """Wait until the table moved on (a new version) or the server refused the move (an error)."""
    page.wait_for_function(
        """v => document.querySelector('#frame-stamp').dataset.version !== v
               || document.querySelector('#table-error [data-error-code]') !== null""",
        arg=version,
        timeout=WAIT_MS,
    )


def _spectator_sees_public_information_only(page: Page, *, ended: bool) -> None:
    """An anonymous watcher in another browser context: the table, but no hand and no buttons."""
    watcher = other_browser(page)
    try:
        watcher.goto(page.url)
        expect(watcher.locator("#board .seats")).to_be_visible()
        expect(watcher.locator("[data-zone=hand]")).to_have_count(0)
        expect(watcher.locator("form[ws-send]")).to_have_count(0)
        if not ended and watcher.locator("#settlement.open").count():
            ended = True  # the bots finished the hand while the watcher was opening the page
        if ended:
            expect(watcher.locator("#settlement [data-payment]")).to_have_count(4)  # 摊牌: all public now
        else:
            expect(watcher.locator("[data-zone=revealed]")).to_have_count(0)
            assert watcher.locator("#board .backs > i").count() >= 30  # four concealed hands, face down
    finally:
        watcher.context.close()


def test_play_one_hand_to_settlement(page: Page, server_url: str, results_dir):
    resize(page, {"width": 420, "height": 900})
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("input[name=username]", "e2e-player")
    page.fill("input[name=display_name]", "测试玩家")
    page.fill("input[name=password1]", "tile-pass-77")
    page.fill("input[name=password2]", "tile-pass-77")
    page.click("button[type=submit]")
    expect(page.locator("[data-testid=create-table]").first).to_be_visible()

    page.screenshot(path=str(results_dir / "lobby.png"), full_page=True)
    page.locator("[data-testid=create-table]").first.click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    expect(page.locator("#board .seats")).to_be_visible()

    settlement = page.locator("#settlement.open")
    prompt = page.locator("#controls .choices, #controls [data-testid=discard], #settlement.open")
    took_table_shot = took_choice_shot = False
    for _ in range(MAX_MOVES):
        prompt.first.wait_for(timeout=WAIT_MS)
        if settlement.count():
            break
        version = _version(page)
        page.evaluate("document.getElementById('table-error').replaceChildren()")  # a refusal is per click
        win = page.locator("[data-testid=choice-win], [data-testid=choice-self_win]")
        drawn = page.locator("[data-testid=discard-drawn]")
        if not took_choice_shot and page.locator("[data-testid^=choice-]").count():
            page.screenshot(path=str(results_dir / "claim-bar.png"), full_page=True)
            took_choice_shot = True
        if win.count():
            win.first.click()
        elif page.locator("[data-testid=choice-pass]").count():
            page.locator("[data-testid=choice-pass]").first.click()
        elif page.locator("[data-testid^=choice-]").count():
            page.locator("[data-testid^=choice-]").first.click()
        elif drawn.count():
            drawn.first.dblclick()
        else:
            page.locator("[data-testid=discard]").last.dblclick()  # a tap raises, the second discards
        _wait_for_change(page, version)
        if not took_table_shot and page.locator("#board .river [data-tile]").count() >= 6:
            page.screenshot(path=str(results_dir / "table.png"), full_page=True)
            took_table_shot = True
            _spectator_sees_public_information_only(page, ended=False)
    expect(settlement).to_be_visible(timeout=WAIT_MS)
    _spectator_sees_public_information_only(page, ended=True)
    expect(settlement).to_contain_text(re.compile("结算|荒庄"))
    expect(page.locator("#settlement [data-payment]")).to_have_count(4)
    page.screenshot(path=str(results_dir / "settlement.png"), full_page=True)
    assert took_table_shot or (results_dir / "settlement.png").exists()
    # Who the next hand waits for: the bots are ready, the player is not until they press 下一局,
    # which (the only person seated) deals the next hand.
    states = page.locator("[data-testid=ready-state] li[data-seat]")
    expect(states).to_have_count(4)
    expect(page.locator("[data-testid=ready-state] li[data-ready=no]")).to_have_count(1)
    page.click("[data-testid=next-hand]")
    expect(settlement).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator("#board .seats")).to_be_visible()
