"""`{{ pair|lang }}` and `{% pick zh en %}`: the active language's word of a (Chinese, English) pair
(games.names.in_language)."""

from __future__ import annotations

from django import template

from games.names import in_language

register = template.Library()

register.filter("lang", in_language)


@register.simple_tag
def pick(zh: str, en: str) -> str:
    """`{% pick zh en %}`: the active language's one of two words (escaped like any variable)."""
    return in_language((zh, en))
