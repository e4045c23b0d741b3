"""`ServiceError` and the one table of words for every error code (engine codes included).

Outside `games.services` so that the ledger's services, which the game services call, raise the same
error without importing them (games.services re-exports both names)."""

from __future__ import annotations

# code -> (Chinese, English). Engine `RuleError` codes (games/engine/README.md) are listed first.
MESSAGES: dict[str, tuple[str, str]] = {
    "hand_over": ("本局已结束", "The hand is over."),
    "not_your_turn": ("还没轮到你", "It is not your turn."),
    "tile_not_in_hand": ("你手里没有这张牌", "You do not hold that tile."),
    "illegal_action": ("现在不能这样做", "That move is not allowed now."),
    "claim_window_closed": ("已经过了吃碰的时机", "The claim window has closed."),
    "already_answered": ("你已经回应过了", "You have already answered."),
    "bad_action": ("无法识别的操作", "That action could not be read."),
    "not_a_win": ("这手牌还不能胡", "That hand does not win."),
    "missed_win": (
        "漏胡：同一张牌暂时不能胡",
        "Missed win: you cannot win on that tile until you move your hand.",
    ),
    # Web-layer codes.
    "login_required": ("请先登录", "Please log in first."),
    "bad_message": ("无法识别的消息，请刷新页面", "That message could not be read; reload the page."),
    "no_such_room": ("没有这个房间", "No such room."),
    "room_closed": ("房间已关闭", "This room is closed."),
    "no_such_table": ("没有这张桌子", "No such table."),
    "no_such_seat": ("没有这个座位", "No such seat."),
    "seat_taken": ("这个座位已经有人了", "That seat is taken."),
    "already_seated": ("你已经坐下了", "You are already seated at this table."),
    "table_full": ("桌子已满", "The table is full."),
    "not_seated": ("你没有坐在这张桌子", "You are not seated at this table."),
    "not_your_seat": ("这不是你的座位", "That is not your seat."),
    "table_not_waiting": ("牌局已经开始", "The game has already started."),
    "table_not_playing": ("牌局还没开始", "The game has not started."),
    "seats_not_filled": ("还有空座位", "Some seats are still empty."),
    "hand_in_progress": ("本局还没结束", "The hand is still being played."),
    "already_ready": ("你已经准备好了，等待其他玩家", "You are already ready; waiting for the others."),
    "stale_version": ("画面已过期，请按最新状态操作", "Your view was out of date; please try again."),
    "bad_bot_level": ("没有这个机器人等级", "No bot of that level."),
    "server_error": ("服务器出错，请重试", "Something went wrong on the server; please try again."),
    "too_fast": ("操作太频繁，请稍后再试", "Too many messages at once; please slow down."),
    "signed_out": ("你已退出登录，请重新登录", "You have been signed out; please log in again."),
    "too_many_sockets": ("连接太多，请关闭一些页面", "Too many connections; please close some pages."),
    "too_many_spectators": ("观战人数已满", "This table has as many spectators as it can take."),
    # Platform rules, ledger and admin (issue 4).
    "banned": ("你已被禁止入座", "You are banned from sitting at tables."),
    "not_owner": ("只有桌主可以设定底分", "Only the table's owner sets the stake."),
    "bad_stake": ("房间没有这个底分", "That stake is not offered in this room."),
    "stake_already_set": ("底分已经设定", "The stake is already set."),
    "stake_not_set": ("桌主还没有设定底分", "The owner has not set the stake yet."),
    "stake_not_accepted": ("请先接受底分", "Please accept the stake first."),
    "not_in_autoplay": ("你没有在托管", "Your seat is not in auto-play."),
    "already_in_autoplay": ("你已经在托管", "Your seat is already in auto-play."),
    "reason_required": ("请填写原因", "A reason is required."),
    "no_such_penalty": ("没有这条罚分", "No such penalty."),
    "already_reversed": ("这条罚分已经冲正", "That penalty has already been reversed."),
    "unbalanced": ("账目不平", "The entries do not sum to zero."),
    "table_closed": ("牌桌已关闭", "This table is closed."),
    # Players' table choices and room settings (issue 14).
    "preset_not_allowed": ("本房间没有这个玩法", "This room does not offer that preset."),
    "option_not_allowed": ("本房间不能设定这个选项", "This room does not let tables set that option."),
    "bad_options": ("选项不合规则", "Those options are not valid."),
    "bad_timer": ("时间超出本房间的范围", "That timer is outside this room's limits."),
    "settings_locked": ("牌局开始后设定不能再改", "The table's settings are fixed once a match has started."),
    # House options at the table (敲, 换牌, 逛花园).
    "bad_swap": ("换牌要选五张牌", "Choose exactly five tiles to bury."),
    "swap_closed": ("换牌时间已过", "The swap window is closed."),
    "declare_not_ready": (
        "打这张牌不能听牌，不能敲",
        "Discarding that tile does not leave your hand ready: no 敲.",
    ),
    "declared_no_melds": ("敲了以后只能摸打，不能吃碰杠", "After declaring 敲 you only draw and discard."),
    "no_such_invite": ("邀请码无效", "No table has that invite code."),
    "bad_room_settings": ("房间设定不对", "Those room settings are not valid."),
}


class ServiceError(Exception):
    """A refused request: nothing was changed. `code` is stable; `message` is for people."""

    field: str | None = None  # the input a refusal concerns, when it names one (a form shows it there)

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        zh, en = MESSAGES.get(code, ("操作失败", "The request failed."))
        self.message_zh = zh
        self.message_en = message or en
        super().__init__(f"{code}: {self.message_en}")

    @property
    def message(self) -> str:
        return f"{self.message_zh} · {self.message_en}"
