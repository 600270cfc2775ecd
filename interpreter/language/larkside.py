"""The part of parsing that needs Lark itself: its parser for the grammar (each rule's callback our
reduction), the indenter, the fast loop's tables read from Lark's, and Lark's transformer over a
whole parse tree.

Why a module of its own: a text without errors is parsed by fastparse.py's loop on cached tables
and never needs Lark, whose import and table loading cost about a tenth of `grimoire validate`.
parser.py imports this module when first needed: to word a syntax error (Lark's parse raises it,
and the wording reads Lark's exception), for the formatter's token kinds, and to build the
loop's tables when their cache is missing. It re-exports `_ToAst`, `_Indenter` and
`IndentationProblem` under their old names.
"""
from __future__ import annotations

import marshal
import re
from typing import Callable, Iterator

from .fastparse import TABLES_FORMAT, compiled_form
from .larkload import (ChildFilterLALR, Indenter, Lark, LarkError, Shift, Token, Transformer_NonRecursive,
                       UnexpectedCharacters, UnexpectedInput, UnexpectedToken, UnlessCallback,
                       maybe_create_child_filter, v_args)
from .limits import MAX_NESTING

__all__ = ["IndentationProblem", "LarkError", "UnexpectedCharacters", "UnexpectedInput", "UnexpectedToken",
           "lark_parser", "rule_facts", "tables_from_lark", "transformer"]


class IndentationProblem(LarkError):
    """A line dedents to a column that no enclosing block uses (Lark's DedentError has no position),
    or (no `levels`) opens a block nested deeper than MAX_NESTING."""

    def __init__(self, line: int, col: int, levels: list[int]):
        super().__init__(f"bad dedent at line {line}")
        self.line, self.column, self.levels = line, col, levels


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token) -> Iterator[Token]:
        """As Lark's, but a bad dedent says where it is."""
        if self.paren_level > 0:
            return
        yield token
        if "\n" not in token:
            return
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        if indent > self.indent_level[-1]:
            if len(self.indent_level) > MAX_NESTING:
                raise IndentationProblem((token.line or 1) + token.count("\n"), len(indent_str) + 1, [])
            self.indent_level.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        levels = list(self.indent_level)
        while indent < self.indent_level[-1]:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
        if indent != self.indent_level[-1]:
            below = max(lvl for lvl in levels if lvl < indent)
            above = min(lvl for lvl in levels if lvl > indent)
            raise IndentationProblem((token.line or 1) + token.count("\n"), len(indent_str) + 1,
                                     [below + 1, above + 1])


def lark_parser(grammar: str, cache: str | bool, reductions: Callable[[list], list],
                pass_on: Callable) -> Lark:
    """Lark's LALR parser for `grammar` (its tables cached in the file `cache`), each rule's
    callback replaced by its reduction (`reductions` of every rule's `rule_facts`, in order), or
    `pass_on` where that is None."""
    options = dict(parser="lalr", start=["start", "effect"], postlex=_Indenter(), propagate_positions=True,
                   maybe_placeholders=True)
    try:
        lark = Lark(grammar, cache=cache, **options)
    except (OSError, EOFError, ValueError):  # an unreadable cache must never stop us
        lark = Lark(grammar, **options)
    callbacks = lark.parser.parser.parser.callbacks
    rules = list(callbacks)
    for rule, reduce in zip(rules, reductions([rule_facts(rule) for rule in rules])):
        callbacks[rule] = pass_on if reduce is None else reduce
    return lark


def rule_facts(rule) -> tuple:
    """What a reduction needs of one of Lark's rules, as plain data (kept in the tables' cache):
    (name, expand1, alias, empty indices, size, first is a token, last is a token, the one child
    is a kept rule, Lark's child filter as (kept children as (index, inlined, `None`s before),
    trailing `None`s))."""
    name = rule.alias or rule.options.template_source or rule.origin.name
    child_filter = maybe_create_child_filter(rule.expansion, rule.options.keep_all_tokens, False,
                                             rule.options.empty_indices)
    if child_filter is None:
        keep, trailing = [(i, False, 0) for i in range(len(rule.expansion))], 0
    elif child_filter.func is ChildFilterLALR:
        keep, trailing = child_filter.args
    else:
        keep, trailing = [(i, x, 0) for i, x in child_filter.args[0]], 0
    ex = rule.expansion
    return (str(name), bool(rule.options.expand1), bool(rule.alias), bool(rule.options.empty_indices), len(ex),
            bool(ex) and ex[0].is_term, bool(ex) and ex[-1].is_term,
            len(ex) == 1 and not ex[0].is_term and not ex[0].name.startswith("_"),
            tuple((int(i), bool(inline), int(nones)) for i, inline, nones in keep), int(trailing))


def tables_from_lark(lark: Lark) -> dict:
    """The plain data `FastParser` needs, read from a Lark LALR parser with an `Indenter` post-lexer:
    rule i is the i-th of Lark's callbacks, described by its `rule_facts`. Raises AttributeError,
    ValueError or KeyError where Lark's objects take a shape the loop does not know.

    Lark's keyword check on a name (`UnlessCallback`: the name matched whole against each keyword's
    text) becomes a dict from text to keyword; a scanner with any other callback, or split in parts
    (over 100 terminals), is None: the loop hands a text that reaches it to Lark."""
    parser = lark.parser.parser.parser
    table = parser.parse_table
    rules = list(parser.callbacks)
    index = {rule: i for i, rule in enumerate(rules)}
    states: dict[int, tuple] = {}
    for state, acts in table.states.items():
        shifts: dict[str, int] = {}
        reduces: dict[str, int] = {}
        gotos: dict[str, int] = {}
        for sym, (action, arg) in acts.items():
            sym = str(sym)  # plain `str`, as marshal wants (Lark's names are its tokens when it builds the grammar)
            if action is Shift:
                (shifts if sym.isupper() or sym == "$END" else gotos)[sym] = arg
            else:
                reduces[sym] = index[arg]
        states[state] = (shifts, reduces, gotos)
    scanners: list = []
    seen: dict[int, int] = {}
    state_scanner: dict[int, int] = {}
    for state, basic in lark.parser.lexer.lexer.lexers.items():
        if id(basic) not in seen:
            seen[id(basic)] = len(scanners)
            scanners.append(_scanner(basic))
        state_scanner[state] = seen[id(basic)]
    ind = lark.options.postlex
    return {"format": TABLES_FORMAT, "space": _lone_space(scanners),
            "start_states": {str(k): v for k, v in table.start_states.items()},
            "end_states": {str(k): v for k, v in table.end_states.items()},
            "states": states, "rule_shapes": [(str(r.origin.name), len(r.expansion)) for r in rules],
            "rules": [rule_facts(r) for r in rules], "scanners": scanners, "state_scanner": state_scanner,
            "indenter": (ind.NL_type, tuple(ind.OPEN_PAREN_types), tuple(ind.CLOSE_PAREN_types), ind.INDENT_type,
                         ind.DEDENT_type, ind.tab_len)}


def _scanner(basic) -> tuple | None:
    """One state's scanner as data: (regular expression, flags, {terminal: {keyword text: keyword}},
    ignored terminals, terminals that may hold a newline, its `compiled_form`, its
    `first_char_dispatch`, these two as `_kept` bytes or None); None if the loop cannot run it."""
    mres = basic.scanner._mres  # built on first use: it also fills `basic.callback`
    if len(mres) != 1 or mres[0].__class__ is not re.Pattern:
        return None
    words: dict[str, dict[str, str]] = {}
    for type_, call in basic.callback.items():
        scanner = getattr(call, "scanner", None)
        if call.__class__ is not UnlessCallback or scanner.g_regex_flags or scanner.use_bytes \
                or not all(t.pattern.type == "str" and not t.pattern.flags for t in scanner.terminals):
            return None
        kw: dict[str, str] = {}
        for t in scanner.terminals:  # the first alternative that matches wins, as in the regex
            kw.setdefault(str(t.pattern.value), str(t.name))
        words[str(type_)] = kw
    pattern, flags = mres[0].pattern, mres[0].flags
    branches = ["(?P<%s>%s)" % (t.name, t.pattern.to_regexp()) for t in basic.scanner.terminals]
    return (pattern, flags, words, tuple(sorted(map(str, basic.ignore_types))),
            tuple(sorted(map(str, basic.newline_types))), _kept(compiled_form(pattern, flags)),
            _kept(first_char_dispatch(branches, flags) if "|".join(branches) == pattern else None))


def _lone_space(scanners: list) -> bool:
    """Whether, in every scanner, a space can start only an ignored terminal `[\t \f]+`: then a
    single space before anything else is skipped by the loop without a match (a third of a rule
    file's matches are spaces between tokens)."""
    for spec in scanners:
        if spec is None or spec[6] is None:
            return False
        per_char, default, subsets = marshal.loads(spec[6])
        j = per_char.get(" ", default)
        if j < 0 or not any(subsets[j][0] == f"(?P<{name}>[\t \f]+)" for name in spec[3]):
            return False
    return bool(scanners)


def _kept(data: object) -> bytes | None:
    """`data` as its own `marshal` bytes inside the tables, read only when the loop first needs it
    (`fastparse.FastParser._first`): most of a scanner's dispatch is never used by one command, nor
    the whole alternation's compiled form where there is a dispatch, and unmarshalling them with
    the tables would cost a tenth of what the dispatch saves."""
    return marshal.dumps(data) if data is not None else None


def first_char_dispatch(branches: list[str], flags: int) -> tuple | None:
    """For one scanner (`"|".join(branches)`, each branch a terminal as a named group, tried in
    order): per first character, a pattern of only the branches a match can start with there, in
    the same order, so the same branch wins. As (character -> subset, the subset for any other
    character or -1 if none, subsets as (pattern, `compiled_form`)); a branch whose first
    characters cannot be told (`_first_chars`) is in every subset. None where a subset does not
    compile to its kept form.

    Why: `sre` enters every named group of an alternation before the one that matches (a saved
    context, a jump: a group starts with a MARK, so its first character is not checked first); a
    scanner tries dozens of them for each of a run's ~55,000 tokens, and 8% of `grimoire validate`
    went to it. A subset is a few branches, often one."""
    firsts = [_first_chars(b, flags) for b in branches]
    chars = sorted(set().union(*(f for f in firsts if f is not None)))
    subsets: list[tuple] = []
    index: dict[tuple, int] = {}

    def subset(members: tuple) -> int:
        if not members:
            return -1
        if members not in index:
            pattern = "|".join(branches[i] for i in members)
            form = compiled_form(pattern, flags)
            if form is None:
                raise ValueError(pattern)
            index[members] = len(subsets)
            subsets.append((pattern, form))
        return index[members]
    try:
        per_char = {c: subset(tuple(i for i, f in enumerate(firsts) if f is None or c in f)) for c in chars}
        default = subset(tuple(i for i, f in enumerate(firsts) if f is None))
    except ValueError:
        return None
    return per_char, default, subsets


def _first_chars(branch: str, flags: int) -> frozenset[str] | None:
    """The characters a match of the regular expression `branch` can start with, read from `re`'s
    parse of it; None where they cannot be told: a negated class or one by category, any
    character, an assertion, a flag set inside, case-insensitive matching, a start that may match
    nothing, anything else (the branch is then tried at every character)."""
    from re import _constants as C, _parser

    def sequence(items: list) -> tuple[set[str] | None, bool]:
        """(the characters the sequence can start with, or None; whether it may match nothing)."""
        out: set[str] = set()
        for op, av in items:
            chars, empty = item(op, av)
            if chars is None:
                return None, True
            out |= chars
            if not empty:
                return out, False
        return out, True

    def item(op, av) -> tuple[set[str] | None, bool]:
        if op is C.LITERAL:
            return {chr(av)}, False
        if op is C.IN:
            out: set[str] = set()
            for o, a in av:
                if o is C.LITERAL:
                    out.add(chr(a))
                elif o is C.RANGE and a[1] - a[0] < 256:
                    out.update(map(chr, range(a[0], a[1] + 1)))
                else:
                    return None, True
            return out, False
        if op is C.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            return (None, True) if add_flags or del_flags else sequence(sub.data)
        if op is C.ATOMIC_GROUP:
            return sequence(av.data)
        if op is C.BRANCH:
            out, empty = set(), False
            for alternative in av[1]:
                chars, maybe = sequence(alternative.data)
                if chars is None:
                    return None, True
                out, empty = out | chars, empty or maybe
            return out, empty
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            low, _high, sub = av
            chars, empty = sequence(sub.data)
            return chars, empty or low == 0
        return None, True
    if flags & re.IGNORECASE:
        return None
    try:
        chars, empty = sequence(_parser.parse(branch, flags).data)
    except Exception:  # a branch that is no expression on its own (a back reference): tried everywhere
        return None
    return None if chars is None or empty else frozenset(chars)


def transformer(builder: type, plumbing: dict[str, Callable], self_built: dict[str, type]) -> type:
    """Grammar rule → construct class over a whole parse tree of Lark's (`_ToAst(place).transform(tree)`):
    the plain way the reductions must agree with (tests/language/test_parse_positions.py). The plumbing
    methods are `builder`'s, set on this class itself so that `v_args` passes them the rule's positions."""
    def __default__(self, data, children, meta):
        """A rule with no method here: a construct that builds itself (`build`), else Lark's tree."""
        cls = self_built.get(data)
        if cls is None:
            return Transformer_NonRecursive.__default__(self, data, children, meta)
        self.rule = data
        return cls.build(self._loc(meta), children, self)

    namespace = {**plumbing, "__default__": __default__, "__module__": builder.__module__,
                 "__doc__": "Lark's transformer from a parse tree to constructs, with `_Builder`'s methods."}
    return v_args(meta=True)(type(Transformer_NonRecursive)("_ToAst", (builder, Transformer_NonRecursive), namespace))
