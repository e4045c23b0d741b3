"""In real browsers: a private 喇子 table with house options made through the new-table form (which
asks for 上海清混碰's own options only while that preset is chosen), bots
fill it and a hand is played; a second person opens it by its invite link, sees its choices, and
watches."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .pages import other_browser, sign_up

WAIT_MS = 30_000
MOVES = 6


def _play_a_move(page: Page) -> None:
    """Answer whatever the table asks (a claim: pass; a turn: discard), then wait for the next version."""
    prompt = page.locator("#controls .choices, #controls [data-testid=discard], #settlement.open")
    prompt.first.wait_for(timeout=WAIT_MS)
    if page.locator("#settlement.open").count():
        return
    version = page.locator("#frame-stamp").get_attribute("data-version")
    if page.locator("[data-testid=choice-pass]").count():
        page.locator("[data-testid=choice-pass]").first.click()
    elif page.locator("[data-testid=discard-drawn]").count():
        page.locator("[data-testid=discard-drawn]").first.dblclick()
    else:
        page.locator("[data-testid=discard]").last.dblclick()  # a tap raises, the second discards
    page.wait_for_function(
        """v => document.querySelector('#frame-stamp').dataset.version !== v
               || document.querySelector('#table-error [data-error-code]') !== null""",
        arg=version,
        timeout=WAIT_MS,
    )


def test_private_lazi_table_by_form_and_invite_link(page: Page, server_url: str, results_dir):
    owner = page
    guest = other_browser(page)
    try:
        sign_up(owner, server_url, "private-owner")
        sign_up(guest, server_url, "private-guest")

        owner.locator("[data-testid=choose-table]").first.click()
        form = owner.locator("[data-testid=table-new-form]")
        expect(form).to_contain_text("敲")
        form.locator("select[name=preset]").select_option("standard")
        expect(form.locator("select[name=opt_payment]")).to_be_visible()
        form.locator("select[name=preset]").select_option("lazi")
        # 放冲 and 九张包 are 上海清混碰's only (RULES.md §11): a lazi table is not asked for them
        expect(form.locator("select[name=opt_payment]")).to_be_hidden()
        expect(form.locator("input[name=opt_qingyise_9_bao]")).to_be_hidden()
        form.locator("select[name=stake]").select_option("2")
        form.locator("input[name=discard_timeout]").fill("60")
        form.locator("input[name=claim_timeout]").fill("10")
        form.locator("input[name=opt_declare_ready]").check()
        form.locator("input[name=private]").check()
        owner.screenshot(path=str(results_dir / "new-table-form.png"), full_page=True)
        form.locator("[data-testid=open-table]").click()
        expect(owner).to_have_url(re.compile(r"/table/\d+/$"))
        table_url = owner.url
        invite = owner.locator("[data-testid=invite-link]")
        expect(invite).to_be_visible()
        invite_url = invite.get_attribute("href")
        assert re.fullmatch(r"/join/[A-Z2-9]{14}/", invite_url)

        # Not in the lobby for anyone else; the link shows the choices and offers a seat.
        guest.goto(f"{server_url}/")
        expect(guest.locator(f"[data-table='{table_url.rstrip('/').rsplit('/', 1)[1]}']")).to_have_count(0)
        guest.goto(f"{server_url}{invite_url}")
        choices = guest.locator("[data-testid=table-choices]")
        expect(choices).to_contain_text("喇子")
        expect(choices.locator("[data-option=declare_ready]")).to_have_text("开")
        expect(choices.locator("[data-option=payment]")).to_have_count(0)
        expect(choices.locator("[data-choice=stake]")).to_have_text("2")
        expect(guest.locator("[data-testid=invite-sit]")).to_be_visible()
        guest.screenshot(path=str(results_dir / "invite.png"), full_page=True)

        owner.click("[data-testid=fill-bots]")
        owner.locator("[data-testid=start]").click()
        expect(owner.locator("#board .seats")).to_be_visible(timeout=WAIT_MS)
        for _ in range(MOVES):
            _play_a_move(owner)

        # The guest watches through the link: the table as it is, no seat of theirs, no buttons.
        guest.goto(f"{server_url}{invite_url}")
        expect(guest.locator("[data-testid=invite-sit]")).to_have_count(0)
        guest.click("[data-testid=invite-watch]")
        expect(guest).to_have_url(table_url)
        expect(guest.locator("#board .seats")).to_be_visible()
        expect(guest.locator("[data-zone=hand]")).to_have_count(0)
        expect(guest.locator("[data-testid=table-choices]")).to_contain_text("喇子")
        expect(guest.locator("[data-testid=invite-link]")).to_have_count(0)  # only those seated see it
        assert guest.locator("#board .river [data-tile]").count() >= 1
        guest.screenshot(path=str(results_dir / "invite-watch.png"), full_page=True)
    finally:
        guest.context.close()
