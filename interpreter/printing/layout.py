"""How a ruleset's cards look: the layout file (`rulesets/<name>/layout.yaml`) and its defaults.

A layout is content, like the rules: it is read with ruamel.yaml (positions kept), validated with
pydantic, and every problem is a diagnostic at its file:line:col. A card type without a layout gets
a readable default face (name, type, fields by name, text), so every ruleset can be printed.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from ..content.model import Ruleset
from ..language.diagnostics import Diagnostic, Loc, did_you_mean
from ..language.untrusted import FileRefused, inside, printable, read_text

__all__ = ["Layout", "TypeLayout", "Region", "ColorBy", "Back", "LAYOUT_FILE", "load_layout", "type_layout",
           "art_roots"]

LAYOUT_FILE = "layout.yaml"
POKER = (63.0, 88.0)  # mm: the usual playing-card size
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def _colour(v: str | None) -> str | None:
    if v is not None and not _HEX.match(v):
        raise ValueError(f"a colour is written #rgb or #rrggbb, not {v!r}")
    return v


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Region(_Strict):
    """One box on the face, in mm from the card's top-left corner, showing one thing."""

    show: Literal["name", "type", "field", "fields", "text", "art"]
    box: tuple[float, float, float, float] = Field(strict=False, description="x, y, width, height in mm")
    field: str | None = None  # show: field — which field
    label: bool = False  # show: field — write `name value` instead of the bare value
    path: str | None = None  # show: art — an image (PNG/JPEG), `{name}` and `{field}` filled in
    size: float = Field(8.0, gt=0, le=72)  # font size in points (text shrinks to fit, down to 5 pt)
    bold: bool = False
    align: Literal["left", "center", "right"] = "left"
    fill: str | None = None  # background of the box
    color: str = "#000000"  # ink

    @field_validator("fill", "color")
    @classmethod
    def _hex(cls, v: str | None) -> str | None:
        return _colour(v)


class ColorBy(_Strict):
    """The card's frame colour chosen by one field's value (e.g. a suit)."""

    field: str
    values: dict[str, str]

    @field_validator("values")
    @classmethod
    def _hex(cls, v: dict[str, str]) -> dict[str, str]:
        for c in v.values():
            _colour(c)
        return v


class TypeLayout(_Strict):
    """The face of every card of one type."""

    size: tuple[float, float] | None = Field(None, strict=False)  # mm; default: the layout's size
    background: str = "#ffffff"
    frame: str = "#333333"  # border colour, unless color_by picks one
    color_by: ColorBy | None = None
    regions: list[Region] = Field(default_factory=list)

    @field_validator("background", "frame")
    @classmethod
    def _hex(cls, v: str | None) -> str | None:
        return _colour(v)


class Back(_Strict):
    """What the backs (duplex pages) show."""

    text: str | None = None  # default: the ruleset's title
    background: str = "#2f3b52"
    color: str = "#ffffff"

    @field_validator("background", "color")
    @classmethod
    def _hex(cls, v: str | None) -> str | None:
        return _colour(v)


class Layout(_Strict):
    """A ruleset's layout file."""

    size: tuple[float, float] = Field(POKER, strict=False)  # mm
    types: dict[str, TypeLayout] = Field(default_factory=dict)
    back: Back = Field(default_factory=Back)
    file: str | None = Field(None, exclude=True)  # where it was read from (for diagnostics)


def default_type_layout(size: tuple[float, float]) -> TypeLayout:
    """Name on a band at the top, the type under it, every field by name, then the text."""
    w, h = size
    return TypeLayout(size=size, regions=[
        Region(show="name", box=(3, 3, w - 6, 9), size=11, bold=True, fill="#eeeeee"),
        Region(show="type", box=(3, 12.5, w - 6, 5), size=7, color="#555555"),
        Region(show="fields", box=(3, 18.5, w - 6, h * 0.32), size=7.5),
        Region(show="text", box=(3, 20 + h * 0.32, w - 6, h - 23 - h * 0.32), size=8),
    ])


def type_layout(layout: Layout, card_type: str) -> TypeLayout:
    """The layout of one card type: declared, or the default face."""
    t = layout.types.get(card_type)
    if t is None:
        return default_type_layout(layout.size)
    return t if t.size is not None else t.model_copy(update={"size": layout.size})


def art_roots(ruleset_dir: Path, cards_dir: Path | None) -> list[Path]:
    """Art may come from the ruleset's own folder or its cards folder, nowhere else."""
    return [p.resolve() for p in (ruleset_dir, cards_dir) if p is not None and p.is_dir()]


def load_layout(ruleset_dir: Path, rs: Ruleset, roots: list[Path]) -> tuple[Layout, list[Diagnostic]]:
    """The ruleset's layout (`layout.yaml` in its folder) or the default one, and what is wrong with it."""
    path = ruleset_dir / LAYOUT_FILE
    name = str(path)
    if not path.exists():
        return Layout(), []
    diags: list[Diagnostic] = []

    def err(msg: str, loc: Loc, hint: str | None = None) -> None:
        diags.append(Diagnostic("error", "layout/invalid", msg, loc, hint))

    try:
        text = read_text(path, roots=roots)
    except (FileRefused, OSError) as e:
        err(f"cannot read the layout: {printable(e)}", Loc(name, 1, 1))
        return Layout(), diags
    try:
        data = _yaml().load(text)
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        problem = getattr(e, "problem", None) or "cannot read this YAML"
        err(f"YAML: {printable(problem)}", Loc(name, mark.line + 1, mark.column + 1) if mark else Loc(name, 1, 1),
            "check this line's indentation and quoting")
        return Layout(), diags
    if data is None:
        return Layout(file=name), []
    if not isinstance(data, CommentedMap):
        err("a layout file is a mapping (`size:`, `types:`, `back:`)", Loc(name, 1, 1))
        return Layout(), diags
    try:
        layout = Layout.model_validate(_plain(data))
    except ValidationError as e:
        for x in e.errors():
            where = ".".join(str(p) for p in x["loc"])
            line, col = _position(data, x["loc"])
            err(f"`{where}`: {printable(x['msg'])}", Loc(name, line, col), _hint(x))
        return Layout(), diags
    layout.file = name
    _check_names(layout, data, rs, name, roots, ruleset_dir, err)
    return layout, diags


def _check_names(layout: Layout, data: CommentedMap, rs: Ruleset, name: str, roots: list[Path],
                 ruleset_dir: Path, err) -> None:
    """Card types and fields must exist; art must stay inside the ruleset's folders."""
    for tname, t in layout.types.items():
        at = ("types", tname)
        if tname not in rs.card_types:
            hint = did_you_mean(tname, rs.card_types)
            err(f"unknown card type `{printable(tname)}`", Loc(name, *_position(data, at, key=True)),
                hint or f"card types: {', '.join(rs.card_types)}")
            continue
        fields = [f.name for f in rs.card_types[tname].fields_]
        checks = [(r.field, (*at, "regions", i, "field")) for i, r in enumerate(t.regions) if r.field]
        if t.color_by:
            checks.append((t.color_by.field, (*at, "color_by", "field")))
        for i, r in enumerate(t.regions):
            if r.show == "field" and not r.field:
                err("a `show: field` region names its `field:`", Loc(name, *_position(data, (*at, "regions", i))),
                    f"fields of {tname}: {', '.join(fields) or 'none'}")
            if r.show == "art" and r.path:
                target = (ruleset_dir / r.path.split("{")[0]).resolve()
                if Path(r.path).is_absolute() or ".." in Path(r.path).parts or not inside(target, roots):
                    err(f"art path `{printable(r.path)}` leaves the ruleset's folders",
                        Loc(name, *_position(data, (*at, "regions", i, "path"))),
                        "give a path relative to the ruleset folder, e.g. art/{name}.png")
        for fname, path in checks:
            if fname not in fields:
                err(f"card type {tname} has no field `{printable(fname)}`", Loc(name, *_position(data, path)),
                    did_you_mean(fname, fields) or f"fields of {tname}: {', '.join(fields) or 'none'}")


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    return y


def _plain(node: Any) -> Any:
    """ruamel's round-trip values → plain Python, as JSON would give them."""
    if isinstance(node, CommentedMap):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, CommentedSeq):
        return [_plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def _position(data: Any, path: tuple, key: bool = False) -> tuple[int, int]:
    """1-based line and column of the value at `path` (or of its key), as deep as the path exists."""
    line, col, node = 1, 1, data
    for i, step in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, CommentedMap) and step in node:
            ln, cl = node.lc.key(step) if (key and last) else node.lc.value(step)
            line, col, node = ln + 1, cl + 1, node[step]
        elif isinstance(node, CommentedSeq) and isinstance(step, int) and 0 <= step < len(node):
            ln, cl = node.lc.item(step)
            line, col, node = ln + 1, cl + 1, node[step]
        else:
            break
    return line, col


def _hint(err: dict) -> str | None:
    if err["type"] == "extra_forbidden":
        return "see docs/cards.md for the layout's keys"
    if "size" in err["loc"] and err["loc"][0] != "types" or err["loc"][-1:] == ("size",) and "regions" not in err["loc"]:
        return "a card size is [width, height] in mm"
    if "box" in err["loc"]:
        return "a box is [x, y, width, height] in mm"
    return None
