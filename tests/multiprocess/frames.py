"""Reading the server's HTML frames the way a test needs them: the legal actions a seat is offered and
the public state of the table (rivers, melds, flowers, revealed hands, payments) per seat.
"""

from __future__ import annotations

from html.parser import HTMLParser

VOID_TAGS = {"input", "br", "img", "meta", "link", "hr", "wbr", "source", "area", "col", "embed", "track"}
PUBLIC_ZONES = ("river", "melds", "flowers", "revealed")


class _FrameParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[dict[str, str | None]] = []
        self.actions: list[str] = []
        self.commands: list[str] = []
        self.public: dict[tuple[int, str], list[str]] = {}
        self.payments: dict[int, int] = {}
        self.error_codes: list[str] = []
        self.sections: set[str] = set()

    def _nearest(self, attr: str) -> str | None:
        for attrs in reversed(self.stack):
            if attrs.get(attr) is not None:
                return attrs[attr]
        return None

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.sections.add(attributes["id"])
        # a game action: a submit button of the hand's form or of the choices' form (in the action
        # bar, #controls-bar inside #controls), or a hidden input of a form of its own
        if (
            tag in ("input", "button")
            and attributes.get("name") == "action"
            and self._nearest("id") in ("controls", "controls-bar")
        ):
            self.actions.append(attributes.get("value") or "")
        if tag == "input" and attributes.get("name") == "command":
            self.commands.append(attributes.get("value") or "")
        if attributes.get("data-error-code"):
            self.error_codes.append(attributes["data-error-code"])
        if attributes.get("data-tile") and any(a.get("id") == "board" for a in self.stack):
            zone = self._nearest("data-zone")
            seat = self._nearest("data-seat")
            if zone in PUBLIC_ZONES and seat is not None:
                self.public.setdefault((int(seat), zone), []).append(attributes["data-tile"])
        if attributes.get("data-payment") not in (None, "", "None") and self._nearest("id") == "settlement":
            seat = self._nearest("data-seat")
            if seat is not None:
                self.payments[int(seat)] = int(attributes["data-payment"])
        if tag not in VOID_TAGS:
            self.stack.append(attributes)

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.stack.pop()

    def handle_endtag(self, tag) -> None:
        if tag not in VOID_TAGS and self.stack:
            self.stack.pop()


def parse(frame: str) -> _FrameParser:
    parser = _FrameParser()
    parser.feed(frame)
    parser.close()
    return parser


def legal_actions(frame: str) -> list[str]:
    """The actions the viewer is offered in this frame (`"2:discard:5p"`, `"1:pong"`, ...)."""
    return parse(frame).actions


def public_state(frame: str) -> dict:
    """What every viewer of the table may see: per (seat, zone) tiles, and payments once ended."""
    parsed = parse(frame)
    return {"tiles": parsed.public, "payments": parsed.payments}


def error_codes(frame: str) -> list[str]:
    return parse(frame).error_codes


def choose_action(actions: list[str]) -> str | None:
    """A simple scripted player: win when it can, pong when offered, otherwise pass a claim or
    discard the drawn tile (the last offered discard)."""
    if not actions:
        return None
    by_kind: dict[str, list[str]] = {}
    for action in actions:
        by_kind.setdefault(action.split(":")[1], []).append(action)
    for kind in ("self_win", "win", "pong"):
        if kind in by_kind:
            return by_kind[kind][0]
    if "discard" in by_kind:
        return by_kind["discard"][-1]
    if "pass" in by_kind:
        return by_kind["pass"][0]
    return actions[0]
