"""Chinese and English words for the engine's codes (patterns, features, winds, actions).

Pages show one language: `in_language(pair)` / `name_of(table, code)` give the active language's word
(Chinese unless the request's language is English). The pairs stay, as the table templates and the
calculator's explanations carry both words and choose at render time (the `lang` template filter).
"""

from __future__ import annotations

from django.utils.translation import get_language

PATTERNS = {
    "pengpeng": ("碰碰胡", "All pongs"),
    "hunyise": ("混一色", "Half flush"),
    "qingyise": ("清一色", "Full flush"),
    "hunpeng": ("混碰", "Half flush, all pongs"),
    "qingpeng": ("清碰", "Full flush, all pongs"),
    "fengyise": ("风一色", "All honours"),
    "fengpeng": ("风碰", "All honour pongs"),
    "bahua": ("八花齐", "Eight flowers"),
    "eight_flowers": ("八花齐", "Eight flowers"),
    "qidui": ("七对子", "Seven pairs"),
    "pinghu": ("平胡", "Plain hand"),
    "tianhu": ("天胡", "Heavenly hand"),
    "dihu": ("地胡", "Earthly hand"),
    "dadiaoche": ("大吊车", "Big single wait"),
}

FEATURES = {
    "menqing": ("门清", "Concealed hand"),
    "gangkai": ("杠开", "Win on a replacement"),
    "dadiaoche": ("大吊车", "Big single wait"),
    "qianggang": ("抢杠", "Robbing a kong"),
    "kaibao": ("开宝", "Lucky dice"),
    "huangfan": ("荒番", "After a drawn hand"),
    "haidi": ("海底捞月", "Last tile of the wall"),
    "tianhu": ("天胡", "Heavenly hand"),
    "dihu": ("地胡", "Earthly hand"),
}

WIN_KINDS = {
    "discard": ("冲牌", "On a discard"),
    "self_draw": ("自摸", "Self-drawn"),
    "kong_replacement": ("杠开", "On a kong replacement"),
    "flower_replacement": ("杠开（补花）", "On a flower replacement"),
    "eight_flowers": ("八花齐", "Eight flowers"),
    "rob_kong": ("抢杠", "Robbing a kong"),
}

WINDS = {"1z": ("东", "East"), "2z": ("南", "South"), "3z": ("西", "West"), "4z": ("北", "North")}

ACTIONS = {
    "discard": ("打", "Discard"),
    "chow": ("吃", "Chow"),
    "pong": ("碰", "Pong"),
    "exposed_kong": ("杠", "Kong"),
    "win": ("胡", "Win"),
    "pass": ("过", "Pass"),
    "self_win": ("自摸", "Self-drawn win"),
    "concealed_kong": ("暗杠", "Concealed kong"),
    "added_kong": ("上杠", "Added kong"),
    "declare": ("敲", "Declare ready"),
}

PHASES = {
    "swap": ("换牌", "Swap"),
    "turn": ("出牌", "Turn"),
    "claims": ("等待吃碰胡", "Claims"),
    "rob": ("抢杠", "Robbing the kong?"),
    "ended": ("本局结束", "Hand over"),
}


MELD_KINDS = {
    "chow": ("吃", "Chow"),
    "pong": ("碰", "Pong"),
    "kong_exposed": ("明杠", "Exposed kong"),
    "kong_added": ("上杠", "Added kong"),
    "kong_concealed": ("暗杠", "Concealed kong"),
}

PRESETS = {
    "standard": ("清混碰", "Standard"),
    "lazi": ("喇子", "Lazi"),
    "home": ("家庭规则", "Home rules"),
}

# The room options of SHANGHAI_RULES.md §11 that `Rules` knows: option -> (label, {value: label}).
RULE_OPTION_LABELS = {
    "menqing": ("门清", "Concealed hand"),
    "gangkai": ("杠开", "Win on a replacement"),
    "haidi": ("海底捞月", "Last tile of the wall"),
    "payment": ("谁付", "Who pays a discard win"),
}
RULE_OPTIONS = {
    "menqing": {"double": ("翻倍", "Doubles"), "lezi": ("一勒子起", "At least 1 lezi")},
    "gangkai": {"floor": ("一勒子起", "At least 1 lezi"), "double": ("翻倍", "Doubles")},
    "haidi": {
        "off": ("不计", "Not counted"),
        "double": ("翻倍", "Doubles"),
        "lezi": ("一勒子起", "At least 1 lezi"),
    },
    "payment": {
        "discarder": ("放铳者付", "The discarder pays"),
        "chu_chong": ("出冲", "Discarder double, others single"),
        "bao_chong": ("包冲", "The discarder pays for all three"),
    },
}


BOT_LEVELS = {"easy": ("简单", "easy"), "normal": ("普通", "normal"), "hard": ("困难", "hard")}
BOT_SEAT_MARKS = (("甲", "A"), ("乙", "B"), ("丙", "C"), ("丁", "D"))


def bot_name_pair(seat: int | None, level: str) -> tuple[str, str]:
    """(Chinese, English) display name of a bot: 机器人·甲（普通） / Bot A (normal).

    The mark follows the seat index (0..3 -> 甲乙丙丁), so a bot keeps its name for the table's life
    and a replay names it as the table did; `seat=None` names a level's bots together (leaderboard)."""
    zh_level, en_level = pair(BOT_LEVELS, level)
    if seat is None or not 0 <= seat < len(BOT_SEAT_MARKS):
        return f"机器人（{zh_level}）", f"Bot ({en_level})"
    zh_mark, en_mark = BOT_SEAT_MARKS[seat]
    return f"机器人·{zh_mark}（{zh_level}）", f"Bot {en_mark} ({en_level})"


def bot_name(seat: int | None, level: str) -> str:
    """A bot's display name in the active language (see `bot_name_pair`)."""
    return in_language(bot_name_pair(seat, level))


def pair(table: dict[str, tuple[str, str]], code: str) -> tuple[str, str]:
    """(Chinese, English) for a code; unknown codes show as themselves rather than vanish."""
    return table.get(code, (code, code))


def english_active() -> bool:
    return (get_language() or "").startswith("en")


def in_language(value):
    """The active language's word of a (Chinese, English) pair, or of anything with `zh`/`en`
    attributes or keys; other values come back unchanged."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[1] if english_active() else value[0]
    if isinstance(value, dict) and "zh" in value and "en" in value:
        return value["en"] if english_active() else value["zh"]
    if hasattr(value, "zh") and hasattr(value, "en"):
        return value.en if english_active() else value.zh
    return value


def name_of(table: dict[str, tuple[str, str]], code: str) -> str:
    """The active language's word for an engine code."""
    return in_language(pair(table, code))
