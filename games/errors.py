"""`ServiceError` and the one table of words for every error code (engine codes included).

Outside `games.services` so that every layer of `games` can raise and catch it without importing the
services (games.services re-exports both names). It builds on the ledger's `Refused`: the ledger is
below `games` and raises its own `ledger.errors.LedgerError`.

A message is a lazy gettext (Chinese msgid, English in locale/en): it becomes text in the language
active where it is shown (a page's request, a socket's frame), not where the error was raised (often
a worker thread with no language of its own)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledger.errors import Refused

# code -> message. Engine `RuleError` codes (games/engine/README.md) are listed first.
MESSAGES: dict[str, Promise] = {
    "hand_over": _("本局已结束"),
    "not_your_turn": _("还没轮到你"),
    "tile_not_in_hand": _("你手里没有这张牌"),
    "illegal_action": _("现在不能这样做"),
    "claim_window_closed": _("已经过了吃碰的时机"),
    "already_answered": _("你已经回应过了"),
    "bad_action": _("无法识别的操作"),
    "not_a_win": _("这手牌还不能胡"),
    "missed_win": _("漏胡：同一张牌暂时不能胡"),
    # Web-layer codes.
    "login_required": _("请先登录"),
    "bad_message": _("无法识别的消息，请刷新页面"),
    "no_such_room": _("没有这个房间"),
    "room_closed": _("房间已关闭"),
    "no_such_table": _("没有这张桌子"),
    "no_such_seat": _("没有这个座位"),
    "seat_taken": _("这个座位已经有人了"),
    "already_seated": _("你已经坐下了"),
    "table_full": _("桌子已满"),
    "not_seated": _("你没有坐在这张桌子"),
    "not_your_seat": _("这不是你的座位"),
    "table_not_waiting": _("牌局已经开始"),
    "table_not_playing": _("牌局还没开始"),
    "seats_not_filled": _("还有空座位"),
    "hand_in_progress": _("本局还没结束"),
    "already_ready": _("你已经准备好了，等待其他玩家"),
    "stale_version": _("画面已过期，请按最新状态操作"),
    "bad_bot_level": _("没有这个机器人等级"),
    "server_error": _("服务器出错，请重试"),
    "too_fast": _("操作太频繁，请稍后再试"),
    "signed_out": _("你已退出登录，请重新登录"),
    "too_many_sockets": _("连接太多，请关闭一些页面"),
    "too_many_spectators": _("观战人数已满"),
    # Platform rules, ledger and admin (issue 4).
    "banned": _("你已被禁止入座"),
    "not_owner": _("只有桌主可以设定底分"),
    "bad_stake": _("房间没有这个底分"),
    "stake_already_set": _("底分已经设定"),
    "stake_not_set": _("桌主还没有设定底分"),
    "stake_not_accepted": _("请先接受底分"),
    "not_in_autoplay": _("你没有在托管"),
    "already_in_autoplay": _("你已经在托管"),
    "reason_required": _("请填写原因"),
    "table_closed": _("牌桌已关闭"),
    # Players' table choices and room settings (issue 14).
    "preset_not_allowed": _("本房间没有这个玩法"),
    "option_not_allowed": _("本房间不能设定这个选项"),
    "bad_options": _("选项不合规则"),
    "bad_timer": _("时间超出本房间的范围"),
    "settings_locked": _("牌局开始后设定不能再改"),
    # House options at the table (敲, 换牌, 逛花园).
    "bad_swap": _("换牌要选五张牌"),
    "swap_closed": _("换牌时间已过"),
    "declare_not_ready": _("打这张牌不能听牌，不能敲"),
    "declared_no_melds": _("敲了以后只能摸打，不能吃碰杠"),
    "no_such_invite": _("邀请码无效"),
    "no_such_pool": _("没有这个快速开始池"),
    "pool_closed": _("这个快速开始池已关闭"),
    "bad_fill_after": _("机器人补位的秒数不对"),
    "bad_room_settings": _("房间设定不对"),
}


def message_for(code: str) -> Promise:
    """The words for an error code (lazy: text in the language active where it is shown)."""
    return MESSAGES.get(code, _("操作失败"))


class ServiceError(Refused):
    """A refused request: nothing was changed. `code` is stable; `message` is for people (a lazy
    gettext or text: `MESSAGES[code]` unless the raiser words this case itself)."""

    field: str | None = None  # the input a refusal concerns, when it names one (a form shows it there)

    def __init__(self, code: str, message: str | Promise | None = None) -> None:
        super().__init__(code, message if message is not None else message_for(code))
