"""Cards people can read and print: faces from a ruleset's layout, SVG files, PDF sheets, PNG previews.

The text on every card comes from the rules themselves (see faces.card_text), so what is printed
cannot drift from what the interpreter runs. See docs/cards.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..content.loader import find_cards_dir
from ..content.model import Ruleset
from ..language.diagnostics import ContentError, Diagnostic
from .faces import Face, back_face, build_face, card_text, distinct_cards
from .layout import LAYOUT_FILE, Layout, art_roots, load_layout
from .sheets import pages_needed, plan_sheet, write_pdf, write_png
from .svg import face_svg

__all__ = ["CardFaces", "card_faces", "write_svgs", "write_pngs", "write_sheets", "card_text", "slug",
           "pages_needed"]


@dataclass
class CardFaces:
    """A ruleset's cards, drawn: one face per distinct card (with its copies), and the back."""

    layout: Layout
    faces: list[tuple[Face, int]]
    back: Face
    overflow: list[str] = field(default_factory=list)  # "Card: text" for each box whose text was cut
    diagnostics: list[Diagnostic] = field(default_factory=list)


def card_faces(ruleset_dir: str | Path, rs: Ruleset) -> CardFaces:
    """Every distinct card's face by the ruleset's layout. Raises ContentError for a bad layout."""
    ruleset_dir = Path(ruleset_dir)
    home = _layout_home(ruleset_dir, rs)
    roots = art_roots(ruleset_dir, find_cards_dir(ruleset_dir)) + art_roots(home, find_cards_dir(home))
    layout, diags = load_layout(home, rs, roots)
    if any(d.severity == "error" for d in diags):
        raise ContentError(diags)
    faces = [(build_face(c, layout, home, roots), n) for c, n in distinct_cards(rs)]
    overflow = [f"{f.name}: {what}" for f, _ in faces for what in f.overflow]
    return CardFaces(layout, faces, back_face(layout, rs.title), overflow, diags)


def _layout_home(ruleset_dir: Path, rs: Ruleset) -> Path:
    """The folder whose layout.yaml applies: the ruleset's own, else the nearest base's it `extends`
    (bases lie beside it, as `extends` finds them), else its own (the default faces)."""
    for name in reversed(rs.content.layers[:-1]):
        base = ruleset_dir.parent / name
        if not (ruleset_dir / LAYOUT_FILE).exists() and (base / LAYOUT_FILE).is_file():
            return base
    return ruleset_dir


def slug(name: str) -> str:
    """A file name made from a card name: letters, digits and dashes only (names are untrusted)."""
    s = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return s[:60] or "card"


def _names(cf: CardFaces, ext: str) -> list[str]:
    return [f"{i:03d}-{slug(face.name)}.{ext}" for i, (face, _) in enumerate(cf.faces, 1)]


def write_svgs(cf: CardFaces, out: Path) -> list[Path]:
    """One SVG per distinct card, numbered in file order (and back.svg)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (face, _) in zip(_names(cf, "svg"), cf.faces):
        (out / name).write_text(face_svg(face), encoding="utf-8")
        paths.append(out / name)
    (out / "back.svg").write_text(face_svg(cf.back), encoding="utf-8")
    return paths


def write_pngs(cf: CardFaces, out: Path, dpi: int = 200) -> list[Path]:
    """One PNG preview per distinct card."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (face, _) in zip(_names(cf, "png"), cf.faces):
        write_png(face, out / name, dpi)
        paths.append(out / name)
    return paths


def write_sheets(cf: CardFaces, path: Path, paper: str = "a4", bleed: float = 0.0, backs: bool = False) -> int:
    """Print-and-play PDF: every copy of every card, in file order. Returns the page count."""
    sizes = {(f.width, f.height) for f, _ in cf.faces} or {cf.layout.size}
    card = (max(w for w, _ in sizes), max(h for _, h in sizes))
    sheet = plan_sheet(paper, card, bleed)
    fronts = [face for face, n in cf.faces for _ in range(n)]
    return write_pdf(fronts, path, sheet, cf.back if backs else None)
