"""Print-and-play sheets (PDF) and PNG previews, drawn with matplotlib.

matplotlib is already a dependency (charts); its PDF backend writes multi-page vector PDFs with the
fonts embedded, and its Agg backend rasterises the very same drawing to PNG, so previews and tests
see exactly what is printed. Coordinates are mm with y downwards, like the faces.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib.image as mpimg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure  # a bare Figure draws off-screen: no pyplot, no display
from matplotlib.patches import FancyBboxPatch, Rectangle

from .faces import FONT_FAMILY, LINE, PT, Face, Picture, Rect, TextBlock

__all__ = ["PAPERS", "Sheet", "plan_sheet", "write_pdf", "write_png", "pages_needed"]

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
INCH = 25.4
CROP = 4.0  # mm: length of a crop mark


@dataclass(frozen=True)
class Sheet:
    """How cards sit on a page: a grid of cols×rows cells, each a card plus bleed on every side."""

    paper: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    cols: int
    rows: int
    x0: float  # mm: left edge of the first cell
    y0: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def cell(self, i: int, mirrored: bool = False) -> tuple[float, float]:
        """Top-left corner of card i's trim box on the page (mirrored left-right for a back page,
        so a long-edge duplex print puts each back behind its front)."""
        r, c = divmod(i, self.cols)
        if mirrored:
            c = self.cols - 1 - c
        cw, ch = self.card[0] + 2 * self.bleed, self.card[1] + 2 * self.bleed
        return self.x0 + c * cw + self.bleed, self.y0 + r * ch + self.bleed


def plan_sheet(paper: str, card: tuple[float, float], bleed: float) -> Sheet:
    """As many cards as fit: 3×3 poker cards on A4 (up to 2 mm bleed) and on Letter (no bleed).
    The margin shrinks from 8 mm to 3 mm (what home printers leave blank) only when that fits more."""
    pw, ph = PAPERS[paper]
    cw, ch = card[0] + 2 * bleed, card[1] + 2 * bleed
    best = None
    for margin in (8.0, 5.0, 3.0):
        cols, rows = int((pw - 2 * margin) // cw), int((ph - 2 * margin) // ch)
        if best is None or cols * rows > best[0] * best[1]:
            best = (cols, rows)
    cols, rows = best
    if cols < 1 or rows < 1:
        raise ValueError(f"a {card[0]:g}x{card[1]:g} mm card with {bleed:g} mm bleed does not fit on {paper} paper")
    return Sheet((pw, ph), card, bleed, cols, rows, (pw - cols * cw) / 2, (ph - rows * ch) / 2)


def _draw(ax, face: Face, ox: float, oy: float, bleed: float = 0.0) -> None:
    """One face at (ox, oy) mm; with bleed, the background runs `bleed` mm past the trim line."""
    for item in face.items:
        if isinstance(item, Rect):
            x, y, w, h = ox + item.x, oy + item.y, item.w, item.h
            full = bleed and item.x == 0 and item.y == 0 and item.w == face.width and item.h == face.height
            if full:  # the card's own background: square, out to the bleed
                ax.add_patch(Rectangle((x - bleed, y - bleed), w + 2 * bleed, h + 2 * bleed,
                                       facecolor=item.fill or "none", edgecolor="none", zorder=1))
            lw = item.stroke_width / PT if item.stroke and item.stroke_width else 0
            inset = item.stroke_width / 2 if lw else 0
            style = f"round,pad=0,rounding_size={item.radius}" if item.radius else "square,pad=0"
            ax.add_patch(FancyBboxPatch((x + inset, y + inset), w - 2 * inset, h - 2 * inset, boxstyle=style,
                                        facecolor="none" if full else (item.fill or "none"),
                                        edgecolor=item.stroke if lw else "none", linewidth=lw, zorder=2))
        elif isinstance(item, TextBlock):
            x = {"left": item.x, "center": item.x + item.w / 2, "right": item.x + item.w}[item.align]
            for i, line in enumerate(item.lines):
                ax.text(ox + x, oy + item.y + i * LINE * item.size * PT, line, fontsize=item.size,
                        fontfamily=FONT_FAMILY, fontweight="bold" if item.bold else "normal", color=item.color,
                        ha=item.align, va="top", zorder=4)
        elif isinstance(item, Picture):
            x, y = ox + item.x, oy + item.y
            if item.data is None:
                ax.add_patch(Rectangle((x, y), item.w, item.h, facecolor="#dddddd", edgecolor="#999999",
                                       linewidth=0.6, linestyle=(0, (2, 2)), zorder=3))
                ax.text(x + item.w / 2, y + item.h / 2, item.label, fontsize=7, color="#777777",
                        fontfamily=FONT_FAMILY, ha="center", va="center", zorder=4)
                continue
            img = mpimg.imread(io.BytesIO(item.data), format="png" if item.fmt == "png" else "jpg")
            ih, iw = img.shape[0], img.shape[1]
            scale = min(item.w / iw, item.h / ih)  # fit inside the box, keep proportions
            dw, dh = iw * scale, ih * scale
            ex, ey = x + (item.w - dw) / 2, y + (item.h - dh) / 2
            ax.imshow(img, extent=(ex, ex + dw, ey + dh, ey), zorder=3, interpolation="antialiased")


def _page(size: tuple[float, float]) -> tuple[Figure, object]:
    fig = Figure(figsize=(size[0] / INCH, size[1] / INCH))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, size[0])
    ax.set_ylim(size[1], 0)  # y downwards, like the faces
    ax.set_axis_off()
    ax.set_aspect("auto")
    return fig, ax


def _crop_marks(ax, sheet: Sheet, count: int, mirrored: bool) -> None:
    """Short lines in the margins along every trim line, outside the cards and their bleed."""
    xs, ys = set(), set()
    for i in range(count):
        x, y = sheet.cell(i, mirrored)
        xs |= {round(x, 3), round(x + sheet.card[0], 3)}
        ys |= {round(y, 3), round(y + sheet.card[1], 3)}
    top, bottom = min(ys) - sheet.bleed, max(ys) + sheet.bleed
    left, right = min(xs) - sheet.bleed, max(xs) + sheet.bleed
    kw = {"color": "#000000", "linewidth": 0.3, "zorder": 5}
    for x in xs:
        ax.plot([x, x], [top - 1 - CROP, top - 1], **kw)
        ax.plot([x, x], [bottom + 1, bottom + 1 + CROP], **kw)
    for y in ys:
        ax.plot([left - 1 - CROP, left - 1], [y, y], **kw)
        ax.plot([right + 1, right + 1 + CROP], [y, y], **kw)


def write_pdf(fronts: list[Face], path: Path, sheet: Sheet, back: Face | None = None) -> int:
    """Print-and-play sheets: fronts in a grid with crop marks; with `back`, each front page is
    followed by a page of backs (mirrored) for duplex printing. Returns the number of pages."""
    pages = 0
    with PdfPages(path, metadata={"Creator": "grimoire cards", "CreationDate": None}) as pdf:
        for start in range(0, len(fronts), sheet.per_page):
            chunk = fronts[start:start + sheet.per_page]
            for side in ("front", "back") if back is not None else ("front",):
                fig, ax = _page(sheet.paper)
                mirrored = side == "back"
                for i, face in enumerate(chunk):
                    _draw(ax, back if mirrored else face, *sheet.cell(i, mirrored), sheet.bleed)
                _crop_marks(ax, sheet, len(chunk), mirrored)
                pdf.savefig(fig)
                pages += 1
    return pages


def pages_needed(cards: int, sheet: Sheet, backs: bool) -> int:
    """ceil(cards / per page) front pages, doubled with backs."""
    return math.ceil(cards / sheet.per_page) * (2 if backs else 1)


def write_png(face: Face, path: Path, dpi: int = 200) -> None:
    """A preview of one face at its real size."""
    fig, ax = _page((face.width, face.height))
    fig.set_dpi(dpi)
    _draw(ax, face, 0, 0)
    fig.savefig(path, dpi=dpi)
