"""In a real browser at phone width: build a hand in the 算番器 by tapping tiles, change how it was won,
and see the explanation and the shareable URL follow each tap without a page load."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.engine.tiles import parse_tiles

from .pages import resize


def test_tapping_builds_a_hand_and_the_result_follows(page: Page, server_url: str, results_dir):
    resize(page, {"width": 390, "height": 844})
    page.goto(f"{server_url}/calc/?win=self_draw")
    page.evaluate("window.__no_reload = true")
    for i, code in enumerate(parse_tiles("11123456789999p")):
        page.click(f'[data-tap="{code}"]')
        expect(page.locator("[data-remove]")).to_have_count(i + 1)
    expect(page.locator("[data-testid=explanation] [data-pattern]")).to_have_attribute(
        "data-pattern", "qingyise"
    )
    expect(page.locator("[data-testid=value]")).to_have_text("20")
    expect(page).to_have_url(f"{server_url}/calc/?win=self_draw&winner=0&hand=1112345678999p&tile=9p")
    page.select_option("select[name=win]", "discard")
    expect(page.locator("select[name=from]")).to_have_value("3")
    expect(page.locator('tr[data-seat="3"] [data-payment]')).to_have_attribute("data-payment", "-20")
    assert page.evaluate("window.__no_reload") is True, "every update was swapped in, not a page load"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing wider than the phone"
    page.screenshot(path=str(results_dir / "calc-phone.png"), full_page=True)
    page.reload()
    expect(page.locator("[data-testid=value]")).to_have_text("20")  # the URL alone holds the hand
