"""Parse rule text into AST nodes (Lark LALR, indentation blocks).

Syntax errors become Diagnostics with file:line:col, a caret and a hint; never tracebacks.
After a syntax error the file is re-parsed one top-level declaration at a time, so every
broken declaration is reported once and the intact ones still reach the checker.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.util
import re
import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from .tree import _nodes_in
from .tree import CONSTRUCTS, Effect, Module, Node, node_fields
from .diagnostics import ContentError, Diagnostic, Loc, did_you_mean
from .fastparse import TABLES_FORMAT, FastParser, Token, Unusual
from .usercache import cache_dir, read_cached, write_cached
from .limits import MAX_AST_DEPTH, MAX_BINDING_NESTING, MAX_NESTING, MAX_NUMBER_DIGITS, MAX_SOURCE_BYTES

__all__ = ["parse_rules", "parse_rules_partial", "parse_rules_by_declaration", "parse_effect", "GRAMMAR_PATH",
           "MAX_SOURCE_BYTES", "MAX_NESTING", "KEYWORDS", "token_kinds"]

GRAMMAR_PATH = Path(__file__).resolve().parents[2] / "grammar" / "grimoire.lark"
_BINDING = frozenset({"where", "comprehension", "quantified"})

DECL_KEYWORDS = ("game", "card", "zone", "player", "stat", "constant", "event", "setup", "turn", "round", "play",
                 "procedure", "when", "as", "always", "placement", "score", "tiebreak", "replace", "before", "after",
                 "board", "value", "prefer", "extend")
STMT_KEYWORDS = ("let", "set", "move", "draw", "place", "shuffle", "fire", "break", "continue", "end", "play",
                 "log", "pass", "if", "elif", "else", "for", "repeat", "while")
KEYWORDS = frozenset(DECL_KEYWORDS + STMT_KEYWORDS)
_DECL_START = re.compile(rf"(?:{'|'.join(DECL_KEYWORDS)})\b")
_MISSPELT_CARD_TYPE = re.compile(r"card\s+[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*:")
_DECL_NAME = re.compile(r"(card\s+type|zone|player\s+stat|stat|constant|event|procedure|board)\s+([A-Za-z_]\w*)")


def _larkside():
    """language/larkside.py, the part of parsing that needs Lark, imported when first needed: to
    word a syntax error, for the formatter's token kinds, to build the loop's tables when their
    cache is missing. A text without errors is parsed without Lark (a tenth of `validate`)."""
    from . import larkside
    return larkside


def __getattr__(name: str) -> object:
    """Lark's side of parsing, imported when first asked for: `_ToAst` (Lark's transformer over a
    whole parse tree, with `_Builder`'s methods), `_Indenter`, `IndentationProblem`."""
    if name == "_ToAst":
        return _to_ast_class()
    if name in ("_Indenter", "IndentationProblem"):
        return getattr(_larkside(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.lru_cache(maxsize=None)
def _to_ast_class() -> type:
    return _larkside().transformer(_Builder, _PLUMBING, _SELF_BUILT)


def _cache_file() -> str | bool:
    """Lark caches the built parser (keyed by grammar hash) in a user cache dir, not in /tmp."""
    base = cache_dir()
    return str(base / "parser.lark-cache") if base is not None else False


@functools.lru_cache(maxsize=None)
def _lark():
    """Lark's parser for this grammar, each rule's callback our reduction (`_reductions`)."""
    return _larkside().lark_parser(GRAMMAR_PATH.read_text(encoding="utf-8"), _cache_file(), _reductions, _pass_on)


@functools.lru_cache(maxsize=None)
def _fast() -> FastParser | None:
    """The one-loop parser (fastparse.py) for text without errors. Its tables come from a cache
    file next to Lark's (plain data, keyed by the grammar, Lark's version and Python's), built
    from Lark's own tables when missing; None where Lark's tables take a shape it does not handle."""
    key = _tables_key()
    tables = _load_tables(key)
    if tables is None:
        try:
            tables = _larkside().tables_from_lark(_lark())
        except (AttributeError, ValueError, KeyError):
            return None
        _save_tables(key, tables)
    return FastParser(tables, _reductions(tables["rules"]))


def _tables_key() -> tuple:
    """What the cached tables depend on, kept whole in the file and compared (no hash: `hashlib`'s
    import alone costs more than the comparison): the grammar's text, Lark's version (its
    `__init__.py`), the tables' format and Python's version (marshal's format)."""
    lark_init = b""
    spec = importlib.util.find_spec("lark")
    if spec is not None and spec.origin:
        try:
            lark_init = Path(spec.origin).read_bytes()
        except OSError:
            pass
    return (GRAMMAR_PATH.read_bytes(), lark_init, TABLES_FORMAT, sys.version)


def _tables_file() -> Path | None:
    cache = _cache_file()
    return Path(cache).with_name("fastparse.marshal") if cache else None


def _load_tables(key: tuple) -> dict | None:
    """The cached tables for `key`, or None (no cache, another grammar, an unreadable file)."""
    tables = read_cached(_tables_file(), key)
    if not isinstance(tables, dict) or tables.get("format") != TABLES_FORMAT:
        return None
    return tables


def _save_tables(key: tuple, tables: dict) -> None:
    """Keep the tables; a failure only costs the next process the time to build them again."""
    write_cached(_tables_file(), key, tables)


class _Tree:
    """A rule that builds no construct (a helper list, a plumbing rule without a method): its name,
    its children and its positions, as Lark's `Tree` and its `Meta` under `propagate_positions`
    hold them: `line`..`end_column` span the rule's kept children, `c_*` (Lark's `container_*`)
    also the tokens and inlined rules around them; `empty` when nothing in it has a position.
    The positions are on the tree itself (no `Meta` object): one object less per reduction."""

    __slots__ = ("data", "children", "empty", "line", "column", "end_line", "end_column", "c_line", "c_column",
                 "c_end_line", "c_end_column")

    def __init__(self, data: str, children: list):
        self.data, self.children, self.empty = data, children, True

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"


class _Built(_Tree):
    """A construct already built when its rule was reduced (`value`), with the rule's positions
    (so the enclosing rules' positions come out as from a full parse tree)."""

    __slots__ = ("value",)
    data, children = "_built", ()  # (class attributes over the slots: nothing to set per construct)

    def __init__(self) -> None:
        self.empty = True


_PARSING = threading.local()  # `ast`: the `_Builder` of the parse under way (its `Place`, its first error)


def _passes_on(facts: tuple) -> bool:
    """Whether a rule passes its one child on and only moves the parser's top state (its
    reduction is None)."""
    name, expand1, alias, empty, size, _, _, one_rule = facts[:8]
    # `?sum: product`: Lark would pass the one child on and mark its positions as its own
    # container, which they already are; a third of all reductions are these. So does a
    # chain construct of one part (`?sum: product (ADDOP product)* -> arith`, nothing added)
    return bool(expand1 and not empty and size == 1 and one_rule
                and (not alias or getattr(_SELF_BUILT.get(name), "chain", False)))


def _reduction(facts: tuple) -> Callable | None:
    """One rule's reduction (`facts`: larkside's `rule_facts`), or None for one that passes its one
    child on: `_reductions` of that rule alone (compiled here, not kept)."""
    return _reductions([facts], keep=False)[0]


def _reductions(all_facts: list[tuple], keep: bool = True) -> list[Callable | None]:
    """Each rule's reduction (`all_facts[i]`: larkside's `rule_facts` of rule i), None for a rule
    that passes its one child on (`_passes_on`).

    Each rule's callback builds the construct at once (Lark cannot pass positions to an inline
    transformer): a rule's children are filtered as Lark filters them, its positions computed as
    Lark's `propagate_positions` computes them, then `_Builder`'s method turns it into the node, in
    the order `Transformer_NonRecursive` would have. This spares a second pass over a whole parse
    tree, and Lark's chain of wrappers per reduction: about half the parsing time.

    Each reduction is written for its rule's shape (`_shape`, `_reducer_source`): which children
    are kept, whether the first and last are tokens, a construct's `build` or a plumbing method are
    settled in the text, not tested on each of a run's ~26,000 reductions. Rules of one shape share
    its code, each reduction made with its rule's name, `build` and kept children's places; all
    shapes are compiled as one text. With `keep` the code is kept in the user's cache
    (`reductions.marshal`), keyed by the shapes, Python's version and the code of
    `_reducer_source` itself (a changed generator writes it again): a later process neither
    writes nor compiles the text."""
    shapes: dict[tuple, int] = {}
    made: list = []
    for facts in all_facts:
        if _passes_on(facts):
            made.append(None)
            continue
        name = facts[0]
        build = getattr(_SELF_BUILT.get(name), "build", None)
        method = _PLUMBING.get(name) if build is None else None
        shape, places = _shape(facts, "build" if build is not None else "method" if method is not None else None)
        made.append((shapes.setdefault(shape, len(shapes)), name, build if build is not None else method, places))
    names: dict = {"_Tree": _Tree, "_Built": _Built, "_new": object.__new__, "_first": _first, "_start": _start,
                   "_end": _end, "_meta_loc": _meta_loc, "_PARSING": _PARSING, "ContentError": ContentError,
                   "_failed": _failed}
    exec(_reductions_code(list(shapes), keep), names)
    return [None if m is None else names[f"_shape{m[0]}"](m[1], m[2], m[3]) for m in made]


def _reductions_code(shapes: list[tuple], keep: bool):
    """The compiled `_reducer_source` of each shape, read from the cache when an earlier process
    kept it for the same shapes, Python and generator."""
    key = (1, sys.version, tuple(shapes), _reducer_source.__code__)
    folder = cache_dir() if keep else None
    path = folder / "reductions.marshal" if folder is not None else None
    code = read_cached(path, key)
    if code is None:
        code = compile("".join(_reducer_source(j, shape) for j, shape in enumerate(shapes)), "<reductions>", "exec")
        write_cached(path, key, code)
    return code


def _failed(name: str, kids: list, node: _Tree) -> _Tree:
    """Lark's tree for a rule reduced after a limit was found (nothing more is built), with the
    positions its reduction gave `node`."""
    tree = _Tree(name, kids)
    for attr in _Tree.__slots__[2:]:
        if hasattr(node, attr):
            setattr(tree, attr, getattr(node, attr))
    return tree


# grammar rule -> the construct class that builds itself from the rule's children (`build`)
_SELF_BUILT = {rule: cls for cls in CONSTRUCTS if "build" in cls.__dict__ for rule in cls.grammar}


def _pass_on(children: list) -> object:
    return children[0]


def _first(children) -> Token | _Tree | None:
    """The first child with a position (Lark's `_pp_get_meta`): a token (ours or Lark's: a `str`),
    or a tree (its positions)."""
    for c in children:
        if isinstance(c, _Tree):
            if not c.empty:
                return c
        elif isinstance(c, str):
            return c
    return None


def _start(meta: _Tree, first: Token | _Tree, own: bool) -> None:
    if isinstance(first, _Tree):
        line, column = first.c_line, first.c_column
    else:
        line, column = first.line, first.column
    if own:
        meta.line, meta.column, meta.empty = line, column, False
    meta.c_line, meta.c_column = line, column


def _end(meta: _Tree, last: Token | _Tree, own: bool) -> None:
    if isinstance(last, _Tree):
        line, column = last.c_end_line, last.c_end_column
    else:
        line, column = last.end_line, last.end_column
    if own:
        meta.end_line, meta.end_column, meta.empty = line, column, False
    meta.c_end_line, meta.c_end_column = line, column


def _shape(facts: tuple, makes: str | None) -> tuple[tuple, tuple]:
    """What a rule's reduction depends on besides its name and its `build`: (its shape, the places
    of its kept children when they need no splicing and are not all its children; else ()).
    `makes` is "build" for a construct that builds itself, "method" for a plumbing rule of
    `_Builder`, None for Lark's tree."""
    name, expand1, alias, _, size, first_token, last_token, _, keep, trailing = facts
    tokens_only = bool(first_token and last_token and size <= 2)  # no built construct among its children
    head = (bool(expand1 and not alias), name.startswith("_"), makes, size > 0, tokens_only, bool(first_token),
            bool(last_token))
    if trailing or any(inline or nones for _, inline, nones in keep):
        return head + (tuple(keep), trailing), ()
    picked = tuple(k for k, _, _ in keep)
    whole = picked == tuple(range(size))
    return head + (len(picked), whole), () if whole else picked


def _reducer_source(j: int, shape: tuple) -> str:
    """The text of `_shape{j}(_name, _b, _at)`, which makes the reduction `reduce(children)` of a
    rule of shape `shape` (`_shape`) named `_name`: Lark's child filter (`_rule`s inlined, filtered
    tokens dropped, `None` for a missing `[optional]`; `_at` the places of the kept children when
    the shape says how many), `?rule` passing its one child on, positions, then the construct:
    `_b(loc, kids, source)` for a construct that builds itself (`makes` "build", `Node.build`),
    `_b(source, meta, kids)` for a plumbing rule of `_Builder` ("method"), else (None) Lark's tree."""
    expand1, helper, makes, sized, tokens_only, first_token, last_token = shape[:7]
    plain = makes is None  # Lark's tree, no construct
    lines = [f"def _shape{j}(_name, _b, _at):"]
    end = "    return reduce\n"

    def w(depth: int, line: str) -> None:
        lines.append("    " * (depth + 1) + line)

    # the kept children: `kept` (a list), or one local per kept child (`n_kept` of them) when each is known
    if len(shape) == 9 and isinstance(shape[7], int):
        n_kept, whole = shape[7], shape[8]
        at = [str(k) for k in range(n_kept)] if whole else [f"_at{k}" for k in range(n_kept)]
        if not whole and n_kept:
            w(0, f"{', '.join(at)}, = _at")
        w(0, "def reduce(children):")
        if not (helper or tokens_only or expand1 and n_kept == 1):
            pass  # no list: the construct's children are read one by one (below)
        elif whole:
            w(1, "kept = children")
        else:
            w(1, f"kept = [{', '.join(f'children[{k}]' for k in at)}]")
    else:
        n_kept, whole, at = None, False, []
        keep, trailing = shape[7], shape[8]
        w(0, "def reduce(children):")
        state = "empty"  # what is known of `kept` so far: "empty" (not made yet), "some", "unknown"
        for k, inline, nones in keep + ((None, False, trailing),) if trailing else keep:
            if nones:
                w(1, f"kept {'=' if state == 'empty' else '+='} [{', '.join(['None'] * nones)}]")
                state = "some"
            if k is None:
                continue
            if inline:  # a left-recursive list grows in place (as Lark's filter does): linear, not quadratic
                if state == "empty":
                    w(1, f"kept = children[{k}].children")
                elif state == "some":
                    w(1, f"kept += children[{k}].children")
                else:
                    w(1, "if kept:")
                    w(2, f"kept += children[{k}].children")
                    w(1, "else:")
                    w(2, f"kept = children[{k}].children")
                state = "some" if state == "some" else "unknown"
            else:
                w(1, f"kept = [children[{k}]]" if state == "empty" else f"kept.append(children[{k}])")
                state = "some"
        if state == "empty":
            w(1, "kept = []")
    # the first child with a position: most often the first child, a token or a rule with a position
    if not sized:
        w(1, "first = None")
    else:
        w(1, "first = children[0]")
        if not first_token:
            w(1, "if first is None or isinstance(first, _Tree) and first.empty:")
            w(2, "first = _first(children)")
    if expand1 and n_kept != 0 and (n_kept is None or n_kept == 1):
        depth = 1
        if n_kept is None:
            w(1, "if len(kept) == 1:")
            depth = 2
        w(depth, "res = kept[0]")
        w(depth, "if isinstance(res, _Tree) and first is not None:  # it takes this rule's place: its container grows")
        w(depth + 1, "own = res.empty")
        w(depth + 1, "_start(res, first, own)")
        w(depth + 1, f"_end(res, {'children[-1]' if last_token else '_first(reversed(children))'}, own)")
        w(depth, "return res")
        if n_kept == 1:
            return "\n".join(lines) + "\n" + end
    if helper:  # its parent unwraps the built nodes once (copying here would be quadratic)
        w(1, "node = _new(_Tree)")
        w(1, "node.data, node.children = _name, kept")
    else:
        if tokens_only:
            w(1, "kids = kept")
        elif n_kept is not None:
            for k, place in enumerate(at):
                w(1, f"c{k} = children[{place}]")
            w(1, f"kids = [{', '.join(f'c{k}.value if c{k}.__class__ is _Built else c{k}' for k in range(n_kept))}]")
        else:
            w(1, "kids = [c.value if c.__class__ is _Built else c for c in kept]")
        if plain:
            w(1, "node = _new(_Tree)")
            w(1, "node.data, node.children = _name, kids")
        else:
            w(1, "node = _new(_Built)")
    # the positions (Lark's `propagate_positions`): the first and last children with one
    depth = 1
    if not first_token:
        w(1, "if first is not None:")
        depth = 2

    def from_child(child: str, fields: tuple[str, str]) -> None:
        """The node's `fields` from `child`, a tree's own or a token's (not known here)."""
        w(depth, f"if isinstance({child}, _Tree):")
        for f in fields:
            w(depth + 1, f"node.{f} = node.c_{f} = {child}.c_{f}")
        w(depth, "else:")
        for f in fields:
            w(depth + 1, f"node.{f} = node.c_{f} = {child}.{f}")
    if first_token:
        w(depth, "node.line = node.c_line = line = first.line")
        w(depth, "node.column = node.c_column = first.column")
    else:
        from_child("first", ("line", "column"))
    w(depth, "last = children[-1]")
    if last_token:
        w(depth, "node.end_line = node.c_end_line = end_line = last.end_line")
        w(depth, "node.end_column = node.c_end_column = end_column = last.end_column")
    else:
        w(depth, "if last is None or isinstance(last, _Tree) and last.empty:")
        w(depth + 1, "last = _first(reversed(children))")
        from_child("last", ("end_line", "end_column"))
    w(depth, "node.empty = False")
    if not first_token:
        w(1, "else:")
        w(2, "node.empty = True")
    if helper or plain:
        w(1, "return node")
        return "\n".join(lines) + "\n" + end
    w(1, "ast = _PARSING.ast  # a thread-local, read once: the parse's first error is on the builder")
    w(1, "if ast.error is None:")
    w(2, "try:")
    if makes == "build":
        w(3, "ast.rule = _name")
        if first_token and last_token:  # `_meta_loc`, written out: the rule starts and ends with a token
            w(3, "loc = ast.place.loc(line, node.column, end_column if end_line == line else None)")
        else:
            w(3, "loc = _meta_loc(ast.place, node)")
        w(3, "node.value = _b(loc, kids, ast)")
    else:
        w(3, "node.value = _b(ast, node, kids)")
    w(3, "return node")
    w(2, "except ContentError as e:  # a limit: reported if the text parses (a syntax error comes first)")
    w(3, "ast.error = e")
    w(1, "return _failed(_name, kids, node)  # after an error nothing more is built")
    return "\n".join(lines) + "\n" + end


# ---- where a piece of text sits in its file --------------------------------------------------

@dataclass(frozen=True)
class Place:
    """Maps positions in parsed text to positions in the file it came from.

    `col_offset` shifts every line (a YAML block scalar is dedented); `first_col_offset`
    shifts only the text's first line (an inline YAML value starts mid-line).
    """

    file: str
    line_offset: int = 0
    col_offset: int = 0
    first_col_offset: int = 0
    pin: tuple[int, int] | None = None  # every position maps here (text whose layout is not the file's)

    def loc(self, line: int, col: int, end_col: int | None = None) -> Loc:
        if self.pin is not None:
            return Loc(self.file, *self.pin)
        shift = self.col_offset + (self.first_col_offset if line == 1 else 0)
        return Loc(self.file, line + self.line_offset, col + shift, None if end_col is None else end_col + shift)

    def below(self, lines: int) -> "Place":
        """The place of the text that starts `lines` lines further down."""
        if lines == 0:
            return self
        return replace(self, line_offset=self.line_offset + lines, first_col_offset=0)


# ---- syntax error wording ----------------------------------------------------------------------

_TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of file",
    "NAME": "a name", "INT": "a number", "STRING": 'a "text"', "COMPOP": "a comparison (`==`, `<`, ...)",
    "ADDOP": "`+` or `-`", "MULOP": "`*`, `/` or `%`", "AUGOP": "`+=` or `-=`", "POSITION": "`on top` or `at bottom`",
    "AFTER_THIS": "`after this turn`", "__ANON_0": "`..`",
}
_VALUE_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "LBRACE", "MINUS", "YOUR", "NOT", "EVERY", "SOME", "NO"}
_OPERATORS = {"COMPOP", "ADDOP", "MULOP", "AND", "OR", "DOT", "IN", "IS", "CAN", "OF", "WHERE", "IF", "__ANON_0",
              "LSQB", "LPAR", "MINUS"}

# Typical mistakes, recognised by the unexpected token and what precedes it on the line
# (in the manner of Lark's `match_examples`, but independent of the surrounding expression):
# (unexpected token type or "*", what comes before it, hint). "VALUE" is the end of a value
# (a name, number, text or closing bracket); "START" a value at the start of a statement.
_MISTAKES: list[tuple[str, str, str]] = [
    ("EQUAL", "START", "to change a value write `set NAME to ...`; to name a new one, `let NAME = ...`"),
    ("EQUAL", "VALUE", "compare with `==`; a single `=` belongs to `let NAME = ...`"),
    ("IF", "else", "write `elif` instead of `else if`"),
    ("NAME", "for", "a loop over items is written `for each NAME in ...:`"),
    ("*", ":", "a block starts on the next line, indented under the line that ends with `:`"),
]


def _before(text: str, pos: int) -> str:
    """What precedes offset `pos` on its line, classified as in `_MISTAKES`."""
    line_start = text.rfind("\n", 0, pos) + 1
    head = text[line_start:pos].rstrip()
    if not head:
        return ""
    if head.endswith(":"):
        return ":"
    word = re.search(r"([A-Za-z_]\w*)$", head)
    if word and word.group(1) in KEYWORDS:
        return word.group(1)
    if head[-1].isalnum() or head[-1] in "_\")]}":
        first = re.match(r"\s*([A-Za-z_]\w*)", head)
        return "START" if first and first.group(1) not in KEYWORDS and ":" not in head else "VALUE"
    return head[-1]


def _mistake(err: Exception, text: str, accepts: set[str]) -> str | None:
    """A typical mistake's hint for Lark's `UnexpectedToken` `err`, if it is one (`_MISTAKES`)."""
    if err.token.start_pos is None or err.token.type in ("_NL", "_INDENT", "_DEDENT", "$END"):
        return None
    before = _before(text, err.token.start_pos)
    for tok, prev, hint in _MISTAKES:
        if tok in ("*", err.token.type) and (prev == before or prev == "VALUE" and before == "START"):
            if prev == ":" and accepts - {"_NL"}:
                continue  # after `score p:` a value is due, not a block
            return hint
    return None


def _describe_expected(expected: set[str]) -> str:
    expected = {t for t in expected if not t.startswith("__") or t == "__ANON_0"}
    words: list[str] = []
    if {"NAME", "INT", "STRING"} <= expected:
        words.append("a value")
        expected -= _VALUE_START
    if len(expected & _OPERATORS) >= 4:
        words.append("an operator")
        expected -= _OPERATORS
    terminals = {t.name: t for t in _lark().terminals}
    for t in sorted(expected):
        if t in _TOKEN_WORDS:
            words.append(_TOKEN_WORDS[t])
        elif t in terminals and terminals[t].pattern.type == "str":
            words.append(f"`{terminals[t].pattern.value}`")
        else:
            words.append(t.lower())
    if len(words) > 7:
        words = words[:7] + ["..."]
    return ", ".join(words)


def _token_text(tok: Token) -> str:
    if tok.type == "NAME":
        return f"name `{tok}`"
    if tok.type == "INT":
        return f"number `{tok}`"
    if tok.type == "STRING":
        return f"text {tok}"
    return f"`{tok}`"


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _unclosed_bracket(text: str, upto: int) -> tuple[str, int, int] | None:
    """The innermost bracket still open at offset `upto`: (char, line, col), 1-based."""
    stack: list[tuple[str, int, int]] = []
    line, col, i, n = 1, 1, 0, min(upto, len(text))
    while i < n:
        ch = text[i]
        if ch == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if ch == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            col += j + 1 - i
            i = j + 1
            continue
        if ch in _CLOSERS:
            stack.append((ch, line, col))
        elif ch in ")]}" and stack and _CLOSERS[stack[-1][0]] == ch:
            stack.pop()
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    return stack[-1] if stack else None


def _line_end_col(src: str, before: int | None = None) -> int:
    """The column just after the last code character of a line (ignoring a trailing comment)."""
    code = src if before is None else src[:max(before - 1, 0)]
    code = code.split("#", 1)[0] if '"' not in code else code
    return len(code.rstrip()) + 1


def _syntax_diagnostic(err: Exception, text: str, place: Place) -> Diagnostic:
    """Word one syntax error: where it is, what was found, what would fit."""
    lark = _larkside()
    lines = text.split("\n")

    def src(line: int) -> str:
        return lines[line - 1] if 0 < line <= len(lines) else ""

    hint: str | None = None
    if isinstance(err, lark.IndentationProblem):
        line, col = err.line, err.column
        if not err.levels:
            return Diagnostic("error", "limit/depth", "blocks are nested too deeply", place.loc(line, col),
                              f"keep nesting under {MAX_NESTING} levels", src(line))
        levels = " or ".join(str(c) for c in err.levels)
        return _diag(place, line, col, "this line's indentation matches no enclosing block", src(line),
                     f"line it up with a block above: start it at column {levels}", col + 1)
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    if isinstance(err, lark.UnexpectedToken):
        tok = err.token
        accepts = set(err.accepts or err.expected)
        pos = tok.start_pos if tok.type != "$END" and tok.start_pos is not None else len(text)
        if tok.type in ("_INDENT", "_DEDENT"):  # these borrow the newline's position: use the next line's
            line = (tok.line or 1) + _newlines_before_last_line(text, tok)
            col = len(src(line)) - len(src(line).lstrip()) + 1
        elif tok.type == "$END":
            line = _last_code_line(lines)
            col = _line_end_col(src(line))
        elif tok.type == "_NL":
            col = _line_end_col(src(line), col)
        bracket = _unclosed_bracket(text, pos)
        if bracket and (tok.type == "$END" or bracket[1] < line):
            ch, bline, bcol = bracket
            return _diag(place, bline, bcol, f"`{ch}` is not closed", src(bline),
                         f"close it with `{_CLOSERS[ch]}` (a bracket stays open across lines until closed)")
        example = _mistake(err, text, accepts)
        typo = _keyword_typo(src(line), col)
        if typo is not None:
            word, kw = typo
            wcol = src(line).index(word) + 1
            return _diag(place, line, wcol, f"`{word}` does not start a statement or declaration", src(line),
                         f"did you mean `{kw}`?", wcol + len(word))
        if "_INDENT" in accepts and tok.type != "_INDENT":
            message = "expected an indented block here"
            hint = "the lines after a line ending with `:` are indented (4 spaces)"
            if tok.type not in ("_DEDENT", "$END"):
                hint = example or hint
        elif tok.type == "_NL":
            message = "the line ends too early"
            if "COLON" in accepts and len(accepts) <= 3:
                message, hint = "expected `:` at the end of this line", "a line that opens a block ends with `:`"
        elif tok.type == "$END":
            message = "the file ends too early"
        elif tok.type == "_INDENT":
            message = "unexpected indentation"
            hint = "only a line ending with `:` starts an indented block"
        elif tok.type == "_DEDENT":
            message = "the block ends too early"
        else:
            message = f"unexpected {_token_text(tok)}"
        if example is not None:
            hint = example
        elif hint is None:
            expected = _describe_expected(accepts)
            hint = f"expected {expected}" if expected else None
        if bracket and bracket[1] == line and hint and "expected" in hint:
            hint = f"the `{bracket[0]}` at column {place.loc(line, bracket[2]).col} is not closed; {hint}"
        end = col + len(tok) if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") and len(tok) else None
        return _diag(place, line, col, message, src(line), hint, end)
    if isinstance(err, lark.UnexpectedCharacters):
        ch = src(line)[col - 1:col]
        message = f"unexpected character `{ch}`" if ch.strip() else "unexpected character"
        hint = {"'": 'texts are written in double quotes: "like this"', "\t": "indent with spaces",
                ";": "a statement ends at the end of its line: remove the `;`",
                "&": "write `and`", "!": "write `not` (or `!=` to compare)", '"': "close the text on the same line"}.get(ch)
        if ch == "|":
            hint = "write `or` (a `|` only separates the values of a card field)"
        return _diag(place, line, col, message, src(line), hint)
    return _diag(place, line, col, "syntax error", src(line), None)


def _diag(place: Place, line: int, col: int, message: str, src: str, hint: str | None,
          end_col: int | None = None) -> Diagnostic:
    loc = place.loc(line, col, end_col)
    shift = loc.col - col
    return Diagnostic("error", "syntax", message, loc, hint, " " * shift + src if shift > 0 else src)


def _newlines_before_last_line(text: str, tok: Token) -> int:
    """An _INDENT/_DEDENT sits on the line after its newline token (which may span comments)."""
    start = tok.start_pos
    if start is None:
        return 0
    m = re.compile(r"(?:\r?\n[\t ]*|#[^\n]*)+").match(text, start)
    return m.group(0).count("\n") if m else 0


def _last_code_line(lines: list[str]) -> int:
    for i in range(len(lines), 0, -1):
        s = lines[i - 1].strip()
        if s and not s.startswith("#"):
            return i
    return 1


def _keyword_typo(src: str, col: int) -> tuple[str, str] | None:
    """`shufle deck`: the line's first word is no keyword but close to one, and the error is on it
    or right after it."""
    m = re.match(r"([\t ]*)([A-Za-z_]\w*)([\t ]+)", src)
    if not m or m.group(2) in KEYWORDS or col not in (m.end() + 1, m.start(2) + 1):
        return None
    word = m.group(2)
    hint = did_you_mean(word, KEYWORDS)
    return (word, hint.split("`")[1]) if hint else None


# ---- parsing -------------------------------------------------------------------------------------

def _check_size(text: str, place: Place) -> None:
    if len(text) > MAX_SOURCE_BYTES or len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        raise ContentError([Diagnostic("error", "limit/size", f"file is larger than {MAX_SOURCE_BYTES} bytes",
                                       place.loc(1, 1), "split the rules into several files")])


def _raw_parse(text: str, start: str, place: Place) -> Node:
    """Parse and build the constructs as rules are reduced (see `_reduction`)."""
    fast = _fast()
    _PARSING.ast = _Builder(place)
    try:
        try:
            if fast is None:
                raise Unusual()
            built = fast.parse(text, start, MAX_NESTING)
        except Unusual:  # an error: Lark's own parse raises it, worded as it always was
            _PARSING.ast = _Builder(place)
            built = _lark().parse(text, start=start)
        error = _PARSING.ast.error
        if error is not None:  # a limit found while building (a number too long)
            raise error
    finally:
        _PARSING.ast = None
    return built.value


def token_kinds(text: str) -> dict[tuple[int, int], str]:
    """The grammar's name for each token of a .rules file that parses, by (line, column) (1-based):
    `NAME` for a name, `MINUS` for a sign, `ADDOP` for a subtraction, the upper-cased word for a
    keyword. The lexer is contextual, so a word such as `x` is a keyword in one place and a name in
    another: the formatter asks here rather than guessing."""
    lark = _lark()
    _PARSING.ast = _Builder(Place("<text>"))
    kinds: dict[tuple[int, int], str] = {}
    try:
        for tok in lark.parse_interactive(text, start="start").iter_parse():
            if tok.line is not None and not tok.type.startswith("_"):
                kinds[(tok.line, tok.column)] = tok.type
    finally:
        _PARSING.ast = None
    return kinds


def _to_ast(node: Node, place: Place) -> Node:
    deep = _too_deep(node)
    if deep is not None and deep[1]:
        raise ContentError([Diagnostic("error", "limit/depth", f"more than {MAX_BINDING_NESTING} `where`, `for`, "
                                       "`some`, `every` or `no` inside each other", deep[0].loc,
                                       "name the inner ones with `let` or a `function`")])
    if deep is not None:
        raise ContentError([Diagnostic("error", "limit/depth", "this is nested too deeply", deep[0].loc,
                                       "split long expressions with `let`; keep nesting under "
                                       f"{MAX_AST_DEPTH} levels")])
    return node


def _too_deep(root: Node) -> tuple[Node, bool] | None:
    """The first node nested deeper than MAX_AST_DEPTH (later stages recurse over the tree), or
    the first binding expression inside MAX_BINDING_NESTING others (True). Only a construct's
    `node_fields` are read (those that may hold nodes), and a leaf (a construct that holds none, such as a
    name) is not visited where it cannot be too deep."""
    stack = [(root, 0, 0)]
    push = stack.append
    none: frozenset = frozenset()
    while stack:
        n, d, b = stack.pop()
        if d > MAX_AST_DEPTH:
            return n, False
        if n.kind in _BINDING:
            b += 1
            if b > MAX_BINDING_NESTING:
                return n, True
        names = _NODE_FIELDS.get(n.__class__)
        if names is None:
            names = _node_fields(n.__class__)
        d += 1
        leaves = _LEAVES if d <= MAX_AST_DEPTH else none
        for f in names:  # `n.children()` in the same order, without a generator per node
            v = getattr(n, f)
            if isinstance(v, Node):
                if v.__class__ not in leaves:
                    push((v, d, b))
            elif isinstance(v, (list, tuple)):
                for c in v:  # `_nodes_in(v)`, in the same order, a generator only for a list in a list
                    if isinstance(c, Node):
                        if c.__class__ not in leaves:
                            push((c, d, b))
                    elif isinstance(c, (list, tuple)):
                        stack.extend((x, d, b) for x in _nodes_in(c))
    return None


_NODE_FIELDS: dict[type, tuple[str, ...]] = {}  # construct class -> its `node_fields`, as classes are met
_LEAVES: set[type] = set()  # the classes met that hold no node and bind nothing


def _node_fields(cls: type) -> tuple[str, ...]:
    names = _NODE_FIELDS[cls] = node_fields(cls)
    if not names and cls.kind not in _BINDING:
        _LEAVES.add(cls)
    return names


def _parse_one(text: str, start: str, place: Place) -> Node:
    """Parse text that should hold no error; raise ContentError with the first one otherwise."""
    try:
        tree = _raw_parse(text, start, place)
    except ContentError:
        raise
    except Exception as err:  # Lark's, raised only after Lark was imported (larkside.py)
        lark = _larkside()
        if isinstance(err, (lark.UnexpectedInput, lark.IndentationProblem)):
            raise ContentError([_syntax_diagnostic(err, text, place)]) from None
        if isinstance(err, (lark.LarkError, AssertionError)):  # anything else Lark may raise on odd input
            raise ContentError([Diagnostic("error", "syntax", f"cannot parse: {str(err).splitlines()[0]}",
                                           place.loc(1, 1), "check the indentation and brackets")]) from None
        raise
    return _to_ast(tree, place)


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split text before each unindented line that starts a declaration: (line index, text)."""
    lines = text.split("\n")
    starts = [0] + [i for i, l in enumerate(lines) if i and _DECL_START.match(l)]
    return [(a, "\n".join(lines[a:b]) + "\n") for a, b in zip(starts, starts[1:] + [len(lines)])]


def _parse_all(text: str, start: str, place: Place,
               parse_chunk: Callable[[int, str], Node] | None = None) -> tuple[Node, list[Diagnostic]]:
    """Parse; on errors, keep going declaration by declaration and report one error per broken one.
    `parse_chunk(offset, text)` parses one declaration (an editor's cached parse, see
    `parse_rules_by_declaration`)."""
    _check_size(text, place)
    if not text.endswith("\n"):
        text += "\n"
    kind, key = ("module", "decls") if start == "start" else ("effect", "triggers")
    if parse_chunk is None:
        def parse_chunk(offset: int, chunk: str) -> Node:
            return _parse_one(chunk, start, place.below(offset))
    try:
        return _parse_one(text, start, place), []
    except ContentError as e:
        first = e.diagnostics[0]
    diags = [first]
    first_line = first.loc.line - place.line_offset if first.loc else 1
    items: list[Node] = []
    unparsed: list[tuple[str, str]] = []
    for offset, chunk in _chunks(text):
        try:
            node = parse_chunk(offset, chunk)
            items.extend(getattr(node, key))
            items.extend(getattr(node, "copies", ()))
            continue
        except ContentError as e:
            d = e.diagnostics[0]
        unparsed.append(_lost_decl(chunk))
        if offset + 1 > first_line:  # a chunk before it parsed in context: its failure alone is an artifact
            diags.append(d)
    return _root(start, place.loc(1, 1), items, unparsed), diags


def _lost_decl(chunk: str) -> tuple[str, str]:
    """(kind, name) of the declaration a broken chunk was meant to be: ("zone", "deck"), ("turn", ""),
    or ("*", "") when it cannot be told."""
    line = next((l for l in chunk.split("\n") if l.strip() and not l.lstrip().startswith("#")), "")
    m = _DECL_NAME.match(line)
    if m:
        return m.group(1).split()[-1].replace("type", "card"), m.group(2)
    m = _MISSPELT_CARD_TYPE.match(line)  # `card typ Gem:`: still the card type Gem, whose uses are not errors
    if m:
        return "card", m.group(1)
    m = _DECL_START.match(line)
    return (m.group(0), "") if m else ("*", "")


def _empty(start: str, place: Place, unparsed: list[tuple[str, str]]) -> Node:
    return _root(start, place.loc(1, 1), [], unparsed)


def _root(start: str, loc: Loc, items: list[Node], unparsed: list[tuple[str, str]]) -> Module | Effect:
    """The tree of a whole file (`start`) or of a card's effect text."""
    if start == "start":
        return Module(loc=loc, decls=items, unparsed=unparsed)
    return Effect.of(loc, items, unparsed)


def parse_rules_partial(text: str, file: str) -> tuple[Node, list[Diagnostic]]:
    """Parse a .rules file as far as possible: a `module` node (its `unparsed` lists the (kind, name)
    of declarations lost to syntax errors, kind `*` when unknown) and the syntax diagnostics."""
    try:
        return _parse_all(text, "start", Place(file))
    except ContentError as e:
        return _empty("start", Place(file), [("*", "")]), e.diagnostics


def parse_rules_by_declaration(text: str, file: str, memo: Callable[[tuple, Callable[[], Node]], Node]) \
        -> tuple[Node, list[Diagnostic]]:
    """`parse_rules_partial`, one top-level declaration at a time, each through `memo(key, parse)`
    (an editor's cache): after an edit only the declarations whose text or first line changed are
    parsed again. In a file with errors the whole file is parsed up to its first error, so the
    diagnostics are the same words as `parse_rules_partial` gives."""
    place = Place(file)
    try:
        _check_size(text, place)
    except ContentError as e:
        return _empty("start", place, [("*", "")]), e.diagnostics
    if not text.endswith("\n"):
        text += "\n"
    def parsed(offset: int, chunk: str) -> Node:
        # the same text elsewhere in the file (lines added or removed above it): moved, not parsed
        at, module = memo(("declaration", file, chunk), lambda: (offset, _parse_one(chunk, "start", place.below(offset))))
        return module if at == offset else _moved(module, offset - at)

    def cached(offset: int, chunk: str) -> Node:
        return memo(("declarations", file, offset, chunk), functools.partial(parsed, offset, chunk))

    decls: list[Node] = []
    for offset, chunk in _chunks(text):
        try:
            decls.extend(cached(offset, chunk).decls)
        except ContentError:  # the whole file's parse words the first error (the others come from `cached`)
            return _parse_all(text, "start", place, cached)
    return _root("start", place.loc(1, 1), decls, []), []


_ALL_FIELDS: dict[type, tuple[str, ...]] = {}


def _moved(value: object, lines: int) -> object:
    """A copy of a syntax tree (or a value in one) with every location `lines` lines further down."""
    if isinstance(value, Node):
        cls = type(value)
        names = _ALL_FIELDS.get(cls)
        if names is None:
            names = _ALL_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
        copy = object.__new__(cls)
        for name in names:
            setattr(copy, name, _moved(getattr(value, name), lines))
        return copy
    if isinstance(value, Loc):
        return replace(value, line=value.line + lines)
    if isinstance(value, (list, tuple)):
        return type(value)(_moved(v, lines) for v in value)
    return value


def parse_rules(text: str, file: str) -> Node:
    """Parse a whole .rules file into a `module` node; raise ContentError listing every syntax error."""
    node, diags = parse_rules_partial(text, file)
    if diags:
        raise ContentError(diags)
    return node


def parse_effect(text: str, file: str, line_offset: int = 0, col_offset: int = 0, block: bool = False) -> Node:
    """Parse a card's `effect:` text (a list of `when` triggers). The text sits in its YAML file
    `line_offset` lines down; `col_offset` columns right, on every line for a `|` block
    (`block=True`), else on its first line only; a multi-line value that is not a block is
    reported at its start, since escapes and folding make its lines differ from the file's."""
    if block:
        place = Place(file, line_offset, col_offset)
    elif "\n" in text.rstrip("\n"):  # a quoted or folded value: its lines are not the file's lines
        place = Place(file, pin=(line_offset + 1, col_offset + 1))
    else:
        place = Place(file, line_offset, first_col_offset=col_offset)
    try:
        node, diags = _parse_all(text, "effect", place)
    except ContentError as e:
        diags = e.diagnostics
    if diags:
        raise ContentError(diags)
    return node


# ---- parse tree → AST ----------------------------------------------------------------------------

def _v(tok):
    return None if tok is None else str(tok)


class _Source:
    """What a construct's `build` asks of the parse (`tree.Source`): token locations and decoded
    literals. A base class of `_Builder` (and so of larkside's `_ToAst`, which `v_args` decorates:
    Lark wraps every public method of the decorated class itself, and each access would build a
    new wrapper; inherited ones it leaves alone)."""

    place: "Place"

    def token_loc(self, tok: Token) -> Loc:
        """Where a token of the rule was written (tree.Source)."""
        return self.place.loc(tok.line, tok.column, tok.column + len(tok))

    _tok = token_loc

    def text(self, tok: Token) -> str:
        """A text token's content, escapes decoded (tree.Source)."""
        return _unquote(tok)

    def number(self, tok: Token) -> int:
        """A number token's value; more than MAX_NUMBER_DIGITS digits is a diagnostic (Python
        refuses to convert very long ones at all, and arithmetic is bounded below 2 ** 63)."""
        text = str(tok).split()[0]
        if len(text) > MAX_NUMBER_DIGITS:
            raise ContentError([Diagnostic("error", "limit/number", f"a number of {len(text)} digits",
                                           self._tok(tok), f"numbers have at most {MAX_NUMBER_DIGITS} digits")])
        return int(text)

    _int = number

    def _loc(self, meta) -> Loc:
        return _meta_loc(self.place, meta)


def _meta_loc(place: Place, meta) -> Loc:
    """Where a rule was written, from its positions (ours or Lark's `Meta`): its start, and its
    end column when it ends on the same line."""
    if getattr(meta, "empty", True):
        return place.loc(1, 1)
    return place.loc(meta.line, meta.column, meta.end_column if meta.end_line == meta.line else None)


class _Builder(_Source):
    """What the reductions call: the methods of the grammar's plumbing rules (named after the
    rules' aliases; every construct builds itself, language/tree.py), and the `tree.Source` a
    construct's `build` asks for token locations and decoded literals. Lark's transformer over a
    whole parse tree (`_ToAst`, language/larkside.py, for tests) has the same methods."""

    def __init__(self, place: Place):
        super().__init__()
        self.place = place
        self.rule = ""  # the grammar rule being built (tree.Source)
        self.error: ContentError | None = None  # the first limit found while building (then nothing more is built)

    # -- declarations' plumbing: parts of a construct, built by its class (language/tree.py)
    def per_player(self, meta, c):
        return True

    def stat_bounds(self, meta, c):
        return (self._int(c[0]), self._int(c[1]) if c[1] is not None else None)  # `lo..`: no top

    def params(self, meta, c):
        return [str(t) for t in c]

    # -- plumbing: rules that make no construct, only the list or pair a construct's `build` reads
    # (statements and expressions build themselves: language/tree.py)
    def block(self, meta, c):
        return list(c)

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def args(self, meta, c):
        return list(c)

    def pair(self, meta, c):
        return (c[0], c[1])

    # an action's use limit (`once per turn`): its count and period, read by `ActionDecl.build`
    def use_limit(self, meta, c):
        word = str(c[0]).split()[0]
        return ({"once": 1, "twice": 2}.get(word) or self._int(c[0]), str(c[1]))

    # -- modding (docs/modding.md) and card parts (docs/language-stacks-and-markets.md): a rule that
    # marks the declarations it holds builds no construct of its own
    def replace_decl(self, meta, c):
        return dataclasses.replace(c[0], replace=True)  # the declaration reads as itself, marked

    def hook_when(self, meta, c):
        return str(c[0])

    def hook_phase(self, meta, c):
        return c[0]

    def part_decl(self, meta, c):
        part = str(c[0])
        return [dataclasses.replace(ability, part=part) for ability in c[1:]]


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(tok) -> str:
    """A rule text's content: `\\n`, `\\t`, `\\"` and `\\\\` are escapes; any other backslash stays."""
    s = str(tok)
    if not s.startswith('"'):
        return s
    return re.sub(r'\\(.)', lambda m: _ESCAPES.get(m.group(1), m.group(0)), s[1:-1])


# grammar rule -> `_Builder`'s method for it (a plumbing rule: no construct of its own)
_PLUMBING = {name: f for name, f in vars(_Builder).items() if not name.startswith("_") and callable(f)}
