"""The rules page: the one rules text, games/engine/RULES.md, as HTML.

RULES.md is the engine's statement of the rules (English prose with the Chinese terms, as it is
written and reviewed); the site shows that file itself rather than a second copy that could drift.
It is rendered once per process with markdown-it-py (CommonMark plus tables, raw HTML off: the file
is ours, but nothing in it should become markup). Headings move one level down (the page has its
own <h1>), and each "§N" heading gets the id "sN", so other pages can link to a section.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

import games.engine

RULES_FILE = Path(games.engine.__file__).with_name("RULES.md")

_HEADING = re.compile(r"<(/?)h([1-5])>")
_SECTION = re.compile(r"<h3>§(\d+) ")


@lru_cache(maxsize=1)
def rules_html() -> SafeString:
    """The rules text as HTML (a fragment: headings from <h2>), safe to place in a template."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    html = markdown.render(RULES_FILE.read_text(encoding="utf-8"))
    html = _HEADING.sub(lambda m: f"<{m.group(1)}h{int(m.group(2)) + 1}>", html)
    return mark_safe(_SECTION.sub(lambda m: f'<h3 id="s{m.group(1)}">§{m.group(1)} ', html))
