"""Parse rule text into AST nodes (Lark LALR, indentation blocks).

Syntax errors become Diagnostics with file:line:col, a caret and a hint; never tracebacks.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from .ast import Node
from .diagnostics import ContentError, Diagnostic, Loc

__all__ = ["parse_rules", "parse_effect", "GRAMMAR_PATH", "MAX_SOURCE_BYTES"]

GRAMMAR_PATH = Path(__file__).resolve().parent.parent / "grammar" / "grimoire.lark"
MAX_SOURCE_BYTES = 1_000_000  # rule files are untrusted: refuse absurd sizes up front
MAX_NESTING = 60  # indentation / bracket depth


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def _cache_file() -> str | bool:
    """Lark caches the built parser (keyed by grammar hash) in a user cache dir, not in /tmp."""
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "grimoire"
    try:
        base.mkdir(parents=True, exist_ok=True)
        return str(base / "parser.lark-cache")
    except OSError:
        return False


@functools.lru_cache(maxsize=None)
def _lark() -> Lark:
    options = dict(parser="lalr", start=["start", "effect"], postlex=_Indenter(), propagate_positions=True,
                   maybe_placeholders=True)
    text = GRAMMAR_PATH.read_text(encoding="utf-8")
    try:
        return Lark(text, cache=_cache_file(), **options)
    except (OSError, EOFError, ValueError):  # an unreadable cache must never stop us
        return Lark(text, **options)


def _parser(start: str):
    lark = _lark()
    return _StartParser(lark, start)


class _StartParser:
    def __init__(self, lark: Lark, start: str):
        self.lark, self.start = lark, start

    def parse(self, text: str):
        return self.lark.parse(text, start=self.start)


_TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "COLON": "`:`",
    "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "COMMA": "`,`", "$END": "end of file",
}


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, f"`{t.lower()}`" if t.isupper() and not t.startswith("_") else t)
                    for t in expected if not t.startswith("__")})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def _syntax_diagnostic(err: UnexpectedInput, text: str, file: str, line_offset: int, col_offset: int) -> Diagnostic:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    hint = None
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "_NL":
            message = "the line ends too early"
            col = len(src.rstrip()) + 1 if src.strip() else col
        elif tok.type == "$END":
            message = "the file ends too early"
        elif tok.type == "_INDENT":
            message = "unexpected indentation"
            hint = "only a line ending with `:` starts an indented block"
        elif tok.type == "_DEDENT":
            message = "the block ends too early"
        else:
            message = f"unexpected {tok.type.lower() if tok.type != 'NAME' else 'name'} `{tok}`"
        expected = _describe_expected(set(err.accepts or err.expected))
        if expected and hint is None:
            hint = f"expected {expected}"
        if ":" in expected and tok.type == "_NL":
            hint = "a line that opens a block must end with `:`"
    elif isinstance(err, UnexpectedCharacters):
        message = f"unexpected character `{src[col - 1:col] if col - 1 < len(src) else '?'}`"
        if src[col - 1:col] == "'":
            hint = 'texts are written in double quotes: "like this"'
        elif src[col - 1:col] == "\t":
            hint = "indent with spaces"
    else:
        message = "syntax error"
    if line == 1:
        col += col_offset
    loc = Loc(file, line + line_offset, col)
    return Diagnostic("error", "syntax", message, loc, hint, src if line != 1 or not col_offset else " " * col_offset + src)


def _parse(text: str, start: str, file: str, line_offset: int = 0, col_offset: int = 0) -> Node:
    if len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        raise ContentError([Diagnostic("error", "limit/size", f"file is larger than {MAX_SOURCE_BYTES} bytes",
                                       Loc(file, 1 + line_offset, 1), "split the rules into several files")])
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser(start).parse(text)
    except UnexpectedInput as err:
        raise ContentError([_syntax_diagnostic(err, text, file, line_offset, col_offset)]) from None
    except LarkError as err:  # e.g. dedent to an unknown level
        raise ContentError([Diagnostic("error", "syntax", f"bad indentation: {err}".split("\n")[0],
                                       Loc(file, 1 + line_offset, 1), "indent blocks consistently with spaces")]) from None
    try:
        return _ToAst(file, line_offset, col_offset).transform(tree)
    except RecursionError:
        raise ContentError([Diagnostic("error", "limit/depth", "rules are nested too deeply",
                                       Loc(file, 1 + line_offset, 1), f"keep nesting under {MAX_NESTING} levels")]) from None


def parse_rules(text: str, file: str) -> Node:
    """Parse a whole .rules file into a `module` node."""
    return _parse(text, "start", file)


def parse_effect(text: str, file: str, line_offset: int = 0, col_offset: int = 0) -> Node:
    """Parse a card's `effect:` text (a list of `when` triggers)."""
    return _parse(text, "effect", file, line_offset, col_offset)


def _v(tok):
    return None if tok is None else str(tok)


@v_args(meta=True)
class _ToAst(Transformer):
    """Grammar rule → Node. Method names follow the grammar's rule aliases."""

    def __init__(self, file: str, line_offset: int, col_offset: int):
        super().__init__()
        self.file, self.line_offset, self.col_offset = file, line_offset, col_offset

    def _loc(self, meta) -> Loc:
        if getattr(meta, "empty", True):
            return Loc(self.file, 1 + self.line_offset, 1)
        col = meta.column + (self.col_offset if meta.line == 1 else 0)
        end = meta.end_column + (self.col_offset if meta.end_line == 1 else 0) if meta.end_line == meta.line else None
        return Loc(self.file, meta.line + self.line_offset, col, end)

    def _n(self, kind, meta, **kw) -> Node:
        return Node(kind, self._loc(meta), **kw)

    # -- top level
    def start(self, meta, items):
        return self._n("module", meta, decls=[i for i in items if isinstance(i, Node)])

    def effect(self, meta, items):
        return self._n("effect", meta, triggers=[i for i in items if isinstance(i, Node)])

    def game_decl(self, meta, c):
        return self._n("game", meta, title=_unquote(c[0]), items=c[1:])

    def game_item(self, meta, c):
        return self._n("game_item", meta, name=str(c[0]), value=c[1])

    def card_type(self, meta, c):
        return self._n("card_type", meta, name=str(c[0]), fields_=c[1:])

    def field_decl(self, meta, c):
        return self._n("field", meta, name=str(c[0]), type=c[1], default=c[2] if len(c) > 2 else None)

    def range_type(self, meta, c):
        return self._n("range_type", meta, lo=int(c[0]), hi=int(c[1]))

    def enum_type(self, meta, c):
        names = [str(t) for t in c]
        if len(names) == 1 and names[0] in ("number", "text", "flag"):
            return self._n("basic_type", meta, name=names[0])
        return self._n("enum_type", meta, values=names)

    def zone_decl(self, meta, c):
        return self._n("zone", meta, name=str(c[0]), props=c[1:])

    def zone_prop(self, meta, c):
        words = [str(t) for t in c if t is not None and t.type == "NAME"]
        num = [int(t) for t in c if t is not None and t.type == "INT"]
        return self._n("zone_prop", meta, words=" ".join(words), number=num[0] if num else None)

    def stat_decl(self, meta, c):
        per_player, name, bounds, init = c
        lo, hi = bounds if bounds is not None else (None, None)
        return self._n("stat", meta, name=str(name), per_player=per_player is not None, lo=lo, hi=hi, init=init)

    def per_player(self, meta, c):
        return True

    def stat_bounds(self, meta, c):
        return (int(c[0]), int(c[1]))

    def const_decl(self, meta, c):
        return self._n("constant", meta, name=str(c[0]), value=c[1])

    def event_decl(self, meta, c):
        return self._n("event", meta, name=str(c[0]))

    def phase_decl(self, meta, c):
        return self._n("phase", meta, name=str(c[0]), body=c[-1])

    def proc_decl(self, meta, c):
        return self._n("procedure", meta, name=str(c[0]), params=c[1] or [], body=c[2])

    def params(self, meta, c):
        return [str(t) for t in c]

    def trigger(self, meta, c):
        return self._n("trigger", meta, event=str(c[0]), binder=_v(c[1]), cond=c[2], body=c[3])

    def watcher(self, meta, c):
        return self._n("watcher", meta, cond=c[0], body=c[1])

    def always_decl(self, meta, c):
        return self._n("always", meta, body=c[0])

    def placement_decl(self, meta, c):
        return self._n("placement", meta, zone=str(c[0]), binder=str(c[1]), conds=list(c[2:]))

    def score_decl(self, meta, c):
        return self._n("score", meta, binder=str(c[0]), expr=c[1])

    def tiebreak_decl(self, meta, c):
        return self._n("tiebreak", meta, binder=str(c[0]), expr=c[1])

    # -- statements
    def block(self, meta, c):
        return list(c)

    def let_stmt(self, meta, c):
        return self._n("let", meta, name=str(c[0]), expr=c[1])

    def set_stmt(self, meta, c):
        return self._n("set", meta, target=c[0], expr=c[1])

    def aug_stmt(self, meta, c):
        return self._n("aug", meta, target=c[0], op=str(c[1]), expr=c[2])

    def move_stmt(self, meta, c):
        pos = " ".join(str(c[2]).split()) if c[2] is not None else None
        return self._n("move", meta, what=c[0], dest=c[1], position=pos, name=_v(c[3]))

    def draw_stmt(self, meta, c):
        return self._n("draw", meta, count=c[0], source=c[1], dest=c[2], name=_v(c[3]))

    def place_stmt(self, meta, c):
        return self._n("place", meta, what=c[0], zone=c[1])

    def cover_stmt(self, meta, c):
        return self._n("cover", meta, what=c[0], target=c[1])

    def shuffle_stmt(self, meta, c):
        return self._n("shuffle", meta, zone=c[0])

    def fire_stmt(self, meta, c):
        return self._n("fire", meta, event=str(c[0]), subject=c[1], actor=c[2])

    def choose_stmt(self, meta, c):
        return self._n("choose", meta, player=c[0], count=c[2], name=str(c[3]), options=c[4],
                       prompt=_unquote(c[5]) if c[5] is not None else None)

    def break_stmt(self, meta, c):
        return self._n("break", meta)

    def continue_stmt(self, meta, c):
        return self._n("continue", meta)

    def pass_stmt(self, meta, c):
        return self._n("pass", meta)

    def end_stmt(self, meta, c):
        when = str(c[0]).split()[-1] if c[0] is not None else None
        return self._n("end_game", meta, after=when)

    def play_turn_stmt(self, meta, c):
        return self._n("play_turn", meta, player=c[0])

    def play_round_stmt(self, meta, c):
        return self._n("play_round", meta)

    def log_stmt(self, meta, c):
        return self._n("log", meta, expr=c[0])

    def call_stmt(self, meta, c):
        return self._n("call_stmt", meta, expr=c[0])

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        other = None
        for item in c[2:]:
            if isinstance(item, tuple):
                branches.append(item)
            elif item is not None:
                other = item
        return self._n("if", meta, branches=branches, orelse=other)

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def may_cond(self, meta, c):
        player, negate = c[0], False
        while player.kind == "not":  # `not you may "..."` negates the answer, not the player
            player, negate = player.expr, not negate
        return self._n("may", meta, player=player, prompt=_unquote(c[1]), negate=negate)

    def for_stmt(self, meta, c):
        return self._n("for", meta, name=str(c[0]), iter=c[1], body=c[2])

    def repeat_forever(self, meta, c):
        return self._n("repeat", meta, times=None, cond=None, body=c[0])

    def repeat_times(self, meta, c):
        return self._n("repeat", meta, times=c[0], cond=None, body=c[1])

    def while_loop(self, meta, c):
        return self._n("repeat", meta, times=None, cond=c[0], body=c[1])

    # -- expressions
    def where_expr(self, meta, c):
        return self._n("where", meta, items=c[0], cond=c[1])

    def if_expr(self, meta, c):
        return self._n("if_expr", meta, then=c[0], cond=c[1], orelse=c[2])

    def quantified(self, meta, c):
        return self._n("quantified", meta, quantifier=str(c[0].children[0]), names=[str(t) for t in c[1:-2]],
                       iter=c[-2], cond=c[-1])

    def or_expr(self, meta, c):
        return self._n("or", meta, items=list(c)) if len(c) > 1 else c[0]

    def and_expr(self, meta, c):
        return self._n("and", meta, items=list(c)) if len(c) > 1 else c[0]

    def not_expr(self, meta, c):
        return self._n("not", meta, expr=c[0])

    def compare(self, meta, c):
        return self._n("compare", meta, op=str(c[1]), left=c[0], right=c[2])

    def in_expr(self, meta, c):
        return self._n("in", meta, item=c[0], coll=c[1])

    def is_expr(self, meta, c):
        return self._n("is", meta, expr=c[0], what=str(c[1]), negate=False)

    def is_not_expr(self, meta, c):
        return self._n("is", meta, expr=c[0], what=str(c[1]), negate=True)

    def can_place_expr(self, meta, c):
        return self._n("can_place", meta, what=c[0], zone=c[1])

    def range_lit(self, meta, c):
        return self._n("range", meta, lo=c[0], hi=c[1])

    def arith(self, meta, c):
        if len(c) == 1:
            return c[0]
        node = c[0]
        for i in range(1, len(c), 2):
            node = Node("arith", node.loc, op=str(c[i]), left=node, right=c[i + 1])
        return node

    def neg(self, meta, c):
        return self._n("neg", meta, expr=c[0])

    def of_expr(self, meta, c):
        return self._n("of", meta, name=str(c[0]), name_loc=_tok_loc(self, c[0]), owner=c[1])

    def your_expr(self, meta, c):
        you = Node("name", self._loc(meta), id="you")
        return self._n("of", meta, name=str(c[0]), name_loc=_tok_loc(self, c[0]), owner=you)

    def attr(self, meta, c):
        return self._n("attr", meta, obj=c[0], name=str(c[1]), name_loc=_tok_loc(self, c[1]))

    def index(self, meta, c):
        return self._n("index", meta, obj=c[0], key=c[1])

    def call(self, meta, c):
        return self._n("call", meta, func=str(c[0]), args=c[1] or [])

    def args(self, meta, c):
        return list(c)

    def int_lit(self, meta, c):
        return self._n("lit", meta, value=int(c[0]))

    def str_lit(self, meta, c):
        return self._n("lit", meta, value=_unquote(c[0]))

    def name(self, meta, c):
        return self._n("name", meta, id=str(c[0]))

    def list_lit(self, meta, c):
        return self._n("list", meta, items=c[0] or [])

    def comprehension(self, meta, c):
        return self._n("comprehension", meta, expr=c[0], name=str(c[1]), iter=c[2])

    def map_lit(self, meta, c):
        return self._n("map", meta, pairs=[p for p in c if p is not None])

    def pair(self, meta, c):
        return (c[0], c[1])

    # -- version 2: dice, counted choices, actions, gains and losses, whenever
    def die_type(self, meta, c):
        return self._n("die_type", meta, name=str(c[0]), faces=c[1], count=int(c[2]) if c[2] is not None else 0)

    def whenever(self, meta, c):
        return self._n("trigger", meta, event=str(c[0]), binder=_v(c[1]), cond=c[2], body=c[3], whenever=True)

    def short_trigger(self, meta, c):
        return self._n("short_trigger", meta, stat=str(c[0]), binder=str(c[1]), body=c[2])

    def action_decl(self, meta, c):
        limit = c[1]
        return self._n("action", meta, label=_unquote(c[0]), limit=limit[0] if limit else None,
                       period=limit[1] if limit else None, cond=c[2], body=c[3])

    def use_limit(self, meta, c):
        word = str(c[0]).split()[0]
        return ({"once": 1, "twice": 2}.get(word) or int(word), str(c[1]))

    def count_any(self, meta, c):
        return self._n("count", meta, mode="any", n=None)

    def count_up_to(self, meta, c):
        return self._n("count", meta, mode="up_to", n=c[0])

    def count_exactly(self, meta, c):
        n = c[0]
        if isinstance(n, Token):
            n = Node("lit", self._loc(meta), value=int(n))
        return self._n("count", meta, mode="exactly", n=n)

    def roll_stmt(self, meta, c):
        return self._n("roll", meta, dice=c[0])

    def gain_stmt(self, meta, c):
        return self._n("gain", meta, player=c[0], amount=c[2], stat=str(c[3]), stat_loc=_tok_loc(self, c[3]))

    def lose_stmt(self, meta, c):
        return self._n("lose", meta, player=c[0], amount=c[2], stat=str(c[3]), stat_loc=_tok_loc(self, c[3]))

    def function_decl(self, meta, c):
        return self._n("function", meta, name=str(c[0]), params=c[1] or [], expr=c[2])

    def add_dummy_stmt(self, meta, c):
        return self._n("add_dummy", meta, name=_v(c[0]))

    def actions_stmt(self, meta, c):
        return self._n("take_actions", meta, player=c[0], sources=c[2],
                       done=_unquote(c[3]) if c[3] is not None else "Done")


def _tok_loc(t: _ToAst, tok: Token) -> Loc:
    col = tok.column + (t.col_offset if tok.line == 1 else 0)
    return Loc(t.file, tok.line + t.line_offset, col, col + len(tok))


def _unquote(tok) -> str:
    s = str(tok)
    return s[1:-1].encode("utf-8").decode("unicode_escape") if s.startswith('"') else s
