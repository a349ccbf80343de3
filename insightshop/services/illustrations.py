"""Flat-style SVG illustrations of clothing items, tinted with the product's colour."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple
from xml.sax.saxutils import escape

from .vocabulary import CLOTHING_TYPES  # noqa: E402,F401  (the types drawn here)

COLOR_HEX: dict[str, str] = {
    "white": "#f7f7f5",
    "black": "#2a2b2f",
    "grey": "#9b9da2",
    "navy": "#1f2a44",
    "blue": "#3f6fb0",
    "red": "#b8383b",
    "green": "#3f7d58",
    "pink": "#e9a3b6",
    "yellow": "#e8c34f",
    "beige": "#d8c6a5",
    "brown": "#7b5436",
    "purple": "#6b4c8c",
    "orange": "#dd7a3a",
}

_COLOR_ALIASES = {"gray": "grey", "off-white": "white", "cream": "beige", "tan": "beige"}
_TYPE_ALIASES = {
    "tshirt": "t-shirt",
    "t shirt": "t-shirt",
    "tee": "t-shirt",
    "trousers": "pants",
    "pyjamas": "pajamas",
    "sweatshirt": "hoodie",
    "sneaker": "sneakers",
    "sock": "socks",
}
_HEX_RE = re.compile(r"#[0-9a-fA-F]{6}")
_BACKGROUND = "#f3f1ec"
# Relative-luminance thresholds: light fills get darker details, near-black fills lighter
# shading, near-white fills a deeper backdrop and a grey sneaker sole.
_LIGHT = 0.35
_NEAR_BLACK = 0.04
_NEAR_WHITE = 0.7

Point = tuple[float, float]


class _Palette(NamedTuple):
    fill: str
    outline: str
    shade: str
    detail: str
    light: bool


# ---------------------------------------------------------------- colours


def _rgb(hex_color: str) -> tuple[int, int, int]:
    """Split "#rrggbb" into its channels."""
    return int(hex_color[1:3], 16), int(hex_color[3:5], 16), int(hex_color[5:7], 16)


def _mix(color: str, other: str, amount: float) -> str:
    """Blend `amount` of `other` into `color`."""
    mixed = (round(a + (b - a) * amount) for a, b in zip(_rgb(color), _rgb(other), strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _luminance(hex_color: str) -> float:
    """Relative luminance (WCAG) of a colour."""
    srgb = [c / 255 for c in _rgb(hex_color)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _palette(fill: str) -> _Palette:
    """Derive outline, shading and detail shades from a garment fill."""
    lum = _luminance(fill)
    light = lum > _LIGHT
    # Near-black fills cannot get visibly darker, so they are shaded lighter instead.
    shade = _mix(fill, "#000000", 0.22) if lum > _NEAR_BLACK else _mix(fill, "#ffffff", 0.14)
    detail = _mix(fill, "#000000", 0.42) if light else _mix(fill, "#ffffff", 0.55)
    return _Palette(fill, _mix(fill, "#000000", 0.38), shade, detail, light)


def _resolve_color(color: str) -> str:
    """Map a colour name or "#rrggbb" string to a hex fill, defaulting to grey."""
    key = color.strip().lower()
    key = _COLOR_ALIASES.get(key, key)
    if key in COLOR_HEX:
        return COLOR_HEX[key]
    if _HEX_RE.fullmatch(key):
        return key
    return COLOR_HEX["grey"]


# ---------------------------------------------------------------- drawing primitives


def _el(tag: str, **attrs: object) -> str:
    """Build a self-closing element; trailing/inner underscores become hyphens."""
    body = " ".join(f'{k.rstrip("_").replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f"<{tag} {body}/>"


def _body(d: str, p: _Palette) -> str:
    """A garment panel: soft drop shadow, fill and darker outline."""
    shadow = _el("path", d=d, fill="#000000", opacity="0.07", transform="translate(3 6)")
    return shadow + _el("path", d=d, fill=p.fill, stroke=p.outline, stroke_width=3, stroke_linejoin="round")


def _panel(d: str, p: _Palette) -> str:
    """An outlined piece lying on top of the garment (collar, pocket, cuff) without shadow."""
    return _el("path", d=d, fill=p.fill, stroke=p.outline, stroke_width=2.5, stroke_linejoin="round")


def _shade(d: str, p: _Palette, opacity: float = 0.5) -> str:
    """A fold or shadow overlay."""
    return _el("path", d=d, fill=p.shade, opacity=opacity)


def _seam(d: str, p: _Palette, width: float = 2.5) -> str:
    """A solid seam line in the outline colour."""
    return _el(
        "path", d=d, fill="none", stroke=p.outline, stroke_width=width, stroke_linecap="round", stroke_linejoin="round"
    )


def _line(d: str, p: _Palette, width: float = 2.5) -> str:
    """A solid detail line in the contrasting shade."""
    return _el(
        "path", d=d, fill="none", stroke=p.detail, stroke_width=width, stroke_linecap="round", stroke_linejoin="round"
    )


def _stitch(d: str, p: _Palette) -> str:
    """Dashed top-stitching in the contrasting shade."""
    return _el(
        "path", d=d, fill="none", stroke=p.detail, stroke_width=2, stroke_dasharray="6 5", stroke_linecap="round"
    )


def _button(x: float, y: float, p: _Palette, r: float = 5) -> str:
    """A round button."""
    return _el("circle", cx=x, cy=y, r=r, fill=p.detail, stroke=p.outline, stroke_width=1.5)


def _fmt(pt: Point) -> str:
    """Format a point for path data."""
    return f"{pt[0]:g},{pt[1]:g}"


def _sym(left: list[Point], neck_dip: float) -> str:
    """Symmetric outline from the left half (neck → hem), closed by a curved neckline."""
    right = [(400 - x, y) for x, y in reversed(left)]
    pts = " L".join(_fmt(pt) for pt in left + right)
    return f"M{pts} Q200,{neck_dip:g} {_fmt(left[0])}Z"


def _mirror(d: str) -> str:
    """Mirror absolute path data horizontally around x=200."""

    def flip(m: re.Match[str]) -> str:
        return f"{400 - float(m.group(1)):g},{m.group(2)}"

    return re.sub(r"(-?[\d.]+),(-?[\d.]+)", flip, d)


def _pair(d: str, draw: Callable[[str, _Palette], str], p: _Palette) -> str:
    """Draw a left-side shape and its mirror image."""
    return draw(d, p) + draw(_mirror(d), p)


def _ribs(box: tuple[float, float, float, float], step: float, p: _Palette) -> str:
    """Vertical rib lines across a band given as (x0, x1, y0, y1)."""
    x0, x1, y0, y1 = box
    n = int((x1 - x0) // step)
    d = "".join(f"M{x0 + step * (i + 0.5):g},{y0:g}V{y1:g}" for i in range(n))
    return _line(d, p, 1.6)


# ---------------------------------------------------------------- shared silhouettes

_LONG_SLEEVE: list[Point] = [(168, 76), (118, 88), (88, 110), (50, 286), (94, 298), (118, 172), (112, 338)]
_SHORT_SLEEVE: list[Point] = [(168, 76), (118, 88), (56, 150), (88, 190), (116, 162), (112, 336)]


def _sleeve_folds(p: _Palette, long: bool) -> str:
    """Shadow under each sleeve where it meets the body."""
    d = "M118,172 L94,298 L80,294 Z" if long else "M116,162 L88,190 L78,177 Z"
    side = "M118,172 L112,336 L128,336 Q124,250 132,176 Z"
    return _pair(d, _shade, p) + _pair(side, _shade, p)


# ---------------------------------------------------------------- tops


def _tshirt(p: _Palette) -> str:
    """Crew-neck tee with short sleeves."""
    return "".join(
        [
            _body(_sym(_SHORT_SLEEVE, 112), p),
            _sleeve_folds(p, False),
            _shade("M170,80 Q200,104 230,80 Q200,94 170,80 Z", p, 0.8),
            _line("M168,77 Q200,114 232,77", p, 5),
            _pair("M64,140 L95,180", _stitch, p),
            _stitch("M114,324 L286,324", p),
        ]
    )


def _shirt(p: _Palette) -> str:
    """Button-down shirt: pointed collar, placket, chest pocket, cuffs."""
    buttons = "".join(_button(200, y, p, 4.5) for y in (138, 180, 222, 264, 306))
    return "".join(
        [
            _body(_sym(_LONG_SLEEVE, 100), p),
            _sleeve_folds(p, True),
            _seam("M190,100 L190,338 M210,100 L210,338", p, 2),
            _pair("M55,268 L96,280", _seam, p),
            _panel("M228,150 h38 v38 l-19,8 l-19,-8 Z", p),
            _shade("M168,78 Q200,64 232,78 L200,100 Z", p, 0.9),
            _pair("M168,72 L200,100 L182,128 L152,86 Z", _panel, p),
            buttons,
        ]
    )


def _polo(p: _Palette) -> str:
    """Polo: short sleeves with ribbed cuffs, soft collar and a two-button placket."""
    return "".join(
        [
            _body(_sym(_SHORT_SLEEVE, 104), p),
            _sleeve_folds(p, False),
            _pair("M66,140 L98,180", _seam, p),
            _panel("M190,98 h20 v70 h-20 Z", p),
            _button(200, 124, p, 4.5),
            _button(200, 150, p, 4.5),
            _shade("M168,78 Q200,64 232,78 L200,100 Z", p, 0.9),
            _pair("M168,72 Q186,92 200,100 Q190,118 176,124 Q160,110 150,88 Z", _panel, p),
            _seam("M114,322 L286,322", p, 2),
        ]
    )


_BLOUSE = (
    "M172,80 L128,92 C96,96 70,130 80,170 L114,162 L118,178 C124,220 128,240 126,262 "
    "C120,290 100,318 94,338 Q200,354 306,338 C300,318 280,290 274,262 "
    "C272,240 276,220 282,178 L286,162 L320,170 C330,130 304,96 272,92 L228,80 "
    "Q200,124 172,80 Z"
)


def _blouse(p: _Palette) -> str:
    """Blouse: puff sleeves, fitted waist, peplum hem and a bow at the neck."""
    return "".join(
        [
            _body(_BLOUSE, p),
            _pair("M82,160 L112,154", _line, p),
            _pair("M96,112 Q104,132 100,150 M112,104 Q118,126 112,150", _shade, p),
            _pair("M126,262 Q130,300 120,342 L100,338 C110,310 122,290 126,262 Z", _shade, p),
            _stitch("M126,262 Q200,276 274,262", p),
            _line("M172,80 Q200,126 228,80", p, 4),
            _el(
                "path",
                d="M200,120 L180,108 L182,134 Z M200,120 L220,108 L218,134 Z",
                fill=p.detail,
                stroke=p.outline,
                stroke_width=1.5,
                stroke_linejoin="round",
            ),
            _button(200, 120, p, 5),
        ]
    )


def _cable(p: _Palette) -> str:
    """Two twisted cable-knit columns."""
    out = []
    for x in (170, 230):
        d = "".join(
            f"M{x - 10},{y} Q{x + 14},{y + 16} {x - 10},{y + 32}M{x + 10},{y} Q{x - 14},{y + 16} {x + 10},{y + 32}"
            for y in range(130, 300, 32)
        )
        out.append(_line(d, p, 2.2))
    return "".join(out)


def _sweater(p: _Palette) -> str:
    """Knit sweater: ribbed crew neck, cuffs and hem, cable pattern."""
    return "".join(
        [
            _body(_sym(_LONG_SLEEVE, 104), p),
            _sleeve_folds(p, True),
            _pair("M53,270 L95,282 L94,298 L50,286 Z", _panel, p),
            _panel("M112,312 L288,312 L288,338 L112,338 Z", p),
            _ribs((112, 288, 316, 334), 9, p),
            _shade("M168,78 Q200,64 232,78 Q200,104 168,78 Z", p, 0.9),
            _el(
                "path",
                d="M168,76 Q200,114 232,76",
                fill="none",
                stroke=p.outline,
                stroke_width=14,
                stroke_linecap="round",
            ),
            _el(
                "path", d="M168,76 Q200,114 232,76", fill="none", stroke=p.fill, stroke_width=9, stroke_linecap="round"
            ),
            _cable(p),
        ]
    )


def _hoodie(p: _Palette) -> str:
    """Hoodie: hood, drawstrings, kangaroo pocket, ribbed cuffs and hem."""
    return "".join(
        [
            _body(_sym(_LONG_SLEEVE, 100), p),
            _sleeve_folds(p, True),
            _pair("M53,270 L95,282 L94,298 L50,286 Z", _panel, p),
            _panel("M112,314 L288,314 L288,338 L112,338 Z", p),
            _panel("M146,236 L254,236 L280,306 L120,306 Z", p),
            _pair("M146,236 L124,296", _shade, p),
            _body("M138,108 C126,32 274,32 262,108 L214,134 Q200,140 186,134 Z", p),
            _shade("M160,104 C156,56 244,56 240,104 L210,126 Q200,130 190,126 Z", p, 0.95),
            _line("M190,132 L186,196 M210,132 L214,196", p, 3),
            _button(186, 198, p, 3.5),
            _button(214, 198, p, 3.5),
        ]
    )


def _jacket(p: _Palette) -> str:
    """Zip-up jacket: stand collar, zip, chest pockets, waistband."""
    return "".join(
        [
            _body(_sym(_LONG_SLEEVE, 92), p),
            _sleeve_folds(p, True),
            _pair("M53,270 L95,282 L94,298 L50,286 Z", _panel, p),
            _panel("M112,310 L288,310 L288,338 L112,338 Z", p),
            _panel("M160,62 Q200,72 240,62 L236,96 Q200,106 164,96 Z", p),
            _el("path", d="M200,100 V338", stroke=p.detail, stroke_width=6, stroke_dasharray="2 3"),
            _seam("M200,100 V338", p, 1.5),
            _el("rect", x=195, y=104, width=10, height=20, rx=3, fill=p.detail, stroke=p.outline, stroke_width=1.5),
            _pair("M132,150 L176,150 L176,160 L132,160 Z", _panel, p),
            _pair("M150,220 L174,284", _seam, p),
            _pair("M150,220 L174,284 L166,286 Z", _shade, p),
        ]
    )


_COAT: list[Point] = [(168, 76), (118, 88), (88, 110), (48, 300), (92, 312), (118, 172), (104, 366)]


def _coat(p: _Palette) -> str:
    """Long double-breasted coat with notched lapels and flap pockets."""
    buttons = "".join(_button(x, y, p, 6) for x in (178, 222) for y in (198, 240, 282))
    return "".join(
        [
            _body(_sym(_COAT, 88), p),
            _sleeve_folds(p, True),
            _pair("M52,282 L93,294", _seam, p),
            _shade("M168,78 L200,172 L232,78 Q200,92 168,78 Z", p, 0.95),
            _pair("M168,76 L204,172 L150,130 L160,112 L142,100 Z", _panel, p),
            _seam("M214,172 L214,366", p, 2),
            _pair("M124,292 L168,292 L168,304 L124,304 Z", _panel, p),
            buttons,
        ]
    )


# ---------------------------------------------------------------- bottoms

_TROUSERS = "M124,96 L276,96 L292,368 L210,368 L200,190 L190,368 L108,368 Z"
_CROTCH_SHADE = "M200,190 L190,368 L200,368 L206,280 Z"
_LEG_SHADE = "M124,100 L108,366 L122,366 Q122,250 134,110 Z"
_LOOP = "M134,62 L144,62 L144,100 L134,100 Z"


def _jeans(p: _Palette) -> str:
    """Five-pocket jeans with top-stitching, fly and rivets."""
    rivet = "#b8834a"
    return "".join(
        [
            _body(_TROUSERS, p),
            _shade(_CROTCH_SHADE, p, 0.45),
            _pair(_LEG_SHADE, _shade, p),
            _panel("M122,66 L278,66 L276,96 L124,96 Z", p),
            _stitch("M126,73 L274,73 M126,89 L274,89", p),
            _pair(_LOOP, _panel, p),
            _panel("M195,62 L205,62 L205,100 L195,100 Z", p),
            _button(214, 81, p, 5),
            _pair("M152,98 Q152,136 123,144", _seam, p),
            _pair("M160,98 Q160,150 122,154", _stitch, p),
            _stitch("M214,98 L214,162 Q212,180 199,186", p),
            _pair("M110,352 L188,352", _stitch, p),
            _el("circle", cx=152, cy=102, r=3, fill=rivet),
            _el("circle", cx=248, cy=102, r=3, fill=rivet),
        ]
    )


def _pants(p: _Palette) -> str:
    """Tailored trousers: slant pockets, belt loops and pressed creases."""
    return "".join(
        [
            _body(_TROUSERS, p),
            _shade(_CROTCH_SHADE, p, 0.45),
            _pair(_LEG_SHADE, _shade, p),
            _panel("M122,70 L278,70 L276,96 L124,96 Z", p),
            _pair(_LOOP, _panel, p),
            _pair("M176,66 L185,66 L185,100 L176,100 Z", _panel, p),
            _button(200, 83, p, 5),
            _pair("M150,98 L126,152", _seam, p),
            _seam("M207,98 L207,152 Q207,170 200,178", p, 2),
            _pair("M157,104 L150,364", _seam, p),
            _pair("M110,350 L189,350", _seam, p),
        ]
    )


def _shorts(p: _Palette) -> str:
    """Drawstring shorts with an elastic waist and turned-up hems."""
    gathers = "".join(f"M{x},114V136" for x in range(116, 290, 12))
    return "".join(
        [
            _body("M104,138 L296,138 L320,290 L212,298 L200,214 L188,298 L80,290 Z", p),
            _shade("M200,214 L188,298 L200,298 L206,250 Z", p, 0.45),
            _pair("M82,272 L188,280 L188,298 L80,290 Z", _panel, p),
            _panel("M102,108 L298,108 L296,140 L104,140 Z", p),
            _el("path", d=gathers, stroke=p.shade, stroke_width=1.6),
            _pair("M136,140 L104,196", _seam, p),
            _line("M196,126 Q180,160 186,176 M204,126 Q220,160 214,176", p, 3),
            _pair("M196,126 Q174,116 176,132 Q186,140 196,126 Z", _line, p),
        ]
    )


def _skirt(p: _Palette) -> str:
    """Pleated A-line skirt with a buttoned waistband."""
    pleats = "M168,116 L150,333 M200,116 V336 M232,116 L250,333"
    return "".join(
        [
            _body("M138,110 L262,110 L324,322 Q200,350 76,322 Z", p),
            _shade("M168,116 L150,333 Q176,336 200,336 Z M232,116 L250,333 Q276,330 302,326 Z", p, 0.4),
            _seam(pleats, p, 2),
            _panel("M136,86 L264,86 L262,114 L138,114 Z", p),
            _button(242, 100, p, 5),
            _stitch("M92,316 Q200,340 308,316", p),
        ]
    )


def _dress(p: _Palette) -> str:
    """Sleeveless fit-and-flare dress with a defined waist."""
    return "".join(
        [
            _body(
                "M154,56 L176,56 Q200,104 224,56 L246,56 Q240,122 264,140 L246,208 "
                "L334,346 Q200,374 66,346 L154,208 L136,140 Q160,122 154,56 Z",
                p,
            ),
            _shade("M176,58 Q200,104 224,58 Q200,88 176,58 Z", p, 0.9),
            _shade(
                "M154,208 L66,346 Q92,352 120,356 Z M200,212 L170,362 L230,362 Z M246,208 L334,346 Q308,352 280,356 Z",
                p,
                0.35,
            ),
            _panel("M152,198 Q200,210 248,198 L246,216 Q200,228 154,216 Z", p),
            _button(200, 214, p, 5),
            _stitch("M82,338 Q200,360 318,338", p),
            _line("M176,57 Q200,104 224,57", p, 2.5),
        ]
    )


# ---------------------------------------------------------------- sets, socks, shoes

_PJ_TOP: list[Point] = [(168, 76), (118, 88), (88, 110), (50, 286), (94, 298), (118, 172), (112, 330)]


def _dots(points: tuple[Point, ...], p: _Palette) -> str:
    """A sparse polka-dot print at hand-picked spots inside a panel."""
    return "".join(_el("circle", cx=x, cy=y, r=5, fill=p.detail, opacity=0.55) for x, y in points)


def _pajama_top(p: _Palette) -> str:
    """Piped button-up pyjama shirt with a notched collar."""
    buttons = "".join(_button(200, y, p, 6) for y in (190, 240, 290))
    return "".join(
        [
            _body(_sym(_PJ_TOP, 96), p),
            _sleeve_folds(p, True),
            _pair("M52,272 L95,284", _line, p),
            _shade("M168,78 L200,164 L232,78 Q200,92 168,78 Z", p, 0.95),
            _pair("M168,74 L202,166 L150,128 L158,110 L140,98 Z", _panel, p),
            _pair("M168,74 L202,166 L150,128 L158,110 L140,98 Z", _line, p),
            _dots(
                (
                    (150, 196),
                    (168, 250),
                    (140, 300),
                    (180, 304),
                    (244, 270),
                    (262, 306),
                    (78, 250),
                    (322, 250),
                    (96, 170),
                    (304, 170),
                ),
                p,
            ),
            _panel("M226,200 h44 v44 h-44 Z", p),
            _line("M226,200 h44", p),
            buttons,
        ]
    )


def _pajama_bottom(p: _Palette) -> str:
    """Straight pyjama trousers with a drawstring waist."""
    return "".join(
        [
            _body(_TROUSERS, p),
            _shade(_CROTCH_SHADE, p, 0.45),
            _pair(_LEG_SHADE, _shade, p),
            _dots(
                (
                    (146, 136),
                    (176, 182),
                    (136, 226),
                    (166, 270),
                    (128, 314),
                    (170, 330),
                    (254, 136),
                    (224, 182),
                    (264, 226),
                    (234, 270),
                    (272, 314),
                    (230, 330),
                ),
                p,
            ),
            _panel("M122,68 L278,68 L276,98 L124,98 Z", p),
            _line("M196,92 Q186,120 190,134 M204,92 Q214,120 210,134", p, 3),
            _pair("M110,350 L189,350", _line, p),
        ]
    )


def _pajamas(p: _Palette) -> str:
    """Pyjama set: trousers laid behind the matching top."""
    return (
        f'<g transform="translate(124 62) scale(0.76)">{_pajama_bottom(p)}</g>'
        f'<g transform="translate(14 70) scale(0.66)">{_pajama_top(p)}</g>'
    )


_SOCK = "M130,70 L200,70 L202,214 L270,246 C306,260 306,318 262,314 L176,300 C128,296 122,252 132,232 Z"


def _sock(p: _Palette) -> str:
    """One sock with ribbed cuff, heel and toe."""
    return "".join(
        [
            _body(_SOCK, p),
            _shade("M132,232 C122,252 128,296 176,300 L182,276 C160,270 150,252 160,236 Z", p, 0.9),
            _shade("M262,314 C306,318 306,260 270,246 L262,282 Z", p, 0.9),
            _panel("M130,70 L200,70 L200,104 L130,104 Z", p),
            _ribs((130, 200, 74, 100), 8, p),
        ]
    )


def _socks(p: _Palette) -> str:
    """A pair of socks, one overlapping the other."""
    return f'<g transform="translate(-40 -16)">{_sock(p)}</g><g transform="translate(46 44)">{_sock(p)}</g>'


def _sneakers(p: _Palette) -> str:
    """Side-view lace-up sneaker on a contrasting sole."""
    sole = _palette(_mix(p.fill, "#000000", 0.1) if _luminance(p.fill) > _NEAR_WHITE else "#f6f4ef")
    eyelets = ((198, 180), (218, 192), (238, 204), (258, 216))
    laces = "".join(f"M{x},{y} L{x - 12},{y - 16}" for x, y in eyelets)
    return "".join(
        [
            '<g transform="translate(0 -22)">',
            _body(
                "M64,278 L62,214 Q62,196 82,198 Q120,212 152,198 L160,172 Q168,162 182,166 "
                "L194,176 L270,218 Q332,226 350,258 Q356,280 338,280 Z",
                p,
            ),
            _shade("M64,278 L62,214 Q62,196 82,198 L96,203 Q86,240 104,278 Z", p, 0.6),
            _shade("M300,280 Q296,244 330,234 Q348,250 352,268 Q354,280 338,280 Z", p, 0.6),
            _shade("M152,198 L160,172 Q168,162 182,166 L194,176 Z", p, 0.9),
            _el("path", d="M112,256 Q186,250 238,212 L248,218 Q192,262 114,266 Z", fill=p.detail, opacity=0.9),
            _seam("M152,198 L194,176 L270,218", p, 2),
            _line(laces, p, 4),
            "".join(_button(x, y, p, 3.2) for x, y in eyelets),
            _body("M54,272 L346,272 Q364,274 362,290 Q360,308 342,308 L72,308 Q52,308 52,290 Z", sole),
            _shade("M53,296 L361,296 Q358,308 342,308 L72,308 Q54,308 53,296 Z", sole, 0.9),
            _stitch("M70,284 L346,284", sole),
            "</g>",
        ]
    )


def _generic(p: _Palette) -> str:
    """Folded garment with a hang tag, for types without a dedicated drawing."""
    return "".join(
        [
            _body(
                "M100,120 Q100,108 112,108 L288,108 Q300,108 300,120 L300,318 Q300,330 288,330 "
                "L112,330 Q100,330 100,318 Z",
                p,
            ),
            _shade("M100,220 L300,220 L300,236 L100,236 Z", p, 0.4),
            _seam("M100,220 L300,220", p, 2),
            _shade("M168,108 Q200,128 232,108 Z", p, 0.9),
            _pair("M166,104 L200,128 L186,150 L152,116 Z", _panel, p),
            _seam("M200,128 V220", p, 2),
            _line("M296,114 L324,140", p, 2),
            _el(
                "path",
                d="M312,130 L346,150 L334,178 L300,158 Z",
                fill="#fbfaf7",
                stroke=p.outline,
                stroke_width=2,
                stroke_linejoin="round",
            ),
            _el("circle", cx=318, cy=140, r=3.5, fill=p.outline),
        ]
    )


_DRAWERS: dict[str, Callable[[_Palette], str]] = {
    "shirt": _shirt,
    "t-shirt": _tshirt,
    "polo": _polo,
    "blouse": _blouse,
    "sweater": _sweater,
    "hoodie": _hoodie,
    "jacket": _jacket,
    "coat": _coat,
    "jeans": _jeans,
    "pants": _pants,
    "shorts": _shorts,
    "skirt": _skirt,
    "dress": _dress,
    "pajamas": _pajamas,
    "socks": _socks,
    "sneakers": _sneakers,
}


# A close-up is the same drawing seen through a smaller window (x, y, side in the 400×400 drawing) framing the
# garment's details: collar and pocket, cables, waistband and rivets. Types whose close-up shows nothing new (a plain
# tee, socks, the generic folded garment) have none.
_CLOSE_UPS: dict[str, tuple[int, int, int]] = {
    "shirt": (120, 46, 200),
    "polo": (110, 50, 200),
    "blouse": (100, 60, 200),
    "sweater": (110, 70, 190),
    "hoodie": (100, 24, 200),
    "jacket": (100, 50, 200),
    "coat": (110, 60, 210),
    "jeans": (100, 52, 200),
    "pants": (100, 56, 200),
    "shorts": (100, 96, 200),
    "skirt": (110, 80, 200),
    "dress": (100, 44, 200),
    "pajamas": (10, 60, 220),
    "sneakers": (150, 100, 210),
}
VIEWS = ("front", "close-up")
# Seen twice as close, the outlines would look twice as heavy: a close-up draws them thinner.
_CLOSE_UP_STROKE = 0.6
_STROKE_WIDTH_RE = re.compile(r'stroke-width="([\d.]+)"')


# ---------------------------------------------------------------- public API


def _canonical_type(clothing_type: str) -> str:
    """The drawn type a product's clothing type maps to ("Tee" → "t-shirt")."""
    key = " ".join(clothing_type.lower().split())
    return _TYPE_ALIASES.get(key, key)


def has_close_up(clothing_type: str) -> bool:
    """Whether the garment has a close-up view worth showing next to the whole garment."""
    return _canonical_type(clothing_type) in _CLOSE_UPS


def _title(clothing_type: str, color: str) -> str:
    """Human-readable label such as "Navy shirt" or "Shirt (#1f2a44)"."""
    kind = " ".join(clothing_type.split())[:40] or "garment"
    shade = " ".join(color.split())[:40]
    if not shade:
        return kind.capitalize()
    if shade.startswith("#"):
        return f"{kind.capitalize()} ({shade.lower()})"
    return f"{shade.capitalize()} {kind.lower()}"


def _view_box(clothing_type: str, view: str) -> str:
    """The window onto the drawing: all of it, or the type's close-up."""
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}")
    if view == "front":
        return "0 0 400 400"
    if not has_close_up(clothing_type):
        raise ValueError(f"no close-up of {clothing_type!r}")
    x, y, side = _CLOSE_UPS[_canonical_type(clothing_type)]
    return f"{x} {y} {side} {side}"


@lru_cache(maxsize=1024)
def render_product_svg(clothing_type: str, color: str, *, size: int = 480, view: str = "front") -> str:
    """Return a complete standalone SVG document (string) of the garment in that colour, whole or close up."""
    if size <= 0:
        raise ValueError("size must be positive")
    view_box = _view_box(clothing_type, view)
    draw = _DRAWERS.get(_canonical_type(clothing_type), _generic)
    fill = _resolve_color(color)
    # Light garments get a slightly deeper backdrop so they don't melt into it.
    backdrop = _mix(_BACKGROUND, fill, 0.06)
    if _luminance(fill) > _NEAR_WHITE:
        backdrop = _mix(backdrop, "#000000", 0.05)
    drawing = draw(_palette(fill))
    title = _title(clothing_type, color)
    if view == "close-up":
        drawing = _STROKE_WIDTH_RE.sub(lambda m: f'stroke-width="{float(m.group(1)) * _CLOSE_UP_STROKE:g}"', drawing)
        title += ", close-up"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}" width="{size}" '
        f'height="{size}" role="img"><title>{escape(title)}</title>'
        f'<rect width="400" height="400" rx="28" fill="{backdrop}"/>'
        f"{drawing}</svg>"
    )
