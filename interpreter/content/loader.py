"""Load a ruleset folder: its .rules files and its card YAML, into one `Content` bundle.

Cards are read with ruamel.yaml (positions kept, duplicate keys refused, no language tags)
and validated by pydantic models generated from the card types the rules declare.
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import re
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Literal, Optional

from ruamel.yaml import YAML
from ruamel.yaml import nodes as rt_nodes
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, StreamMark, YAMLError
from ruamel.yaml.scalarstring import LiteralScalarString

from ..language.tree import Node
from ..language.diagnostics import ContentError, Diagnostic, Loc, did_you_mean
from ..language.parser import MAX_SOURCE_BYTES, parse_effect, parse_rules_by_declaration, parse_rules_partial
from ..language.untrusted import FileRefused, bad_unicode, inside, read_text
from .cardcsv import CsvProblem, csv_cards
from .cardfast import card_shape, checked_card
from .stack import apply_card_edits, check_order, check_provides, split_stack
from .yamldirect import Unusual as _NotDirect, direct_load

if TYPE_CHECKING:  # pydantic is imported only for a card the cheap check refuses (a tenth of `validate`'s start-up)
    from pydantic import BaseModel, ValidationError

try:  # libyaml's C parser (PyYAML): card files are scanned in C, then composed by ruamel (see `_fast_load`)
    from yaml import events as _c_events
    from yaml._yaml import CParser as _CParser
    from ruamel.yaml.docinfo import DocInfo, version as yaml_version  # ruamel >= 0.18.7
except ImportError:  # PyYAML without libyaml, or an older ruamel: every file takes ruamel's own parser
    _CParser = None

__all__ = ["Content", "CardSpec", "load", "find_cards_dir", "validate_cards", "overlay", "card_model"]

MAX_CARDS = 20_000
MAX_YAML_VALUES = 200_000  # after alias expansion: a "billion laughs" file stops here
MAX_YAML_DEPTH = 50
MAX_EXTENDS = 32  # bases in one `extends` chain: a longer chain is a diagnostic, not a RecursionError


@dataclass
class CardSpec:
    """One card entry of a card file (before `copies` are expanded)."""

    name: str
    type: str
    fields: dict[str, Any]
    copies: int
    effect: Node | None
    loc: Loc
    layer: str = ""  # the ruleset of the stack whose card file holds it (mod edits, conflicts)
    text: str | None = None  # the card's hand-written `text:` (printed on its face; see docs/cards.md)


@dataclass
class Content:
    """Everything a ruleset is made of, as parsed; diagnostics found while loading."""

    path: Path
    modules: list[Node] = field(default_factory=list)
    cards: list[CardSpec] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    layers: list[str] = field(default_factory=list)  # the extends chain, base first
    after: dict[str, set[str]] = field(default_factory=dict)  # layer → layers it comes after (stack.py)
    pending: dict[str, Path] = field(default_factory=dict)  # `--with` mods not loaded yet, by name
    # the bases those mods extend (through their bases too), by name: an `after` may load one early
    pending_bases: dict[str, Path] = field(default_factory=dict)
    card_owner: dict[str, tuple] = field(default_factory=dict)  # card name → (layer, loc, edit) of its last edit
    after_at: dict[tuple[str, str], Loc] = field(default_factory=dict)  # (layer, x) → its `after "x"`
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # the effects of cards left out for a wrong field: checked all the same (analysis/checker.py)
    unbuilt_effects: list[Node] = field(default_factory=list)
    _lines: dict[str, tuple[str, list[str]]] = field(default_factory=dict, repr=False, compare=False)

    def lines(self, file: str) -> list[str]:
        """A loaded file's lines, split on `\\n` only (as the parser counts), once per text: each
        `effect: |` block and each diagnostic asks for its file's lines (splitting a card file for
        every effect in it was about 1% of a `validate`)."""
        text = self.sources[file]
        got = self._lines.get(file)
        if got is None or got[0] is not text:
            got = self._lines[file] = (text, text.split("\n"))
        return got[1]

    def source_line(self, loc: Loc | None) -> str | None:
        """The text of the line a location points into (lines split on `\\n` only, as the parser counts)."""
        if loc is None or loc.file not in self.sources:
            return None
        lines = self.lines(loc.file)
        return lines[loc.line - 1].rstrip("\r") if 0 < loc.line <= len(lines) else None

    def error(self, code: str, message: str, loc: Loc | None, hint: str | None = None, severity: str = "error") -> None:
        self.diagnostics.append(Diagnostic(severity, code, message, loc, hint, self.source_line(loc)))

    def add(self, diagnostics: list[Diagnostic]) -> None:
        """Take diagnostics made elsewhere, showing the file's own line under each."""
        for d in diagnostics:
            src = self.source_line(d.loc)
            if src is not None:
                d.source_line = src
            self.diagnostics.append(d)

    def warn(self, code: str, message: str, loc: Loc | None, hint: str | None = None) -> None:
        self.error(code, message, loc, hint, severity="warning")

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def _display(path: Path) -> str:
    """A file's name for messages: relative to the working folder; a final link is not followed
    (its target is neither shown nor needed, and may loop)."""
    try:
        return str((path.parent.resolve() / path.name).relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def find_cards_dir(ruleset_dir: Path) -> Path:
    """`rulesets/<name>` keeps its cards in `cards/<name>` beside it (or in its own `cards/`)."""
    own = ruleset_dir / "cards"
    if own.is_dir():
        return own
    real = ruleset_dir.resolve()  # `.` inside the folder has no name of its own: use the real one
    return real.parent.parent / "cards" / real.name


def load(path: str | Path, mods: Iterable[str | Path] = ()) -> Content:
    """Parse the rule files of a ruleset folder (or a single .rules file) and its cards; a folder
    whose game header says `extends "base"` loads the base first (and its base, and so on). `mods`
    (folders anywhere) are stacked on it in order (`BASE --with A,B` in `path` says the same)."""
    if not Path(path).exists():
        path, more = split_stack(str(path))
        mods = [*more, *mods]
    path = Path(path)
    content = Content(path=path)
    if path.is_file() and path.suffix in (".yaml", ".yml"):
        content.error("load/missing", f"{_display(path)} is a card file", None,
                      "cards are checked with their rules: give the ruleset folder")
        return content
    if not path.exists():
        content.error("load/missing", f"no such ruleset: {path}", None, "give a folder under rulesets/ or a .rules file")
        return content
    _load_layer(content, path, [])
    _load_mods(content, [Path(m) for m in mods])
    check_order(content)
    check_provides(content)
    return content


def _load_mods(content: Content, mods: list[Path]) -> None:
    """Stack `--with` mods on the loaded base, in order; a mod's `after "x"` loads the mod `x` first
    when it is one of them (see `_load_layer`)."""
    top = content.layers[-1] if content.layers else ""
    for m in mods:
        if not m.is_dir():
            content.error("load/missing", f"{'not a ruleset folder' if m.exists() else 'no such mod'}: {m}", None,
                          "`--with` takes ruleset folders, comma-separated")
            continue
        name = m.resolve().name
        if name in content.layers or name in content.pending:
            content.error("mod/extends", f"a ruleset named `{name}` is already in the stack", None,
                          "give each mod once")
            continue
        content.pending[name] = m
    content.pending_bases = _bases_of(list(content.pending.values()))
    while content.pending:
        name, m = next(iter(content.pending.items()))
        del content.pending[name]
        content.after.setdefault(name, set()).add(top)  # a mod comes after the base it is stacked on
        _load_layer(content, m, [])


def _load_layer(content: Content, path: Path, chain: list[Path]) -> None:
    """Load one ruleset of an extends chain: its bases' modules and cards come first. Files are
    read only from inside the ruleset's folder and its cards folder (see `untrusted.read_text`)."""
    if path.is_file():
        rule_files, cards_dir = [path], None
        roots = [path.absolute().parent.resolve()]  # a single file: its own folder
    else:
        rule_files = sorted(path.glob("*.rules"))
        cards_dir = _own_cards_dir(content, find_cards_dir(path))
        roots = [path.resolve()]
        if not rule_files:
            content.error("load/empty", f"no .rules files in {_display(path)}", None,
                          "a ruleset is a folder of *.rules files")
    first = len(content.modules)
    for f in rule_files:
        _load_rules(content, f, roots)
    mine = content.modules[first:]
    del content.modules[first:]
    here = path.resolve()  # once: resolving walks every part of the path, a system call each
    layer = here.name if path.is_dir() else path.stem
    _after_items(content, mine, layer, chain + [here])
    for base_item in _extends_items(mine):
        if _already_loaded(content, base_item, layer, chain + [here]):
            continue
        if len(chain) >= MAX_EXTENDS:
            content.error("limit/extends", f"`extends` chain is longer than {MAX_EXTENDS} rulesets", base_item.value.loc,
                          "a mod extends a base game, or another mod: flatten the chain")
            break
        base = _resolve_base(content, path, base_item, chain + [here])
        if base is not None:
            _load_layer(content, base, chain + [here])
            content.after.setdefault(layer, set()).add(base.resolve().name)
    # which ruleset of the chain a declaration comes from (conflict messages)
    content.modules.extend(dataclasses.replace(m, layer=layer) for m in mine)
    content.layers.append(layer)
    first_card = len(content.cards)
    if cards_dir is not None and cards_dir.is_dir():
        cards_roots = [cards_dir.resolve()]
        for f in sorted([*cards_dir.glob("*.y*ml"), *cards_dir.glob("*.csv")]):
            (_load_cards_csv if f.suffix == ".csv" else _load_cards_raw)(content, f, cards_roots)
    for spec in content.cards[first_card:]:
        spec.layer = layer
    apply_card_edits(content, first_card, layer, _edited_spec)


def _edited_spec(entry: CommentedMap, loc: Loc, layer: str) -> CardSpec:
    """The card a `replace:` entry makes (validated later, like every card)."""
    spec = CardSpec(_text(entry.get("name", "")), _text(entry.get("type", "")), dict(entry), 1, None, loc, layer)
    spec.fields["__node__"] = entry
    return spec


def _already_loaded(content: Content, item: Node, layer: str, chain: list[Path]) -> bool:
    """An `extends "x"` whose `x` is already in the stack (a base given on the command line, or the
    shared base of two mods): it is not loaded twice, only recorded as coming first. An `x` given
    later with `--with` is that folder: it is loaded now, ahead of its place in the list."""
    v = item.value
    if v.kind != "lit" or not isinstance(v.value, str):
        return False
    if v.value in content.pending:
        top = content.after.get(layer, set()) - {v.value}
        _load_layer(content, content.pending.pop(v.value), chain)
        content.after.setdefault(v.value, set()).update(top)
    if v.value in content.layers:
        content.after.setdefault(layer, set()).add(v.value)
        return True
    return False


def _after_items(content: Content, modules: list[Node], layer: str, chain: list[Path]) -> None:
    """`after "x"` in a game header: when the mod `x` is in the stack, this one comes after it (its
    replacements and hooks win); a pending `--with` mod `x` is loaded now, before this one."""
    for m in modules:
        for d in m.decls:
            for item in (d.items if d.kind == "game" else ()):
                if item.name != "after":
                    continue
                v = item.value
                if v.kind != "lit" or not isinstance(v.value, str) or not v.value:
                    content.error("mod/after", "`after` takes the name of another mod in quotes", v.loc,
                                  'write `after "other_mod"`')
                    continue
                if any(p.name == v.value for p in chain):
                    content.error("mod/cycle", f"`{layer}` cannot come after `{v.value}`: that one comes before "
                                  "it already, or is it", v.loc, "remove this `after`")
                    continue
                content.after.setdefault(layer, set()).add(v.value)
                content.after_at[(layer, v.value)] = v.loc
                if v.value in content.pending:
                    base = content.pending.pop(v.value)
                    content.after.setdefault(v.value, set()).update(content.after.get(layer, set()) - {v.value})
                    _load_layer(content, base, chain)
                elif v.value not in content.layers and v.value in content.pending_bases:
                    # a base that a later `--with` mod extends: loaded now, so that it comes first
                    # (that mod's `extends` then finds it in the stack)
                    base = content.pending_bases[v.value]
                    if base.resolve() not in chain:
                        _load_layer(content, base, chain)


def _bases_of(mods: list[Path]) -> dict[str, Path]:
    """The rulesets `mods` extend, directly or through their bases, by name (read quietly: the
    real load reports any problem). Lets a mod's `after "x"` load `x` ahead of the mod that would
    pull it in as a base, when that mod is listed later: the order both ask for exists."""
    found: dict[str, Path] = {}
    todo = [m for m in mods if m.is_dir()]
    while todo:
        path = todo.pop()
        quiet = Content(path=path)
        for f in sorted(path.glob("*.rules")):
            name = _display(f)
            text = _read(quiet, f, [path.resolve()], name)
            if text is None:
                continue
            module, _ = _parse_rules(text, name)
            for item in _extends_items([module]):
                v = item.value
                if v.kind != "lit" or not isinstance(v.value, str) or not v.value or v.value in found \
                        or "/" in v.value or "\\" in v.value or v.value.startswith("."):
                    continue
                base = path.resolve().parent / v.value
                if base.is_dir() and inside(base.resolve(), [path.resolve().parent]):
                    found[v.value] = base
                    todo.append(base)
    return found


def _own_cards_dir(content: Content, cards_dir: Path) -> Path | None:
    """The cards folder, unless it is a link that leaves the folder it sits in (reported)."""
    if not cards_dir.is_symlink():
        return cards_dir
    try:
        real = cards_dir.resolve(strict=True)
    except (OSError, RuntimeError):
        real = None
    if real is None or not inside(real, [cards_dir.parent.resolve()]):
        content.error("load/link", f"the cards folder {_display(cards_dir)} is a symbolic link "
                      f"{'that leads nowhere' if real is None else 'to a folder outside ' + _display(cards_dir.parent)}",
                      Loc(_display(cards_dir), 1, 1), "put the card files in the folder itself")
        return None
    return cards_dir


def _extends_items(modules: list[Node]) -> list[Node]:
    return [item for m in modules for d in m.decls if d.kind == "game" for item in d.items if item.name == "extends"]


def _resolve_base(content: Content, path: Path, item: Node, chain: list[Path]) -> Path | None:
    """The folder an `extends "name"` names, beside the extending ruleset; None (reported) if
    it does not exist or would close a cycle."""
    v = item.value
    if v.kind != "lit" or not isinstance(v.value, str) or not v.value or "/" in v.value or "\\" in v.value \
            or v.value.startswith("."):
        content.error("mod/extends", "`extends` takes the name of a ruleset folder in quotes", v.loc,
                      'write `extends "base_game"`')
        return None
    home = path.resolve().parent if path.is_dir() else path.resolve().parent.parent
    base = home / v.value
    if not base.is_dir():
        names = [p.name for p in home.iterdir() if p.is_dir() and p.resolve() not in chain]
        content.error("mod/extends", f"no ruleset `{v.value}` to extend in {_display(home)}", v.loc,
                      did_you_mean(v.value, names) or "name a folder beside this ruleset, or stack this mod on "
                      f"its base: `grimoire validate path/to/{v.value} --with {_display(path)}`")
        return None
    if not inside(base.resolve(), [home.resolve()]):
        content.error("load/link", f"ruleset `{v.value}` is a symbolic link to a folder outside {_display(home)}", v.loc,
                      "a base ruleset is a folder beside its mods, not a link elsewhere")
        return None
    if base.resolve() in chain:
        cycle = " → ".join(p.name for p in chain[chain.index(base.resolve()):] + [base.resolve()])
        content.error("mod/cycle", f"`extends` goes round in a circle: {cycle}", v.loc,
                      "a ruleset cannot extend itself, directly or through its bases")
        return None
    return base


_OVERLAY: contextvars.ContextVar[dict[Path, str]] = contextvars.ContextVar("overlay", default={})
MAX_PARSED = 1024  # parsed files, declarations, effect texts and card models kept; cleared when full
# (an editor adds an entry or two per edit, each holding a version of a file: memory stays bounded)
_PROCESS_CACHE: dict = {}  # shared by every load of this process: a base is parsed once for all its mods
_PARSED: contextvars.ContextVar[dict] = contextvars.ContextVar("parsed", default=_PROCESS_CACHE)
_MISS = object()


@contextlib.contextmanager
def overlay(texts: dict[Path, str], parsed: dict | None = None):
    """Load with these texts in place of the files' saved contents (an editor's unsaved buffers,
    keyed by resolved path), so diagnostics follow what the author is typing. `parsed`, kept by
    the caller between loads, holds what was already parsed (see `_memo`), so a check after an
    edit parses only the file that changed; without it the process-wide cache is used."""
    token = _OVERLAY.set({Path(k).resolve(): v for k, v in texts.items()})
    cached = _PARSED.set(parsed if parsed is not None else _PARSED.get())
    try:
        yield
    finally:
        _OVERLAY.reset(token)
        _PARSED.reset(cached)


def _memo(key: tuple, make: Any) -> Any:
    """`make()`, or what it gave before for the same key. Keys hold the whole input (file name and
    text, a card type's node), so a changed file is parsed again; what is kept is never changed
    afterwards (syntax trees are immutable, card data is copied before a mod's card edit changes
    it), so sharing it between loads is safe. A `make` that raises leaves nothing behind."""
    cache = _PARSED.get()
    hit = cache.get(key, _MISS)
    if hit is _MISS:
        hit = make()
        if len(cache) >= MAX_PARSED:
            cache.clear()
        cache[key] = hit
    return hit


def _parse_rules(text: str, name: str) -> tuple[Node, list[Diagnostic]]:
    """`parse_rules_partial`, parsed once per name and text (see `_memo`). In an editing session
    (`overlay` with its own cache) a changed file is parsed one declaration at a time, so an edit
    re-parses the declarations it touched (and those below it when it adds or removes lines);
    a batch parses whole files, fewer and larger parses being cheaper when nothing is cached."""
    if _PARSED.get() is _PROCESS_CACHE:
        parse = functools.partial(parse_rules_partial, text, name)
    else:
        parse = functools.partial(parse_rules_by_declaration, text, name, _memo)
    module, diagnostics = _memo(("rules", name, text), parse)
    return module, list(diagnostics)


def _read(content: Content, f: Path, roots: list[Path], name: str) -> str | None:
    """A content file's text (a byte-order mark dropped: columns ignore it), or None with a
    diagnostic: too big, not UTF-8, not a regular file, or a link leaving `roots`. `name`: the
    file's `_display` (its callers need it too; resolving a path is not free)."""
    edited = _OVERLAY.get().get(f.resolve()) if _OVERLAY.get() else None
    if edited is not None and len(edited) <= MAX_SOURCE_BYTES and inside(f.resolve(), roots):  # else refused below
        content.sources[name] = edited.removeprefix("\ufeff")
        return content.sources[name]
    try:
        text = read_text(f, MAX_SOURCE_BYTES, roots)
    except FileRefused as e:
        content.error(e.code, f"{name} {e.message}" if e.code in ("load/link", "load/not-a-file") else e.message,
                      Loc(name, e.line, e.col), e.hint)
        return None
    content.sources[name] = text
    return text


def _load_rules(content: Content, f: Path, roots: list[Path]) -> None:
    name = _display(f)
    text = _read(content, f, roots, name)
    if text is None:
        return
    module, diagnostics = _parse_rules(text, name)
    content.modules.append(module)
    content.add(diagnostics)


# ---- cards -----------------------------------------------------------------------------------

_RESERVED = {"name", "type", "copies", "effect", "text"}
_PLAIN_SCALARS = (str, int, float, bool, type(None))


def _yaml() -> YAML:
    """Round-trip mode keeps positions and builds no Python objects from tags; duplicate keys are
    errors; nesting is bounded (ruamel >= 0.19)."""
    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    y.preserve_quotes = True  # so a quoted `effect:` value's columns can be mapped back
    y.max_depth = MAX_YAML_DEPTH
    return y


_SLOW = object()  # `_fast_load` could not take this file


class _Unusual(Exception):
    """A card file the fast path leaves to ruamel's own parser."""


def _fast_load(text: str) -> Any:
    """A card file's data as `_yaml().load(text)` gives it, about twenty times faster: libyaml (C)
    scans and parses, and `yamldirect.direct_load` builds ruamel's values from its events. A file
    that pass declines takes the middle way: `_compose` builds ruamel's nodes as ruamel's composer
    would, and ruamel's own round-trip constructor makes the values, positions (`.lc`), quote
    styles and duplicate-key errors. `_SLOW` for a file with any error or anything ruamel could read differently (tabs,
    tags, directives, empty values, which ruamel places at the next token), so that ruamel's own
    parser reads it and words its errors; tests/content/test_fast_yaml.py compares the two."""
    if _CParser is None or "\t" in text:
        return _SLOW
    try:  # most files: values built straight from the events (content/yamldirect.py)
        return _direct_load(text)
    except _NotDirect:
        pass
    except Exception:  # noqa: BLE001 - any problem: the longer ways below read it and word it
        pass
    y = _loading_yaml()
    try:
        events = _CParser(text)
        get = events.get_event
        get()  # stream start
        start = get()
        if type(start) is not _c_events.DocumentStartEvent or start.version or start.tags:
            raise _Unusual
        node = _Composer(get, y.resolver, y.max_depth).compose(1)
        if type(get()) is not _c_events.DocumentEndEvent or type(get()) is not _c_events.StreamEndEvent:
            raise _Unusual
        return y.constructor.construct_document(node)
    except Exception:  # noqa: BLE001 - any problem: read it again the slow way, which words it
        return _SLOW


def _loading_yaml() -> YAML:
    """A round-trip YAML set up as `YAML.load` sets it up for one document (its resolver and
    constructor are used on their own by the fast paths)."""
    y = _yaml()
    y.doc_infos.append(DocInfo(requested_version=yaml_version(y.version)))
    y.tags = {}
    return y


def _direct_load(text: str) -> Any:
    """libyaml's events straight to ruamel's values (content/yamldirect.py); `_NotDirect` otherwise.
    One configured YAML per thread serves every file: making one per file (each looks for ruamel's
    plug-ins on disk) was about 1% of `validate`. The files it takes have no `%YAML` directive, so
    its resolver's version is the same for all; its constructor, which builds the odd scalar,
    forgets them after each file, as ruamel's `construct_document` does after each document."""
    y = getattr(_DIRECT, "yaml", None)
    if y is None:
        y = _DIRECT.yaml = _loading_yaml()
    c = y.constructor
    try:
        return direct_load(text, _CParser, _c_events, y.resolver, c, y.max_depth)
    finally:
        c.constructed_objects, c.recursive_objects, c.state_generators, c.deep_construct = {}, {}, [], False


_DIRECT = threading.local()  # the YAML `_direct_load` uses, per thread (an editor's server may load in several)


class _Composer:
    """ruamel's `Composer.compose_node`, over libyaml's events (see `_fast_load`)."""

    def __init__(self, get: Any, resolver: Any, max_depth: int):
        self.get, self.resolver, self.max_depth = get, resolver, max_depth
        self.anchors: dict[str, Any] = {}
        self.tags: dict[Any, Any] = {}  # resolved tags, per (value, implicit)

    def _tag(self, kind: Any, value: Any, implicit: Any) -> Any:
        key = (kind, value, implicit)
        tag = self.tags.get(key)
        if tag is None:
            tag = self.tags[key] = self.resolver.resolve(kind, value, implicit)
        return tag

    def compose(self, depth: int, event: Any = None) -> Any:
        e = self.get() if event is None else event
        cls = type(e)
        if cls is _c_events.AliasEvent:
            return self.anchors[e.anchor]  # an undefined one: KeyError, the slow path words it
        if depth > self.max_depth or getattr(e, "tag", None) is not None:
            raise _Unusual
        m = e.start_mark
        start = StreamMark(None, m.index, m.line, m.column)
        m = e.end_mark
        if cls is _c_events.ScalarEvent:
            if not e.value and not e.style:
                raise _Unusual
            node = rt_nodes.ScalarNode(self._tag(rt_nodes.ScalarNode, e.value, e.implicit), e.value, start,
                                       StreamMark(None, m.index, m.line, m.column), style=e.style or None,
                                       anchor=e.anchor)
            if e.anchor is not None:
                self.anchors[e.anchor] = node
            return node
        if cls is _c_events.SequenceStartEvent:
            node = rt_nodes.SequenceNode(self._tag(rt_nodes.SequenceNode, None, e.implicit), [], start, None,
                                         flow_style=e.flow_style, anchor=e.anchor)
            if e.anchor is not None:
                self.anchors[e.anchor] = node
            while True:
                item = self.get()
                if type(item) is _c_events.SequenceEndEvent:
                    break
                node.value.append(self.compose(depth + 1, item))
        elif cls is _c_events.MappingStartEvent:
            node = rt_nodes.MappingNode(self._tag(rt_nodes.MappingNode, None, e.implicit), [], start, None,
                                        flow_style=e.flow_style, anchor=e.anchor)
            if e.anchor is not None:
                self.anchors[e.anchor] = node
            while True:
                item = self.get()
                if type(item) is _c_events.MappingEndEvent:
                    break
                key = self.compose(depth + 1, item)
                node.value.append((key, self.compose(depth + 1)))
        else:
            raise _Unusual
        m = item.end_mark
        node.end_mark = StreamMark(None, m.index, m.line, m.column)
        return node


def _yaml_error(content: Content, name: str, e: MarkedYAMLError) -> None:
    """A YAML syntax error, worded for a card author, at the problem's position."""
    mark = e.problem_mark or e.context_mark
    loc = Loc(name, mark.line + 1, mark.column + 1) if mark else Loc(name, 1, 1)
    problem = str(e.problem or e.context or "cannot read this YAML")
    ctx = e.context_mark
    opened = f"line {ctx.line + 1}, column {ctx.column + 1}" if ctx is not None else None
    code, hint = "yaml/syntax", None
    if "duplicate key" in problem:
        key = problem.split('"')[1] if '"' in problem else "?"
        code, problem = "yaml/duplicate-key", f"duplicate key `{key}`"
        hint = "each field appears once per card"
    elif "mapping values are not allowed" in problem:
        problem = "a `key: value` is not allowed here"
        hint = "check this line's indentation (a card's fields line up under its `name:`), or quote a value holding `: `"
    elif "\\t" in problem or "'\\t'" in problem:
        problem, hint = "a tab character in the indentation", "indent YAML with spaces"
    elif "undefined alias" in problem:
        hint = "define the anchor (`&name`) before using the alias (`*name`)"
    elif "while parsing a flow" in str(e.context or "") and opened:
        bracket = "{" if "mapping" in str(e.context) else "["
        hint = f"the `{bracket}` at {opened} is not closed"
    elif "maximum depth" in problem:
        code, problem = "limit/depth", f"values are nested more than {MAX_YAML_DEPTH} levels deep"
    elif "block end" in problem or "block mapping" in str(e.context or ""):
        hint = "check the indentation: every field of a card starts in the same column"
    elif "quoted scalar" in str(e.context or "") and opened:
        hint = f"the quote at {opened} is not closed"
    content.error(code, f"YAML: {problem}", loc, hint)


def _card_data(text: str, name: str) -> tuple[Any, tuple | None]:
    """A card file's YAML data, and what in it is no plain data (or None); raises YAML's errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. a reused anchor: legal YAML, not worth a word
        data = _fast_load(text)
        if data is _SLOW:
            data = _yaml().load(text)
    # a text value is made of the file's characters and its escapes: without a lone surrogate in
    # the file, nor a `\u` or `\U` escape (the only ones that can write one), no value holds one
    clean = "\\u" not in text and "\\U" not in text and bad_unicode(text) is None
    return data, _not_plain_data(data, name, clean)


def _load_cards_raw(content: Content, f: Path, roots: list[Path]) -> None:
    """Parse YAML now; field validation waits for the card types (see `validate_cards`)."""
    name = _display(f)
    text = _read(content, f, roots, name)
    if text is None:
        return
    try:
        data, problem = _memo(("yaml", name, text), lambda: _card_data(text, name))
    except MarkedYAMLError as e:
        _yaml_error(content, name, e)
        return
    except (YAMLError, RecursionError, ValueError, TypeError, AttributeError) as e:
        content.error("yaml/syntax", f"YAML: {str(e).splitlines()[0] if str(e) else type(e).__name__}", Loc(name, 1, 1))
        return
    if problem is not None:
        content.error(*problem)
        return
    if data is None:
        return
    if isinstance(data, CommentedMap) and "cards" in data:
        data = data["cards"]
    if not isinstance(data, CommentedSeq):
        content.error("cards/shape", "a card file is a list of cards (or a mapping with a `cards:` list)",
                      Loc(name, 1, 1), "start each card with `- name: ...`")
        return
    for i, entry in enumerate(data):
        line, col = _pos(data, i)
        loc = Loc(name, line + 1, col + 1)
        if not isinstance(entry, CommentedMap):
            content.error("cards/shape", "each card is a mapping of fields", loc, "write `- name: ...` then `type: ...`")
            continue
        # `dict(entry)`, from the underlying dict's items (CommentedMap's own iterate in Python)
        content.cards.append(CardSpec(_text(entry.get("name", f"card {i + 1}")), _text(entry.get("type", "")),
                                      dict(dict.items(entry)), 1, None, loc))
        content.cards[-1].fields["__node__"] = entry


def _load_cards_csv(content: Content, f: Path, roots: list[Path]) -> None:
    """A spreadsheet of cards (content/cardcsv.py): each row becomes the mapping a YAML card gives."""
    name = _display(f)
    text = _read(content, f, roots, name)
    if text is None:
        return
    try:
        rows = csv_cards(text, name)
    except CsvProblem as e:
        content.error("cards/csv", e.message, Loc(name, e.line, e.col), e.hint)
        return
    for i, (entry, loc) in enumerate(rows):
        content.cards.append(CardSpec(_text(entry.get("name", f"card {i + 1}")), _text(entry.get("type", "")),
                                      dict(entry), 1, None, loc))
        content.cards[-1].fields["__node__"] = entry


def _pos(container: Any, key: Any, value: bool = True) -> tuple[int, int]:
    """0-based (line, column) of an item of a YAML mapping or list; (0, 0) when unknown."""
    try:
        if isinstance(container, CommentedSeq):
            return container.lc.item(key)
        return container.lc.value(key) if value else container.lc.key(key)
    except Exception:  # position bookkeeping must never hide the real diagnostic
        return 0, 0


def _not_plain_data(root: Any, name: str, texts_clean: bool = False) -> tuple | None:
    """Card files hold plain values only. Refuse language tags (`!!python/...`), other tagged or
    exotic values, self-referencing aliases, and alias expansion beyond MAX_YAML_VALUES. Sizes are
    memoised per shared node, so a "billion laughs" file is measured in linear time.
    `texts_clean`: no text in the file can hold a lone surrogate (see `_card_data`), so a plain
    number, text, truth value or null can hold no problem and is not looked at on its own."""
    sizes: dict[int, int] = {}
    entered: set[int] = set()
    stack: list[tuple[Any, Any, Any, bool]] = [(root, None, None, False)]
    quiet = _QUIET_SCALARS if texts_clean else _QUIET_NON_TEXT
    while stack:
        node, parent, key, done = stack.pop()
        if isinstance(node, (CommentedMap, CommentedSeq)):
            if done:
                items = dict.values(node) if isinstance(node, CommentedMap) else node  # (see below)
                size = 1 + sum(sizes.get(id(v), 1) for v in items)
                sizes[id(node)] = size
                entered.discard(id(node))
                if size > MAX_YAML_VALUES:
                    return ("limit/yaml-size", f"the file expands to more than {MAX_YAML_VALUES} values", _item_loc(name, parent, key),
                            "YAML aliases (`*name`) repeat what they point to; use fewer, or write cards out")
                continue
            if id(node) in sizes:
                continue
            if id(node) in entered:
                return "yaml/alias", "a value contains itself (through an alias)", _item_loc(name, parent, key), "remove the alias"
            # ruamel's `.tag` makes (and keeps) an empty tag on first reading: read what is there
            tag = getattr(getattr(node, _TAG_ATTRIB, None), "value", None)
            if tag and not tag.startswith("tag:yaml.org,2002:") or tag and "python" in tag:
                return _tag_problem(tag, _item_loc(name, parent, key))
            entered.add(id(node))
            stack.append((node, parent, key, True))
            if isinstance(node, CommentedMap):
                # the underlying dict's own items: CommentedMap's iterate and index in Python (for
                # merge keys, whose values it also holds in that dict)
                for k, v in dict.items(node):
                    if not isinstance(k, _PLAIN_SCALARS):
                        return "yaml/key", "a key must be a plain text or number", _item_loc(name, parent, key), None
                    if isinstance(k, str) and not texts_clean and bad_unicode(k) is not None:
                        return _surrogate(_item_loc(name, parent, key))
                    if v.__class__ not in quiet:
                        stack.append((v, node, k, False))
            else:
                stack.extend((v, node, i, False) for i, v in enumerate(node) if v.__class__ not in quiet)
        elif isinstance(node, str) and bad_unicode(node) is not None:
            return _surrogate(_item_loc(name, parent, key))
        elif not isinstance(node, _PLAIN_SCALARS) or isinstance(node, str) and type(node).__module__ != "builtins" \
                and not type(node).__module__.startswith("ruamel.yaml.scalarstring"):
            tag = getattr(getattr(node, "tag", None), "value", None)
            if tag:
                return _tag_problem(tag, _item_loc(name, parent, key))
            return ("yaml/value", f"a {type(node).__name__} value is not allowed in a card file", _item_loc(name, parent, key),
                    "use text, numbers, true/false, lists and mappings only")
    return None


# values `_not_plain_data` need not look at: no problem can be found in them (a text's only possible
# problem is a lone surrogate)
_QUIET_NON_TEXT = frozenset({int, float, bool, type(None)})
_QUIET_SCALARS = _QUIET_NON_TEXT | {str}
_TAG_ATTRIB = "_yaml_tag"  # where ruamel keeps a value's tag (ruamel.yaml.tag.Tag.attrib)


def _surrogate(where: Loc) -> tuple:
    return ("load/encoding", "a text holds a lone surrogate (a `\\ud800`-`\\udfff` escape), which is no character",
            where, "write the character itself, or its full `\\U0001xxxx` escape")


def _item_loc(file: str, parent: Any, key: Any) -> Loc:
    """Where an item of a YAML container is (looked up only when a problem is reported there)."""
    return Loc(file, *(p + 1 for p in _pos(parent, key))) if parent is not None else Loc(file, 1, 1)


def _tag_problem(tag: str, where: Loc) -> tuple:
    tag = tag.replace("tag:yaml.org,2002:", "!!")
    if "python" in tag:
        return ("yaml/tag", f"the language-specific YAML tag `{_short(tag)}` is not allowed", where,
                "card files hold plain data only; nothing in them is ever run")
    return "yaml/tag", f"YAML tag `{_short(tag)}` is not allowed in a card file", where, "remove the tag"


def _text(v: Any) -> str:
    return v if isinstance(v, str) else _short(v)


def _short(v: Any, width: int = 40) -> str:
    """A value for a message: never huge (an input may be a large list)."""
    s = v if isinstance(v, str) else repr(v) if isinstance(v, (list, dict)) else str(v)
    return s if len(s) <= width else s[:width - 3] + "..."


def validate_cards(content: Content, card_types: dict[str, Node], unparsed: Iterable[str] = ()) -> None:
    """Check each card against its declared type (pydantic, strict) and parse its effect. Card
    types whose declaration has a syntax error (`unparsed`) are not reported a second time."""
    unparsed = set(unparsed)
    models: dict[str, type[BaseModel] | None] = {}  # built only for a card the cheap check does not accept
    shapes = {name: _memo(("shape", name, _model_key(node)), functools.partial(card_shape, name, node))
              for name, node in card_types.items()}

    def model(name: str) -> type[BaseModel] | None:
        if name not in models:
            node = card_types[name]
            try:
                models[name] = _memo(("model", name, _model_key(node)), functools.partial(_model_for, name, node))
            except Exception as e:  # pydantic refuses a field name: model.build reports names it can foresee
                content.error("cards/type", f"card type `{name}` cannot be used: {str(e).splitlines()[0]}", node.loc)
                models[name] = None
        return models[name]

    effects: dict[str, Node | None] = {}  # one parse per distinct effect text (YAML aliases repeat it)
    total = 0
    for spec in content.cards:
        entry = spec.fields.pop("__node__")
        tname = entry.get("type")
        if not isinstance(tname, str) or tname not in card_types or (tname in models and models[tname] is None):
            if (isinstance(tname, str) and (tname in unparsed or tname in models)) or "*" in unparsed:
                continue
            _unknown_type(content, spec, entry, tname, card_types)
            continue
        plain = {k: v if v.__class__ in _AS_PLAIN else _plain(v) for k, v in dict.items(entry)}
        card = checked_card(shapes[tname], plain)
        if card is None:
            checker = model(tname)
            if checker is None:
                continue
            from pydantic import ValidationError  # noqa: F811 (already loaded by `model`)
            try:
                valid = checker.model_validate(plain)
            except ValidationError as e:
                _field_errors(content, spec, entry, card_types[tname], checker, e)
                if isinstance(entry.get("effect"), str) and entry["effect"].strip():
                    unbuilt = _parse_card_effect(content, spec, entry)  # its own mistakes are reported too
                    if unbuilt is not None:
                        content.unbuilt_effects.append(unbuilt)
                continue
            card = valid.copies, valid.text, valid.effect, {
                info.alias: getattr(valid, k) for k, info in checker.model_fields.items() if info.alias not in _RESERVED}
        copies, text, effect, fields = card
        spec.type = tname
        spec.copies = copies
        spec.text = text
        spec.fields = fields
        if effect and effect in effects:
            spec.effect = effects[effect]
        elif effect:
            effects[effect] = spec.effect = _parse_card_effect(content, spec, entry)
        total += copies
        if total > MAX_CARDS:
            content.error("limit/cards", f"more than {MAX_CARDS} cards", spec.loc, "lower `copies`")
            return


def _unknown_type(content: Content, spec: CardSpec, entry: CommentedMap, tname: Any, models: dict) -> None:
    if tname is None or tname == "":
        where = _key_loc(content, spec.loc.file, entry, "type") or spec.loc
        content.error("cards/type", f"card `{spec.name}` has no `type`", where,
                      f"add `type:` (one of {', '.join(models) or 'none declared'})")
    elif not isinstance(tname, str):
        content.error("cards/type", f"`type` must name a card type, not `{_short(tname)}`",
                      _key_loc(content, spec.loc.file, entry, "type") or spec.loc, f"one of {', '.join(models)}")
    else:
        content.error("cards/type", f"unknown card type `{tname}`", _key_loc(content, spec.loc.file, entry, "type") or spec.loc,
                      did_you_mean(tname, models) or f"declare `card type {tname}:` in the rules")


def _field_errors(content: Content, spec: CardSpec, entry: CommentedMap, type_node: Node,
                  model: type[BaseModel], e: ValidationError) -> None:
    """pydantic's errors, worded from the card type's own declaration."""
    errors = e.errors()
    extras = {str(err["loc"][0]) for err in errors if err["type"] == "extra_forbidden" and err["loc"]}
    fields = [info.alias or k for k, info in model.model_fields.items()]
    guessed = {did_you_mean(x, fields) for x in extras}
    tname = type_node.name
    for err in errors:
        key = str(err["loc"][0]) if err["loc"] else None
        kind = err["type"]
        at = _key_loc(content, spec.loc.file, entry, key, value=kind != "extra_forbidden") or spec.loc
        hint = None
        if kind == "extra_forbidden":
            msg = f"unknown field `{key}` for card type {tname}"
            hint = did_you_mean(key, fields) or \
                f"fields of {tname}: {', '.join(f for f in fields if f not in _RESERVED)}"
        elif kind == "missing":
            if f"did you mean `{key}`?" in guessed:
                continue  # the misspelt field already says it
            msg = f"card `{spec.name}` lacks field `{key}`"
            decl = _field_decl(type_node, key)
            hint = f"add `{key}: ...` ({_describe_type(decl)})" if decl else f"add `{key}: ...`"
        elif kind == "literal_error":
            msg = f"`{_short(err['input'])}` is not a value of field `{key}`"
            allowed = _enum_values(type_node, key)
            hint = did_you_mean(str(err["input"]), allowed) or f"one of: {', '.join(allowed)}"
        elif kind in ("greater_than_equal", "less_than_equal"):
            decl = _field_decl(type_node, key)
            msg = f"field `{key}` is {_short(err['input'])}, outside its range"
            hint = f"`{key}` is {_describe_type(decl)}" if decl else err["msg"]
            if key == "copies":
                hint = "copies go from 1 to 1000"
        elif kind in ("int_type", "bool_type", "string_type"):
            want = {"int_type": "a whole number", "bool_type": "true or false", "string_type": "a text"}[kind]
            got = err["input"]
            msg = f"field `{key}` must be {want}, not {_describe_value(got)}"
            if kind == "int_type" and isinstance(got, str) and got.strip().lstrip("-").isdigit():
                hint = f"write it without quotes: `{key}: {got.strip()}`"
            elif kind == "bool_type":
                hint = f"write `{key}: true` or `{key}: false`"
            elif kind == "string_type" and not isinstance(got, (list, dict)):
                hint = f'put it in quotes: `{key}: "{_short(got)}"`'
        else:
            msg = f"field `{key}`: {err['msg'].lower()} (got `{_short(err['input'])}`)"
        content.error("cards/field", msg, at, hint)


def _describe_value(v: Any) -> str:
    if isinstance(v, bool):
        return f"`{str(v).lower()}`"
    if isinstance(v, str):
        return f'the text "{_short(v)}"'
    if isinstance(v, (list, dict)):
        return "a list" if isinstance(v, list) else "a mapping"
    return f"`{_short(v)}`"


def _field_decl(type_node: Node, name: str | None) -> Node | None:
    return next((f for f in type_node.fields_ if f.name == name), None)


def _describe_type(decl: Node) -> str:
    t = decl.type
    if t.kind == "range_type":
        return f"a number from {t.lo} to {t.hi}"
    if t.kind == "enum_type":
        return "one of " + ", ".join(t.values)
    return {"number": "a number", "flag": "true or false"}.get(t.name, "a text")


def _parse_card_effect(content: Content, spec: CardSpec, entry: CommentedMap) -> Node | None:
    """Parse an `effect:` text with positions that point into the YAML file (once per text and
    place, see `_memo`; a text with errors is parsed again each time, its diagnostics new)."""
    text = entry["effect"]
    line, col = _pos(entry, "effect")
    if isinstance(text, LiteralScalarString):
        # the content starts on the line after `|`, dedented by its first line's indentation
        src = content.lines(spec.loc.file)
        first = next((i for i in range(line + 1, len(src)) if src[i].strip()), line + 1)
        indent = len(src[first]) - len(src[first].lstrip(" ")) if first < len(src) else 0
        args = (str(text), spec.loc.file, line + 1, indent, True)
    else:
        quoted = type(text).__name__ in ("DoubleQuotedScalarString", "SingleQuotedScalarString")
        args = (str(text), spec.loc.file, line, col + quoted, False)
    try:
        return _memo(("effect", *args), lambda: parse_effect(*args))
    except ContentError as e:
        for d in e.diagnostics if not args[4] and spec.loc.file.endswith((".yaml", ".yml")) else ():
            if d.code == "syntax":
                d.hint = f"{d.hint}; " if d.hint else ""
                d.hint += "an effect reads best as a YAML block: `effect: |`, its lines indented below"
        content.add(e.diagnostics)
        return None


def _enum_values(type_node: Node, field_name: str) -> list[str]:
    decl = _field_decl(type_node, field_name)
    return list(decl.type.values) if decl is not None and decl.type.kind == "enum_type" else []


# what `_plain` gives back as it is (the fast path of `validate_cards`, once per card field)
_AS_PLAIN = frozenset({str, int, float, bool, type(None)})


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


_SCALAR_TOKEN = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,\[\]{}#\n]*""")
_KEY_TOKEN = re.compile(r"[^:,\[\]{}#\n]*")


def _key_loc(content: Content, file: str, entry: Any, key: str | None, value: bool = True) -> Loc | None:
    """Where a card's key (or its value) is, spanning the key or a one-line scalar value."""
    if key is None or key not in entry:
        return None
    line, col = _pos(entry, key, value)
    loc = Loc(file, line + 1, col + 1)
    src = content.source_line(loc)
    if src is None or (value and isinstance(entry[key], (CommentedMap, CommentedSeq))):
        return loc
    m = (_SCALAR_TOKEN if value else _KEY_TOKEN).match(src, col)
    width = len(m.group(0).rstrip()) if m else 0
    return Loc(file, line + 1, col + 1, col + 1 + width) if width else loc


def card_model(name: str, node: Node) -> type[BaseModel]:
    """The pydantic model a card of type `name` (declared by `node`) is validated with; tools
    read its JSON Schema (`grimoire schema`)."""
    return _model_for(name, node)


def _model_key(node: Node) -> str:
    """What `_model_for` reads of a card type, as text: equal for the same declaration parsed again
    (an editor re-parses the file it edits), so its model is built once."""
    def default(d: Node | None) -> object:
        return None if d is None else (d.kind, getattr(d, "value", None), getattr(d, "id", None))
    return repr([(f.name, f.type.kind, getattr(f.type, "lo", None), getattr(f.type, "hi", None),
                  getattr(f.type, "values", None), getattr(f.type, "name", None), default(f.default))
                 for f in node.fields_])


def _model_for(name: str, node: Node) -> type[BaseModel]:
    """A strict pydantic model for one card type. Fields get plain attribute names and the
    designer's names as aliases, so no field name can clash with pydantic's own attributes."""
    from pydantic import ConfigDict, Field, create_model  # only here: most runs never need a model
    fields: dict[str, Any] = {
        "name": (str, Field(alias="name")),
        "type": (Literal[name], Field(alias="type")),  # type: ignore[valid-type]
        "copies": (int, Field(default=1, ge=1, le=1000, alias="copies")),
        "effect": (Optional[str], Field(default=None, alias="effect")),
        "text": (Optional[str], Field(default=None, alias="text")),
    }
    for i, f in enumerate(node.fields_):
        t = f.type
        bounds: dict[str, int] = {}
        if t.kind == "range_type":
            ann: Any = int
            bounds = {"ge": t.lo, "le": t.hi}
        elif t.kind == "enum_type":
            ann = Literal[tuple(t.values)]  # type: ignore[misc]
        else:
            ann = {"number": int, "flag": bool}.get(t.name, str)
        default: Any = ...
        if f.default is not None and f.default.kind == "lit":
            default = f.default.value
        elif f.default is not None and f.default.kind == "name" and t.kind == "basic_type" and t.name == "flag":
            default = f.default.id == "true"  # `= false` / `= true` on a flag is a boolean, not a text
        elif f.default is not None and f.default.kind == "name":
            default = f.default.id
        fields[f"field_{i}"] = (ann, Field(default, alias=f.name, **bounds))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return create_model(f"Card_{name}", __config__=ConfigDict(strict=True, extra="forbid"), **fields)
