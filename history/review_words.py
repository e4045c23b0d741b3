"""Words for the review's engine codes (plans, verdicts, decision kinds), each once, lazily translated."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.names import ACTIONS, name_of

PLANS = {
    "hunyise-m": _("混一色（万）"),
    "hunyise-p": _("混一色（筒）"),
    "hunyise-s": _("混一色（条）"),
    "qingyise-m": _("清一色（万）"),
    "qingyise-p": _("清一色（筒）"),
    "qingyise-s": _("清一色（条）"),
    "hunpeng-m": _("混碰（万）"),
    "hunpeng-p": _("混碰（筒）"),
    "hunpeng-s": _("混碰（条）"),
    "pengpeng": _("碰碰胡"),
    "fengyise": _("风一色"),
}

VERDICTS = {
    "agrees": pgettext_lazy("review", "一致"),
    "close": _("接近"),
    "mistake": pgettext_lazy("review", "失误"),
}

KINDS = {
    "discard": _("出牌"),
    "claim": _("吃碰杠胡"),
    "swap": _("换牌"),
}

SWAP_ACTIONS = {"bury": _("埋牌"), "skip": _("不换")}


def action_word(kind: str) -> str:
    if kind in SWAP_ACTIONS:
        return str(SWAP_ACTIONS[kind])
    return name_of(ACTIONS, kind)


def plan_word(code: str) -> str:
    return str(PLANS.get(code, code))
