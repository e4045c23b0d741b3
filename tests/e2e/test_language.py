"""In a real browser under the site's Content-Security-Policy: the header's language switch changes the
page's language when a language is picked (site.js submits the form; no inline script), and the choice
stays for the next page (the language cookie)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_the_language_switch_changes_and_keeps_the_language(page: Page, server_url: str):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(server_url + "/history/leaderboard/")
    switch = page.get_by_test_id("language-switch").locator("select")

    switch.select_option("zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.get_by_test_id("nav-leaderboard")).to_have_text("排行榜")
    assert page.url.endswith("/history/leaderboard/")

    page.goto(server_url + "/calc/")
    expect(page.locator("h1")).to_contain_text("算番器")

    page.get_by_test_id("language-switch").locator("select").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_contain_text("Scoring calculator")
    assert not errors, errors
