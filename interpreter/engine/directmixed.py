"""Arithmetic whose sides are not both numbers, in generated code: what `Game.add`, `Game.sub` and
`*` do with them, so that a ruleset needing it still runs (and fails as the rules say it does).

Why a module of its own: `+` of a text joins texts, `+` of a list with a single value grows the
list, and a card or none among numbers is a mistake in the rules that must be told in rule words
("cannot add a number and a card"). Generated code keeps a card as its id (a plain int), so a card
side is turned into the card itself before the operation: Python then fails on it exactly as the
task engine fails, and `explain`/blame.py tell it the same way.
"""
from __future__ import annotations

from typing import Any

from ..runtime.errors import RuleError, kind_word, value_words
from ..runtime.memory import built_value
from ..content.model import CardData
from ..language.tree import Call
from ..library import BUILTINS
from .directexpr import StatKindsFound, Unsupported, V

__all__ = ["MixedGen", "MIXED_GLOBALS", "MIXED_KEYWORDS", "value_text"]

MAX_INT = 2 ** 63  # the bound of every number (directgame.py takes it from here)
_SINGLE = ("int", "any", "str", "bool", "none", "player", "card")
_LISTS = ("list", "cards", "zone", "row", "players")


def _join_texts(R: Any, a: Any, ak: str, b: Any, bk: str) -> str:
    """`A + B` where one side is a text and the other a card, player or list (directforms.py
    joins the plain ones): both as `Game.text` writes them, charged to the memory budget."""
    return built_value(R, R._text(a, ak) + R._text(b, bk))  # noqa: SLF001 - the runtime's own `log` text


def value_text(R: Any, v: Any) -> str:
    """`Game.text` of a rule value (kind "value"): cards by their labels, lists item by item."""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, CardData):
        return R.label(v.id)
    if isinstance(v, list):
        return "[" + ", ".join(value_text(R, x) for x in v) + "]"
    return str(v)


def mul(a: Any, b: Any, loc: Any = None) -> int:
    """`A * B` (`_mul` in generated code); where a side may be no number, `_mul_at` with the
    expression's place, so the error names it."""
    if not isinstance(a, int) or not isinstance(b, int):
        raise RuleError(f"only numbers can be multiplied, not {value_words(a)} and {value_words(b)}", loc)
    out = a * b
    if not -MAX_INT <= out <= MAX_INT:
        raise RuleError(f"the number {a} * {b} is too large", loc)
    return out


def _no_field(v: Any, name: str) -> None:
    """`X.field` of a number, text or yes/no (`read_field`): none of none, else an error."""
    if v is not None:
        raise RuleError(f"{kind_word(type(v).__name__)} has no field `{name}`", None)


MIXED_GLOBALS = {"_join_texts": _join_texts, "_mul_at": mul, "_no_field": _no_field}
MIXED_KEYWORDS = frozenset(MIXED_GLOBALS)


class MixedGen:
    """`Arith.generate`'s cases beyond numbers (language/tree.py hands them here)."""

    @property
    def params_of(self) -> dict:
        """Generated function → its parameters (`_a0` → ("you", "player")), so that blame.py can
        name `your X`'s value when a rule fails (`DirectGame._variables`)."""
        got = self.__dict__.get("_params_of")
        if got is None:
            got = self.__dict__["_params_of"] = {}
        return got

    # ---- rule values: a list or map mixing cards with other values, kept as the task engine keeps
    # it (cards as the cards themselves) and only stored or logged, never looked into ----------
    def rule_value(self, v: V) -> str:
        """The source of `v` in the task engine's form (kind "value")."""
        if v.kind == "card":
            return f"R.card_obj({v.src})"
        if v.kind in ("cards", "zone", "row"):
            return f"R.card_objs({self.cards_src(self.items(v) if v.kind == 'zone' else v)})"
        if v.kind in ("int", "str", "bool", "player", "none", "any", "value", "map", "map:str"):
            return v.src
        if v.kind in ("list", "players"):
            return f"list({v.src})" if v.live else v.src
        raise Unsupported(f"a {v.kind} inside a list or map of mixed values")

    def list_of(self, items: list) -> V:
        """`[a, b, ...]`; one mixing cards with lists or maps is a rule value."""
        try:
            return super().list_of(items)
        except Unsupported as why:
            if str(why) != "a list of lists or of cards mixed with other values" or \
                    not any(v.kind in ("value", "map", "map:str") for v in items):
                raise
        return V("[" + ", ".join(self.rule_value(v) for v in items) + "]", "value", nn=True)

    def stat_store(self, name: str, v: V) -> str:
        """A stat given a rule value keeps every value it is given in the task engine's form."""
        known = self.stat_kinds.get(name)
        if known != "value" and v.kind != "value":
            return super().stat_store(name, v)
        if known != "value":
            if self.learning:
                self.stat_kinds[name] = "value"
            else:
                raise StatKindsFound({**self.stat_kinds, name: "value"})
        return self.rule_value(v)

    def mixed_arith(self, n: Any, left: V, right: V) -> V:
        kinds = (left.kind, right.kind)
        if n.op == "+" and "str" in kinds and all(k in _SINGLE or k in _LISTS for k in kinds):
            a, b = (self.items(v) if v.kind in ("zone", "row") else v for v in (left, right))
            return V(f"_join_texts(R, {a.src}, {self.k(a.kind)}, {b.src}, {self.k(b.kind)})", "str", nn=True)
        if n.op == "+" and (left.kind in _LISTS) != (right.kind in _LISTS):
            return self.grown_list(left, right)
        if all(k in _SINGLE for k in kinds):  # a card, player, yes/no or none among numbers
            a, b = (V(f"R.card_obj({v.src})", "any") if v.kind == "card" else v for v in (left, right))
            if n.op == "*":
                return V(f"_mul_at({a.src}, {b.src}, {self.k(n.loc)})", "int")
            if n.op in ("+", "-"):
                return V(f"{'_add' if n.op == '+' else '_sub'}({a.src}, {b.src})", "int")
            return V(f"({a.src} {'//' if n.op == '/' else '%'} {b.src})", "int")
        raise Unsupported("arithmetic on non-numbers")

    def grown_list(self, left: V, right: V) -> V:
        """`LIST + X` / `X + LIST` of one list and one single value: the value joins the list
        (`Game.listify` of a single value is a list of it)."""
        lst, one = (left, right) if left.kind in _LISTS else (right, left)
        items = self.items(lst)
        item = f"[{one.src}]" if one.kind != "none" else "[None]"
        src = f"({items.src} + {item})" if lst is left else f"({item} + {items.src})"
        if items.kind == "list" and one.kind in ("int", "str", "bool", "none", "any"):
            return V(src, "list", elem="str" if items.elem == "str" and one.kind == "str" else "other")
        if items.kind == "cards" and one.kind == "card":
            return V(src, "cards")
        if items.kind == "players" and one.kind == "player":
            return V(src, "players")
        raise Unsupported(f"a list joining a {one.kind}")

    def field_of_value(self, obj: V, name: str) -> V:
        """`X.field` where X is a number, text or yes/no: the task engine's error (none of none)."""
        if obj.kind not in ("int", "str", "bool", "none"):
            raise Unsupported(f"field of a {obj.kind}")
        return V(f"_no_field({obj.src}, {self.k(name)})", "none")

    def index_by_value(self, obj: V, xs: V, item: str | None, key: V) -> V:
        """`XS[K]` where K is no number: a card is looked up as the card itself (so Python fails
        on it as on the task engine's card, and blame.py tells it); a yes/no, text or player
        as it is (a player is its seat number, as on the task engine)."""
        if obj.kind == "any":  # a value of unknown kind (blame.py's variables): its item is too
            item = "any"
        if item is None or key.kind not in ("card", "none", "str", "bool", "player"):
            raise Unsupported(f"index of {obj.kind} by {key.kind}")
        k = f"R.card_obj({key.src})" if key.kind == "card" else key.src
        return V(f"{xs.src}[{k}]", item, top=xs.top)

    def compare_lists(self, n: Any, left: V, right: V) -> V:
        """`A == B` / `A != B` of two lists of the same kind of items, item by item as the task
        engine compares them (cards by id: the same card is the same id); zones and rows by their
        cards. A list of cards is never equal to a list of other values, nor to none."""
        if n.op not in ("==", "!="):
            raise Unsupported("ordering lists")
        sides = [self.items(v) if v.kind in ("zone", "row") else v for v in (left, right)]
        kinds = {v.kind for v in sides}
        if "none" in kinds and len(kinds) == 2:  # a list is never none
            return V("False" if n.op == "==" else "True", "bool", nn=True)
        if len(kinds) != 1 or kinds - {"cards", "list", "players"}:
            raise Unsupported("comparing lists of different kinds")
        return V(f"({sides[0].src} {n.op} {sides[1].src})", "bool", nn=True)

    def builtin_of(self, n: Any, owner: V, scope: dict) -> V:
        """`F of X` where F is a builtin (`next_player of start_player`): `F(X)`, as
        `Compiler.x_of` calls it."""
        m = getattr(self, "f_" + n.name, None)
        if n.name not in BUILTINS or m is None:
            raise Unsupported(f"of a {owner.kind}")
        return m(Call(func=n.name, args=[n.owner], name_loc=n.name_loc, loc=n.loc), [owner], scope)

    def f_covered(self, n: Any, a: list, scope: dict) -> V:
        """`covered(c)`: `c is covered` written as a call."""
        if len(a) != 1 or a[0].kind != "card":
            raise Unsupported("covered() of a non-card")
        return V(f"_is_covered(_COV, {a[0].src})", "bool", nn=True)
