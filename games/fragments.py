"""The table's hot fragments built as plain strings, byte for byte what templates/games/table.html renders.

Every action is rendered for every socket of its table; Django's template engine (variable look-ups,
`{% if %}` nodes, auto-escaping per value) cost more than the rest of a frame's render together. The
functions here build the same markup from the same context with `str.join` and `escape`. They cover
what a frame carries during play (a seat block, the board and the controls of a dealt hand, the
closed settlement); the waiting room and the open settlement are rare and stay with the template.

The template stays the reference: tests/games/test_render_fragments.py renders whole hands for four
players and a spectator both ways and compares every frame.
"""

from __future__ import annotations

import html
from datetime import datetime

from django.utils.dateformat import format as date_format
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.timezone import template_localtime

from games.templatetags.mahjong import hand_tiles, tile, tile_back


def _small_tiles_zone(out: list[str], zone: str, tiles) -> None:
    """`<div class="zone" data-zone="zone">` and the tiles, small, as the seat block's template has it."""
    out.append(f'<div class="{zone}" data-zone="{zone}">')
    out.extend(tile(t, "small") for t in tiles)
    out.append("</div>")


def _action_form(form_class: str, action: str, version) -> str:
    """The opening of a form that sends a game action over the socket, with the version it answers."""
    return (
        f'<form ws-send class="{form_class}"><input type="hidden" name="action" value="{_text(action)}">'
        f'<input type="hidden" name="version" value="{_text(version)}">'
    )


def _text(value) -> str:
    """`{{ value }}` under `{% localize off %}` for the kinds of values these fragments show. A plain
    string goes straight to `html.escape`, which is all `django.utils.html.escape` does with it (its
    lazy-string wrapper cost more than the escaping)."""
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is str:
        return html.escape(value)
    if isinstance(value, str):
        return conditional_escape(value)
    # Anything else as django.template.base.render_value_in_context renders it with l10n off.
    value = localize(template_localtime(value), use_l10n=False)
    return conditional_escape(value if isinstance(value, str) else str(value))


def _timestamp(value) -> str:
    """`{{ value|date:'U' }}`: for a datetime, Django's "U" is `int(value.timestamp())` of the value as
    given (the filter's conversion to local time does not move the instant)."""
    if isinstance(value, datetime):
        return str(int(value.timestamp()))
    return date_format(value, "U")


def _csrf_field(csrf_token: str | None) -> str:
    """`{% csrf_token %}` (django.template.defaulttags.CsrfTokenNode)."""
    if not csrf_token or csrf_token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(csrf_token)}">'


def seat_block(s, state: bool) -> str:
    """The `seatblock` partial for the seat view `s`."""
    out = [
        f'\n<div class="seat seat-{_text(s.position)}{" current" if s.is_current else ""}'
        f'{" me" if s.is_me else ""}" data-seat="{_text(s.index)}">\n  <div class="seat-head">\n    ',
        f'<span class="wind" title="{_text(s.wind)}">{_text(s.wind_zh)}</span>' if s.wind else "",
        f'\n    <span class="name">{_text(s.name or "空座 empty")}</span>\n    ',
        '<span class="badge dealer">庄 Dealer</span>' if s.is_dealer else "",
        "\n    ",
        '<span class="badge away">离线 away</span>' if s.name and not s.connected else "",
        "\n    ",
        '<span class="badge autoplay">托管 Auto</span>' if s.autoplay else "",
        f'\n    <span class="score" data-score="{_text(s.score)}">{_text(s.score)}</span>\n    ',
        f'<span class="count" title="暗牌 concealed tiles">暗 {_text(s.concealed_count)}</span>'
        if state
        else "",
        "\n  </div>\n  ",
    ]
    if state:
        out.append('\n  <div class="seat-body">\n    ')
        if s.flowers:
            _small_tiles_zone(out, "flowers", s.flowers)
        out.append("\n    ")
        if s.melds:
            out.append('<div class="melds" data-zone="melds">')
            for m in s.melds:
                out.append(f'<span class="meld meld-{_text(m.kind)}" title="{_text(m.label)}">')
                out.extend(
                    tile_back("small") if t is None else tile(t, "small turned" if turned else "small")
                    for t, turned in m.tile_items
                )
                out.append("</span>")
            out.append("</div>")
        out.append("\n    ")
        if not s.is_me and not s.revealed:
            count = s.concealed_count
            out.append(
                f'<div class="backs" aria-label="{_text(count)} 暗牌">{tile_back("small") * count}</div>'
            )
        out.append("\n    ")
        if s.revealed:
            _small_tiles_zone(out, "revealed", s.revealed)
        out.append('\n    <div class="river" data-zone="river">')
        river = s.river
        last = len(river) - 1
        for i, r in enumerate(river):
            if r.get("claimed"):
                extra = "small claimed"
            elif i == last and s.just_discarded:
                extra = "small last"
            else:
                extra = "small"
            out.append(tile(r.get("tile"), extra))
        out.append("</div>\n  </div>\n  ")
    out.append("\n</div>\n")
    return "".join(out)


def can_build_board(ctx: dict) -> bool:
    """Whether `board` covers this context: a dealt hand, seen over the socket."""
    return ctx.get("oob") is True and ctx["state"] is not None and not ctx["is_waiting"]


def board(ctx: dict) -> str:
    """The `board` partial during a hand (`can_build_board`)."""
    state = ctx["state"]
    phase = ctx["phase"]
    hand_number = _text(ctx["hand_number"])
    commitment = ctx["commitment"]
    phase_name = ctx["phase_name"]
    current_name = ctx["current_name"]
    out = [
        f'\n<section id="board" class="board" data-version="{_text(ctx["version"])}" hx-swap-oob="true">\n'
        f'  <div class="info-bar">\n    <span>{_text(ctx["room"].name)} · #{_text(ctx["table"].pk)}</span>\n    '
        f"\n      <span>第 {hand_number} 局 Hand {hand_number}</span>"
        f"\n      <span>牌墙 Wall <strong data-wall>{_text(state['wall_remaining'])}</strong></span>"
        f"\n      <span>骰子 Dice {_text(state['dice'][0])}·{_text(state['dice'][1])}</span>"
        f"\n      <span>庄 Dealer {_text(ctx['dealer_name'])}</span>"
        f"\n      <span>荒番 {_text(state['huangfan'])}</span>"
        f'\n      <span class="small commitment" title="牌墙承诺 wall commitment: {_text(commitment)}">'
        f"承诺 {_text(commitment[:10])}…</span>"
        f'\n      <span class="phase phase-{_text(phase)}">{_text(phase_name[0])} {_text(phase_name[1])}',
        f": {_text(current_name)}" if current_name and phase == "turn" else "",
        "</span>\n      ",
    ]
    deadline = ctx["deadline"]
    if deadline:
        out.append(
            f'<span class="countdown" data-deadline="{_timestamp(deadline)}" '
            f'data-now="{_timestamp(ctx["now"])}">倒计时 <b></b></span>'
        )
    out.append("\n      ")
    if ctx["me"]:
        url = _text(ctx["stand_url"])
        confirm = (
            "离开牌桌？ Leave the table?"
            if phase == "ended"
            else "中途离开会被罚分，由机器人代打。确定？ Leaving during a hand costs a penalty and a bot plays on. Leave?"
        )
        out.append(
            f'<form method="post" action="{url}" hx-post="{url}" hx-confirm="{confirm}" class="inline leave">'
            f'{_csrf_field(ctx.get("csrf_token"))}<button type="submit" class="link" data-testid="leave">'
            "离开 Leave</button></form>"
        )
    seat_html = ctx["seat_html"]
    out.append(
        '\n    \n  </div>\n  \n  <div class="seats">\n'
        f"    {seat_html['top']}\n    {seat_html['left']}\n    {seat_html['right']}\n    {seat_html['bottom']}\n"
        "  </div>\n  \n</section>\n"
    )
    return "".join(out)


def can_build_controls(ctx: dict) -> bool:
    return ctx.get("oob") is True


def controls(ctx: dict) -> str:
    """The `controls` partial (over the socket)."""
    state = ctx["state"]
    viewer = ctx["viewer"]
    version = _text(ctx["version"])
    active = bool(state) and viewer is not None and ctx.get("phase") != "ended"
    me = ctx["me"]
    out = [
        f'\n<section id="controls" class="controls{" active" if active else ""}" data-version="{version}" '
        'hx-swap-oob="true">\n  '
    ]
    if me and me.autoplay:
        out.append(
            '\n  <form ws-send class="autoplay-bar"><input type="hidden" name="command" value="cancel_autoplay">'
            '<button type="submit" class="primary" data-testid="cancel-autoplay">取消托管 Cancel auto-play'
            "</button></form>\n  "
        )
    out.append("\n  ")
    if active:
        discards = ctx["discards"]
        out.append(
            f'\n  <div class="my-hand" data-zone="hand" data-seat="{_text(viewer)}">\n    '
            f"{conditional_escape(hand_tiles(ctx['my_hand'], discards, viewer, ctx['version']))}\n    "
        )
        drawn = ctx["drawn"]
        if drawn:
            out.append('<span class="drawn-gap"></span>')
            if drawn in discards:
                out.append(
                    f'{_action_form("tile-form", f"{viewer}:discard:{drawn}", ctx["version"])}<button type="submit" '
                    f'class="tile-btn drawn" data-testid="discard-drawn" title="摸到 Drawn">{tile(drawn)}</button></form>'
                )
            else:
                out.append(tile(drawn, "drawn"))
        out.append("\n  </div>\n  ")
        buttons = ctx["buttons"]
        if buttons:
            out.append('\n  <div class="choices" data-zone="choices">\n    ')
            for b in buttons:
                out.append(
                    f'{_action_form("choice-form", b.action, ctx["version"])}<button type="submit" '
                    f'class="choice choice-{_text(b.kind)}" data-testid="choice-{_text(b.kind)}">'
                    f"{_text(b.label_zh)} <small>{_text(b.label_en)}</small>"
                )
                out.extend(tile(t, "mini") for t in b.tiles)
                out.append("</button></form>")
            out.append("\n  </div>\n  ")
        out.append("\n  ")
        must_answer = ctx["must_answer"]
        if must_answer and discards:
            out.append('<p class="prompt">请出牌 Your turn: tap a tile to discard it.</p>')
        elif must_answer:
            claim = state.get("claim_tile")
            out.append(
                '<p class="prompt">请选择 Your call'
                + (
                    f': <span class="claim-tile" data-zone="claim">{tile(claim, "mini")}</span>'
                    if claim
                    else ""
                )
                + "</p>"
            )
        out.append("\n  ")
        waits = ctx["waits"]
        if waits:
            out.append('<div class="waits" data-zone="waits">听牌 Waiting on: ')
            out.extend(tile(t, "mini") for t in waits)
            out.append("</div>")
        out.append("\n  ")
    elif state and viewer is None:
        out.append('\n  <p class="hint">观战中 Spectating — you see public information only.</p>\n  ')
    out.append("\n</section>\n")
    return "".join(out)


def can_build_settlement(ctx: dict) -> bool:
    return ctx.get("oob") is True and not ctx.get("settlement")


def settlement(ctx: dict) -> str:
    """The `settlement` partial while it is closed (`can_build_settlement`)."""
    return '\n<section id="settlement" class="settlement" hx-swap-oob="true">\n  \n</section>\n'
