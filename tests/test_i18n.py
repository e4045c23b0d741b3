"""Two languages: the English catalogue is complete, every converted page renders in one language at a
time, and the language chosen in the header is remembered per browser and per user.

The catalogue check runs `makemessages` into a temporary copy of `locale/` and fails on any entry
that is untranslated or fuzzy there, so a new `{% translate %}` without its English fails here.
Every page (the crawl: accounts, history, replays, stats, the leaderboard, the calculator, errors,
the lobby) and the live table's regions (Jinja2, over whole hands for every kind of viewer) follow
one rule in both directions: an English render holds no Chinese, a Chinese render no English word.
The rule's exceptions: a tile is a picture (its face, 万 or 中 included, is the tile's, in both
languages); what people typed (player names, the room's name), the deal's hex commitment and what
is marked `translate="no"` (a seed, a wall in tile notation, a command to type, a link) are nobody's
translation; the language switch names each language in itself ("简体中文", "English"). The scoring
formulas (`<code>`) are checked like any text: their units and their 取小/取大 are translated. A
socket's frames are in the language of the page that opened it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.test import Client, override_settings

from accounts.models import Profile
from games import selectors, services
from games.engine.bots import get_bot
from games.errors import MESSAGES
from games.models import Room, Seat, Table
from games.presentation import rendering
from games.services.commands import Move
from history.simulation import play_stored_hands, seated_table
from tests.games.helpers import press_next_hand_for_all, start_match, state_of
from tests.games.wsclient import Reader, connect

HAN = re.compile(r"[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]+")
ALLOWED_CHINESE = {"简体中文"}  # the language switch names each language in itself
# the language switch's "English"; proper names: a file format, a hash function, the rating model
ALLOWED_ENGLISH = {"English", "JSON", "sha", "OpenSkill", "Plackett", "Luce"}
SKIPPED_TAGS = {"script", "style"}

CALC_QUERIES = [
    "",
    "?hand=1112345678999m&tile=5m&win=self_draw&winner=0&flowers=12f&dealer=0&dice=25",
    "?hand=1112345678999p&tile=9p&win=discard&winner=1&from=2&dealer=2&dice=66&huangfan=1",
    "?preset=lazi&hand=2345678m&meld=pong:111z:2&meld=pong:222z:3&tile=8m&win=discard&winner=0&from=2",
    "?preset=home&hand=11223344556677s&win=self_draw&winner=3&tile=7s",
    "?hand=1357913579m1234z&tile=5z&win=discard&winner=0&from=1",
    "?hand=55555m&meld=chow:123z:1&tile=xx&winner=9",
    "?to=meld&meld_kind=pong",
]


class VisibleText(HTMLParser):
    """The text a person sees (and hears: aria-label, title, placeholder), minus tile faces."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []  # per open element: is it skipped?
        self.parts: list[str] = []

    def _skipped(self, tag, attrs) -> bool:
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        untranslated = attrs.get("translate") == "no"  # a seed, a wall in notation, a command, a link
        return tag in SKIPPED_TAGS or untranslated or "tile" in classes or "tile-honour" in classes

    def handle_starttag(self, tag, attrs):
        skip = (self.stack and self.stack[-1]) or self._skipped(tag, attrs)
        if not skip:
            self.parts += [v for k, v in attrs if k in {"aria-label", "title", "placeholder", "alt"} and v]
        if tag not in self.VOID:
            self.stack.append(bool(skip))

    def handle_startendtag(self, tag, attrs):
        if not ((self.stack and self.stack[-1]) or self._skipped(tag, attrs)):
            self.parts += [v for k, v in attrs if k in {"aria-label", "title", "placeholder", "alt"} and v]

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def chinese_in(html: str) -> set[str]:
    parser = VisibleText()
    parser.feed(html)
    return {m for part in parser.parts for m in HAN.findall(part)} - ALLOWED_CHINESE


ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
HEX = re.compile(r"\b[0-9a-f]{8,}\b")  # the deal's commitment (or its first 8 digits)


def english_in(html: str, typed: set[str]) -> set[str]:
    """English words a person sees in `html`, but for what people typed (`typed`: names) and the
    deal's hex commitment."""
    parser = VisibleText()
    parser.feed(html)
    words = set()
    for part in parser.parts:
        for name in sorted(typed, key=len, reverse=True):
            part = part.replace(name, " ")
        words |= set(ENGLISH_WORD.findall(HEX.sub(" ", part)))
    return words


@pytest.fixture
def world(db, alice, bob, compiled):
    room = Room.objects.create(
        name="Test room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )
    table, match = seated_table(room, [alice, None, bob, None])
    hands = play_stored_hands(table, match, 3, seed="i18n")
    return {"match": match, "hand": hands[-1], "alice": alice, "table": table}


def reviewed(hand, seat: int) -> dict:
    """The stored review of a hand's seat, computed here (`history.reviews`, in this thread)."""
    from history import reviews
    from history.replay import source_from_hand

    with override_settings(HISTORY_REVIEW_INLINE=True):
        row = reviews.ask(hand, seat, source_from_hand(hand, selectors.hand_log(hand)).export)
    return row.data


def pages(world) -> list[tuple[str, bool]]:
    """(path, logged in as alice?) for every page outside the live table."""
    match, hand, alice = world["match"].pk, world["hand"].pk, world["alice"].pk
    anonymous = [
        "/accounts/signup/",
        "/accounts/login/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/x/bad-token/",
        "/accounts/reset/done/",
        "/history/leaderboard/",
        "/history/leaderboard/?bots=hide",
        "/history/replay/import/",
        "/history/hands/999999/",
        "/rules/",
        "/no-such-page/",
    ]
    signed_in = [
        "/accounts/profile/",
        "/accounts/delete/",
        "/accounts/password_change/",
        "/accounts/password_change/done/",
        "/history/matches/",
        "/history/stats/",
        f"/history/matches/{match}/",
        f"/history/players/u{alice}/",
        f"/history/players/u{alice}/matches/",
        "/history/players/bot-easy/",
    ]
    steps = [f"/history/hands/{hand}/?step={s}" for s in (0, 1, 30, 10_000)]
    # 复盘: seat 1 never asked (the start button), seat 0 computed (every decision of its review)
    steps += [f"/history/hands/{hand}/review/1/"]
    data = reviewed(world["hand"], 0)
    steps += [f"/history/hands/{hand}/review/0/?d={i}" for i in range(len(data["decisions"]))]
    calc = ["/calc/" + q for q in CALC_QUERIES]
    return [(p, False) for p in anonymous + steps + calc] + [(p, True) for p in signed_in + steps + calc]


def client_in(language: str, user=None) -> Client:
    client = Client(raise_request_exception=False)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if user is not None:
        client.force_login(user)
    return client


def test_every_converted_page_renders_one_language(world):
    en, zh = client_in("en"), client_in("zh-hans")
    en_user, zh_user = client_in("en", world["alice"]), client_in("zh-hans", world["alice"])
    typed = {"alice", "bob", "Test room", "xx", "meld_kind"}  # names; what the calculator's queries typed
    failures = []
    for path, signed_in in pages(world):
        en_page = (en_user if signed_in else en).get(path, follow=True)
        zh_page = (zh_user if signed_in else zh).get(path, follow=True)
        assert en_page.status_code in (200, 404) and zh_page.status_code in (200, 404), path
        en_html, zh_html = en_page.content.decode(), zh_page.content.decode()
        assert '<html lang="en">' in en_html and '<html lang="zh-hans">' in zh_html, path
        left = chinese_in(en_html)
        if left:
            failures.append(f"{path} (en): {sorted(left)}")
        stray = english_in(zh_html, typed) - ALLOWED_ENGLISH
        if stray:
            failures.append(f"{path} (zh-hans): {sorted(stray)}")
    assert not failures, "a word of the other language:\n" + "\n".join(failures)


def test_the_calculator_fragment_and_the_explanation_follow_the_language(world):
    query = CALC_QUERIES[1]
    en = client_in("en").get("/calc/" + query, HTTP_HX_REQUEST="true").content.decode()
    zh = client_in("zh-hans").get("/calc/" + query, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-testid="explanation"' in en and 'data-testid="explanation"' in zh
    assert "<html" not in en
    assert not chinese_in(en)
    assert "Full flush" in en and "Full flush" not in zh and "清一色" in zh


def test_the_lobby_the_new_table_form_and_the_invite_render_one_language(world):
    """Every table status, every house option with a changed value, its explanation, the form's
    labels and choices, a private table's invite page: English only in `en` (but for what people
    typed), Chinese only in `zh-hans`; for a player and for a guest."""
    room = world["table"].room
    room.name = "茶馆 Teahouse"  # a name someone typed stays as typed
    room.save()
    every_option = {"menqing": "lezi", "gangkai": "double", "haidi": "lezi", "payment": "bao_chong"}
    every_option |= {"qingyise_9_bao": True, "garden": 50, "swap_tiles": True, "declare_ready": True}
    for status in Table.Status.values:
        # the options only `standard` uses are shown for it only (RULES.md §11): one table of each
        preset = "standard" if status == Table.Status.PLAYING else "lazi"
        table = Table.objects.create(
            room=room, status=status, preset=preset, options=every_option | {"hand_loss_cap_lezi": 3}
        )
        Seat.objects.create(table=table, index=0, user=world["alice"], connected=True)
        Seat.objects.bulk_create(Seat(table=table, index=i) for i in (1, 2, 3))
    Table.objects.filter(room=room, status=Table.Status.WAITING).update(private=True, invite_code="KQRSTU")
    typed = {room.name, "alice", "bob"}
    paths = [("/", True), (f"/rooms/{room.pk}/tables/choose/", True), ("/join/KQRSTU/", True)]
    for path, signed_in in [*paths, ("/", False), ("/join/KQRSTU/", False)]:
        user = world["alice"] if signed_in else None
        en_page, zh_page = client_in("en", user).get(path), client_in("zh-hans", user).get(path)
        assert en_page.status_code == zh_page.status_code == 200, path
        en_html, zh_html = en_page.content.decode(), zh_page.content.decode()
        for name in typed:
            en_html, zh_html = en_html.replace(name, ""), zh_html.replace(name, "")
        assert '<html lang="en">' in en_html and not chinese_in(en_html), (path, chinese_in(en_html))
        assert '<html lang="zh-hans">' in zh_html and not english_in(zh_html, typed), path
    lobby = client_in("en", world["alice"]).get("/").content.decode()  # tables not finished, hers
    for shown in ("Waiting", "In progress", "Garden (chip stacks)", "at least 1 lezi", "Lazi"):
        assert shown in lobby


def test_the_replay_script_gets_its_words_from_the_page(world):
    """replay.js writes the browser's fairness verdict with the words the page gives it (data-*),
    so the script itself holds no language."""
    path = f"/history/hands/{world['hand'].pk}/"
    en = client_in("en").get(path).content.decode()
    zh = client_in("zh-hans").get(path).content.decode()
    en_span = re.search(r'<span id="fair-browser"[^>]*>', en).group(0)
    assert 'data-ok="matches the commitment"' in en_span and not HAN.search(en_span)
    assert 'data-ok="一致"' in zh and 'data-mismatch="不一致"' in zh
    assert not HAN.search((Path(settings.BASE_DIR) / "static/js/replay.js").read_text())


def _refused_imports(export: dict) -> dict[str, bytes]:
    """One upload for every way an import is refused (the engine's code for it -> the file)."""
    import json

    def changed(**fields) -> bytes:
        return json.dumps(export | fields).encode()

    last = export["actions"][-1]
    seat = last.split(":")[0]
    return {
        "not_json": b"{nope",
        "not_object": b"[1, 2]",
        "missing_keys": json.dumps({"seed": export["seed"]}).encode(),
        "unknown_keys": changed(colour=1),
        "bad_field": changed(dealer=9),
        "bad_action": changed(actions=["0:fly:5p"]),
        "commitment": changed(commitment="0" * 64),
        "action_refused": changed(actions=[*export["actions"][:-1], f"{seat}:discard:1z", last]),
        "unfinished": changed(actions=export["actions"][:-1]),
    }


def test_a_refused_import_says_why_in_the_page_language(world):
    """The import page words each refusal itself (not the engine's English line): English only in
    `en`, and in `zh-hans` no word of English but what the file holds (an action's notation, the
    name of a key it should not have)."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    export = client_in("en").get(reverse("history:export", args=[world["hand"].pk])).json()
    plain_zh = english_in(client_in("zh-hans").get(reverse("history:import")).content.decode(), set())
    reasons = {}
    for code, content in _refused_imports(export).items():
        pages = {}
        for language in ("en", "zh-hans"):
            upload = SimpleUploadedFile("hand.json", content, content_type="application/json")
            response = client_in(language).post(reverse("history:import"), {"file": upload})
            assert response.status_code == 400, (code, language)
            pages[language] = response.content.decode()
        error = re.search(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', pages["en"], re.S)
        assert error, code
        reasons[code] = error.group(1)
        assert not chinese_in(pages["en"]), (code, chinese_in(pages["en"]))
        # What the file itself holds may be named: the notation of an action, a key it has or lacks.
        typed = set(re.findall(r"\d:[a-z_]+:\w+", pages["zh-hans"])) | {"colour"} | set(export)
        assert not english_in(pages["zh-hans"], typed) - plain_zh, (code, english_in(pages["zh-hans"], typed))
        assert "校验失败" in pages["zh-hans"] or "不是牌局导出文件" in pages["zh-hans"], code
    assert len(set(reasons.values())) == len(reasons), "every refusal says its own reason"
    assert "Not a hand export" in reasons["not_json"] and "The check failed" in reasons["unfinished"]


def test_password_reset_mail_is_in_the_language_of_the_request(world):
    from django.core import mail

    world["alice"].email = "alice@example.com"
    world["alice"].save()
    client_in("en").post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Shanghai Mahjong password reset"
    assert not HAN.search(mail.outbox[0].body)


def test_makemessages_finds_nothing_untranslated_in_english(tmp_path, monkeypatch):
    """makemessages over the project (linked into tmp_path, so it writes only there) with a copy of
    the committed catalogue: every string it finds must already be translated, nothing fuzzy."""
    base = Path(settings.BASE_DIR)
    tree = tmp_path / "tree"
    tree.mkdir()
    for item in base.iterdir():
        if item.name not in {"locale", ".venv", ".git", "node_modules", "staticfiles"}:
            (tree / item.name).symlink_to(item)
    shutil.copytree(base / "locale", tree / "locale")
    monkeypatch.chdir(tree)
    with override_settings(LOCALE_PATHS=[]):
        call_command("makemessages", locale=["en"], symlinks=True, no_location=True, verbosity=0)
    po = tree / "locale/en/LC_MESSAGES/django.po"
    problems = {}
    for option in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run(
            ["msgattrib", option, "--no-obsolete", str(po)], capture_output=True, text=True, check=True
        ).stdout
        problems[option] = re.findall(r'^msgid "(.+)"$', out, flags=re.M)
    assert problems == {"--untranslated": [], "--only-fuzzy": []}
    committed = (base / "locale/en/LC_MESSAGES/django.po").read_text()
    assert po.read_text() == committed.replace(_creation_date(committed), _creation_date(po.read_text())), (
        "locale/en/LC_MESSAGES/django.po is out of date: run `make messages` and translate"
    )


def _creation_date(text: str) -> str:
    return re.search(r'"POT-Creation-Date: [^"]*"', text).group(0)


def test_set_language_switches_and_is_remembered_on_the_profile(alice, compiled):
    client = Client()
    client.force_login(alice)
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/history/leaderboard/"})
    assert response.status_code == 302 and response["Location"] == "/history/leaderboard/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert Profile.objects.get(user=alice).language == "en"
    assert "Leaderboard" in client.get("/history/leaderboard/").content.decode()

    # Another browser: nothing chosen there, the log-in applies the profile's language.
    other = Client()
    assert "排行榜" in other.get("/accounts/login/").content.decode()
    response = other.post("/accounts/login/", {"username": "alice", "password": "pw-123456"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in other.get("/history/leaderboard/").content.decode()

    # Switching back is stored too.
    other.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert Profile.objects.get(user=alice).language == "zh-hans"


def test_set_language_without_an_account_only_sets_the_cookie(db, compiled):
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/calc/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert not Profile.objects.exists()
    assert '<html lang="en">' in client.get("/calc/").content.decode()


def test_set_language_refuses_an_unknown_language_and_a_get(alice, compiled):
    client = Client()
    client.force_login(alice)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302 and settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert not Profile.objects.filter(user=alice).exclude(language="").exists()
    assert client.get("/i18n/setlang/").status_code == 405


def test_the_header_has_a_language_switch_without_inline_script(db, compiled):
    html = Client().get("/calc/").content.decode()
    form = re.search(r'<form[^>]*data-testid="language-switch".*?</form>', html, flags=re.S).group(0)
    assert 'action="/i18n/setlang/"' in form and 'name="csrfmiddlewaretoken"' in form
    assert 'name="language"' in form and "data-autosubmit" in form
    assert "onchange" not in form and "<script" not in form


# --- the live table ---------------------------------------------------------------------------------

PLAYERS = ("ann", "ben", "cat", "dan")
TYPED = {*PLAYERS, "Test room"}


def _frames_in_both(table_id: int, viewers, frames: dict) -> None:
    for user in viewers:
        for language in ("en", "zh-hans"):
            _, html = rendering.render_table_fragments(table_id, user, language=language)
            frames[language].append(html)


def _check_one_language(frames: dict) -> None:
    english = {w for html in frames["zh-hans"] for w in english_in(html, TYPED)} - ALLOWED_ENGLISH
    chinese = {c for html in frames["en"] for c in chinese_in(html)}
    assert not chinese, f"Chinese in the English table: {sorted(chinese)}"
    assert not english, f"English in the Chinese table: {sorted(english)}"


def test_the_table_regions_render_in_one_language(db, make_user, compiled):
    """The waiting room, two whole hands (turns, claims, 托管, the settlement) and every error, for each
    player and a spectator, in English and in Chinese."""
    users = [make_user(name) for name in PLAYERS]
    room = Room.objects.create(
        name="Test room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy", stakes=[1, 2]
    )
    table = services.table_create(room_id=room.pk, user=users[0])
    services.table_sit(table_id=table.pk, user=users[1])
    frames: dict[str, list[str]] = {"en": [], "zh-hans": []}
    waiting_viewers = [users[0], users[1], users[2], AnonymousUser()]
    _frames_in_both(table.pk, waiting_viewers, frames)
    services.table_set_stake(table_id=table.pk, user=users[0], stake=2)
    services.table_fill_bots(table_id=table.pk, user=users[0], level="hard")
    _frames_in_both(table.pk, waiting_viewers, frames)
    services.table_remove_bot(table_id=table.pk, user=users[0], seat=2)
    services.table_remove_bot(table_id=table.pk, user=users[0], seat=3)
    for user in users[2:]:
        services.table_sit(table_id=table.pk, user=user)
    start_match(table.pk)
    Seat.objects.filter(table_id=table.pk, index=3).update(autoplay=True)
    spectator, bot = AnonymousUser(), get_bot("easy")
    hands, seen = 0, set()
    for _ in range(3000):  # until a won hand and a second hand have ended (the easy bot's moves)
        state = state_of(Table.objects.get(pk=table.pk))
        seen.add(state.phase)
        if state.phase == "ended":
            _frames_in_both(table.pk, [*users, spectator], frames)
            hands += 1
            seen.add("won" if state.result.contexts else "drawn")
            if hands >= 2 and "won" in seen:
                break
            press_next_hand_for_all(table.pk)
            continue
        seat = next(s for s in state.pending_seats() if state.legal_actions(s))
        _frames_in_both(table.pk, [users[seat], spectator], frames)  # the one asked, and a spectator
        move = str(bot.choose(state, seat))
        version = Table.objects.get(pk=table.pk).version
        services.table_act(table_id=table.pk, user=users[seat], action=Move.parse(move), version=version)
    assert hands >= 2 and {"turn", "claims", "ended", "won"} <= seen
    for language in frames:
        frames[language] += [rendering.render_error(services.ServiceError(c), language) for c in MESSAGES]
    everything = "".join(frames["en"])
    for shown in ("Settlement", "Next hand", "Spectating", "Auto-play", "Waiting for players", "Add a bot"):
        assert shown in everything, shown
    assert "It is not your turn." in everything and "Bot C (hard)" in everything
    _check_one_language(frames)


@database_sync_to_async
def _playing_table() -> tuple[int, object]:
    """ann alone with three bots, the match started (timers long: only what the test does happens)."""
    room = Room.objects.create(
        name="Test room", bot_delay=0, claim_pause=0, bot_level="easy", discard_timeout=600, claim_timeout=600
    )
    ann = get_user_model().objects.create_user(username="ann", password="pw-123456")
    table = services.table_create(room_id=room.pk, user=ann)
    services.table_fill_bots(table_id=table.pk, user=ann)
    services.table_start(table_id=table.pk, user=ann)
    return table.pk, ann


@pytest.mark.django_db(transaction=True)
async def test_a_socket_speaks_the_language_of_its_page(compiled):
    """Each socket gets its snapshot, the updates pushed to it and its errors in its page's language,
    while sockets in two languages watch the same table."""
    table_id, ann = await _playing_table()
    player = Reader(await connect(f"/ws/table/{table_id}/", ann, language="en"))
    watcher = Reader(await connect(f"/ws/table/{table_id}/", language="zh-hans"))
    try:
        first_en, first_zh = await player.next(), await watcher.next()
        await player.communicator.send_to(text_data='{"command": "request_autoplay"}')
        version = max(player.version, watcher.version) + 1
        await player.until(version)
        await watcher.until(version)
        pushed_en, pushed_zh = player.shown, watcher.shown
        await player.communicator.send_to(text_data="not json")
        error = await player.next()
    finally:
        await player.communicator.disconnect()
        await watcher.communicator.disconnect()
    typed = {"ann", "Test room"}
    for html in (first_en, pushed_en, error):
        assert not chinese_in(html)
    for html in (first_zh, pushed_zh):
        assert not english_in(html, typed)
    assert "Auto-play" in pushed_en and "托管" in pushed_zh
    assert "Bot B (easy)" in first_en and "机器人·乙（简单）" in first_zh
    assert 'data-error-code="bad_message"' in error and "reload the page" in error
