"""One loop that lexes, indents and parses text that holds no syntax error, on Lark's own tables.

Why: `validate` spends most of its time in Lark's LALR parse, and most of that in the layers
around the tables (a generator per stage, a line counter object, a `Rule` hashed per reduction,
`Token`'s keyword-argument constructor). This loop does what Lark's contextual lexer, the
`Indenter` post-lexer and the LALR parser do together, in one function over the same regular
expressions, parse table and callbacks, so it builds the same tokens (type, text and every
position) and calls the same reductions in the same order. Each scanner's alternation is tried
only in the branches that can start with the token's first character (larkside's
`first_char_dispatch`): the same branch wins, after trying one or two branches instead of dozens.

It never words an error: on anything unexpected (no terminal matches, no action for a token, a
bad indentation) it raises `Unusual`, and the caller parses the text again with Lark itself,
which raises exactly the error it always raised (tests/language/test_fast_parse.py).

It needs no Lark at run time: the tables it reads (larkside.py's `tables_from_lark`) are plain data (dicts,
tuples, texts of regular expressions) that parser.py keeps in a cache file next to Lark's, so a
command whose text holds no error never imports Lark (about a tenth of `grimoire validate`).
"""
from __future__ import annotations

import marshal
import re
from typing import Callable

import _sre

__all__ = ["Unusual", "FastParser", "Token", "TABLES_FORMAT", "compiled_form"]

TABLES_FORMAT = 4  # the shape of larkside's `tables_from_lark`; a cache of another shape is rebuilt

_new_str = str.__new__


class Token(str):
    """A token as Lark's `Token` holds it: the text, its terminal's name (`type`) and its positions
    (1-based lines and columns, 0-based offsets). The reductions and the constructs read these
    attributes only, from this class or from Lark's (a text Lark parses after an error)."""

    __slots__ = ("type", "start_pos", "value", "line", "column", "end_line", "end_column", "end_pos")

    def __new__(cls, type_: str, value: str, start_pos: int | None = None, line: int | None = None,
                column: int | None = None, end_line: int | None = None, end_column: int | None = None,
                end_pos: int | None = None) -> "Token":
        return _token(type_, value, start_pos, line, column, end_line, end_column, end_pos)

    def __reduce__(self):
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column, self.end_line,
                        self.end_column, self.end_pos))

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"


class Unusual(Exception):
    """The text is not one this loop parses the way Lark does (it holds an error): ask Lark."""


def _token(type_: str, value: str, start, line, col, end_line, end_col, end) -> Token:
    """`Token(...)` without a constructor call's overhead (this runs for every token)."""
    t = _new_str(Token, value)
    t.type, t.start_pos, t.value, t.line, t.column = type_, start, value, line, col
    t.end_line, t.end_column, t.end_pos = end_line, end_col, end
    return t


def _borrow(type_: str, value: str, t: Token) -> Token:
    """`Token.new_borrow_pos`: a token that takes another's positions."""
    return _token(type_, value, t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos)


class _Chain(dict):
    """The action of a rule that passes its one child on (`?sum: product`): only the top state
    changes, to the goto of the state below it. Such rules come in chains (a name in an expression
    climbs about ten of them), so the state the whole chain ends in is kept, by the state below."""

    __slots__ = ("origin",)

    def __init__(self, origin: str):
        super().__init__()
        self.origin = origin


class FastParser:
    """larkside's `tables_from_lark`, with each rule's reduction, taken apart into the dicts `parse` reads."""

    def __init__(self, tables: dict, reductions: list):
        """`reductions[i]`: rule i's callback (its children -> its value), or None for a rule that
        passes its one child on (`?sum: product`), which only moves the top state."""
        shapes = tables["rule_shapes"]
        self.start_states, self.end_states = dict(tables["start_states"]), dict(tables["end_states"])
        # per state: terminal -> next state (a shift, an int) or (size, callback, rule name) (a reduce);
        # a rule whose callback passes its one child on is a `_Chain`: only the state changes
        self.actions: dict[int, dict[str, object]] = {}
        self.gotos: dict[int, dict[str, int]] = {}
        for state, (shifts, reduces, gotos) in tables["states"].items():
            mine: dict[str, object] = dict(shifts)
            for sym, i in reduces.items():
                origin, size = shapes[i]
                reduce = reductions[i]
                mine[sym] = _Chain(origin) if reduce is None else (size, reduce, origin)
            self.actions[state], self.gotos[state] = mine, gotos
        # per state: the contextual lexer's scanner for the terminals that state accepts
        self.scanners: list = tables["scanners"]
        self.state_scanner: dict[int, int] = tables["state_scanner"]
        self.compiled: dict[int, tuple] = {}  # scanners made when first used: most files need a few
        self.subsets: dict[tuple, Callable] = {}  # (scanner, subset) -> its compiled `match`
        self.dispatches: dict[int, tuple] = {}  # scanner -> its `first_char_dispatch`, once read
        self.lexers: dict[int, tuple] = {}  # per state, filled as states are reached
        self.nl_type, opens, closes, self.indent_type, self.dedent_type, self.tab_len = tables["indenter"]
        # a lone space after a token is skipped without a match (larkside's `_lone_space`)
        self.lone_space: bool = tables["space"]
        # per bracket terminal, how it changes the depth of brackets (inside them newlines are dropped)
        self.brackets: dict[str, int] = {**{t: 1 for t in opens}, **{t: -1 for t in closes}}

    def parse(self, text: str, start: str, max_nesting: int) -> object:
        """The value of the start rule, as `lark.parse(text, start=start)` returns it; `Unusual` when
        the text holds anything Lark would report (or a block nested deeper than `max_nesting`)."""
        actions, gotos, lexers = self.actions, self.gotos, self.lexers
        nl_type, indent_type, dedent_type, tab_len = self.nl_type, self.indent_type, self.dedent_type, self.tab_len
        brackets, lone_space = self.brackets, self.lone_space
        end_state = self.end_states[start]
        # the top state is kept in `state` as well as on the stack (a list's `[-1]` is not a fast index)
        state = self.start_states[start]
        state_stack = [state]
        value_stack: list = []
        indents = [0]
        parens = 0
        pos, line, line_start, n = 0, 1, 0, len(text)
        last = None  # the last token lexed (the final dedents borrow its place)
        while pos < n:
            char = text[pos]
            if char == " " and lone_space:  # one space, then no other: what the ignored `[\t \f]+`
                after = text[pos + 1:pos + 2]  # would match (larkside's `_lone_space`); at the end, ""
                if after not in " \t\f":  # ("" is in it): the scanner takes it
                    pos += 1
                    char = after
            # lookups that may miss are subscripts in a `try` (no method call; in 3.11 a `try`
            # costs nothing unless it catches)
            try:
                lexer = lexers[state]
            except KeyError:
                lexer = self._lexer(state)
            first, callback, special, ignore, newlines, i = lexer
            try:
                match = first[char]
            except KeyError:
                match = first[char] = self._first(i, char)
            if match.__class__ is tuple:  # a one-character terminal, the only one that starts here
                type_, value = match
            else:
                m = match(text, pos)
                if m is None:
                    raise Unusual()
                type_ = m.lastgroup
                value = m.group()
            end = pos + len(value)
            col = pos - line_start + 1
            start_line = line
            if type_ in special:  # ignored, or may hold a newline
                if type_ in newlines:
                    count = value.count("\n")
                    if count:
                        line += count
                        line_start = pos + value.rindex("\n") + 1
                if type_ in ignore:
                    pos = end
                    continue
            if type_ in callback:  # a keyword, or a name
                type_ = callback[type_].get(value, type_)
            tok = _new_str(Token, value)  # `_token`, written out: this runs for every token
            tok.type = type_
            tok.start_pos = pos
            tok.value = value
            tok.line = start_line
            tok.column = col
            tok.end_line = line
            tok.end_column = end - line_start + 1
            tok.end_pos = end
            pos = end
            last = tok
            # the Indenter: newlines inside brackets are dropped; a newline may open or close blocks
            queue = None  # the indent or dedents that follow the token, last first
            if type_ == nl_type:
                if parens > 0:
                    continue
                if "\n" in value:
                    indent_str = value.rsplit("\n", 1)[1]
                    indent = indent_str.count(" ") + indent_str.count("\t") * tab_len
                    if indent > indents[-1]:
                        if len(indents) > max_nesting:
                            raise Unusual()
                        indents.append(indent)
                        queue = [_borrow(indent_type, indent_str, tok)]
                    elif indent < indents[-1]:
                        queue = []
                        while indent < indents[-1]:
                            indents.pop()
                            queue.append(_borrow(dedent_type, indent_str, tok))
                        if indent != indents[-1]:
                            raise Unusual()
            elif type_ in brackets:
                parens += brackets[type_]
                if parens < 0:
                    raise Unusual()
            while True:  # the parser: reduce as long as the table says, then shift the token
                try:
                    act = actions[state][type_]
                except KeyError:
                    raise Unusual() from None
                cls = act.__class__
                if cls is int:
                    state = act
                    state_stack.append(act)
                    value_stack.append(tok)
                    if queue:  # the indenter's tokens after a newline
                        tok = queue.pop()
                        type_ = tok.type
                        continue
                    break
                if cls is _Chain:
                    try:
                        top = act[state_stack[-2]]
                    except KeyError:
                        top = self._chain(act, state_stack, type_)
                    state = state_stack[-1] = top
                    continue
                size, reduce, origin = act
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value_stack.append(reduce(children))
                state = gotos[state_stack[-1]][origin]
                state_stack.append(state)
        tail: list[Token] = []
        while len(indents) > 1:
            indents.pop()
            tail.append(_borrow(dedent_type, "", last) if last is not None else Token(dedent_type, "", 0, 0, 0, 0, 0, 0))
        for tok in tail:
            self._feed(state_stack, value_stack, tok)
        while True:  # the end of the text ($END): reduce up to the start rule
            act = actions[state_stack[-1]].get("$END")
            if act is None or act.__class__ is int:
                raise Unusual()
            if act.__class__ is _Chain:
                state_stack[-1] = gotos[state_stack[-2]][act.origin]
            else:
                _reduce(act, state_stack, value_stack, gotos)
            if state_stack[-1] == end_state:
                return value_stack[-1]

    def _lexer(self, state: int) -> tuple:
        """The contextual lexer's scanner for one state: (first character -> its `match`, filled by
        `_first` as characters come; keywords; ignored or with newlines; ignored; with newlines; the
        scanner's index)."""
        i = self.state_scanner.get(state)
        lexer = self.compiled.get(i)
        if lexer is None:
            spec = self.scanners[i] if i is not None else None
            if spec is None:  # a scanner this loop does not run the way Lark does: Lark's own loop handles it
                raise Unusual()
            ignore, newlines = frozenset(spec[3]), frozenset(spec[4])
            self.compiled[i] = lexer = ({}, spec[2], ignore | newlines, ignore, newlines, i)
        self.lexers[state] = lexer
        return lexer

    def _first(self, i: int, char: str) -> Callable:
        """Scanner i's `match` for a token starting with `char`: its `first_char_dispatch` subset's (the
        branches that can start there, in their order), else the whole alternation's (the loop keeps
        it in the scanner's dict). Subsets are compiled once per process, when first needed; a subset
        that is one one-character terminal (`_literal`) is (its name, `char`) instead, no pattern."""
        pattern, flags, _words, _ignore, _newlines, form, dispatch = self.scanners[i]
        if dispatch is None:
            key = (i, None)
            match = self.subsets.get(key)
            if match is None:
                self.subsets[key] = match = _compile(pattern, flags, marshal.loads(form) if form else None).match
        else:
            per_char, default, subsets = self._dispatch(i, dispatch)
            j = per_char.get(char, default)
            if j < 0:
                match = _no_match
            else:
                match = self.subsets.get((i, j))
                if match is None:
                    sub_pattern, sub_form = subsets[j]
                    name = _literal(sub_pattern, flags, char)
                    self.subsets[(i, j)] = match = (name, char) if name is not None \
                        else _compile(sub_pattern, flags, sub_form).match
        return match

    def _dispatch(self, i: int, kept: bytes) -> tuple:
        """Scanner i's `first_char_dispatch`, read from its bytes in the tables once per process."""
        dispatch = self.dispatches.get(i)
        if dispatch is None:
            self.dispatches[i] = dispatch = marshal.loads(kept)
        return dispatch

    def _chain(self, act: _Chain, state_stack: list, type_: str) -> int:
        """Follow a chain of pass-on reductions on `type_` from the top state; keep where it ends."""
        below, top = state_stack[-2], state_stack[-1]
        gotos, actions = self.gotos[below], self.actions
        state, step = top, act
        while step.__class__ is _Chain:
            state = gotos[step.origin]
            step = actions[state].get(type_)
        act[below] = state
        return state

    def _feed(self, state_stack: list, value_stack: list, tok: Token) -> None:
        """Reduce, then shift one token (the final dedents)."""
        actions, gotos = self.actions, self.gotos
        while True:
            act = actions[state_stack[-1]].get(tok.type)
            if act is None:
                raise Unusual()
            if act.__class__ is int:
                state_stack.append(act)
                value_stack.append(tok)
                return
            if act.__class__ is _Chain:
                state_stack[-1] = gotos[state_stack[-2]][act.origin]
                continue
            _reduce(act, state_stack, value_stack, gotos)


def _reduce(act: tuple, state_stack: list, value_stack: list, gotos: list) -> None:
    """One reduction outside the main loop (the final dedents, the end of the text): the loop in
    `parse` writes the same steps out, as it runs them for every rule of every file."""
    size, reduce, origin = act
    children = value_stack[-size:] if size else []
    if size:
        del state_stack[-size:]
        del value_stack[-size:]
    value_stack.append(reduce(children))
    state_stack.append(gotos[state_stack[-1]][origin])


def _literal(pattern: str, flags: int, char: str) -> str | None:
    """The terminal's name when a subset `pattern` is one terminal that is the character `char`
    itself (`(?P<LPAR>\\()`, as Lark writes a one-character string): at `char` it matches that
    character and nothing else, so the loop takes the token without a match (about a third of a
    rule file's tokens are such punctuation: `sre`'s fixed cost, a `Match` and two of its calls)."""
    if flags & re.VERBOSE or not (pattern.startswith("(?P<") and pattern.endswith(")")):
        return None
    name, close, body = pattern[4:-1].partition(">")
    if not close or not name.isidentifier() or body != re.escape(char):
        return None
    return name


def _no_match(text: str, pos: int) -> None:
    """The `match` of a scanner for a character no terminal of it can start with."""
    return None


def compiled_form(pattern: str, flags: int) -> tuple | None:
    """What `re.compile(pattern, flags)` hands to `_sre.compile` at the end (flags, code, groups, group
    names both ways), to be kept in the tables' cache; None unless it gives an equal pattern.

    Why: compiling the scanners' regular expressions (about a hundred of 3-10 kB each, in Python
    code: `re._parser` and `re._compiler`) is about 5% of `grimoire validate`; the compiled form is
    plain data. The cache is keyed by Python's version, and `re.Pattern`'s equality compares the
    compiled code, so a form that would differ is never kept."""
    try:
        from re import _compiler, _parser
        p = _parser.parse(pattern, flags)
        code = _compiler._code(p, flags)
        groupindex = dict(p.state.groupdict)
        indexgroup: list = [None] * p.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        form = (flags | p.state.flags, [int(c) for c in code], p.state.groups - 1, groupindex, tuple(indexgroup))
        return form if _sre.compile(pattern, *form) == re.compile(pattern, flags) else None
    except Exception:  # another Python's `re`: compile the usual way
        return None


def _compile(pattern: str, flags: int, form: tuple | None) -> re.Pattern:
    """The scanner's pattern from its `compiled_form` if there is one, else compiled."""
    if form is not None:
        try:
            return _sre.compile(pattern, *form)
        except Exception:  # not this Python's form after all
            pass
    return re.compile(pattern, flags)
