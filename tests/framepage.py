"""What a browser shows of a table after applying socket frames, without Django (the multiprocess
clients use it too): a frame's top elements replace the page's elements with the same id, and the
board's regions (seat blocks, centre, ...) are kept apart from the board around them, so that a frame
may swap one of them alone (games/presentation/rendering.py describes the frames)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

OOB = re.compile(r' hx-swap-oob="[^"]*"')


class Page:
    """The table's regions as a browser applying the frames shows them: the board's regions (seat
    blocks, centre, ...) kept apart from the board around them, so a frame may swap one alone."""

    def __init__(self, regions: dict[str, str] | None = None) -> None:
        self.regions = dict(regions or {})

    def after(self, frame: str) -> Page:
        regions = dict(self.regions)
        for element_id, html in top_elements(OOB.sub("", frame)):
            if element_id == "board":
                board, inner = split_board(html)
                for name in [n for n in regions if n.startswith(BOARD_PARTS)]:
                    del regions[name]
                regions["board"] = board
                regions.update(inner)
            elif element_id.startswith(BOARD_PARTS):  # with the regions inside it (the phase in the info bar)
                for name in [n for n in regions if n.startswith(f"{element_id}-")]:
                    del regions[name]
                html, inner = split_board(html)
                regions[element_id] = html
                regions.update(inner)
            elif element_id in INSIDE and INSIDE[element_id] in regions:  # #controls-bar in #controls
                regions[INSIDE[element_id]] = replace_inside(regions[INSIDE[element_id]], element_id, html)
            else:
                regions[element_id] = html
        return Page(regions)

    def html(self) -> str:
        """The page's regions in one string: the board with its regions in place (a seat block's
        parts inside the block), then the others."""
        board = self.regions.get("board", "")
        for name, html in self.regions.items():  # a region before the regions inside it
            board = board.replace(f"<!--region:{name}-->", html)
        rest = [
            html
            for name, html in self.regions.items()
            if name != "board" and not name.startswith(BOARD_PARTS)
        ]
        return board + "".join(rest)


BOARD_PARTS = ("table-info", "waiting-room", "seat-", "table-centre")
# Regions a frame may swap alone inside a region outside the board: their outer region.
INSIDE = {"controls-bar": "controls"}


class _Elements(HTMLParser):
    """The spans (start, end offsets) of elements with an id: at the top level, or inside."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "wbr", "source", "use", "path", "rect", "circle"}

    def __init__(self, text: str, depth: int | None, prefixes: tuple[str, ...] = BOARD_PARTS) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        self.depth = depth  # only elements at this depth (None: any depth, by the ids in `prefixes`)
        self.prefixes = prefixes
        self.stack: list[tuple[str, str | None, int]] = []
        self.spans: list[tuple[str, int, int]] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        self.stack.append((tag, dict(attrs).get("id"), self._offset()))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not any(name == tag for name, _, _ in self.stack):
            return  # closes an element opened before the text began
        while True:
            name, element_id, start = self.stack.pop()
            if name == tag:
                break
        end = self.text.index(">", self._offset()) + 1
        at_depth = self.depth is None or len(self.stack) == self.depth
        wanted = self.depth is not None or (element_id or "").startswith(self.prefixes)
        if element_id and at_depth and wanted:
            self.spans.append((element_id, start, end))


def top_elements(frame: str) -> list[tuple[str, str]]:
    """(id, markup) of each element at the top of a frame, in order."""
    parser = _Elements(frame, depth=0)
    parser.feed(frame)
    parser.close()
    return [
        (element_id, frame[start:end]) for element_id, start, end in sorted(parser.spans, key=lambda s: s[1])
    ]


def replace_inside(outer: str, element_id: str, html: str) -> str:
    """`outer` with its element `element_id` replaced by `html` (unchanged when it has none)."""
    parser = _Elements(outer, depth=None, prefixes=(element_id,))
    parser.feed(outer)
    parser.close()
    for found, start, end in parser.spans:
        if found == element_id:
            return outer[:start] + html + outer[end:]
    return outer


def split_board(board: str) -> tuple[str, dict[str, str]]:
    """The board with a mark in place of each of its regions, and the regions by id, outer ones
    first, each with marks in place of the regions inside it (a seat block's parts)."""
    parser = _Elements(board, depth=None)
    parser.feed(board)
    parser.close()
    return _marked(board, 0, len(board), sorted(parser.spans, key=lambda s: s[1]))


def _marked(text: str, begin: int, stop: int, spans: list) -> tuple[str, dict[str, str]]:
    """text[begin:stop] with a mark for each outermost region in it, and every region inside."""
    inside = [s for s in spans if begin <= s[1] and s[2] <= stop and (s[1], s[2]) != (begin, stop)]
    outer = [s for s in inside if not any(o[1] <= s[1] and s[2] <= o[2] for o in inside if o is not s)]
    out, at, regions = [], begin, {}
    for element_id, start, end in outer:
        out += [text[at:start], f"<!--region:{element_id}-->"]
        html, nested = _marked(text, start, end, spans)
        regions[element_id] = html
        regions.update(nested)
        at = end
    out.append(text[at:stop])
    return "".join(out), regions
