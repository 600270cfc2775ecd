"""Load a ruleset folder: its .rules files and its card YAML, into one `Content` bundle.

Cards are read with ruamel.yaml (positions kept, duplicate keys refused, no language tags)
and validated by pydantic models generated from the card types the rules declare.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .ast import Node
from .diagnostics import ContentError, Diagnostic, Loc, did_you_mean
from .parser import MAX_SOURCE_BYTES, parse_effect, parse_rules

__all__ = ["Content", "CardSpec", "load", "find_cards_dir"]

MAX_CARDS = 20_000


@dataclass
class CardSpec:
    """One card entry of a card file (before `copies` are expanded)."""

    name: str
    type: str
    fields: dict[str, Any]
    copies: int
    effect: Node | None
    loc: Loc


@dataclass
class Content:
    """Everything a ruleset is made of, as parsed; diagnostics found while loading."""

    path: Path
    modules: list[Node] = field(default_factory=list)
    cards: list[CardSpec] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, loc: Loc | None, hint: str | None = None, severity: str = "error") -> None:
        src = None
        if loc is not None and loc.file in self.sources:
            lines = self.sources[loc.file].splitlines()
            if 0 < loc.line <= len(lines):
                src = lines[loc.line - 1]
        self.diagnostics.append(Diagnostic(severity, code, message, loc, hint, src))

    def warn(self, code: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        self.error(code, message, loc, hint, severity="warning")

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def find_cards_dir(ruleset_dir: Path) -> Path:
    """`rulesets/<name>` keeps its cards in `cards/<name>` beside it (or in its own `cards/`)."""
    own = ruleset_dir / "cards"
    if own.is_dir():
        return own
    return ruleset_dir.resolve().parent.parent / "cards" / ruleset_dir.name


def load(path: str | Path) -> Content:
    """Parse the rule files of a ruleset folder (or a single .rules file) and its cards."""
    path = Path(path)
    content = Content(path=path)
    if path.is_file():
        rule_files, cards_dir = [path], None
    elif path.is_dir():
        rule_files = sorted(path.glob("*.rules"))
        cards_dir = find_cards_dir(path)
        if not rule_files:
            content.error("load/empty", f"no .rules files in {_display(path)}", None,
                          "a ruleset is a folder of *.rules files")
    else:
        content.error("load/missing", f"no such ruleset: {path}", None, "give a folder under rulesets/ or a .rules file")
        return content
    for f in rule_files:
        _load_rules(content, f)
    if cards_dir is not None and cards_dir.is_dir():
        for f in sorted(cards_dir.glob("*.y*ml")):
            _load_cards_raw(content, f)
    return content


def _read(content: Content, f: Path) -> str | None:
    name = _display(f)
    try:
        if f.stat().st_size > MAX_SOURCE_BYTES:
            content.error("limit/size", f"file is larger than {MAX_SOURCE_BYTES} bytes", Loc(name, 1, 1))
            return None
        text = f.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        content.error("load/read", f"cannot read file: {e}", Loc(name, 1, 1))
        return None
    content.sources[name] = text
    return text


def _load_rules(content: Content, f: Path) -> None:
    text = _read(content, f)
    if text is None:
        return
    try:
        content.modules.append(parse_rules(text, _display(f)))
    except ContentError as e:
        content.diagnostics.extend(e.diagnostics)


# ---- cards -----------------------------------------------------------------------------------

_RESERVED = {"name", "type", "copies", "effect", "text"}


def _yaml() -> YAML:
    y = YAML(typ="rt")  # round-trip keeps positions; it constructs no Python objects from tags
    y.allow_duplicate_keys = False
    try:
        y.max_depth = 50  # ruamel >= 0.19: bounded nesting for untrusted input
    except AttributeError:  # pragma: no cover
        pass
    return y


def _load_cards_raw(content: Content, f: Path) -> None:
    """Parse YAML now; field validation waits for the card types (see `validate_cards`)."""
    text = _read(content, f)
    if text is None:
        return
    name = _display(f)
    if "!!python" in text or "!python" in text:
        line = next(i for i, l in enumerate(text.splitlines(), 1) if "python" in l and "!" in l)
        content.error("yaml/tag", "language-specific YAML tags are not allowed in card files",
                      Loc(name, line, text.splitlines()[line - 1].find("!") + 1), "card files hold plain data only")
        return
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = Loc(name, mark.line + 1, mark.column + 1) if mark else Loc(name, 1, 1)
        content.error("yaml/syntax", f"YAML error: {e.problem or e.context}", loc,
                      "check indentation and that every `key: value` is on its own line")
        return
    except (YAMLError, RecursionError, ValueError) as e:
        content.error("yaml/syntax", f"YAML error: {str(e).splitlines()[0] if str(e) else type(e).__name__}", Loc(name, 1, 1))
        return
    if data is None:
        return
    if hasattr(data, "get") and "cards" in data:
        data = data["cards"]
    if not isinstance(data, list):
        content.error("cards/shape", "a card file is a list of cards (or a mapping with a `cards:` list)",
                      Loc(name, 1, 1), "start each card with `- name: ...`")
        return
    for i, entry in enumerate(data):
        line, col = data.lc.item(i) if hasattr(data, "lc") else (0, 0)
        loc = Loc(name, line + 1, col + 1)
        if not hasattr(entry, "items"):
            content.error("cards/shape", "each card is a mapping of fields", loc, "write `- name: ...` then `type: ...`")
            continue
        content.cards.append(CardSpec(str(entry.get("name", f"card {i + 1}")), str(entry.get("type", "")),
                                      dict(entry), 1, None, loc))
        content.cards[-1].fields["__node__"] = entry


def validate_cards(content: Content, card_types: dict[str, Node]) -> None:
    """Check each card against its declared type (pydantic, strict) and parse its effect."""
    models = {name: _model_for(name, node) for name, node in card_types.items()}
    effects: dict[str, Node | None] = {}  # one parse per distinct effect text (YAML aliases repeat it)
    total = 0
    for spec in content.cards:
        entry = spec.fields.pop("__node__")
        tname = entry.get("type")
        if tname not in models:
            at = _key_loc(spec.loc.file, entry, "type") or spec.loc
            content.error("cards/type", f"unknown card type `{tname}`" if tname else "card has no `type`", at,
                          did_you_mean(str(tname), models) or f"declare `card type {tname}:` in the rules" if tname
                          else f"add `type:` (one of {', '.join(models) or 'none declared'})")
            continue
        try:
            card = models[tname].model_validate({k: _plain(v) for k, v in entry.items()})
        except ValidationError as e:
            for err in e.errors():
                key = str(err["loc"][0]) if err["loc"] else None
                at = _key_loc(spec.loc.file, entry, key, value=err["type"] != "extra_forbidden") or spec.loc
                hint = None
                if err["type"] == "extra_forbidden":
                    msg = f"unknown field `{key}` for card type {tname}"
                    hint = did_you_mean(key, list(models[tname].model_fields)) or \
                        f"fields of {tname}: {', '.join(f for f in models[tname].model_fields if f not in _RESERVED)}"
                elif err["type"] == "missing":
                    msg = f"card `{spec.name}` lacks field `{key}`"
                elif err["type"] == "literal_error":
                    msg = f"`{err['input']}` is not a value of field `{key}`"
                    allowed = _enum_values(card_types[tname], key)
                    hint = did_you_mean(str(err["input"]), allowed) or f"one of: {', '.join(allowed)}"
                else:
                    msg = f"field `{key}`: {err['msg'].lower()} (got `{err['input']}`)"
                content.error("cards/field", msg, at, hint)
            continue
        spec.type = tname
        spec.copies = card.copies
        spec.fields = {k: getattr(card, k) for k in type(card).model_fields if k not in _RESERVED}
        if card.effect and card.effect in effects:
            spec.effect = effects[card.effect]
        elif card.effect:
            effects[card.effect] = None
            line, col = entry.lc.value("effect")
            src = content.sources[spec.loc.file].splitlines()
            block = src[line].rstrip().endswith(("|", ">", "|-", ">-"))
            try:
                if block:  # content starts on the next line, indented; keep columns right
                    indent = len(src[line + 1]) - len(src[line + 1].lstrip()) if line + 1 < len(src) else 0
                    spec.effect = parse_effect(card.effect, spec.loc.file, line + 1, indent)
                else:
                    spec.effect = parse_effect(card.effect, spec.loc.file, line, col)
                effects[card.effect] = spec.effect
            except ContentError as e:
                content.diagnostics.extend(e.diagnostics)
        total += card.copies
        if total > MAX_CARDS:
            content.error("limit/cards", f"more than {MAX_CARDS} cards", spec.loc, "lower `copies`")
            return


def _enum_values(type_node: Node, field_name: str) -> list[str]:
    for f in type_node.fields_:
        if f.name == field_name and f.type.kind == "enum_type":
            return f.type.values
    return []


def _plain(v: Any) -> Any:
    """ruamel's round-trip scalars → plain Python values for strict validation."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    return v


def _key_loc(file: str, entry: Any, key: str | None, value: bool = True) -> Loc | None:
    try:
        if key is None or key not in entry:
            return None
        line, col = entry.lc.value(key) if value else entry.lc.key(key)
        return Loc(file, line + 1, col + 1)
    except Exception:  # position bookkeeping must never hide the real diagnostic
        return None


def _model_for(name: str, node: Node) -> type[BaseModel]:
    fields: dict[str, Any] = {
        "name": (str, ...),
        "type": (Literal[name], ...),  # type: ignore[valid-type]
        "copies": (int, Field(default=1, ge=1, le=1000)),
        "effect": (Optional[str], None),
        "text": (Optional[str], None),
    }
    for f in node.fields_:
        t = f.type
        if t.kind == "range_type":
            ann: Any = (int, Field(ge=t.lo, le=t.hi))
        elif t.kind == "enum_type":
            ann = (Literal[tuple(t.values)], ...)  # type: ignore[misc]
        elif t.name == "number":
            ann = (int, ...)
        elif t.name == "flag":
            ann = (bool, ...)
        else:
            ann = (str, ...)
        if f.default is not None and f.default.kind == "lit":
            ann = (ann[0], Field(default=f.default.value, **_bounds(ann[1])))
        elif f.default is not None and f.default.kind == "name" and t.kind == "basic_type" and t.name == "flag":
            ann = (ann[0], f.default.id == "true")  # `= false` / `= true` on a flag is a boolean, not a text
        elif f.default is not None and f.default.kind == "name":
            ann = (ann[0], f.default.id)
        fields[f.name] = ann
    return create_model(f"Card_{name}", __config__=ConfigDict(strict=True, extra="forbid"), **fields)


def _bounds(fieldinfo: Any) -> dict:
    if fieldinfo is ...:
        return {}
    out = {}
    for m in getattr(fieldinfo, "metadata", []):
        for k in ("ge", "le"):
            if hasattr(m, k):
                out[k] = getattr(m, k)
    return out


_ = (Enum, Union)
