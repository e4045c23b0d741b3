"""The Jinja2 environment of the live table's regions (`templates/jinja2/games/table/*.html`).

Every action is rendered for every socket of its table, so the regions a frame carries (board, seat
blocks, controls, settlement) are the hottest templates of the site. They are Jinja2 templates
because Jinja2 compiles a template to Python code: measured by bench/render_bench.py, the frame
render costs a fraction of the same templates on Django's engine (the figures are in
bench/render_bench.py's docstring and docs/decisions/0002-two-template-engines.md). The rest of the site stays on Django templates.

The environment gives the templates what Django's template tags gave the old partials: the `tile`, `tiles`
and `tile_back` filters (the tile faces of games.templatetags.mahjong), `url` (reverse), `csrf_field` (the
hidden input of `{% csrf_token %}`), the `timestamp` filter (`|date:'U'`), the names of the engine's
codes in the active language (`wind_name`, `wind_mark`, `meld_name`: games/names.py), and Django's
gettext through jinja2.ext.i18n.

Text is written `{{ _("中文") }}` (a Chinese msgid, as everywhere on the site), with `|format(n=…)` for a
placeholder: `{{ _("第 %(n)s 局")|format(n=hand_number) }}`. That is the form Django's `makemessages`
reads out of a template (`_("…")` first in a `{{ }}`), so the table's strings land in
locale/en/LC_MESSAGES/django.po with the rest. The plain (not "newstyle") gettext is installed for
that reason: newstyle's `_("…", n=…)` is not found by makemessages. Its result is a plain string, so
autoescaping escapes it like any variable. The active language is the request's, or for a socket
frame the one `rendering.render_for_viewers` activates for that socket.

Autoescaping is on (Django's backend sets it); markup made safe by Django (`SafeString`) is not escaped
again, since it carries `__html__`.
"""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from django.utils import translation
from django.utils.dateformat import format as date_format
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from jinja2 import Environment, Undefined
from markupsafe import Markup

from games import names
from games.engine.kinds import Phase, ResultKind
from games.templatetags.mahjong import tile, tile_back


def timestamp(value) -> str:
    """`{{ value|date:'U' }}`: seconds since the epoch (of the instant; local time does not move it)."""
    if isinstance(value, datetime):
        return str(int(value.timestamp()))
    return date_format(value, "U")


def csrf_field(csrf_token) -> str:
    """`{% csrf_token %}`: the hidden input, or nothing without a token ("NOTPROVIDED": a frame pushed
    over the socket to a browser whose cookie is unknown; htmx then sends the page's header)."""
    if not csrf_token or csrf_token == "NOTPROVIDED":
        return ""
    return mark_safe(
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(csrf_token)}">'
    )


def tile_back_markup(extra_class: str = "") -> Markup:
    """`tile_back` as Jinja2's own safe string, so that `back * count` stays safe."""
    return Markup(tile_back(extra_class))


def tiles(items, size: str = "") -> Markup:
    """A row of tiles, each drawn by `tile` with the class `size`: an item is a tile, or a (tile, mark)
    pair whose mark is one more class ("turned", "claimed"; a None tile lies face down). One
    filter call for a row: a frame draws about a hundred tiles, and a call and an escape per tile cost
    more than the tile itself."""
    out = []
    for item in items:
        if type(item) is tuple:
            code, mark = item
            out.append(tile_back(size) if code is None else tile(code, f"{size} {mark}" if mark else size))
        else:
            out.append(tile(item, size))
    return Markup("".join(out))


def url(name: str, *args) -> str:
    return reverse(name, args=args)


def environment(**options) -> Environment:
    """Called by Django's Jinja2 backend (settings.TEMPLATES) with the backend's options."""
    options.setdefault("extensions", []).append("jinja2.ext.i18n")
    # Django's backend picks DebugUndefined under DEBUG, which would print a missing variable's
    # `{{ name }}` into a frame: a missing variable renders as nothing, as in Django's templates.
    options["undefined"] = Undefined
    env = Environment(**options)
    env.install_gettext_callables(translation.gettext, translation.ngettext, newstyle=False)
    # Filters, not globals, for what a frame calls often: Jinja2 calls a filter directly, a global
    # function through `Context.call` (twice the cost of a tile).
    env.globals.update(url=url, csrf_field=csrf_field, Phase=Phase, ResultKind=ResultKind)
    env.filters.update(
        tile=tile,
        tiles=tiles,
        tile_back=tile_back_markup,
        timestamp=timestamp,
        wind_name=names.wind_name,
        wind_mark=names.wind_mark,
        meld_name=names.meld_name,
    )
    return env
