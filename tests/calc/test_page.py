"""The calculator page: bad input gets a clear message (never a 500), htmx gets only the work region,
taps build a hand, and a finished hand's link reopens the same win."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from calc.hand_input import read_query
from calc.links import calc_url
from games.engine.melds import Meld
from games.engine.rules import Rules
from games.engine.scoring import WinContext, score_win
from games.engine.tiles import parse_tiles

# These tests read the English words of pages and messages (the site default is Chinese).
pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def problems(response) -> str:
    text = response.content.decode()
    found = re.search(r'data-testid="problems">(.*?)</div>', text, re.S)
    assert found, "the page shows no message"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("hand=55555m&tile=1z", "5 copies of 5m"),
        ("hand=1111m&tile=1m", "5 copies of 1m"),
        ("flowers=11f", "2 copies of 1f"),
        ("hand=123456789m123456p&tile=1z", "Too many tiles: 15 in hand"),
        ("hand=123456789m1z&meld=pong:777z:3&meld=pong:666z:2", "Too many tiles"),
        ("meld=chow:123z:3", "honours cannot be chowed"),
        ("meld=chow:135m:3", "a chow is three consecutive tiles"),
        ("meld=pong:123m:3", "3 identical tiles"),
        ("hand=xyz", "unexpected character"),
        ("hand=123", "digits without a suit letter"),
        ("tile=12m", "winning tile is one suit or honour tile"),
        ("hand=1f", "Flowers go with the flowers"),
        ("winner=9", "seat must be a whole number 0-3"),
        ("win=sideways", "Unknown way of winning"),
        ("dice=77", "Dice are two digits"),
        ("preset=riichi", "Unknown preset"),
        ("feeds=12", "feeds must be 16 digits"),
        ("ready=2", "ready must be four"),
        ("menqing=triple", "Unknown menqing"),
        ("meld=pong", "should read like pong:777z:3"),
        ("meld=pong:777z:9", "source seat must be 0-3"),
        ("hand=" + "1m" * 200, "too long"),
        ("bogus=1", "Unknown parameter"),
        ("hand=123456789m1z&tile=1z&meld=pong:777z:3&winner=1&from=1", "own discard"),
        ("hand=123456789m1z&tile=1z&meld=pong:777z:1&winner=1&from=2", "cannot be claimed from the winner"),
        ("hand=123456789m1z&tile=5z&flowers=5z", "Only flower tiles go with the flowers"),
        ("preset=home&hand=123456789m1122z&tile=5z", "dragons are flowers"),
        ("hand=123m&tile=1z", "more tile(s) to go"),
        ("win=eight_flowers&flowers=123f", "all eight flower tiles"),
        ("win=eight_flowers&flowers=12345678f&hand=1m", "12 more tile(s) to go"),
    ],
)
def test_bad_input_gets_a_clear_message(client, query, words):
    response = client.get("/calc/?" + query)
    assert response.status_code == 200
    assert words in problems(response)
    assert 'data-testid="explanation"' not in response.content.decode()


@pytest.mark.parametrize(
    "query",
    ["%00", "hand=%00", "meld=%ff%fe", "a&b&c", "hand=1m&hand=2m", "meld=" + "&meld=".join(["pong:1z"] * 50),
     "stake=-1", "stake=1e9", "huangfan=٣", "winner=", "=&=&", "mk=chow&to=meld&mf=x"],
)  # fmt: skip
def test_garbage_in_the_query_string_never_breaks_the_page(client, query):
    assert client.get("/calc/?" + query).status_code == 200


def test_a_legal_hand_is_explained(client):
    query = "/calc/?hand=123456789m1z&tile=1z&meld=pong:777z:3&flowers=12f&winner=1&from=2"
    response = client.get(query)
    text = html.unescape(response.content.decode())
    client.cookies["django_language"] = "zh-hans"
    chinese = html.unescape(client.get(query).content.decode())
    assert "混一色" in chinese and "Half flush" in text
    assert "P = 2 + 1 × 4 hua = 6" in text and "P = 2 + 1 × 4 花 = 6" in chinese
    assert 'data-testid="breakdown-total">4<' in text
    assert re.search(r'<tr data-seat="2">.*?data-payment="-6"', text, re.S)
    assert "hunyise" not in re.sub(r'data-[a-z-]+="[^"]*"|href="[^"]*"', "", text), "no raw codes shown"


def test_a_refused_hand_says_why(client):
    plain = client.get("/calc/?hand=123m456p789s234s1z&tile=1z&winner=1&from=2").content.decode()
    assert 'data-legal="false"' in plain and "plain mixed hand never wins" in plain
    broken = client.get("/calc/?hand=1357m2468p1357s9s&tile=1z&winner=1&from=2").content.decode()
    assert 'data-legal="false"' in broken and "Not a complete hand" in broken


def test_htmx_request_returns_only_the_work_region(client):
    query = "hand=123456789m1z&tile=1z&meld=pong:777z:3&winner=1&from=2"
    response = client.get("/calc/?" + query, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="calc-work")
    text = response.content.decode()
    assert response.status_code == 200
    assert text.lstrip().startswith('<div id="calc-work"')
    assert "<html" not in text and "site-header" not in text
    assert 'id="calc-explanation"' in text and 'data-testid="explanation"' in text
    assert response["HX-Push-Url"].startswith("/calc/?") and "hand=123456789m1z" in response["HX-Push-Url"]
    full = client.get("/calc/?" + query).content.decode()
    assert "<html" in full and 'id="calc-work"' in full


def _tap_links(text: str) -> dict[int, str]:
    return {
        int(code): html.unescape(href) for href, code in re.findall(r'href="([^"]*)" data-tap="(\d+)"', text)
    }


def test_tapping_tiles_builds_and_scores_a_hand(client):
    """Follow the page's own links: thirteen tiles, the winning tile, then a flower."""
    text = client.get("/calc/?win=self_draw").content.decode()
    for code in parse_tiles("11123456789999p") + parse_tiles("1f"):
        links = _tap_links(text)
        assert code in links, f"tile {code} is not tappable"
        text = client.get("/calc/" + links[code], HTTP_HX_REQUEST="true").content.decode()
    assert 'data-pattern="qingyise"' in text
    assert 'data-codes="qingyise menqing"' in text
    assert "hand=1112345678999p" in html.unescape(text) and "tile=9p" in html.unescape(text)
    links = _tap_links(text)
    assert 0 not in links, "a full hand with its winning tile takes no more suit tiles"


def test_a_meld_is_one_tap_and_a_fifth_copy_is_not_offered(client):
    text = client.get("/calc/?to=meld&mk=chow&mf=3&hand=1m").content.decode()
    links = _tap_links(text)
    assert 7 not in links and 27 not in links  # no chow starting at 8m, none of honours
    text = client.get("/calc/" + links[0]).content.decode()
    assert "meld=chow:123m:3" in html.unescape(text)
    text = client.get("/calc/?to=meld&mk=kong_concealed&hand=1m").content.decode()
    assert 0 not in _tap_links(text), "a kong of 1m beside a 1m in hand would be five"


def _ctx(**kw):
    base = dict(winner=2, win="discard", concealed=tuple(parse_tiles("1555777999p")), winning_tile=9,
                melds=(Meld.of("pong", "222p", 1),), from_seat=0, dice=(1, 4), huangfan=1, stake=3,
                flowers=tuple(parse_tiles("58f")), feeds=((0, 0, 0, 0), (0, 0, 0, 0), (1, 3, 0, 0), (0,) * 4),
                ready=(True, False, False, False), dealer=3)  # fmt: skip
    base.update(kw)
    return WinContext(**base)


@pytest.mark.parametrize(
    ("ctx", "rules"),
    [
        (_ctx(), Rules()),
        (
            _ctx(win="self_draw", from_seat=None, last_tile=True),
            Rules(haidi="double", hand_loss_cap_lezi=None),
        ),
        (_ctx(win="rob_kong", from_seat=3), Rules(preset="lazi", payment="bao_chong")),
        (_ctx(), Rules(base=3, flower_point=2, lezi=20, menqing="lezi", hand_loss_cap_lezi=2)),
    ],
)
def test_calc_url_reopens_the_same_win(client, ctx, rules):
    url = calc_url(ctx, rules)
    inp, found = read_query(client.get(url).wsgi_request.GET)
    assert found == []
    again, again_rules = inp.to_engine()
    assert again == ctx and again_rules == rules
    page = client.get(url).content.decode()
    score = score_win(ctx, rules)
    assert f'data-pattern="{score.pattern}"' in page
    assert f'data-testid="value">{score.value}<' in page


@pytest.mark.parametrize(
    ("query", "sentence"),
    [
        ("hand=123456789m1z&tile=1z&meld=pong:777z:3&winner=1&from=2", "the discarder pays 1 share"),
        (
            "hand=123456789m1z&tile=1z&meld=pong:777z:3&winner=1&win=self_draw",
            "each other player pays 1 share",
        ),
        (
            "hand=123456789m1z&tile=1z&meld=pong:777z:3&winner=1&from=2&payment=bao_chong",
            "pays for all three",
        ),
        ("hand=123456789m1z&tile=1z&meld=pong:777z:0&winner=1&from=2&feeds=0000300000000000", "not ready"),
        (
            "hand=123456789m1z&tile=1z&meld=pong:777z:0&winner=1&from=2&feeds=0000300000000000&ready=0010",
            "was ready",
        ),
    ],
)
def test_who_pays_is_said_in_words(client, query, sentence):
    text = html.unescape(client.get("/calc/?" + query).content.decode())
    found = re.search(r'data-testid="who-pays">(.*?)</p>', text, re.S)
    assert found and sentence in found.group(1)


def test_in_winning_tile_mode_a_tap_replaces_the_winning_tile(client):
    text = client.get("/calc/?to=tile&hand=123m&tile=5p").content.decode()
    after = client.get("/calc/" + _tap_links(text)[parse_tiles("7s")[0]]).content.decode()
    assert "tile=7s" in html.unescape(after) and "hand=123m&" in html.unescape(after)


def test_the_nav_links_the_calculator(client):
    text = client.get("/calc/").content.decode()  # base.html: every page has the same nav
    assert re.search(r'<a href="/calc/" data-testid="nav-calc">', text)


NINE_DOWN = "hand=7788p&tile=7p&meld=chow:123p:0&meld=pong:555p:2&meld=pong:999p:3&winner=1&from=2"


def test_qingyise_9_bao_is_a_checkbox_and_the_discarder_pays_three_shares(client):
    off = client.get("/calc/?" + NINE_DOWN).content.decode()
    assert 'name="qingyise_9_bao" value="1">' in off  # unchecked
    assert re.search(r'<tr data-seat="2">.*?data-payment="-10"', off, re.S)
    on = client.get("/calc/?" + NINE_DOWN + "&qingyise_9_bao=1").content.decode()
    assert 'name="qingyise_9_bao" value="1" checked>' in on
    assert re.search(r'<tr data-seat="2">.*?data-payment="-30"', on, re.S)
    client.cookies["django_language"] = "zh-hans"
    assert "九张落地" in client.get("/calc/?" + NINE_DOWN + "&qingyise_9_bao=1").content.decode()


def test_a_finished_hands_link_keeps_qingyise_9_bao():
    melds = tuple(Meld.parse(m) for m in ("chow 123p<0", "pong 555p<2", "pong 999p<3"))
    ctx = WinContext(1, "discard", tuple(parse_tiles("7788p")), parse_tiles("7p")[0], melds, from_seat=2)
    url = calc_url(ctx, Rules(qingyise_9_bao=True))
    assert "qingyise_9_bao=1" in url
    inp, problems = read_query(
        dict(p.split("=", 1) for p in url.split("?", 1)[1].split("&") if "meld" not in p)
    )
    assert not problems and inp.rules().qingyise_9_bao


def test_seats_are_named_by_their_place_east_to_north_in_both_languages(client):
    """Issue 26: the form and the payments name the seats 东 南 西 北 / East … North, not 座位 0-3."""
    query = "/calc/?hand=123456789m1z&tile=1z&meld=pong:777z:3&winner=1&from=2"
    english = html.unescape(client.get(query).content.decode())
    client.cookies["django_language"] = "zh-hans"
    chinese = html.unescape(client.get(query).content.decode())
    winner = re.search(r'<select name="winner">(.*?)</select>', english, re.S).group(1)
    assert re.findall(r">([A-Za-z]+)</option>", winner) == ["East", "South", "West", "North"]
    assert re.search(r'<option value="1" selected>南</option>', chinese)
    assert "Seat 0" not in english and "座位 0" not in chinese
    assert re.search(r'<tr data-seat="2">\s*<td>West\b', english)
