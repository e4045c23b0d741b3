"""In real browsers: the owner sets the stake, a guest accepts it, both press Start (rules §10)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .pages import other_browser, sign_up

WAIT_MS = 20_000


def test_stake_agreement_and_ready_check_in_two_browsers(page: Page, server_url: str, results_dir):
    owner = page
    guest = other_browser(page)
    try:
        sign_up(owner, server_url, "stake-owner")
        sign_up(guest, server_url, "stake-guest")
        owner.locator("[data-testid=create-table]").first.click()
        expect(owner).to_have_url(re.compile(r"/table/\d+/$"))
        guest.goto(owner.url)
        guest.click("[data-testid=sit-1]")
        expect(guest.locator("[data-testid=sit-2]")).to_have_count(0, timeout=WAIT_MS)

        owner.locator("[data-testid^=stake-]").first.wait_for(timeout=WAIT_MS)
        owner.click("[data-testid=stake-2]")  # over the socket
        expect(guest.locator("[data-stake='2']")).to_be_visible(timeout=WAIT_MS)
        expect(owner.locator("[data-testid^=stake-]")).to_have_count(0, timeout=WAIT_MS)
        guest.screenshot(path=str(results_dir / "stake-accept.png"), full_page=True)
        guest.click("[data-testid=accept-stake]")
        expect(guest.locator("[data-testid=accept-stake]")).to_have_count(0, timeout=WAIT_MS)

        owner.click("[data-testid=fill-bots]")
        owner.locator("[data-testid=start]").click()
        expect(guest.locator(".badge.ready")).to_have_count(1, timeout=WAIT_MS)
        expect(guest.locator(".stake-bar .countdown")).to_be_visible()
        guest.screenshot(path=str(results_dir / "ready-check.png"), full_page=True)
        guest.locator("[data-testid=start]").click()
        expect(owner.locator("#board .seats")).to_be_visible(timeout=WAIT_MS)
        expect(guest.locator("#board .seats")).to_be_visible(timeout=WAIT_MS)
    finally:
        guest.context.close()
