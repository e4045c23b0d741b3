"""The words for the engine's codes (patterns, features, winds, actions, meld kinds, presets, bots).

Each word is written once, as a lazy gettext of its Chinese (the msgid); the English is in
locale/en/LC_MESSAGES/django.po. A word becomes text in the language active where it is shown:
`name_of(table, code)` gives it now, a template prints the lazy string as it renders. Where one
Chinese word needs two English ones (杠开 the feature and the way of winning, 自摸 the button), a
context (`pgettext_lazy`) tells them apart.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

PATTERNS = {
    "pengpeng": _("碰碰胡"),
    "hunyise": _("混一色"),
    "qingyise": _("清一色"),
    "hunpeng": _("混碰"),
    "qingpeng": _("清碰"),
    "fengyise": _("风一色"),
    "fengpeng": _("风碰"),
    "bahua": _("八花齐"),
    "eight_flowers": _("八花齐"),
    "qidui": _("七对子"),
    "pinghu": _("平胡"),
    "tianhu": _("天胡"),
    "dihu": _("地胡"),
    "dadiaoche": _("大吊车"),
}

FEATURES = {
    "menqing": _("门清"),
    "gangkai": _("杠开"),
    "dadiaoche": _("大吊车"),
    "qianggang": _("抢杠"),
    "kaibao": _("开宝"),
    "huangfan": _("荒番"),
    "haidi": _("海底捞月"),
    "tianhu": _("天胡"),
    "dihu": _("地胡"),
}

WIN_KINDS = {
    "discard": _("冲牌"),
    "self_draw": _("自摸"),
    "kong_replacement": pgettext_lazy("win kind", "杠开"),
    "flower_replacement": _("杠开（补花）"),
    "eight_flowers": _("八花齐"),
    "rob_kong": _("抢杠"),
}

WINDS = {"1z": _("东"), "2z": _("南"), "3z": _("西"), "4z": _("北")}
# The one-character mark of a seat's wind (the compass, a seat's head): a letter in English.
WIND_MARKS = {
    "1z": pgettext_lazy("wind mark", "东"),
    "2z": pgettext_lazy("wind mark", "南"),
    "3z": pgettext_lazy("wind mark", "西"),
    "4z": pgettext_lazy("wind mark", "北"),
}

ACTIONS = {
    "discard": _("打"),
    "chow": _("吃"),
    "pong": _("碰"),
    "exposed_kong": _("杠"),
    "win": _("胡"),
    "pass": _("过"),
    "self_win": pgettext_lazy("action", "自摸"),
    "concealed_kong": _("暗杠"),
    "added_kong": _("上杠"),
    "declare": _("敲"),
}

PHASES = {
    "swap": _("换牌"),
    "turn": _("出牌"),
    "claims": _("等待吃碰胡"),
    "rob": pgettext_lazy("phase", "抢杠"),
    "ended": _("本局结束"),
}


MELD_KINDS = {
    "chow": _("吃"),
    "pong": _("碰"),
    "kong_exposed": _("明杠"),
    "kong_added": _("上杠"),
    "kong_concealed": _("暗杠"),
}

# Why a hand is no win (the scoring explanation's refusal), by the engine's `refused` code.
WIN_REFUSALS = {
    "eight_flowers": _("八花齐要八张花牌。"),
    "incomplete": _("不成胡：这些牌凑不成四组加一对（或全字牌）。"),
    "plain": _("平胡不能胡：至少要碰碰胡、混一色、清一色或全字牌。"),
}

# Who pays a win and why, by the engine's settlement `reason` (承包 has its own sentence: explain.who_pays).
PAYMENT_REASONS = {
    "discard": _("冲牌：放冲者付一份。"),
    "chu_chong": _("出冲：放冲者付两份，另两家各付一份。"),
    "bao_chong": _("包冲：放冲者包付三份。"),
    "qingyise_9_bao": _("清一色九张落地：放冲者包付三份。"),
    "self_draw": _("自摸：另三家各付一份。"),
    "rob_kong": _("抢杠：被抢杠者付三份。"),
}

PRESETS = {
    "standard": _("清混碰"),
    "lazi": _("喇子"),
    "home": _("家庭规则"),
}

# The room options of games/engine/RULES.md §11 that `Rules` knows: option -> label, and option -> {value: label}.
RULE_OPTION_LABELS = {
    "menqing": _("门清"),
    "gangkai": _("杠开"),
    "haidi": _("海底捞月"),
    "payment": _("谁付"),
}
RULE_OPTIONS = {
    "menqing": {"double": _("翻倍"), "lezi": _("一勒子起")},
    "gangkai": {"floor": _("一勒子起"), "double": _("翻倍")},
    "haidi": {
        "off": _("不计"),
        "double": _("翻倍"),
        "lezi": _("一勒子起"),
    },
    "payment": {
        "discarder": _("放冲者付"),
        "chu_chong": _("出冲"),
        "bao_chong": _("包冲"),
    },
}


BOT_LEVELS = {"easy": _("简单"), "normal": _("普通"), "hard": _("困难")}
BOT_SEAT_MARKS = (
    pgettext_lazy("bot", "甲"),
    pgettext_lazy("bot", "乙"),
    pgettext_lazy("bot", "丙"),
    pgettext_lazy("bot", "丁"),
)


def bot_name(seat: int | None, level: str) -> str:
    """A bot's display name in the active language: 机器人·甲（普通） / Bot A (normal).

    The mark follows the seat index (0..3 -> 甲乙丙丁), so a bot keeps its name for the table's life
    and a replay names it as the table did; `seat=None` names a level's bots together (leaderboard)."""
    level_name = name_of(BOT_LEVELS, level)
    if seat is None or not 0 <= seat < len(BOT_SEAT_MARKS):
        return translation.gettext("机器人（{level}）").format(level=level_name)
    return translation.gettext("机器人·{mark}（{level}）").format(
        mark=str(BOT_SEAT_MARKS[seat]), level=level_name
    )


def word(table: dict, code: str):
    """The (lazy) word for a code; unknown codes show as themselves rather than vanish."""
    return table.get(code, code)


def name_of(table: dict, code: str) -> str:
    """The active language's word for an engine code, memoised per language: a lazy word looks the
    active language up and then each of its catalogues on every use (a table's frames ask for about
    twenty words per viewer and version). The catalogues do not change while a process runs."""
    key = (translation.get_language(), id(table), code)
    found = _words.get(key)
    if found is None:
        found = str(word(table, code))
        if len(_words) >= _MAX_WORDS:  # unknown codes show as themselves: keep the memo bounded
            _words.clear()
        _words[key] = found
    return found


_words: dict[tuple, str] = {}
_MAX_WORDS = 20_000


def name_list(words) -> str:
    """Words joined with the active language's list separator: 、 in Chinese, ", " in English."""
    return translation.gettext("、").join(str(w) for w in words)


def wind_name(code: str) -> str:
    """东 / East for a wind's tile code ("1z".."4z")."""
    return name_of(WINDS, code)


def wind_mark(code: str) -> str:
    """东 / E: a wind in one character."""
    return name_of(WIND_MARKS, code)


def meld_name(kind: str) -> str:
    return name_of(MELD_KINDS, kind)


def person_name(user) -> str:
    """A person's name as the site shows it: the profile's display name, else the username; read from
    `profile` when the caller selected it, else one look-up."""
    try:
        profile = user.profile
    except ObjectDoesNotExist:
        profile = None
    return (profile.display_name if profile else "") or user.get_username()
