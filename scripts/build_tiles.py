"""Write `static/tiles/tiles.svg`, the project's tile art: one SVG sprite, a `<symbol id="t-XX">` per
tile in the engine's notation (`t-5p`, `t-7z`, `t-3f`), plus `t-back`.

The art is drawn here: pips (circles, bamboo sticks, the 1s bird), the frame of 白 and the tile body
are plain SVG shapes, reused through `<use>` so the file stays small. The Chinese characters are the
outlines of Noto Serif CJK TC Bold (SIL Open Font License 1.1), turned into paths once, so a tile
looks the same on every device whether or not it has a CJK font. Only flat fills are used (no
gradients, masks or filters), which every browser draws through an external `<use href>`.

    .venv/bin/pip install fonttools          # only this script needs it
    apt-get install fonts-noto-cjk           # the outlines' source
    .venv/bin/python scripts/build_tiles.py  # rewrites static/tiles/tiles.svg

Coordinates: every tile symbol has viewBox 0 0 60 80 (a 3:4 tile); glyph paths are in a 400-unit
em square with y pointing down.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from games.engine.tiles import N_CODES, code_to_str, rank_of, suit_of  # noqa: E402

FONT = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
FONT_FAMILY = "Noto Serif CJK TC"
EM = 400
W, H = 60, 80

INK = "#1a1a1a"
RED = "#c0262d"
GREEN = "#16703b"
BLUE = "#1c4f96"
FACE = "#fbf7ea"
EDGE = "#a39a7e"

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS = "春夏秋冬梅蘭竹菊"
GLYPH_IDS = (
    {ch: f"n{i + 1}" for i, ch in enumerate(NUMERALS)}
    | {"萬": "wan", "中": "zhong", "發": "fa"}
    | {ch: f"w{i + 1}" for i, ch in enumerate(WINDS)}
    | {ch: f"f{i + 1}" for i, ch in enumerate(FLOWERS)}
    | {d: f"d{d}" for d in "1234"}
)


# --- glyph outlines -------------------------------------------------------------------------------


class _PathPen:
    """A fontTools pen writing a compact path: y flipped, scaled to EM, integers, relative commands."""

    def __init__(self, scale: float, ascent: float) -> None:
        self.scale, self.ascent = scale, ascent
        self.parts: list[str] = []
        self.cur = (0, 0)
        self.start = (0, 0)
        self.points: list[tuple[int, int]] = []

    def _pt(self, p) -> tuple[int, int]:
        q = (round(p[0] * self.scale), round((self.ascent - p[1]) * self.scale))
        self.points.append(q)
        return q

    def _rel(self, q) -> str:
        return f"{q[0] - self.cur[0]} {q[1] - self.cur[1]}"

    def moveTo(self, p):  # noqa: N802 (fontTools' pen protocol)
        q = self._pt(p)
        self.parts.append("m" + self._rel(q))
        self.cur = self.start = q

    def lineTo(self, p):  # noqa: N802
        q = self._pt(p)
        if q == self.cur:
            return
        if q[1] == self.cur[1]:
            self.parts.append(f"h{q[0] - self.cur[0]}")
        elif q[0] == self.cur[0]:
            self.parts.append(f"v{q[1] - self.cur[1]}")
        else:
            self.parts.append("l" + self._rel(q))
        self.cur = q

    def curveTo(self, *ps):  # noqa: N802
        qs = [self._pt(p) for p in ps]
        self.parts.append(("c" if len(qs) == 3 else "q") + " ".join(self._rel(q) for q in qs))
        self.cur = qs[-1]

    def qCurveTo(self, *ps):  # noqa: N802
        if len(ps) != 2:
            raise ValueError("only CFF (cubic) outlines are supported")
        self.curveTo(*ps)

    def closePath(self):  # noqa: N802
        self.parts.append("z")
        self.cur = self.start

    endPath = closePath  # noqa: N815

    def addComponent(self, name, transform):  # noqa: N802
        raise ValueError(f"composite glyph {name} is not supported")

    def path(self) -> str:
        text = "".join(self.parts)
        return text.replace(" -", "-")


def load_glyphs(font_path: Path) -> dict[str, tuple[str, tuple[int, int, int, int]]]:
    """Each needed character's path (EM units, y down) and its ink box (x0, y0, x1, y1)."""
    from fontTools.ttLib import TTCollection

    collection = TTCollection(str(font_path))
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == FONT_FAMILY)
    cmap = font.getBestCmap()
    glyph_set = font.getGlyphSet()
    upm = font["head"].unitsPerEm
    ascent = font["hhea"].ascent
    descent = -font["hhea"].descent
    scale = EM / upm
    # The em square sits between the ascender and the descender line, centred.
    top = ascent - (ascent + descent - upm) / 2
    out = {}
    for ch in GLYPH_IDS:
        pen = _PathPen(scale, top)
        glyph_set[cmap[ord(ch)]].draw(pen)
        xs = [p[0] for p in pen.points]
        ys = [p[1] for p in pen.points]
        out[ch] = (pen.path(), (min(xs), min(ys), max(xs), max(ys)))
    return out


# --- drawing helpers ------------------------------------------------------------------------------


def num(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class Art:
    def __init__(self, glyphs) -> None:
        self.glyphs = glyphs

    def char(self, ch: str, cx: float, cy: float, size: float, fill: str) -> str:
        """Character `ch` with its em square `size` units wide, its ink centred on (cx, cy)."""
        _, (x0, y0, x1, y1) = self.glyphs[ch]
        s = size / EM
        tx = cx - (x0 + x1) / 2 * s
        ty = cy - (y0 + y1) / 2 * s
        return (
            f'<use href="#g-{GLYPH_IDS[ch]}" fill="{fill}" '
            f'transform="translate({num(tx)} {num(ty)}) scale({num(s)})"/>'
        )


def use(ref: str, x: float, y: float, extra: str = "") -> str:
    return f'<use href="#{ref}" x="{num(x)}" y="{num(y)}"{extra}/>'


PIP_COLOURS = {"b": "pb", "r": "pr", "g": "pg"}


def circles(spec: list[tuple[float, float, str]], r: float) -> str:
    """Circle pips: (x, y, colour letter) each, all of radius r (the pip symbols have radius 10)."""
    s = r / 10
    out = []
    for x, y, c in spec:
        out.append(
            f'<use href="#{PIP_COLOURS[c]}" transform="translate({num(x)} {num(y)}) scale({num(s)})"/>'
        )
    return "".join(out)


STICK_COLOURS = {"g": "sg", "b": "sb", "r": "sr"}


def sticks(spec: list[tuple[float, float, str]], h: float, angle: float = 0, w: float = 1) -> str:
    """Bamboo sticks centred on (x, y), h units tall (the stick symbols are 10 wide, 30 tall)."""
    out = []
    for item in spec:
        x, y, c = item[:3]
        a = item[3] if len(item) > 3 else angle
        rot = f" rotate({num(a)})" if a else ""
        out.append(
            f'<use href="#{STICK_COLOURS[c]}" transform="translate({num(x)} {num(y)}){rot} '
            f'scale({num(w * h / 30)} {num(h / 30)})"/>'
        )
    return "".join(out)


# --- the shared pieces ----------------------------------------------------------------------------


def defs(glyphs) -> str:
    parts = [f'<path id="g-{GLYPH_IDS[ch]}" d="{path}"/>' for ch, (path, _) in glyphs.items()]
    # The tile's face: ivory with a thin edge. The block's thickness below it is CSS (tiles.css), so
    # that it stays at the bottom when a tile is turned sideways.
    parts.append(
        f'<rect id="face" x="0.75" y="0.75" width="58.5" height="78.5" rx="7" fill="{FACE}" '
        f'stroke="{EDGE}" stroke-width="1.5"/>'
    )
    # Circle pips, radius 10: a coloured ring, a white ring, a coloured heart.
    for pid, colour in (("pb", BLUE), ("pr", RED), ("pg", GREEN)):
        parts.append(
            f'<g id="{pid}"><circle r="10" fill="{colour}"/><circle r="6.4" fill="{FACE}"/>'
            f'<circle r="3.6" fill="{colour}"/></g>'
        )
    # Bamboo sticks, 10 × 30 centred on the origin: a stalk with a knot in the middle and at the ends.
    for sid, colour in (("sg", GREEN), ("sb", BLUE), ("sr", RED)):
        parts.append(
            f'<g id="{sid}"><rect x="-4.5" y="-15" width="9" height="30" rx="4" fill="{colour}"/>'
            f'<rect x="-6" y="-1.8" width="12" height="3.6" rx="1.8" fill="{colour}"/>'
            f'<rect x="-0.9" y="-11" width="1.8" height="8" fill="{FACE}"/>'
            f'<rect x="-0.9" y="3" width="1.8" height="8" fill="{FACE}"/></g>'
        )
    return "<defs>" + "".join(parts) + "</defs>"


# --- the faces ------------------------------------------------------------------------------------


def face_m(art: Art, rank: int) -> str:
    return art.char(NUMERALS[rank - 1], 30, 21, 44, INK) + art.char("萬", 30, 59, 34, RED)


def face_p(rank: int) -> str:
    if rank == 1:
        # The big ornamented circle of 一筒.
        return (
            f'<circle cx="30" cy="40" r="24" fill="{GREEN}"/><circle cx="30" cy="40" r="20" fill="{FACE}"/>'
            f'<circle cx="30" cy="40" r="17" fill="{BLUE}"/><circle cx="30" cy="40" r="12" fill="{FACE}"/>'
            f'<circle cx="30" cy="40" r="9" fill="{RED}"/><circle cx="30" cy="40" r="4" fill="{FACE}"/>'
        )
    layouts = {
        2: ([(30, 21, "g"), (30, 58, "b")], 13),
        3: ([(15, 16, "b"), (30, 39, "r"), (45, 62, "g")], 10.5),
        4: ([(17, 22, "b"), (43, 22, "g"), (17, 56, "g"), (43, 56, "b")], 11.5),
        5: ([(15, 16, "b"), (45, 16, "g"), (30, 39, "r"), (15, 62, "g"), (45, 62, "b")], 10),
        6: ([(18, 14, "g"), (42, 14, "g")] + [(x, y, "r") for y in (42, 64) for x in (18, 42)], 9.5),
        7: (
            [(14, 12, "g"), (30, 19, "g"), (46, 26, "g")] + [(x, y, "r") for y in (47, 66) for x in (18, 42)],
            8.5,
        ),
        8: ([(x, y, "b") for y in (13, 31, 49, 67) for x in (19, 41)], 8.6),
        9: ([(x, y, c) for y, c in ((15, "b"), (39, "r"), (63, "g")) for x in (14, 30, 46)], 8.2),
    }
    spec, r = layouts[rank]
    return circles(spec, r)


def bird() -> str:
    """一条: a stylised sparrow on a bamboo twig, facing left."""
    return (
        # tail feathers
        f'<path d="M37 46 L54 67 L47 69 Z" fill="{BLUE}"/>'
        f'<path d="M35 48 L46 73 L39 73 Z" fill="{GREEN}"/>'
        # body and wing
        f'<path d="M12 34 C14 24 30 22 37 30 C44 38 44 52 33 55 C22 58 10 46 12 34 Z" fill="{GREEN}"/>'
        f'<path d="M22 38 C30 34 38 38 40 46 C34 50 26 48 22 38 Z" fill="{BLUE}"/>'
        # head, crest, beak, eye
        f'<circle cx="18" cy="24" r="9" fill="{GREEN}"/>'
        f'<path d="M13 17 C14 9 21 7 24 10 C21 11 19 14 20 17 Z" fill="{RED}"/>'
        f'<path d="M10 21 L3 26 L11 27 Z" fill="{RED}"/>'
        f'<circle cx="16" cy="22" r="2.6" fill="{FACE}"/><circle cx="15.6" cy="22" r="1.3" fill="{INK}"/>'
        # feet on a twig
        f'<path d="M24 54 L22 62 M30 55 L30 62" stroke="{RED}" stroke-width="2.2" stroke-linecap="round"/>'
        f'<rect x="10" y="62" width="30" height="3.4" rx="1.7" fill="{GREEN}"/>'
    )


def face_s(rank: int) -> str:
    if rank == 1:
        return bird()
    layouts = {
        2: ([(30, 21, "g"), (30, 59, "b")], 32),
        3: ([(30, 21, "g"), (18, 59, "b"), (42, 59, "b")], 32),
        4: ([(18, 21, "g"), (42, 21, "b"), (18, 59, "b"), (42, 59, "g")], 32),
        5: ([(13, 21, "g"), (47, 21, "b"), (30, 40, "r"), (13, 59, "b"), (47, 59, "g")], 32),
        6: ([(x, 21, "g") for x in (14, 30, 46)] + [(x, 59, "b") for x in (14, 30, 46)], 32),
        7: ([(30, 14, "r")] + [(x, y, c) for y, c in ((40, "g"), (65, "b")) for x in (14, 30, 46)], 22, 1.25),
        8: (
            # a W over an M, as in Unicode's 🀞 (Noto Sans Symbols 2)
            [(9, 21, "g", 0), (23, 21, "g", -24), (37, 21, "g", 24), (51, 21, "g", 0)]
            + [(9, 59, "b", 0), (23, 59, "b", 24), (37, 59, "b", -24), (51, 59, "b", 0)],
            30,
        ),
        9: ([(x, y, "r" if x == 30 else "g") for y in (15, 40, 65) for x in (14, 30, 46)], 22, 1.25),
    }
    spec, h, *widen = layouts[rank]
    return sticks(spec, h, w=widen[0] if widen else 1)


def face_z(art: Art, rank: int) -> str:
    if rank <= 4:
        return art.char(WINDS[rank - 1], 30, 39, 50, INK)
    if rank == 5:  # 白: the blue frame of the blank tile
        return (
            f'<rect x="11" y="13" width="38" height="52" rx="3" fill="none" stroke="{BLUE}" stroke-width="4"/>'
            f'<rect x="17.5" y="19.5" width="25" height="39" rx="1.5" fill="none" stroke="{BLUE}" '
            f'stroke-width="1.6"/>'
        )
    if rank == 6:
        return art.char("發", 30, 39, 52, GREEN)
    return art.char("中", 30, 39, 54, RED)


def face_f(art: Art, rank: int) -> str:
    """Flowers: the character large, the number (1–4 within its group) in the corner.
    The seasons 春夏秋冬 are blue with a red number, the plants 梅蘭竹菊 green with a blue number."""
    season = rank <= 4
    colour = BLUE if season else GREEN
    number_colour = RED if season else BLUE
    digit = str((rank - 1) % 4 + 1)
    return (
        f'<rect x="5" y="5" width="50" height="70" rx="4" fill="none" stroke="{colour}" stroke-width="1.4"/>'
        + art.char(FLOWERS[rank - 1], 30, 44, 44, colour)
        + art.char(digit, 13, 15, 26, number_colour)
    )


def face(art: Art, code: int) -> str:
    suit, rank = suit_of(code), rank_of(code)
    if suit == 0:
        return face_m(art, rank)
    if suit == 1:
        return face_p(rank)
    if suit == 2:
        return face_s(rank)
    if suit == 3:
        return face_z(art, rank)
    return face_f(art, rank)


BACK = (
    # Blue, so that face-down tiles stand out on the green felt; a lozenge marks the back's middle.
    '<rect x="0.75" y="0.75" width="58.5" height="78.5" rx="7" fill="#2b5c9e" stroke="#163764" '
    'stroke-width="1.5"/>'
    '<rect x="6" y="6" width="48" height="68" rx="4" fill="none" stroke="#8fb0dc" stroke-width="1.4"/>'
    '<path d="M30 28 L41 40 L30 52 L19 40 Z" fill="none" stroke="#8fb0dc" stroke-width="1.8"/>'
)


def build(font_path: Path = FONT) -> str:
    art = Art(load_glyphs(font_path))
    symbols = []
    for code in range(N_CODES):
        symbols.append(
            f'<symbol id="t-{code_to_str(code)}" viewBox="0 0 {W} {H}"><use href="#face"/>'
            f"{face(art, code)}</symbol>"
        )
    symbols.append(f'<symbol id="t-back" viewBox="0 0 {W} {H}">{BACK}</symbol>')
    header = (
        "<!-- Shanghai Mahjong tile art, drawn for this project (scripts/build_tiles.py; the project's "
        "licence). Character outlines: Noto Serif CJK TC Bold, SIL Open Font License 1.1. -->"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg">{header}\n{defs(art.glyphs)}\n'
        + "\n".join(symbols)
        + "\n</svg>\n"
    )


def back_image() -> str:
    """The back alone, as an image of its own (static/tiles/back.svg): CSS draws the face-down tiles
    of the other seats' hands with it (static/css/tiles.css, `i.tile-back`), a few bytes a tile."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}">{BACK}</svg>\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", type=Path, default=FONT)
    parser.add_argument("--out", type=Path, default=REPO / "static" / "tiles" / "tiles.svg")
    args = parser.parse_args()
    text = build(args.font)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(text.encode())} bytes")
    (args.out.parent / "back.svg").write_text(back_image(), encoding="utf-8")


if __name__ == "__main__":
    main()
