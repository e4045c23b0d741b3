"""What a display name may be: normalised so that it reads as it is stored, and never one that
passes for a deleted account.

NFKC folds look-alike forms (full-width letters, compatibility characters) into their plain ones;
format and control characters (zero-width spaces and joiners, direction marks, the byte-order mark)
are dropped and runs of spaces become one. A name is reserved when its letters and digits alone,
case-folded, spell one of the words a deleted account shows, in either language: `已注销\u200b`,
`已 注 销` and `ＤＥＬＥＴＥＤ` are all refused.
"""

from __future__ import annotations

import unicodedata

from .models import DELETED_NAME

# Compared by their letters and digits only, case-folded (`_letters`).
RESERVED_NAMES = (
    DELETED_NAME,
    "注销",
    "已删除",
    "账户已注销",
    "用户已注销",
    "deleted",
    "deleted user",
    "deleted account",
    "account deleted",
)


# Letters and symbols that print as nothing (Hangul fillers, the blank Braille pattern).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(ch: str) -> bool:
    return ch.isspace() or (unicodedata.category(ch)[0] != "C" and ch not in _BLANK_LETTERS)


def normalise_display_name(value: str) -> str:
    """NFKC, without format, control or other invisible characters, spaces collapsed and stripped."""
    value = unicodedata.normalize("NFKC", value)
    return " ".join("".join(ch for ch in value if _visible(ch)).split())


def _letters(value: str) -> str:
    return "".join(ch for ch in normalise_display_name(value).casefold() if ch.isalnum())


_RESERVED = frozenset(_letters(name) for name in RESERVED_NAMES)


def is_reserved(value: str) -> bool:
    """Whether the name would pass for a deleted account."""
    return _letters(value) in _RESERVED
