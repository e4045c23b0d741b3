"""`{% table_choices table as c %}`: what a table plays with, for people to read before they sit."""

from __future__ import annotations

from django import template

from games.services.room_settings import table_rules, table_timers
from games.table_options import DEFAULTS, OPTIONS, PRESET_NAMES, applies

register = template.Library()


@register.simple_tag
def table_choices(table) -> dict:
    """The preset, the timers, and every house option the preset uses with its value (`changed`: not
    the default)."""
    rules = table_rules(table).to_json()
    discard, claim = table_timers(table)
    return {
        "preset": PRESET_NAMES[rules["preset"]],
        "discard_timeout": discard,
        "claim_timeout": claim,
        "private": table.private,
        "options": [
            {
                "key": o.key,
                "label": o.label,
                "help": o.help,
                "value": o.display(rules[o.key]),
                "changed": rules[o.key] != DEFAULTS[o.key],
            }
            for o in OPTIONS
            if applies(o, rules["preset"])
        ],
    }
