"""One loop that lexes, indents and parses text that holds no syntax error, on Lark's own tables.

Why: `validate` spends most of its time in Lark's LALR parse, and most of that in the layers
around the tables (a generator per stage, a line counter object, a `Rule` hashed per reduction,
`Token`'s keyword-argument constructor). This loop does what Lark's contextual lexer, the
`Indenter` post-lexer and the LALR parser do together, in one function over the same compiled
regular expressions, parse table and callbacks, so it builds the same tokens (type, text and
every position) and calls the same reductions in the same order.

It never words an error: on anything unexpected (no terminal matches, no action for a token, a
bad indentation) it raises `Unusual`, and the caller parses the text again with Lark itself,
which raises exactly the error it always raised (tests/language/test_fast_parse.py).
"""
from __future__ import annotations

from typing import Callable

from .larkload import Lark, Shift, Token, UnlessCallback

__all__ = ["Unusual", "FastParser"]

_new_str = str.__new__


class Unusual(Exception):
    """The text is not one this loop parses the way Lark does (it holds an error): ask Lark."""


def _token(type_: str, value: str, start: int, line: int, col: int, end_line: int, end_col: int,
           end: int) -> Token:
    """`Token(...)` without its keyword handling (the same object, about 3× cheaper)."""
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
    """Lark's tables, taken apart once per grammar into plain dicts and tuples for `parse`."""

    def __init__(self, lark: Lark, nl_type: str, open_parens: list[str], close_parens: list[str],
                 indent_type: str, dedent_type: str, tab_len: int, pass_on: Callable | None = None):
        parser = lark.parser.parser.parser
        table = parser.parse_table
        callbacks = parser.callbacks
        self.start_states, self.end_states = dict(table.start_states), dict(table.end_states)
        # per state: terminal -> next state (a shift, an int) or (size, callback, rule name) (a reduce);
        # a rule whose callback passes its one child on is a `_Chain`: only the state changes
        self.actions: dict[int, dict[str, object]] = {}
        self.gotos: dict[int, dict[str, int]] = {}
        for state, acts in table.states.items():
            mine: dict[str, object] = {}
            gotos: dict[str, int] = {}
            for sym, (action, arg) in acts.items():
                if action is Shift:
                    (mine if sym.isupper() or sym == "$END" else gotos)[sym] = arg
                else:
                    callback = callbacks[arg]
                    if callback is pass_on and len(arg.expansion) == 1:
                        mine[sym] = _Chain(arg.origin.name)
                    else:
                        mine[sym] = (len(arg.expansion), callback, arg.origin.name)
            self.actions[state], self.gotos[state] = mine, gotos
        # per state: the contextual lexer's scanner for the terminals that state accepts
        self.basic = lark.parser.lexer.lexer.lexers
        self.lexers: dict[int, tuple] = {}  # filled as states are reached: Lark builds each scanner when first used
        self.nl_type, self.indent_type, self.dedent_type, self.tab_len = nl_type, indent_type, dedent_type, tab_len
        self.opens, self.closes = frozenset(open_parens), frozenset(close_parens)

    def parse(self, text: str, start: str, max_nesting: int) -> object:
        """The value of the start rule, as `lark.parse(text, start=start)` returns it; `Unusual` when
        the text holds anything Lark would report (or a block nested deeper than `max_nesting`)."""
        actions, gotos, lexers = self.actions, self.gotos, self.lexers
        nl_type, indent_type, dedent_type, tab_len = self.nl_type, self.indent_type, self.dedent_type, self.tab_len
        opens, closes = self.opens, self.closes
        end_state = self.end_states[start]
        state_stack = [self.start_states[start]]
        value_stack: list = []
        indents = [0]
        parens = 0
        pos, line, line_start, n = 0, 1, 0, len(text)
        last = None  # the last token lexed (the final dedents borrow its place)
        pending: list[Token] = []
        while pos < n:
            lexer = lexers.get(state_stack[-1])
            if lexer is None:
                lexer = self._lexer(state_stack[-1])
            match, callback, ignore, newlines = lexer
            m = match(text, pos)
            if m is None:
                raise Unusual()
            type_ = m.lastgroup
            value = m.group()
            end = m.end()
            col = pos - line_start + 1
            start_line = line
            if type_ in newlines:
                count = value.count("\n")
                if count:
                    line += count
                    line_start = pos + value.rindex("\n") + 1
            ignored = type_ in ignore
            special = callback.get(type_)
            if special is not None and special.__class__ is dict:  # a keyword, or a name
                type_ = special.get(value, type_)
                special = None
            if ignored and special is None:
                pos = end
                continue
            tok = _token(type_, value, pos, start_line, col, line, end - line_start + 1, end)
            pos = end
            if special is not None:
                tok = special(tok)
                if ignored:
                    continue
                type_ = tok.type
            last = tok
            # the Indenter: newlines inside brackets are dropped; a newline may open or close blocks
            if type_ == nl_type:
                if parens > 0:
                    continue
                pending = [tok]
                if "\n" in tok:
                    indent_str = tok.rsplit("\n", 1)[1]
                    indent = indent_str.count(" ") + indent_str.count("\t") * tab_len
                    if indent > indents[-1]:
                        if len(indents) > max_nesting:
                            raise Unusual()
                        indents.append(indent)
                        pending.append(_borrow(indent_type, indent_str, tok))
                    else:
                        while indent < indents[-1]:
                            indents.pop()
                            pending.append(_borrow(dedent_type, indent_str, tok))
                        if indent != indents[-1]:
                            raise Unusual()
            else:
                pending = [tok]
            for tok in pending:
                type_ = tok.type
                while True:  # the parser: reduce as long as the table says, then shift the token
                    act = actions[state_stack[-1]].get(type_)
                    if act is None:
                        raise Unusual()
                    cls = act.__class__
                    if cls is int:
                        state_stack.append(act)
                        value_stack.append(tok)
                        break
                    if cls is _Chain:
                        top = act.get(state_stack[-2])
                        state_stack[-1] = top if top is not None else self._chain(act, state_stack, type_)
                        continue
                    size, reduce, origin = act
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value_stack.append(reduce(children))
                    state_stack.append(gotos[state_stack[-1]][origin])
            type_ = last.type
            if type_ in opens:
                parens += 1
            elif type_ in closes:
                parens -= 1
                if parens < 0:
                    raise Unusual()
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
                size, reduce, origin = act
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value = reduce(children)
                state_stack.append(gotos[state_stack[-1]][origin])
                value_stack.append(value)
            if state_stack[-1] == end_state:
                return value_stack[-1]

    def _lexer(self, state: int) -> tuple:
        """The contextual lexer's scanner for one state: (match, callbacks, ignored, with newlines).
        Lark's keyword check on a name (`UnlessCallback`: the name matched whole against each
        keyword's text) becomes a dict from text to keyword, where every keyword is plain text."""
        basic = self.basic[state]
        mres = basic.scanner._mres
        if len(mres) != 1:  # a scanner split in parts (over 100 terminals): Lark's own loop handles it
            raise Unusual()
        callback = dict(basic.callback)
        for type_, call in basic.callback.items():
            scanner = getattr(call, "scanner", None)
            if call.__class__ is UnlessCallback and not scanner.g_regex_flags and not scanner.use_bytes \
                    and all(t.pattern.type == "str" and not t.pattern.flags for t in scanner.terminals):
                words: dict[str, str] = {}
                for t in scanner.terminals:  # the first alternative that matches wins, as in the regex
                    words.setdefault(t.pattern.value, t.name)
                callback[type_] = words
        self.lexers[state] = lexer = (mres[0].match, callback, basic.ignore_types, basic.newline_types)
        return lexer

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
            size, reduce, origin = act
            children = value_stack[-size:] if size else []
            if size:
                del state_stack[-size:]
                del value_stack[-size:]
            value_stack.append(reduce(children))
            state_stack.append(gotos[state_stack[-1]][origin])


def fast_parser(lark: Lark, indenter: object, pass_on: Callable | None = None) -> FastParser | None:
    """The loop for this grammar, or None where Lark's tables take a shape it does not handle."""
    try:
        return FastParser(lark, indenter.NL_type, indenter.OPEN_PAREN_types, indenter.CLOSE_PAREN_types,
                          indenter.INDENT_type, indenter.DEDENT_type, indenter.tab_len, pass_on)
    except (AttributeError, ValueError, KeyError):
        return None

