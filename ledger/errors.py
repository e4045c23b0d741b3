"""`Refused`, the base of every refused request, and the ledger's own `LedgerError`.

The ledger is the lowest app: the game services call it, and it imports nothing of theirs. So the
refusal every layer shares is defined here, and `games.errors.ServiceError` builds on it.

A message is a lazy gettext (Chinese msgid, English in locale/en): it becomes text in the language
active where it is shown, not where the error was raised."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Refused(Exception):
    """A refused request: nothing was changed. `code` is stable; `message` is for people."""

    def __init__(self, code: str, message: str | Promise) -> None:
        self.code = code
        self.lazy_message = message
        super().__init__(code)

    @property
    def message(self) -> str:
        """The message in the active language."""
        return str(self.lazy_message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


# The ledger's codes -> message (a raiser may word its case itself instead).
MESSAGES: dict[str, Promise] = {
    "hand_in_progress": _("本局还没结束"),
    "no_such_seat": _("没有这个座位"),
    "reason_required": _("请填写原因"),
    "no_such_penalty": _("没有这条罚分"),
    "already_reversed": _("这条罚分已经冲正"),
    "unbalanced": _("账目不平"),
}


class LedgerError(Refused):
    """A posting the ledger refused: nothing was written."""

    def __init__(self, code: str, message: str | Promise | None = None) -> None:
        super().__init__(code, message if message is not None else MESSAGES.get(code, _("操作失败")))
