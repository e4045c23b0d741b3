"""Every code the scoring engine can return has a Chinese and an English name (none shows raw, and
the English catalogue translates each)."""

from __future__ import annotations

from django.utils import translation

from games import names
from games.engine.melds import MELD_KINDS
from games.engine.rules import _CHOICES, PRESETS
from games.engine.scoring import FEATURES, PATTERNS, WIN_KINDS
from games.engine.scoring.lazi import FIXED


def _named(table: dict, code: str) -> bool:
    """Named in Chinese and, in the English catalogue, in English (not the Chinese left as is)."""
    found = names.word(table, code)
    with translation.override("zh-hans"):
        zh = str(found)
    with translation.override("en"):
        en = str(found)
    return bool(zh) and bool(en) and code not in (zh, en) and zh != en


def test_every_pattern_has_names():
    engine_patterns = set(PATTERNS) | set(FIXED) | {"bahua", "qidui", "pinghu"}
    assert {"dadiaoche", "tianhu", "dihu", "bahua"} <= engine_patterns
    assert all(_named(names.PATTERNS, p) for p in engine_patterns)


def test_every_feature_win_kind_meld_and_preset_has_names():
    assert all(_named(names.FEATURES, f) for f in FEATURES)
    assert all(_named(names.WIN_KINDS, w) for w in WIN_KINDS)
    assert all(_named(names.MELD_KINDS, k) for k in MELD_KINDS)
    assert all(_named(names.PRESETS, p) for p in PRESETS)


def test_every_room_option_value_has_names():
    options = {k: v for k, v in _CHOICES.items() if k != "preset"}
    assert set(names.RULE_OPTIONS) == set(options)
    for option, values in options.items():
        assert set(names.RULE_OPTIONS[option]) == set(values)
        assert all(_named(names.RULE_OPTIONS[option], value) for value in values)
        assert _named(names.RULE_OPTION_LABELS, option)
