"""One rule-language expression that the generated module does not hold, evaluated by direct code.

Why: bots ask a ruleset's `prefer` and `value` rules, scenarios check `values:` written in the rule
language, and an error message names the values of the failing rule's parts. None of these is
part of a game's flow, so the module (direct.py) does not hold them; each is compiled on its own by
the same expression compiler (directexpr.py, with what the module learnt about stats and
constants), as a small module of the same form: no rule text in its source (constants in its own
table `K`), its tokens checked, compiled once per program, node and kinds of the bound names, and
bound once per game to the game's runtime.

The compiled code works on direct values (a card is its id, a zone the state's list); its answer
is given as the rules' values are given to people and tools: a card as the card (`CardData`), a
list of cards as the cards, a zone as its `ZoneRef`.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ..content.model import CardData
from ..language.tree import Node
from ..runtime.errors import LimitExceeded, RuleError
from ..runtime.values import Seat, ZoneRef
from ..runtime.zones import zone_cards
from .directexpr import Unsupported

__all__ = ["Bound", "as_list", "bound_name", "compile_expression", "evaluate", "option_kind", "prefer_rule_for", "prefer_rules",
           "rule_value",
           "Unsupported"]

# a bound name: (name, kind, value): `kind` as directexpr.V's kinds ("player", "card", "int", ...)
Bound = tuple[str, str, Any]

_PLACEMENT = re.compile(r"\b_pl\d+\b")


def compile_expression(dp: Any, new_gen: Callable[[], Any], node: Node, kinds: tuple[tuple[str, str], ...]) \
        -> tuple[Any, list, str]:
    """`node` compiled with the names `kinds` bound: (build, its constants, the value's kind), made
    once per program, node and kinds by a fresh module writer `new_gen()` (direct._Gen, given by
    `DirectProgram.expression`). Raises `Unsupported` when direct code cannot compile it."""
    cache = dp.__dict__.setdefault("_expressions", {})
    key = (id(node), kinds)
    got = cache.get(key)
    if got is not None and got[0] is node:
        if isinstance(got[1], str):  # (asked again at every decision: refused once)
            raise Unsupported(got[1])
        return got[1]
    gen = new_gen()
    gen.number_owners = True
    card_stats, stat_kinds, const_kinds = dp.info["expr_kinds"]
    gen.card_stats, gen.stat_kinds, gen.const_kinds = card_stats, dict(stat_kinds), dict(const_kinds)
    rs = dp.program.rs
    gen.procs = {name: f"_p{i}" for i, name in enumerate(rs.procedures)}
    gen.placement_names = {z: f"_pl{i}" for i, z in enumerate(rs.placements)}
    try:
        kind = gen.expr_function("_ex", list(kinds), node, node.loc)
        if kind == "zone":  # a zone is answered by its key in the state (`rule_value` makes its ZoneRef)
            v = gen.expr(node, {p: (f"_a{i}", k) for i, (p, k) in enumerate(kinds)})
            gen.emit(1, "def _exk(" + ", ".join(f"_a{i}" for i in range(len(kinds))) + "):", node.loc)
            gen.emit(2, f"return {v.key}", node.loc)
        if _PLACEMENT.search("\n".join(gen.lines)):  # `can be placed`: the zones' placement rules
            for zname, pl in rs.placements.items():
                gen.placement_function(gen.placement_names[zname], zname, pl)
        build, _, _ = gen.assemble(["_ex", "_exk"] if kind == "zone" else ["_ex"])
    except Unsupported as why:
        cache[key] = (node, str(why))
        raise
    except (RuleError, KeyError, ValueError, TypeError, AttributeError) as why:  # what the compiler did not foresee
        cache[key] = (node, type(why).__name__)
        raise Unsupported(type(why).__name__) from None
    out = (build, gen.K, kind)
    cache[key] = (node, out)
    return out


def _bound_function(game: Any, node: Node, kinds: tuple[tuple[str, str], ...]) -> tuple[Any, Any, str]:
    """The compiled expression bound to `game`'s runtime (once per game: a copy has its own)."""
    R = game.R
    mine = game.__dict__.get("_bound_exprs")
    if mine is None or mine[0] is not R:  # a new game, or a copy that took its original's table
        mine = game.__dict__["_bound_exprs"] = (R, {})
    key = (id(node), kinds)
    got = mine[1].get(key)
    if got is None or got[0] is not node:
        build, K, kind = game.dp.expression(node, kinds)
        fns = build(R, K)
        got = mine[1][key] = (node, fns["_ex"], fns.get("_exk"), kind)
    return got[1:]


def evaluate(game: Any, node: Node, names: list[Bound], loc: Any = None, tell: bool = True) -> Any:
    """The value of `node` in `game` now, with `names` bound (direct values, in their kinds), as
    the rules' values are given to people (`rule_value`). It counts its own work and memory
    against the game's limits, from nothing (as each question to a bot's rule is counted), and
    leaves the game's counts as they were. A failure is a `RuleError` at `loc` (else the node's);
    with `tell` false, the Python failure itself (engine/blame.py explains it). `Unsupported`
    when direct code cannot compile the expression."""
    kinds = tuple([(name, kind) for name, kind, _ in names])
    fn, keyfn, kind = _bound_function(game, node, kinds)
    args = [v for _, _, v in names]
    R = game.R
    work, built = R.work, R.built
    R.work = R.built = 0
    try:
        v = fn(*args)
        if keyfn is not None:
            return _zone_ref(keyfn(*args))
    except Exception as ex:  # noqa: BLE001 - a rule's failure, told in its words
        if not tell:
            raise
        raise _told(ex, loc or node.loc) from None
    finally:
        R.work, R.built = work, built
    return rule_value(v, kind, game.cards)


def _told(ex: Exception, loc: Any) -> RuleError:
    """A failure while evaluating an expression as the rule error at `loc`."""
    if isinstance(ex, RuleError):
        if ex.loc is not None:
            return ex
        told = type(ex)(ex.message, loc)
        told.cause, told.env = ex.cause, ex.env
        return told
    if isinstance(ex, RecursionError):
        return LimitExceeded("rules nest too deeply", loc)
    return RuleError.of(ex, loc)


def _zone_ref(key: str) -> ZoneRef:
    name, _, owner = key.partition("#")
    return ZoneRef(name, int(owner) if owner else None)


def rule_value(v: Any, kind: str, cards: list[CardData]) -> Any:
    """A direct value of static kind `kind` as the rules' values are given to people and tools:
    card ids as the cards, rows as lists of cards; players, numbers and texts as they are."""
    if v is None:
        return None
    if kind in ("card", "topcard"):
        return cards[v] if type(v) is int else v
    if kind in ("cards", "row", "topcards"):
        return [cards[c] if type(c) is int else c for c in v]
    if kind in ("rows", "rowpair"):
        return [rule_value(r, "row", cards) for r in v]
    if kind == "rowpairs":
        return [rule_value(r, "rowpair", cards) for r in v]
    if kind == "player":  # (some are kept as plain numbers: the start player)
        return Seat(v) if type(v) is int else v
    if kind == "players":
        return [Seat(p) if type(p) is int else p for p in v]
    if kind == "item":
        return _item(v, cards)
    if kind == "mixed":
        return [_item(x, cards) for x in v]
    return v


def _item(v: Any, cards: list[CardData]) -> Any:
    """An item of a mixed list: a plain int is a card, a list a row (a tuple a path of cards)."""
    if type(v) is int:
        return cards[v]
    if type(v) in (list, tuple):
        return [_item(x, cards) for x in v]
    return v


def option_kind(game: Any, option: Any, label: str | None) -> tuple[str, Any]:
    """An option of a decision as a bound name: (its kind, its direct value). A number is a card
    when it is labelled as that card (a choice among numbers is labelled by the numbers)."""
    t = type(option)
    if option is None:
        return "none", None
    if t is bool:
        return "bool", option
    if t is int:
        is_card = 0 <= option < len(game.cards) and label == game.R.label(option)
        return ("card" if is_card else "int"), option
    if isinstance(option, Seat):
        return "player", option
    if t is ZoneRef:  # a zone chosen among zones: its cards now
        return "cards", zone_cards(game.state, option.key, option.name in game.program.rows_zones)
    if t is str:
        return "str", option
    if t is list and all(type(x) is int for x in option):
        return "row", option
    if t is tuple and all(type(x) is int for x in option):
        return "cards", list(option)  # a walk over spaces
    if t in (list, tuple):  # (an action's option: its card as the card's id, as mixed lists hold cards)
        return "mixed", [x.id if isinstance(x, CardData) else x for x in option]
    return "any", option


def bound_name(name: str, value: Any) -> Bound:
    """A variable given as a rule value (a card as the card) as a bound name of direct code."""
    if isinstance(value, CardData):
        return name, "card", value.id
    if value is None:
        return name, "none", None
    if isinstance(value, Seat):
        return name, "player", value
    if isinstance(value, bool):
        return name, "bool", value
    if isinstance(value, int):
        return name, "int", value
    if isinstance(value, str):
        return name, "str", value
    if isinstance(value, list) and value and all(isinstance(x, CardData) for x in value):
        return name, "cards", [x.id for x in value]
    return name, "any", value


def prefer_rules(dp: Any) -> tuple[list, list]:
    """The ruleset's `prefer` rules as (prompt or None, binder, None, declaration), the longest
    prompt first and the rule without one last, and its `prefer ... for action` rules as
    (label, binder, None, declaration), the longest label first (actionprefs.action_rules_of)."""
    got = dp.__dict__.get("_prefer_rules")
    if got is None:
        prefers = dp.program.rs.prefers
        by_prompt = sorted(((d.prompt, d.binder, None, d) for d in prefers if d.action is None),
                           key=lambda r: -len(r[0]) if r[0] is not None else 1)
        by_label = sorted(((d.action, d.binder, None, d) for d in prefers if d.action is not None),
                          key=lambda r: -len(r[0]))
        got = dp.__dict__["_prefer_rules"] = (by_prompt, by_label)
    return got


_PROMPTS_KEPT = 4096  # prompts whose rule `prefer_rule_for` remembers (a prompt may name a number)


def prefer_rule_for(dp: Any, prompt: str) -> tuple | None:
    """The `prefer` rule (as `prefer_rules` gives it) for a decision asked with `prompt`: the
    longest prompt it begins with, else the rule without one; None if none. Remembered per prompt,
    as a search's playouts ask at every decision, nearly always with a prompt asked before."""
    known = dp.__dict__.get("_prefer_by_prompt")
    if known is None:
        known = dp.__dict__["_prefer_by_prompt"] = {}
    got = known.get(prompt, known)
    if got is known:
        got = next((r for r in prefer_rules(dp)[0] if r[0] is None or prompt.startswith(r[0])), None)
        if len(known) < _PROMPTS_KEPT:
            known[prompt] = got
    return got


def as_list(v: Any) -> list:
    """A single value as the list the rules make of it (none: no items; a list as it is)."""
    if v is None:
        return []
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]
