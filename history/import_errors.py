"""Why an uploaded hand export was refused, in the reader's language.

`games.engine.verify` refuses with a code and its details (and an English line for the command
line); this is the one table of the words the import page shows for each code."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.verify import ExportError, VerifyFailed
from games.errors import message_for
from games.names import name_list

NOT_AN_EXPORT: dict[str, Promise] = {
    "too_big": gettext_lazy("文件太大（牌局导出最多 {limit} 字节）"),
    "not_json": gettext_lazy("不是 JSON 文件"),
    "not_object": gettext_lazy("内容不是一个 JSON 对象"),
    "missing_keys": gettext_lazy("缺少字段 {keys}"),
    "unknown_keys": gettext_lazy("有多余的字段 {keys}"),
    "bad_field": gettext_lazy("字段 {key} 的值无效"),
    "bad_action": gettext_lazy("第 {index} 个动作无法识别"),
}

CHECK_FAILED: dict[str, Promise] = {
    "commitment": gettext_lazy("承诺值与种子和牌墙不符：种子或牌墙被改过"),
    "wall_not_seed": gettext_lazy("牌墙不是这个种子洗出来的"),
    "cannot_deal": gettext_lazy("无法按这些设置发牌（{reason}）"),
    "action_refused": gettext_lazy("第 {index} 个动作（{action}）被规则拒绝：{reason}"),
    "unfinished": gettext_lazy("{count} 个动作之后这一局还没有结束"),
}


def refusal(exc: ExportError | VerifyFailed) -> str:
    """The sentence the import form shows for a refused export."""
    details = dict(exc.details)
    if "keys" in details:
        details["keys"] = name_list(details["keys"])
    if "reason" in details:
        details["reason"] = message_for(details["reason"])
    if isinstance(exc, VerifyFailed):
        return _("校验失败：{error}").format(error=str(CHECK_FAILED[exc.code]).format(**details))
    return _("不是牌局导出文件：{error}").format(error=str(NOT_AN_EXPORT[exc.code]).format(**details))
