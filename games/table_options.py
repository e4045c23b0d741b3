"""What players and rooms may choose: the presets and the §11 house options, named for people.

Data only (no Django): the engine's `Rules` is the judge of what a value means and whether it is
valid; this module says what each choice is called in Chinese and English and how a form asks for it.
`games.services.table_settings` validates choices against a room; the forms are built from `OPTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.rules import PRESETS, Rules

PRESET_NAMES: dict[str, str] = {
    "standard": "上海清混碰 Standard",
    "lazi": "喇子 Lazi",
    "home": "家规 Home",
}
assert set(PRESET_NAMES) == set(PRESETS)


@dataclass(frozen=True, slots=True)
class Option:
    """One house option. `kind`: "choice" (one of `choices`), "flag" (on/off), "count" (a positive
    integer or off: `off` is the value stored when the player leaves it empty)."""

    key: str
    zh: str
    en: str
    help: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    off: object = None
    off_label: str = "关 off"

    @property
    def label(self) -> str:
        return f"{self.zh} {self.en}"

    def display(self, value) -> str:
        """The value as people read it (the lobby row, the table page, the invite page)."""
        if self.kind == "flag":
            return "开 on" if value else "关 off"
        if self.kind == "choice":
            return dict(self.choices).get(value, str(value))
        return self.off_label if value == self.off else str(value)


# Rules §11, in the order the rules text lists them.
OPTIONS: tuple[Option, ...] = (
    Option(
        "menqing",
        "门清",
        "Concealed hand",
        "门清的算法：翻倍，或保底一个勒子。A hand with no claimed melds doubles, or is worth at least 1 勒子.",
        "choice",
        (("double", "翻倍 doubles"), ("lezi", "保底一勒子 at least 1 勒子")),
    ),
    Option(
        "gangkai",
        "杠开",
        "Win on a kong's replacement",
        "杠上开花：保底一个勒子，或像门清一样翻倍。Floors the win at 1 勒子, or doubles it like 门清.",
        "choice",
        (("floor", "保底一勒子 at least 1 勒子"), ("double", "翻倍 doubles")),
    ),
    Option(
        "haidi",
        "海底捞月",
        "Self-draw on the last tile",
        "自摸墙上最后一张（只用于上海清混碰）。Self-draw on the wall's last tile (standard preset only).",
        "choice",
        (("off", "不算 not counted"), ("double", "翻倍 doubles"), ("lezi", "保底一勒子 at least 1 勒子")),
    ),
    Option(
        "payment",
        "放冲",
        "Who pays on a discard win",
        "点炮谁付：放冲者付；出冲双倍加另两家；包冲一人付三家。The discarder pays; pays double and the "
        "others single (出冲); or pays for all three (包冲).",
        "choice",
        (
            ("discarder", "放冲者付 discarder pays"),
            ("chu_chong", "出冲 chu chong"),
            ("bao_chong", "包冲 bao chong"),
        ),
    ),
    Option(
        "qingyise_9_bao",
        "清一色九张落地包输",
        "Nine down in one suit",
        "对手已落地九张同一花色，放冲者包三家。Dealing in to a player with nine shown tiles of one suit "
        "costs three shares.",
        "flag",
    ),
    Option(
        "garden",
        "逛花园",
        "Garden (chip stacks)",
        "每人一份筹码（×底分），输光为止，四圈结束。Each player starts with this many points (× stake); "
        "nobody pays more than they have; the match ends after four rounds.",
        "count",
        off="off",
    ),
    Option(
        "swap_tiles",
        "换牌",
        "Swap five tiles",
        "发牌后每人可埋五张、从墙上摸五张。After the deal each player may bury five tiles and draw five.",
        "flag",
    ),
    Option(
        "declare_ready",
        "敲",
        "Declare ready",
        "听牌要先敲才能胡；敲后不能吃碰杠，摸到不胡就打。Declare ready before you may win; after it no "
        "chow/pong/kong, and every drawn tile that does not win is discarded.",
        "flag",
    ),
    Option(
        "hand_loss_cap_lezi",
        "封顶",
        "Loss cap per hand",
        "每局最多输几个勒子（空 = 不封顶）。The most a player loses in one hand, in 勒子 (empty: no cap).",
        "count",
        off=None,
        off_label="不封顶 no cap",
    ),
)
OPTIONS_BY_KEY: dict[str, Option] = {o.key: o for o in OPTIONS}
TABLE_OPTION_KEYS: tuple[str, ...] = tuple(o.key for o in OPTIONS)

# Room-only settings (the room's scoring units; no table changes them); empty means the default.
ROOM_NUMBERS: tuple[Option, ...] = (
    Option("base", "底", "Base points B", "每个基础分。The base points of a hand (B).", "count", off=2),
    Option("flower_point", "花", "Points per flower", "每朵花几分。Points per flower (花).", "count", off=1),
    Option("lezi", "勒子", "Points per 勒子", "一个勒子几分。Points in one 勒子.", "count", off=10),
)

DEFAULTS = Rules().to_json()
assert all(key in DEFAULTS for key in TABLE_OPTION_KEYS)
assert all(o.key in DEFAULTS for o in ROOM_NUMBERS)
