"""What the language server knows, without the protocol plumbing: diagnostics, hover, completion
and definitions for a ruleset's rule files and card YAML, as lsprotocol values.

Everything comes from the same places `grimoire validate` and `explain` read: diagnostics from
`api.check_path` (with the editor's unsaved texts laid over the files), construct descriptions from
the typed tree's `describe()`, builtin docs from the library's `BUILTINS`, keywords from the grammar.
LSP counts columns in UTF-16 code units from 0; Grimoire counts characters from 1: `utf16_col` and
`char_index` convert between them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp

from ..api import check_path
from ..content.loader import CardSpec, Content, overlay
from ..content.model import Ruleset
from ..language.diagnostics import Diagnostic, Loc
from ..language.parser import GRAMMAR_PATH
from ..language.tree import Decl, Node, Stmt, walk
from ..library import BUILTINS

__all__ = ["Analysis", "analyse", "ruleset_root", "utf16_col", "char_index", "to_lsp_diagnostics",
           "hover", "completion", "definition", "references", "symbols", "keywords", "builtin_signature", "path_of"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def utf16_col(line: str, index: int) -> int:
    """The UTF-16 offset of character `index` (0-based) of `line`: a character outside the Basic
    Multilingual Plane (an emoji) counts 2, as LSP requires."""
    return len(line[:index].encode("utf-16-le")) // 2


def char_index(line: str, col16: int) -> int:
    """The character index of UTF-16 offset `col16` in `line` (the inverse of `utf16_col`)."""
    units = 0
    for i, ch in enumerate(line):
        if units >= col16:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def path_of(file: str) -> Path:
    """A diagnostic's file name (relative to the working folder, as the loader shows it) as a path."""
    return (Path.cwd() / file).resolve()


def ruleset_root(doc: Path) -> Path | None:
    """The ruleset folder a rule or card file belongs to: a `.rules` file's folder; a card file's
    ruleset is the folder its `cards/` sits in, or `rulesets/NAME` for `cards/NAME/` (see
    `loader.find_cards_dir`)."""
    doc = doc.resolve()
    if doc.suffix == ".rules":
        return doc.parent
    folder = doc.parent
    if folder.name == "cards" and any(folder.parent.glob("*.rules")):
        return folder.parent
    if folder.parent.name == "cards":
        for candidate in sorted(folder.parent.parent.glob(f"*/{folder.name}")):
            if candidate.is_dir() and any(candidate.glob("*.rules")):
                return candidate
    return None


@dataclass
class Analysis:
    """One check of a ruleset: its diagnostics by file, its declarations, its parsed constructs."""

    root: Path
    ruleset: Ruleset | None
    content: Content
    by_file: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    unplaced: list[Diagnostic] = field(default_factory=list)  # no file: shown on the edited document
    declarations: dict[str, tuple[Node, Loc]] = field(default_factory=dict)
    cards: dict[str, CardSpec] = field(default_factory=dict)  # the first card of each name


def analyse(root: Path, texts: dict[Path, str], parsed: dict | None = None) -> Analysis:
    """Check the ruleset at `root` with the editor's open texts in place of the saved files;
    `parsed` keeps rule files parsed from one check to the next (see `loader.overlay`)."""
    with overlay(texts, parsed):
        rs, content = check_path(root)
    result = Analysis(root, rs, content)
    for path in content.sources:
        result.by_file.setdefault(path_of(path), [])
    for d in content.diagnostics:
        if d.loc is None:
            result.unplaced.append(d)
        else:
            result.by_file.setdefault(path_of(d.loc.file), []).append(d)
    for node in _declarations(content):
        result.declarations.setdefault(node.name, (node, getattr(node, "name_loc", None) or node.loc))
    for spec in content.cards:
        result.cards.setdefault(spec.name, spec)
    return result


def _declarations(content: Content) -> list[Node]:
    """Every named declaration of the chain, the extending ruleset's first (so a mod's `replace`
    is where a name leads)."""
    return [d for m in reversed(content.modules) for d in m.decls
            if isinstance(d, Decl) and isinstance(getattr(d, "name", None), str)]


def _range(text: str | None, loc: Loc) -> lsp.Range:
    """A Grimoire location (1-based characters, `end_col` exclusive) as an LSP range (0-based UTF-16)."""
    line_no = max(loc.line - 1, 0)
    lines = text.split("\n") if text is not None else []
    line = lines[line_no].rstrip("\r") if line_no < len(lines) else ""
    start = max(loc.col - 1, 0)
    if loc.end_col and loc.end_col > loc.col:
        end = loc.end_col - 1
    else:  # no end given: the word at the spot, or one character
        m = _WORD.match(line, start)
        end = m.end() if m else start + 1
    return lsp.Range(lsp.Position(line_no, utf16_col(line, start)), lsp.Position(line_no, utf16_col(line, end)))


def to_lsp_diagnostics(diags: list[Diagnostic], text: str | None) -> list[lsp.Diagnostic]:
    """Grimoire diagnostics of one file as LSP diagnostics (code, hint in the message)."""
    out = []
    for d in diags:
        loc = d.loc or Loc("", 1, 1)
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        severity = lsp.DiagnosticSeverity.Error if d.severity == "error" else lsp.DiagnosticSeverity.Warning
        out.append(lsp.Diagnostic(range=_range(text, loc), message=message, severity=severity, code=d.code,
                                  source="grimoire"))
    return out


def _word_at(text: str, pos: lsp.Position) -> str | None:
    lines = text.split("\n")
    if pos.line >= len(lines):
        return None
    line = lines[pos.line].rstrip("\r")
    i = char_index(line, pos.character)
    for m in _WORD.finditer(line):
        if m.start() <= i <= m.end():
            return m.group(0)
    return None


def builtin_signature(name: str) -> str:
    """`first(a, [b])`: a builtin's name with as many arguments as it takes (optional ones bracketed)."""
    b = BUILTINS[name]
    args = [chr(ord("a") + i) for i in range(min(b.hi, 8))]
    shown = args[:b.lo] + [f"[{a}]" for a in args[b.lo:]]
    return f"{name}({', '.join(shown)}{', …' if b.hi > 8 else ''})"


def _constructs(analysis: Analysis, file: Path) -> list[Node]:
    """The constructs parsed from one file: its rules, or the effects of the cards it holds."""
    roots: list[Node] = [m for m in analysis.content.modules if m.loc and path_of(m.loc.file) == file]
    roots += [c.effect for c in analysis.content.cards if c.effect is not None and path_of(c.loc.file) == file]
    return [n for r in roots for n in walk(r) if n.loc is not None]


def _construct_at(analysis: Analysis, file: Path, line: int, col: int) -> Node | None:
    """The statement or declaration written on this line at or before the column (1-based);
    failing that, the declaration the line is inside."""
    best: Node | None = None
    for n in _constructs(analysis, file):
        if not isinstance(n, (Stmt, Decl)):
            continue
        start = (n.loc.line, n.loc.col)
        if start > (line, col):
            continue
        if best is None or start > (best.loc.line, best.loc.col) or \
                (n.loc.line == line and start == (best.loc.line, best.loc.col) and best.loc.line != line):
            best = n
    return best


def hover(analysis: Analysis, file: Path, text: str, pos: lsp.Position) -> lsp.Hover | None:
    """A declared name: its declaration; a builtin: its signature and doc; a card: where it is
    defined; otherwise the construct under the cursor in plain English."""
    word = _word_at(text, pos)
    parts: list[str] = []
    if word in analysis.declarations:
        node, loc = analysis.declarations[word]
        line = analysis.content.source_line(node.loc) or ""
        parts.append(f"```grimoire\n{line.strip()}\n```\n{node.describe()}\n\n*declared at {loc}*")
    elif word in BUILTINS:
        parts.append(f"```grimoire\n{builtin_signature(word)}\n```\n{BUILTINS[word].doc}")
    elif word in analysis.cards:
        spec = analysis.cards[word]
        fields = ", ".join(f"{k}: {v}" for k, v in spec.fields.items() if not k.startswith("__"))
        effect = f"\n\n{spec.effect.describe()}" if spec.effect is not None else ""
        parts.append(f"card **{word}** ({spec.type}{': ' + fields if fields else ''}){effect}"
                     f"\n\n*defined at {spec.loc}*")
    if not parts:
        lines = text.split("\n")
        line = lines[pos.line] if pos.line < len(lines) else ""
        node = _construct_at(analysis, file, pos.line + 1, char_index(line, pos.character) + 1)
        if node is None:
            return None
        parts.append(f"**{node.kind}**: {node.describe()}")
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n".join(parts)))


def keywords() -> list[str]:
    """The words of the language, read from the grammar itself (so they cannot drift from it)."""
    return sorted(set(re.findall(r'"([a-z][a-z_]+)"', GRAMMAR_PATH.read_text(encoding="utf-8"))))


_KIND_OF = {"zone": lsp.CompletionItemKind.Variable, "stat": lsp.CompletionItemKind.Field,
            "card_type": lsp.CompletionItemKind.Class, "constant": lsp.CompletionItemKind.Constant,
            "event": lsp.CompletionItemKind.Event, "procedure": lsp.CompletionItemKind.Function,
            "function": lsp.CompletionItemKind.Function}


def _after_dot(text: str | None, pos: lsp.Position | None) -> bool:
    """Whether the cursor follows `something.` (a field being written), not a range's `..`."""
    if text is None or pos is None:
        return False
    lines = text.split("\n")
    line = lines[pos.line] if pos.line < len(lines) else ""
    before = line[:char_index(line, pos.character)]
    return bool(re.search(r"(?<![.\d])\.[A-Za-z_]\w*$|(?<![.\d])\.$", before))  # `c.va`, not `2..4`


def completion(analysis: Analysis | None, text: str | None = None, pos: lsp.Position | None = None) -> lsp.CompletionList:
    """After `card.`: each field the card types declare. Elsewhere: keywords, the ruleset's declared
    names (zones, stats, card types, ...), card names and builtins with their signatures."""
    if analysis is not None and analysis.ruleset is not None and _after_dot(text, pos):
        fields: dict[str, list[str]] = {"name": ["every card"], "type": ["every card"]}
        for tname, node in analysis.ruleset.card_types.items():
            for f in node.fields_:
                fields.setdefault(f.name, []).append(tname)
        return lsp.CompletionList(is_incomplete=False, items=[
            lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Field, detail=f"field of {', '.join(types)}")
            for name, types in sorted(fields.items())])
    items = [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Keyword, detail="keyword") for k in keywords()]
    seen = {k for k in keywords()}
    if analysis is not None:
        for name, (node, loc) in sorted(analysis.declarations.items()):
            if name not in seen:
                seen.add(name)
                items.append(lsp.CompletionItem(label=name, kind=_KIND_OF.get(node.kind, lsp.CompletionItemKind.Reference),
                                                detail=node.kind.replace("_", " "), documentation=node.describe()))
        for name in sorted(analysis.cards):
            if name not in seen:
                seen.add(name)
                items.append(lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Value, detail="card"))
    for name in sorted(BUILTINS):
        if name not in seen:
            items.append(lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Function,
                                            detail=builtin_signature(name), documentation=BUILTINS[name].doc))
    return lsp.CompletionList(is_incomplete=False, items=items)


def definition(analysis: Analysis, text: str, pos: lsp.Position) -> lsp.Location | None:
    """Where the name under the cursor is declared (in this ruleset or a base it `extends`), or
    where the card of that name is defined."""
    word = _word_at(text, pos)
    if word in analysis.declarations:
        loc = analysis.declarations[word][1]
    elif word in analysis.cards:
        loc = analysis.cards[word].loc
    else:
        return None
    target = path_of(loc.file)
    source = analysis.content.sources.get(loc.file)
    return lsp.Location(uri=target.as_uri(), range=_range(source, loc))


def _mentions(node: Node, word: str) -> bool:
    """Whether the construct names `word` itself (a name, a called function, a zone or stat written
    in a statement), not through a child construct."""
    return any(getattr(node, f, None) == word for f in node.field_names)


def _word_loc(analysis: Analysis, node: Node, word: str) -> Loc:
    """Where `word` is written in the construct: its first whole-word occurrence from the
    construct's start on its line (the construct's start if the word is on a later line)."""
    loc = getattr(node, "name_loc", None) or node.loc
    line = analysis.content.source_line(loc) or ""
    m = re.compile(rf"\b{re.escape(word)}\b").search(line, max(loc.col - 1, 0))
    return Loc(loc.file, loc.line, m.start() + 1, m.end() + 1) if m else loc


def references(analysis: Analysis, text: str, pos: lsp.Position, include_declaration: bool = True) -> list[lsp.Location]:
    """Every place the declared name under the cursor is written, in the rules and card effects of
    the ruleset and the rulesets it extends (the declaration first, if asked for)."""
    word = _word_at(text, pos)
    if word not in analysis.declarations:
        return []
    decl, decl_loc = analysis.declarations[word]
    roots: list[Node] = list(analysis.content.modules)
    roots += [c.effect for c in analysis.content.cards if c.effect is not None]
    found: list[Loc] = [decl_loc] if include_declaration else []
    for root in roots:
        for node in walk(root):
            if node.loc is not None and _mentions(node, word) and node is not decl:
                found.append(_word_loc(analysis, node, word))
    seen, out = set(), []
    for loc in found:
        key = (loc.file, loc.line, loc.col)
        if key not in seen:
            seen.add(key)
            out.append(lsp.Location(uri=path_of(loc.file).as_uri(),
                                    range=_range(analysis.content.sources.get(loc.file), loc)))
    return out


_SYMBOL_KIND = {"card_type": lsp.SymbolKind.Class, "zone": lsp.SymbolKind.Variable, "stat": lsp.SymbolKind.Field,
                "constant": lsp.SymbolKind.Constant, "event": lsp.SymbolKind.Event,
                "procedure": lsp.SymbolKind.Function, "function": lsp.SymbolKind.Function,
                "phase": lsp.SymbolKind.Module, "board": lsp.SymbolKind.Struct}


def symbols(analysis: Analysis, file: Path) -> list[lsp.DocumentSymbol]:
    """The named declarations of one rule file, in order, for an editor's outline."""
    out = []
    for m in analysis.content.modules:
        if m.loc is None or path_of(m.loc.file) != file:
            continue
        source = analysis.content.sources.get(m.loc.file)
        for d in m.decls:
            name = getattr(d, "name", None)
            if not isinstance(name, str):
                continue
            where = _range(source, getattr(d, "name_loc", None) or d.loc)
            out.append(lsp.DocumentSymbol(name=name, kind=_SYMBOL_KIND.get(d.kind, lsp.SymbolKind.Object),
                                          range=where, selection_range=where, detail=d.kind.replace("_", " ")))
    return out
