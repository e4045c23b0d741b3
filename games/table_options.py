"""What players and rooms may choose: the presets and the §11 house options, named for people.

Data only (no models): the engine's `Rules` is the judge of what a value means and whether it is
valid; this module says what each choice is called and how a form asks for it. Every name is a lazy
gettext string (Chinese msgid, English in the catalogue), so it reads in the language of the request
that shows it. `games.services.table_settings` validates choices against a room; the forms are built
from `OPTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESETS, Rules

PRESET_NAMES: dict[str, str] = {
    "standard": _("上海清混碰"),
    "lazi": _("喇子"),
    "home": _("家规"),
}
assert set(PRESET_NAMES) == set(PRESETS)

ON, OFF = _("开"), _("关")


@dataclass(frozen=True, slots=True)
class Option:
    """One house option. `kind`: "choice" (one of `choices`), "flag" (on/off), "count" (a positive
    integer or off: `off` is the value stored when the player leaves it empty). `standard_only`: the
    rules apply it to the `standard` preset only (RULES.md §11), so it is asked and shown only there."""

    key: str
    label: str
    help: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    off: object = None
    off_label: str = OFF
    standard_only: bool = False  # §11: applies in the `standard` preset only (lazi, home ignore it)

    def display(self, value) -> str:
        """The value as people read it (the lobby row, the table page, the invite page)."""
        if self.kind == "flag":
            return str(ON if value else OFF)
        if self.kind == "choice":
            return str(dict(self.choices).get(value, value))
        return str(self.off_label) if value == self.off else str(value)


# Rules §11, in the order the rules text lists them.
DOUBLES, LEZI_FLOOR = _("翻倍"), _("保底一勒子")

OPTIONS: tuple[Option, ...] = (
    Option(
        "menqing",
        _("门清"),
        _("门清的算法：翻倍，或保底一个勒子。"),
        "choice",
        (("double", DOUBLES), ("lezi", LEZI_FLOOR)),
        standard_only=True,
    ),
    Option(
        "gangkai",
        _("杠开"),
        _("杠上开花：保底一个勒子，或像门清一样翻倍。"),
        "choice",
        (("floor", LEZI_FLOOR), ("double", DOUBLES)),
        standard_only=True,
    ),
    Option(
        "haidi",
        _("海底捞月"),
        _("自摸墙上最后一张（只用于上海清混碰）。"),
        "choice",
        (("off", _("不算")), ("double", DOUBLES), ("lezi", LEZI_FLOOR)),
        standard_only=True,
    ),
    Option(
        "payment",
        _("放冲"),
        _("放冲谁付：放冲者付；出冲双倍加另两家；包冲一人付三家（只用于上海清混碰）。"),
        "choice",
        (
            ("discarder", _("放冲者付")),
            ("chu_chong", _("出冲")),
            ("bao_chong", _("包冲")),
        ),
        standard_only=True,
    ),
    Option(
        "qingyise_9_bao",
        _("清一色九张落地包输"),
        _("对手已落地九张同一花色，放冲者包三家（只用于上海清混碰）。"),
        "flag",
        standard_only=True,
    ),
    Option(
        "garden",
        _("逛花园"),
        _("每人一份筹码（×底分），输光为止，四圈结束。"),
        "count",
        off="off",
    ),
    Option(
        "swap_tiles",
        _("换牌"),
        _("发牌后每人可埋五张、从墙上摸五张。"),
        "flag",
    ),
    Option(
        "declare_ready",
        _("敲"),
        _("听牌要先敲才能胡；敲后不能吃碰杠，摸到不胡就打。"),
        "flag",
    ),
    Option(
        "hand_loss_cap_lezi",
        _("单局封顶"),
        _("每局最多输几个勒子（空 = 不封顶）。"),
        "count",
        off=None,
        off_label=_("不封顶"),
        standard_only=True,
    ),
)
OPTIONS_BY_KEY: dict[str, Option] = {o.key: o for o in OPTIONS}
TABLE_OPTION_KEYS: tuple[str, ...] = tuple(o.key for o in OPTIONS)
STANDARD_ONLY_KEYS: frozenset[str] = frozenset(o.key for o in OPTIONS if o.standard_only)
STANDARD = "standard"


def applies(option: Option, preset: str) -> bool:
    """Whether the rules use this option in `preset` (RULES.md §11)."""
    return preset == STANDARD or not option.standard_only


# Room-only settings (the room's scoring units; no table changes them); empty means the default.
ROOM_NUMBERS: tuple[Option, ...] = (
    Option("base", _("底"), _("每个基础分。"), "count", off=2),
    Option("flower_point", _("花"), _("每朵花几分。"), "count", off=1),
    Option("lezi", _("勒子"), _("一个勒子几分。"), "count", off=10),
)

DEFAULTS = Rules().to_json()
assert all(key in DEFAULTS for key in TABLE_OPTION_KEYS)
assert all(o.key in DEFAULTS for o in ROOM_NUMBERS)
