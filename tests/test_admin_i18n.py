"""The staff pages (Django admin) speak one language: the models' labels, help texts, names and
choices, and the admin modules' own words, come from the catalogue like the rest of the site.

A superuser opens, in `zh-hans` and in `en`, the changelist, the add form and a change form of
every registered model, each with at least one row (a played match leaves most of them; a penalty,
its reversal, a ban, a profile and a group are added). The English pages hold no Chinese
(`chinese_in`); the Chinese pages hold no English word (`english_in`) but for what the data itself
shows (`typed`, `DATA_REGIONS`) and what Django and django-axes leave untranslated
(`DJANGO_UNTRANSLATED`, `AXES`), each with its reason below.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games.models import Action, Room
from games.services import ban_player, pool_join, table_play_bots_hand
from games.services.pairing import pool_save
from history.models import HandReview, Player
from history.simulation import play_stored_hands, seated_table
from ledger.models import Ban, Journal, Penalty
from ledger.services import issue_penalty, reverse_penalty
from tests.test_i18n import chinese_in, client_in, english_in
from tournaments.models import Tournament
from tournaments.services import tournament_create, tournament_start

# What Django's own admin leaves in English in Chinese (its zh_Hans catalogue, Django 5.2), as whole
# phrases: the boolean icons' alt text, the automatic "ID" column, the search icon, the sidebar
# table's hidden headers, the site's "Django" title, the user add form's note, and the names its
# Chinese keeps as they are (the “Control” and “Command” keys on a Mac, LDAP).
DJANGO_UNTRANSLATED = {
    *("True", "False", "ID", "Search", "Model name", "Add link", "Change or view list link", "Django"),
    "After you’ve created a user, you’ll be able to edit more user options.",
    *("Control", "Command", "Mac", "LDAP"),
}
# django-axes (log-in throttling) ships no Chinese catalogue: its name and its models' names in the
# sidebar stay English, and its own pages are checked in English only.
AXES = {"Axes", "Access attempts", "Access failures", "Access logs"}
# Regions that show stored data as it is: JSON (the engine's state, a hand's rules and result) in
# <pre> and <textarea>, a password hash's parts (<bdi>), and the permissions pickers (they name
# django-axes' models, which it never translates; the site's own are checked below).
DATA_REGIONS = re.compile(
    r"<(pre|textarea|bdi)\b.*?</\1>|<select name=\"(?:user_)?permissions\".*?</select>", re.S
)
SITE_APPS = {"accounts", "games", "history", "ledger", "tournaments"}


@pytest.fixture
def staff(django_user_model, compiled):
    return django_user_model.objects.create_superuser(username="root", password="pw-123456", email="")


@pytest.fixture
def rows(staff, alice, bob):
    """A row of every model the site registers: a played match and what staff add by hand."""
    room = Room.objects.create(
        name="Test room", bot_delay=Decimal("0"), claim_pause=Decimal("0"), bot_level="easy"
    )
    table, match = seated_table(room, [alice, None, bob, None])
    hand = play_stored_hands(table, match, 2, seed="admin-i18n")[-1]
    penalty = issue_penalty(hand=hand, seat=0, reason="left early", issued_by=staff)
    reverse_penalty(penalty=penalty, reason="a mistake", by=staff)
    issue_penalty(hand=hand, seat=2, reason="slow", issued_by=staff)
    HandReview.objects.create(hand=hand, seat=0)  # asked for, not computed yet
    ban_player(user=bob, reason="rude", by=staff)
    pool = pool_save(pool_id=None, room_id=room.pk, preset="", options={}, stake=2, is_active=True)
    pool_join(pool_id=pool.pk, user=get_user_model().objects.create_user(username="carol", password=None))
    Profile.objects.create(user=alice, display_name="Alice A")
    Group.objects.create(name="croupiers")
    tournament = tournament_create(
        user=alice, name="Spring cup", starts_at=timezone.now(), rounds=1, hands_per_round=1
    )
    tournament_start(tournament_id=tournament.pk, user=alice, deal=False)
    (round_table,) = tournament.round_set.get().tables.all()
    table_play_bots_hand(table_id=round_table.table_id, seed=tournament.round_set.get().seeds[0])
    for password in ("wrong", "pw-123456"):  # django-axes logs a failed and a good log-in
        Client().post("/accounts/login/", {"username": "alice", "password": password})


def typed() -> set[str]:
    """What the data shows as stored: names people chose, reasons staff wrote (a penalty's or a
    reversal's journal memo; a hand's journal is worded in the page's language), history's player keys ("u1", "bot-easy"), the engine's notation
    of the actions (the table's action log: "0:discard:5m") and the language choice naming each
    language in itself ("English")."""
    user_model = get_user_model()
    return {
        *user_model.objects.values_list("username", flat=True),
        *Profile.objects.values_list("display_name", flat=True),
        *Group.objects.values_list("name", flat=True),
        *Room.objects.values_list("name", flat=True),
        *Tournament.objects.values_list("name", flat=True),
        *Penalty.objects.values_list("reason", flat=True),
        *Ban.objects.values_list("reason", flat=True),
        *Journal.objects.exclude(kind=Journal.Kind.HAND).values_list("memo", flat=True),
        *Player.objects.values_list("key", flat=True),
        "bot-",  # the bot players' key prefix, named in the key's help text
        *Action.objects.values_list("action", flat=True),
        "English",
    }


def admin_pages() -> list[str]:
    """The changelist, the add form and the first row's change form of every registered model."""
    paths = []
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        paths += [reverse(f"{name}_changelist"), reverse(f"{name}_add")]
        first = model.objects.order_by("pk").first()
        if first is not None:
            paths.append(reverse(f"{name}_change", args=[first.pk]))
        else:  # only a log the site does not keep (django-axes' AccessFailureLog) may be empty
            assert model._meta.app_label not in SITE_APPS, (
                f"no {model.__name__} row: the fixture must make one"
            )
    return ["/admin/", *paths]


def test_every_admin_page_renders_one_language(rows, staff):
    en, zh = client_in("en", staff), client_in("zh-hans", staff)
    allowed = typed() | DJANGO_UNTRANSLATED | AXES
    failures = []
    for path in admin_pages():
        en_page, zh_page = en.get(path), zh.get(path)
        assert en_page.status_code == zh_page.status_code, path
        assert en_page.status_code in (200, 403), (path, en_page.status_code)
        if en_page.status_code == 403:  # a read-only admin's add form: nothing rendered to read
            continue
        en_html, zh_html = (DATA_REGIONS.sub("", p.content.decode()) for p in (en_page, zh_page))
        assert '<html lang="en"' in en_html and '<html lang="zh-hans"' in zh_html, path
        if left := chinese_in(en_html):
            failures.append(f"en {path}: {sorted(left)}")
        if not path.startswith("/admin/axes/") and (left := english_in(zh_html, allowed)):
            failures.append(f"zh {path}: {sorted(left)}")
    assert not failures, "\n".join(failures)


def test_a_models_labels_and_help_follow_the_language(rows, staff):
    path = reverse("admin:games_room_change", args=[Room.objects.get(name="Test room").pk])
    en = client_in("en", staff).get(path).content.decode()
    zh = client_in("zh-hans", staff).get(path).content.decode()
    assert "Grace period" in en and "Seconds a disconnected player may return within" in en
    assert "断线宽限" in zh and "断线的玩家在这么多秒内回来就不罚分。" in zh
    assert "Grace period" not in zh and "断线宽限" not in en


def test_permission_names_follow_the_language(rows, staff):
    """Django stores a permission's name at migrate time ("Can add 房间"); the pickers word the site's
    model permissions in the page's language instead."""
    path = reverse("admin:auth_group_change", args=[Group.objects.get().pk])
    en = client_in("en", staff).get(path).content.decode()
    zh = client_in("zh-hans", staff).get(path).content.decode()
    assert "Games | Room | Can add Room" in en and "Can add 房间" not in en
    assert "牌局 | 房间 | 可以添加房间" in zh and "Can add" not in zh.split('name="permissions"')[1]


def test_a_hands_journal_is_worded_in_the_pages_language(rows, staff):
    journal = Journal.objects.filter(kind=Journal.Kind.HAND).select_related("hand").first()
    path = reverse("admin:ledger_journal_changelist")
    en = client_in("en", staff).get(path).content.decode()
    zh = client_in("zh-hans", staff).get(path).content.decode()
    assert f"Match {journal.hand.match_id}, hand {journal.hand.number}" in en
    assert f"第 {journal.hand.match_id} 场第 {journal.hand.number} 局" in zh
    assert journal.memo == ""
