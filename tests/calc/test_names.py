"""Every code the scoring engine can return has a Chinese and an English name (none shows raw)."""

from __future__ import annotations

from games import names
from games.engine.melds import MELD_KINDS
from games.engine.rules import _CHOICES, PRESETS
from games.engine.scoring import FEATURES, PATTERNS, WIN_KINDS
from games.engine.scoring.lazi import FIXED


def _named(table: dict, code: str) -> bool:
    zh, en = table[code]
    return bool(zh) and bool(en) and zh != code and en != code


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
        assert all(all(label) for label in names.RULE_OPTIONS[option].values())
        assert all(names.RULE_OPTION_LABELS[option])
