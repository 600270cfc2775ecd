"""The one reads/writes/can-wait analysis (interpreter/analysis/effects.py): for each family of
constructs, what it says a piece of rules reads, changes and whether it can stop for a decision —
and that settling, running bodies at once and the per-player re-check take their answers from it."""
from __future__ import annotations

import pytest

from interpreter.analysis import effects
from interpreter.analysis.effects import PERIOD, can_wait, changes_state, reads, writes_of
from interpreter.analysis.effects import SYNC_KINDS, is_sync
from interpreter.analysis.playerplans import _loop_reads
from interpreter.engine.direct import _Gen
from interpreter.language.parser import parse_rules
from interpreter.language.tree import CARDS, CONSTRUCTS, END, RULES, SEATS, STATS, Call, Expr, LetStmt, Name, \
    OfExpr, Stmt, walk
from interpreter.library import BUILTINS, PURE_BUILTINS, ANYWHERE_BUILTINS
from rulekit import build

RULES_TEXT = """
    card type Gem:
        color: Red | Blue
    die type D6: 1..6, 1 dice
    zone deck: pile, shared, hidden
    zone hand: set, per player, public
    zone pool: set, shared, public
    stat pot = 0
    player stat coins: 0..9 = 0
    constant pile = deck
    event bump
    function big(x) = count(x) > 3
    procedure tidy():
        shuffle deck
    as soon as count(pool) > 3:
        move all_cards() to deck
    always:
        set pot to count(hand of you)
    turn:
        draw from deck to your hand
        if pot > 100:
            end game
    score p: count(hand of p)
"""


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    return build(tmp_path_factory.mktemp("fx"), RULES_TEXT).rs


def turn_body(text: str) -> list:
    """The statements of a `turn:` holding `text` (parsed only: effects need no checked rules)."""
    lines = "".join("    " + line + "\n" for line in text.strip("\n").split("\n"))
    (phase,) = parse_rules("turn:\n" + lines, "x.rules").decls
    return phase.body


def expr(text: str):
    (let,) = turn_body(f"let x = {text}")
    return let.expr


# ---- can it wait? ---------------------------------------------------------------------------

WAITS = {  # statement → whether it can stop for a decision (or start rules that may)
    'you choose c from deck': True,
    'simultaneously each p in players chooses c from hand of p': True,
    'if you may "Go?":\n    pass': True,
    'fire bump on first(deck)': True,
    'tidy()': True,
    'draw from deck to your hand': True,
    'place first(deck) in pool': True,
    'place first(deck) on first(pool)': True,
    'roll first(deck)': True,
    'you gain 1 coins': True,
    'you lose 1 coins': True,
    'play turn of you': True,
    'play round': True,
    'you takes actions "Done"': True,
    'let n = 1': False,
    'set pot to 2': False,
    'pot += 1': False,
    'move first(deck) to pool': False,
    'shuffle deck': False,
    'log "hi"': False,
    'end game': False,
    'add a dummy player': False,
    'pass': False,
    'for each c in deck:\n    move c to pool': False,
    'for each c in deck:\n    break': False,
    'for each c in deck:\n    continue': False,
    'for each c in deck:\n    fire bump on c': True,
    'repeat 2 times:\n    shuffle deck': False,
    'repeat 2 times:\n    you choose c from deck': True,
    'if pot > 1:\n    pass\nelse:\n    tidy()': True,
}


@pytest.mark.parametrize("text, waits", WAITS.items(), ids=lambda x: str(x).split("\n")[0][:30])
def test_what_can_wait(text, waits):
    assert can_wait(turn_body(text)) is waits


def test_every_statement_is_in_the_table():
    """A new statement must say whether it waits (its class's `waits`) and be tested here."""
    seen = {n.kind for text in WAITS for s in turn_body(text) for n in walk(s)}
    kinds = {c.kind for c in CONSTRUCTS if issubclass(c, Stmt)}
    assert kinds <= seen, f"add the statements {sorted(kinds - seen)} to WAITS"


def test_expressions_never_wait():
    assert not [c.__name__ for c in CONSTRUCTS if issubclass(c, Expr) and (c.waits or c.writes)]


def test_bodies_run_at_once_exactly_when_they_cannot_wait():
    """A body of statements that cannot wait runs as a plain function, but for `repeat`."""
    for text, waits in WAITS.items():
        body = turn_body(text)
        assert is_sync(body) is (not waits and body[0].kind != "repeat"), text
    assert SYNC_KINDS == {c.kind for c in CONSTRUCTS if issubclass(c, Stmt) and not c.waits} - {"if", "for", "repeat"}


def test_a_state_based_rule_that_can_wait_settles_as_a_task(tmp_path):
    quiet = build(tmp_path / "a", RULES_TEXT)
    assert quiet.settles_at_once
    loud = build(tmp_path / "b", RULES_TEXT.replace("set pot to count(hand of you)", "fire bump on first(deck)"))
    assert not loud.settles_at_once


# ---- what does it change? -------------------------------------------------------------------

@pytest.mark.parametrize("text, changed", [
    ("move first(deck) to pool", {CARDS}), ("shuffle deck", {CARDS}), ("set pot to 1", {STATS}),
    ("you lose 1 coins", {STATS, RULES}), ("fire bump", {RULES}), ("tidy()", {RULES}),
    ("let n = 1", set()), ("log 1", set()), ("end game", {END}), ("add a dummy player", {SEATS}),
    ("for each c in deck:\n    move c to pool", {CARDS}), ("if pot > 1:\n    set pot to 0", {STATS}),
])
def test_what_a_statement_changes(text, changed):
    assert writes_of(turn_body(text)) == changed


def test_a_settle_is_due_after_moving_cards_or_running_rules():
    due = {text: changes_state(turn_body(text)[0]) for text in
           ("move first(deck) to pool", "fire bump", "tidy()", "draw from deck to your hand", "let n = 1",
            "set pot to 1", "log 1", "for each c in deck:\n    move c to pool")}
    # a stat's `set` and a loop leave it to themselves (the direct engine marks them as it writes them)
    assert [t for t, d in due.items() if d] == ["move first(deck) to pool", "fire bump", "tidy()",
                                                 "draw from deck to your hand"]


# ---- what does it read? ---------------------------------------------------------------------

@pytest.mark.parametrize("text, got", [
    ("count(deck)", {"deck"}),
    ("count(hand of you)", {"hand", PERIOD}),   # `you`: whose turn it is
    ("count(your hand)", {"hand", PERIOD}),
    ("pot + 1", {"pot"}),
    ("count(pile)", {"deck"}),                  # a constant is seen through
    ("big(pool)", {"pool"}),                    # so is a rule function
    ("turn_number", None),                      # the turn's counters: anything
    ("other_players()", {PERIOD}),              # counted from the active player
    ("zone_of(first(deck))", None),             # where any card lies
    ("[c.color for each c in deck]", {"deck"}),
    ("deck where it.color == Red", {"deck"}),
])
def test_what_an_expression_reads(rs, text, got):
    assert reads([expr(text)], rs) == (frozenset(got) if got is not None else None)


def test_a_destination_is_written_not_read(rs):
    assert reads(turn_body("move first(pool) to deck"), rs) == {"pool"}
    assert reads(turn_body("draw from deck to hand of first(players)"), rs) == {"deck"}
    assert reads(turn_body("move first(pool) to your hand"), rs) == {"pool", PERIOD}  # the owner is read
    assert reads(turn_body("shuffle deck"), rs) == {"deck"}


def test_every_builtin_reads_what_the_registry_says(rs):
    """Settling reads purity from the registry alone: flip a builtin's `reads` and this changes."""
    deck = expr("deck")
    for name, b in BUILTINS.items():
        call = Call(loc=deck.loc, func=name, args=[deck] * b.lo, name_loc=None)
        got = reads([call], rs)
        want = None if name in ANYWHERE_BUILTINS else \
            frozenset({"deck"} if b.lo else set()) | (set() if name in PURE_BUILTINS else {PERIOD})
        assert got == want, name


def test_the_per_player_recheck_takes_pure_calls_from_the_registry(rs):
    hand = OfExpr(loc=None, name="hand", name_loc=None, owner=Name(loc=None, id="p"))
    for name, b in BUILTINS.items():
        if b.lo != 1:
            continue
        body = [LetStmt(loc=None, name="x", expr=Call(loc=None, func=name, args=[hand], name_loc=None), name_loc=None)]
        assert (_loop_reads("p", body, rs) == {"hand"}) is b.pure, name


def test_the_settle_read_sets_come_from_here(tmp_path):
    program = build(tmp_path, RULES_TEXT)
    assert program.always_reads == [frozenset({"hand", "pot", PERIOD})]
    assert program.watcher_reads == [frozenset({"pool"})]
    assert program.always_reads == [effects.reads(a.body, program.rs) for a in program.rs.always]


def test_the_direct_engines_placement_memo_takes_pure_calls_from_the_registry(tmp_path):
    """A placement rule's answer is remembered per card only when its calls are pure builtins."""
    gen = _Gen(build(tmp_path, RULES_TEXT))
    card = Name(loc=None, id="card")
    for name, b in BUILTINS.items():
        call = Call(loc=None, func=name, args=[card] * b.lo, name_loc=None)
        assert gen.pure(call, {"card"}) is b.pure, name
