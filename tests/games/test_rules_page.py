"""The rules page (issue 24): the one rules text, games/engine/RULES.md, rendered at /rules/ and linked
from every page's header and from the table's rules drawer."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games import services
from games.presentation.rules_text import RULES_FILE

pytestmark = pytest.mark.django_db


def visible(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_rules_text_is_rendered_with_its_sections_and_tables():
    response = Client().get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    article = re.search(
        r'<article class="rules-text" lang="en" translate="no"[^>]*>(.*)</article>', html, re.S
    )
    assert article, "the rules text is marked as the English source it is"
    text = article.group(1)
    assert [int(n) for n in re.findall(r'<h3 id="s(\d+)">§\1 ', text)] == list(range(1, 12))
    for n in range(1, 12):
        assert f'href="#s{n}"' in html
    assert text.count("<table>") == RULES_FILE.read_text().count("\n|---") + RULES_FILE.read_text().count(
        "\n| ---"
    )
    assert "<h1>" not in text and "**" not in text and "## " not in text  # Markdown became markup
    # The words of the file, not a copy: a sentence of §11 is on the page.
    assert "apply to <code>standard</code>" in re.sub(r"\s+", " ", text)


def test_the_page_says_in_each_language_what_language_the_rules_are_in():
    zh = Client()
    zh.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    en = Client()
    en.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    zh_line = re.search(r'data-testid="rules-language">([^<]+)<', zh.get("/rules/").content.decode()).group(1)
    en_line = re.search(r'data-testid="rules-language">([^<]+)<', en.get("/rules/").content.decode()).group(1)
    assert "英文" in zh_line and "written in English" in en_line


def test_every_page_links_the_rules_in_its_header(client_for, alice):
    for path in ("/", "/calc/", "/history/leaderboard/"):
        html = client_for(alice).get(path).content.decode()
        assert re.search(r'<a href="/rules/" data-testid="nav-rules">', html), path


def test_the_tables_rules_drawer_links_the_rules_page(client_for, room, alice):
    table = services.table_create(room_id=room.pk, user=alice)
    html = client_for(alice).get(f"/table/{table.pk}/").content.decode()
    drawer = re.search(r'<aside id="table-drawer".*?</aside>', html, re.S).group(0)
    link = re.search(r'<a href="([^"]+)" data-testid="rules-page-link"', drawer)
    assert link and Client().get(link.group(1)).status_code == 200
