"""Render every tile through the real includes (templates/tiles/) and the sprite, in Chromium, into
test-results/tiles-*.png: a sheet at 24 px wide (the phone size the issue asks for), at 40 px, and
turned sideways, each at device pixel ratio 1 and 2, plus the backs and the face-down kong.

    .venv/bin/python scripts/tile_sheet.py [--out test-results]

It needs /usr/bin/chromium (see scripts/e2e.sh). No server: Playwright answers the page's requests
for /static/ from the checkout, on one made-up origin, so the sprite's external `<use href>` works as
it does on the site (same origin).
"""

from __future__ import annotations

import argparse
import mimetypes
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shmj_site.settings")

ORIGIN = "http://tiles.invalid"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

SHEET = """{% load static %}<!doctype html><html><head><meta charset="utf-8">
{% include "tiles/head.html" %}
<style>
  body { margin: 8px; background: #1f5e3b; font: 12px sans-serif; color: #fff; }
  .row { display: flex; gap: 3px; margin: 0 0 6px; align-items: flex-end; flex-wrap: nowrap; }
  .row .label { width: 5.5em; }
  .sheet { display: inline-block; }
</style></head><body><div class="sheet" style="--tile-w: {{ width }}px">
{% for row in rows %}<div class="row"><span class="label">{{ row.0 }}</span>{% for t in row.1 %}{% include "tiles/tile.html" with tile=t turned=turned %}{% endfor %}</div>
{% endfor %}<div class="row"><span class="label">back 暗杠</span>{% include "tiles/back.html" %}{% include "tiles/kong_down.html" %}{% include "tiles/kong_down.html" with tile="7z" %}</div>
</div></body></html>"""


def rows() -> list[tuple[str, list[str]]]:
    return [
        ("万 m", [f"{n}m" for n in range(1, 10)]),
        ("筒 p", [f"{n}p" for n in range(1, 10)]),
        ("条 s", [f"{n}s" for n in range(1, 10)]),
        ("字 z", [f"{n}z" for n in range(1, 8)]),
        ("花 f", [f"{n}f" for n in range(1, 9)]),
    ]


def render_sheet(width: int, turned: bool) -> str:
    import django
    from django.template import engines

    django.setup()
    return engines["django"].from_string(SHEET).render({"rows": rows(), "width": width, "turned": turned})


def serve_repo(route) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0].split("#")[0]
    if path.startswith("/static/"):
        file = REPO / "static" / path.removeprefix("/static/")
        if file.is_file():
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            route.fulfill(status=200, body=file.read_bytes(), content_type=kind)
            return
    route.fulfill(status=404, body="not found")


def zoom(browser, source: Path, target: Path, factor: int = 3) -> None:
    """The 1x sheet blown up pixel for pixel, to judge what a 24 px tile really shows."""
    import base64

    data = base64.b64encode(source.read_bytes()).decode()
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_content(
        f'<img id="z" src="data:image/png;base64,{data}" style="image-rendering: pixelated; '
        f'transform-origin: 0 0; zoom: {factor}">'
    )
    page.locator("#z").screenshot(path=str(target))
    page.close()
    print(target)


def _answer(html: str):
    # One parameter only: Playwright passes the request as well to a handler that takes two.
    return lambda route: route.fulfill(body=html, content_type="text/html")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "test-results")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install -y chromium fonts-noto-cjk")
    from playwright.sync_api import sync_playwright

    sheets = {"24": render_sheet(24, False), "40": render_sheet(40, False), "turned": render_sheet(24, True)}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for scale in (1, 2):
            page = browser.new_page(viewport={"width": 800, "height": 600}, device_scale_factor=scale)
            page.route(f"{ORIGIN}/**", serve_repo)
            for name, html in sheets.items():
                page.route(f"{ORIGIN}/sheet-{name}.html", _answer(html))
                page.goto(f"{ORIGIN}/sheet-{name}.html")
                page.wait_for_load_state("networkidle")
                shot = args.out / f"tiles-{name}@{scale}x.png"
                page.locator(".sheet").screenshot(path=str(shot))
                print(shot)
            page.close()
        for name in ("24", "turned"):
            zoom(browser, args.out / f"tiles-{name}@1x.png", args.out / f"tiles-{name}@1x-zoom3.png")
        browser.close()


if __name__ == "__main__":
    main()
