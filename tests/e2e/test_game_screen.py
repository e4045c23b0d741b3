"""The table as a game screen (issue 26), at a desktop's 1280×800 and 1920×1080 and a phone's 390×844
and 844×390, one hand played against bots and the same moments looked at in each size:

- your turn: the page does not scroll, every tile of your hand is inside the window, river tiles are
  at least 32 px wide at 1280×800 and wider at 1920×1080, your own tiles at least 40 px on a desktop;
- a claim: the choices are inside the window;
- the settlement: the card, its countdown and the next-hand button are inside the window, and the
  winner's seat is lit on the board behind it.

Each moment at each size is saved as test-results/screen-{phase}-{size}.png.

And the site header at every size, on the table and in the lobby: every link of its nav can be
reached inside the window (on a narrow game screen, in the menu it folds into), none cut off at the
right; saved as test-results/screen-menu-{size}.png and lobby-{size}.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .pages import MAX_MOVES, WAIT_MS, answer, new_table, resize, sign_up

SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "390x844": (390, 844), "844x390": (844, 390)}
DESKTOPS = ("1280x800", "1920x1080")

# Everything the checks measure, read in one go from the page as it is laid out.
MEASURE = """(selector) => {
    const rect = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, width: r.width}; };
    const all = (s) => Array.from(document.querySelectorAll(s)).map(rect);
    return {
        scrollWidth: document.documentElement.scrollWidth,
        scrollHeight: document.documentElement.scrollHeight,
        width: innerWidth,
        height: innerHeight,
        hand: all('#controls [data-zone=hand] svg.tile'),
        river: all('#board [data-zone=river] svg.tile').map(r => r.width),
        riverTurned: all('#board .seat-left [data-zone=river] svg.tile'),
        targets: all(selector),
    };
}"""


def _look(page: Page, size: str, selector: str = "#controls") -> dict:
    resize(page, dict(zip(("width", "height"), SIZES[size], strict=True)))
    expect(page.locator(".callout")).to_have_count(0)  # a claim's callout (about a second) has gone
    return page.evaluate(MEASURE, selector)


def _inside(box: dict, seen: dict) -> bool:
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["right"] <= seen["width"] + 0.5
        and box["bottom"] <= seen["height"] + 0.5
    )


def _no_page_scroll(seen: dict, what: str) -> None:
    assert seen["scrollHeight"] <= seen["height"], (
        f"{what}: the page scrolls ({seen['scrollHeight']} > {seen['height']})"
    )
    assert seen["scrollWidth"] <= seen["width"], f"{what}: the page scrolls sideways"


def _check_turn(page: Page, results_dir, size: str, widths: dict) -> None:
    seen = _look(page, size)
    what = f"your turn at {size}"
    _no_page_scroll(seen, what)
    assert len(seen["hand"]) >= 2, f"{what}: no hand"
    outside = [box for box in seen["hand"] if not _inside(box, seen)]
    assert outside == [], f"{what}: {len(outside)} tiles of your hand are outside the window"
    assert seen["river"], f"{what}: no river tiles"
    widths[size] = min(seen["river"])
    if size in DESKTOPS:
        assert min(box["width"] for box in seen["hand"]) >= 40, f"{what}: your tiles are narrower than 40 px"
    page.screenshot(path=str(results_dir / f"screen-turn-{size}.png"))
    _check_nav(page, results_dir, f"screen-menu-{size}")


NAV_ITEMS = "#site-nav > a, #site-nav > form"


def _check_nav(page: Page, results_dir, name: str) -> None:
    """Every item of the header's nav is inside the window, in the header or, where the nav folds
    into a menu, in the open menu (then closed again)."""
    toggle = page.get_by_test_id("nav-toggle")
    folded = toggle.is_visible()
    if folded:
        toggle.click()
        expect(page.locator("#site-nav")).to_be_visible()
    seen = page.evaluate(MEASURE, NAV_ITEMS)
    assert len(seen["targets"]) >= 5, f"{name}: the nav has {len(seen['targets'])} items"
    cut = [box for box in seen["targets"] if not _inside(box, seen) or box["width"] == 0]
    assert cut == [], f"{name}: {len(cut)} nav items are cut off or hidden"
    page.screenshot(path=str(results_dir / f"{name}.png"))
    if folded:
        page.keyboard.press("Escape")
        expect(page.locator("#site-nav")).to_be_hidden()


def test_the_lobby_header_fits_at_every_size(page: Page, server_url: str, results_dir):
    sign_up(page, server_url, "lobby-sizes")
    for size, (width, height) in SIZES.items():
        resize(page, {"width": width, "height": height})
        seen = page.evaluate(MEASURE, "main")
        assert seen["scrollWidth"] <= seen["width"], f"the lobby scrolls sideways at {size}"
        _check_nav(page, results_dir, f"lobby-{size}")


def test_the_table_fills_the_screen_at_every_size(page: Page, server_url: str, results_dir):
    sign_up(page, server_url, "screen-sizes")
    new_table(page)
    widths: dict[str, float] = {}
    looked_at_claim = False
    for _ in range(MAX_MOVES):
        page.locator("#controls .choices, #controls [data-testid=discard], #settlement.open").first.wait_for(
            timeout=WAIT_MS
        )
        if not looked_at_claim and page.locator("#controls [data-testid=choice-pass]").count():
            for size in SIZES:
                seen = _look(page, size, "#controls [data-zone=choices] button")
                _no_page_scroll(seen, f"a claim at {size}")
                assert seen["targets"] and all(_inside(b, seen) for b in seen["targets"]), (
                    f"claim choices at {size}"
                )
                page.screenshot(path=str(results_dir / f"screen-claim-{size}.png"))
            looked_at_claim = True
        rivers = page.locator("#board [data-zone=river] [data-tile]").count()
        if not widths and rivers >= 12 and page.locator("#controls [data-testid=discard]").count():
            for size in SIZES:
                _check_turn(page, results_dir, size, widths)
        if not answer(page):
            break
    assert widths, "the hand ended before it was your turn with 12 tiles in the rivers"
    assert widths["1280x800"] >= 32, f"river tiles {widths['1280x800']:.1f} px wide at 1280x800"
    assert widths["1920x1080"] > widths["1280x800"], "river tiles do not grow with the window"

    expect(page.locator("#settlement.open")).to_be_visible(timeout=WAIT_MS)
    if (
        page.locator("#settlement").get_attribute("data-result") == "win"
    ):  # static/js/story.js lights the winner
        winners = page.locator("#settlement .tanpai-row:has(.winning)")
        expect(page.locator("#board .seat.is-winner")).to_have_count(winners.count())
        seat = winners.first.get_attribute("data-seat")
        expect(page.locator(f"#board .seat[data-seat='{seat}']")).to_have_class(re.compile("is-winner"))
    for size in SIZES:
        seen = _look(page, size, "#settlement [data-testid=next-hand], #settlement .ready-state .countdown")
        _no_page_scroll(seen, f"the settlement at {size}")
        assert len(seen["targets"]) == 2, f"the settlement at {size}: no next-hand button or no countdown"
        for box in seen["targets"]:
            assert _inside(box, seen), (
                f"the settlement at {size}: the next-hand button or its countdown is off screen"
            )
        expect(page.locator("#settlement .ready-state .countdown b")).to_contain_text(re.compile(r"\d+"))
        page.screenshot(path=str(results_dir / f"screen-settlement-{size}.png"))
