"""The tile sprite as Chromium draws it, served by the real daphne + whitenoise: every tile's external
`<use href>` resolves, and at 24 px wide every face is a different picture."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from django.templatetags.static import static

REPO = Path(__file__).resolve().parents[2]


def _tile_sheet():
    spec = importlib.util.spec_from_file_location("tile_sheet", REPO / "scripts" / "tile_sheet.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_tile_draws_and_differs_at_24px(server_url, browser, results_dir):
    sprite = browser.new_context().request.get(server_url + static("tiles/tiles.svg"))
    assert sprite.ok
    assert sprite.headers["content-type"].startswith("image/svg+xml")

    html = _tile_sheet().render_sheet(24, False)
    page = browser.new_page(viewport={"width": 800, "height": 600}, device_scale_factor=1)
    # The sheet is answered here; everything else (the sprite, the stylesheet) comes from daphne on
    # the same origin, as on the site.
    page.route(f"{server_url}/tile-sheet/", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{server_url}/tile-sheet/")
    page.wait_for_load_state("networkidle")
    page.locator(".sheet").screenshot(path=str(results_dir / "tiles-e2e-24.png"))

    tiles = page.locator(".row > svg.tile")  # the 42 faces and a back (not the kongs' tiles)
    assert tiles.count() == 43
    # What each tile's symbol covers of the box it is drawn in (a turned tile's <use> has a width and
    # height of its own; an upright one fills its svg, sized by CSS): a symbol that did not load
    # leaves an empty box; every face or back covers 58.5 x 78.5 of 60 x 80.
    cover = page.eval_on_selector_all(
        "svg.tile use",
        """uses => uses.map(u => {
            const b = u.getBBox();
            const own = u.width.baseVal.value && u.height.baseVal.value;
            const box = own ? {width: u.width.baseVal.value, height: u.height.baseVal.value}
                            : u.ownerSVGElement.viewBox.baseVal || u.ownerSVGElement.getBoundingClientRect();
            const frame = box.width ? box : u.ownerSVGElement.getBoundingClientRect();
            return [b.width / frame.width, b.height / frame.height];
        })""",
    )
    assert len(cover) == 43 + 2 * 4 and all(w > 0.95 and h > 0.95 for w, h in cover), cover
    pictures = {}
    for i in range(tiles.count()):
        tile = tiles.nth(i)
        pictures.setdefault(tile.screenshot(), []).append(tile.get_attribute("data-tile") or "back")
    same = [tiles for tiles in pictures.values() if len(tiles) > 1]
    assert not same, f"tiles drawn alike at 24 px: {same}"
    page.close()
