"""A card's face as drawing primitives in mm: computed once, drawn by both the SVG and the PDF/PNG
writers, so a card looks the same whatever the output.

The words on a card come from the rules: a card's hand-written `text:` if it has one, else its
effect's English (`describe()` of the typed tree, as `grimoire explain` prints it). Text is wrapped
with the real font metrics of DejaVu Sans (matplotlib's own font, also named first in the SVG) and
shrinks down to 5 pt to fit its box; what still does not fit is cut with an ellipsis and reported
with the card's name.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from ..content.model import CardData, Ruleset
from ..language.untrusted import FileRefused, read_bytes
from .layout import Layout, Region, TypeLayout, type_layout

__all__ = ["Rect", "TextBlock", "Picture", "Face", "card_text", "distinct_cards", "build_face", "back_face",
           "FONT_FAMILY", "PT"]

PT = 25.4 / 72  # mm per point
FONT_FAMILY = "DejaVu Sans"
MIN_SIZE = 5.0  # pt: smaller print is not readable
LINE = 1.2  # line height, in font sizes
MAX_ART_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0  # mm
    radius: float = 0.0  # mm


@dataclass(frozen=True)
class TextBlock:
    """Lines of text whose first line's top is at y; `size` in points."""

    x: float
    y: float
    w: float
    lines: tuple[str, ...]
    size: float
    bold: bool = False
    align: str = "left"
    color: str = "#000000"


@dataclass(frozen=True)
class Picture:
    """An image (PNG or JPEG bytes); None draws a placeholder box labelled `label`."""

    x: float
    y: float
    w: float
    h: float
    data: bytes | None
    fmt: str = "png"  # png or jpeg
    label: str = "art"


@dataclass
class Face:
    """Everything drawn on one side of one card, in mm from its top-left corner."""

    name: str
    width: float
    height: float
    items: list[Rect | TextBlock | Picture] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)  # regions whose text was cut


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """Control characters (a card file may hold them) print as U+FFFD, which the font has."""
    return _CONTROL.sub("\ufffd", text.replace("\t", " "))


def card_text(card: CardData) -> str:
    """What the card says: its hand-written `text:`, or its effect in English."""
    if card.text:
        return card.text
    return card.effect.describe() if card.effect is not None else ""


def distinct_cards(rs: Ruleset) -> list[tuple[CardData, int]]:
    """Each distinct card (name, type, fields, text) once, with its number of copies, in file order.
    Dice are not cards to print."""
    seen: dict[tuple, list] = {}
    for c in rs.cards:
        if c.type in rs.die_types:
            continue
        key = (c.name, c.type, repr(sorted(c.fields.items(), key=lambda kv: kv[0])), card_text(c))
        if key in seen:
            seen[key][1] += 1
        else:
            seen[key] = [c, 1]
    return [(c, n) for c, n in seen.values()]


_MEASURE = TextToPath()


@functools.lru_cache(maxsize=4)
def _font(bold: bool) -> FontProperties:
    return FontProperties(family=FONT_FAMILY, weight="bold" if bold else "normal")


@functools.lru_cache(maxsize=65536)
def _word_width(word: str, bold: bool) -> float:
    """Width in mm of one word at 1 pt (words repeat: each is measured once)."""
    font = _font(bold)
    w, _, _ = _MEASURE.get_text_width_height_descent(word, font, ismath=False)
    return w / font.get_size_in_points() * PT


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in mm of `text` set in DejaVu Sans at `size` points: its words' widths and the spaces
    between them (kerning across a space is nil)."""
    words = text.split(" ")
    return size * (sum(_word_width(w, bold) for w in words if w) + (len(words) - 1) * _word_width("a a", bold)
                   - (len(words) - 1) * 2 * _word_width("a", bold))


def _break(word: str, width: float, size: float, bold: bool) -> tuple[list[str], str]:
    """The hyphenated pieces of a word wider than the box, and what is left of it."""
    pieces = []
    while text_width(word, size, bold) > width and len(word) > 1:
        cut = len(word) - 1
        while cut > 1 and text_width(word[:cut] + "-", size, bold) > width:
            cut -= 1
        pieces.append(word[:cut] + "-")
        word = word[cut:]
    return pieces, word


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Greedy word wrap by measured width; a word longer than the line is broken."""
    lines: list[str] = []
    space = text_width("a a", size, bold) - 2 * text_width("a", size, bold)
    for para in text.splitlines() or [""]:
        line, used = "", 0.0
        for word in para.split():
            ww = text_width(word, size, bold)
            if line and used + space + ww <= width:
                line, used = f"{line} {word}", used + space + ww
                continue
            if line:
                lines.append(line)
            pieces, word = _break(word, width, size, bold)
            lines += pieces
            line, used = word, text_width(word, size, bold)
        lines.append(line)
    return lines


def fit(text: str, w: float, h: float, size: float, bold: bool = False) -> tuple[list[str], float, bool]:
    """Lines and font size so that `text` fits a w×h mm box: wrap, shrink to MIN_SIZE, then cut.
    The flag says whether it was cut."""
    s = size
    while True:
        lines = wrap(text, w, s, bold)
        if len(lines) * s * LINE * PT <= h + 1e-6:
            return lines, s, False
        if s <= MIN_SIZE:
            break
        s = max(MIN_SIZE, s - 0.5)
    room = max(1, int(h / (s * LINE * PT)))
    kept = lines[:room]
    last = kept[-1]
    while last and text_width(last + "…", s, bold) > w:
        last = last[:-1]
    kept[-1] = last + "…"
    return kept, s, True


def _field_text(v: object) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_field_text(x) for x in v)
    return str(v)


def _region_text(r: Region, card: CardData) -> str | None:
    if r.show == "name":
        return card.name
    if r.show == "type":
        return card.type
    if r.show == "field":
        v = card.fields.get(r.field)
        if v is None:
            return None
        return f"{r.field.replace('_', ' ')} {_field_text(v)}" if r.label else _field_text(v)
    if r.show == "fields":  # flowing text: a flag that is off says nothing, one that is on is its name
        return " · ".join(k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {_field_text(v)}"
                          for k, v in card.fields.items() if not k.startswith("__") and v is not False)
    if r.show == "text":
        return card_text(card)
    return None


def _art(r: Region, card: CardData, base: Path, roots: list[Path]) -> Picture:
    x, y, w, h = r.box
    if not r.path:
        return Picture(x, y, w, h, None)
    try:
        rel = r.path.format_map(_Fill(name=card.name, **{k: _field_text(v) for k, v in card.fields.items()}))
        data = read_bytes(base / rel, limit=MAX_ART_BYTES, roots=roots)
    except (FileRefused, OSError, ValueError, KeyError, IndexError):
        return Picture(x, y, w, h, None)  # missing or refused art: a placeholder, never a crash
    if data.startswith(b"\x89PNG"):
        return Picture(x, y, w, h, data, "png")
    if data.startswith(b"\xff\xd8"):
        return Picture(x, y, w, h, data, "jpeg")
    return Picture(x, y, w, h, None, label="art: not PNG/JPEG")


class _Fill(dict):
    """`{name}` and `{field}` in an art path; an unknown `{x}` is left as it is."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def build_face(card: CardData, layout: Layout, base: Path, roots: list[Path]) -> Face:
    """The front of one card."""
    t: TypeLayout = type_layout(layout, card.type)
    w, h = t.size
    frame = t.frame
    if t.color_by is not None:
        frame = t.color_by.values.get(_field_text(card.fields.get(t.color_by.field)), frame)
    face = Face(visible(card.name), w, h)
    face.items.append(Rect(0, 0, w, h, fill=t.background, stroke=frame, stroke_width=1.6, radius=3))
    for r in t.regions:
        x, y, bw, bh = r.box
        if r.fill:
            face.items.append(Rect(x, y, bw, bh, fill=r.fill, radius=1))
        if r.show == "art":
            face.items.append(_art(r, card, base, roots))
            continue
        text = _region_text(r, card)
        if not text:
            continue
        text = visible(text)
        pad = 1.0 if r.fill else 0.0
        lines, size, cut = fit(text, bw - 2 * pad, bh - pad, r.size, r.bold)
        if cut:
            face.overflow.append(r.show if r.show != "field" else f"field {r.field}")
        block_h = len(lines) * size * LINE * PT
        ty = y + (bh - block_h) / 2 if r.show in ("name", "field") else y + pad / 2
        face.items.append(TextBlock(x + pad, ty, bw - 2 * pad, tuple(lines), size, r.bold, r.align, r.color))
    return face


def back_face(layout: Layout, title: str) -> Face:
    """The back shared by every card: a coloured field with the title in the middle."""
    w, h = layout.size
    b = layout.back
    face = Face("back", w, h)
    face.items.append(Rect(0, 0, w, h, fill=b.background, stroke=b.background, radius=3))
    face.items.append(Rect(4, 4, w - 8, h - 8, stroke=b.color, stroke_width=0.5, radius=2))
    lines, size, _ = fit(b.text if b.text is not None else title, w - 14, h - 14, 14, True)
    block_h = len(lines) * size * LINE * PT
    face.items.append(TextBlock(7, (h - block_h) / 2, w - 14, tuple(lines), size, True, "center", b.color))
    return face
