"""Mods that combine (docs/modding.md): several expansions stacked on one base, in a stated order.

The loader records, for every ruleset of the stack (a *layer*), which layers it comes after: its
bases (`extends`), the base a `--with` mod is stacked on, and the mods its header names with
`after "name"`. Two layers that replace or hook the same thing, or edit the same card, must be
ordered that way, otherwise which one wins would depend on the order the player happened to type:
that is `mod/conflict`, naming both places. Card files may `remove:` or `replace:` a card of an
earlier layer; this module applies those edits as each layer's cards are read.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable

from ..language.diagnostics import Loc, did_you_mean

__all__ = ["WITH", "split_stack", "stack_path", "comes_after", "order_hint", "apply_card_edits", "hook_conflicts",
           "check_order", "check_provides"]

WITH = " --with "  # a stack written as one path string: `BASE --with MOD,MOD` (it travels in logs and reports)


def stack_path(base: str, mods: Iterable[str]) -> str:
    """The one string naming a base with mods stacked on it, in order (a plain path when there are none)."""
    mods = [m for m in mods if m]
    return f"{base}{WITH}{','.join(mods)}" if mods else str(base)


def split_stack(path: str) -> tuple[str, list[str]]:
    """`BASE --with A,B` → (BASE, [A, B]); any other path is itself, with no mods."""
    base, sep, rest = str(path).partition(WITH)
    if not sep:
        return str(path), []
    return base, [m.strip() for m in rest.split(",") if m.strip()]


def comes_after(after: dict[str, set[str]], late: str, early: str) -> bool:
    """Is `early` among the layers `late` comes after: its bases, the base it is stacked on and the
    mods it names with `after`, directly or through them?"""
    seen, todo = set(), [late]
    while todo:
        x = todo.pop()
        for y in after.get(x, ()):
            if y == early:
                return True
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return False


def order_hint(late: str, early: str) -> str:
    return (f'if `{late}` is meant to win, write `after "{early}"` in its game header '
            f'(or `after "{late}"` in `{early}`\'s to let that one win)')


def _conflict(content: Any, what: str, loc: Loc, layer: str, other: str, other_loc: Any) -> None:
    content.error("mod/conflict", f"{what} here (in `{layer}`) and at {other_loc} (in `{other}`): neither mod "
                  "says which comes first", loc, order_hint(layer, other))


def check_order(content: Any) -> None:
    """`after "x"` where `x` was loaded later all the same (a header's `extends` lines name it after
    this one): the declared order and the order of the stack disagree."""
    at = {name: i for i, name in enumerate(content.layers)}
    for (layer, x), loc in content.after_at.items():
        if layer in at and x in at and at[x] > at[layer]:
            content.error("mod/order", f"`{layer}` says it comes after `{x}`, but `{x}` is loaded after it", loc,
                          f"list `{x}` first (its `extends` line above `{layer}`'s, or first after `--with`)")


def check_provides(content: Any) -> None:
    """`provides "THING"` in a game header: the mod fills a place a game has only one of (a main
    board, an Inner Region). Two layers of a stack that provide the same thing cannot be played
    together — no `after` settles it, since the game would have two of what it has one of."""
    first: dict[str, tuple[str, Loc]] = {}
    for m in content.modules:
        for d in m.decls:
            for item in (d.items if d.kind == "game" else ()):
                if item.name != "provides":
                    continue
                v = item.value
                if v.kind != "lit" or not isinstance(v.value, str) or not v.value.strip():
                    content.error("mod/provides", "`provides` takes the name of what the mod is the game's one of, "
                                  "in quotes", v.loc, 'write `provides "main board"`')
                    continue
                layer = m.layer
                if v.value in first and first[v.value][0] != layer:
                    other, other_loc = first[v.value]
                    content.error("mod/exclusive", f"`{layer}` provides the {v.value} here, and `{other}` provides "
                                  f"it too (at {other_loc}): a game has only one, so these mods cannot be "
                                  "played together", v.loc, f"stack `{layer}` or `{other}`, not both")
                    continue
                first.setdefault(v.value, (layer, v.loc))


def hook_conflicts(content: Any, hooks: list[tuple[Any, str]]) -> None:
    """Two unordered layers hooking the same procedure or phase on the same side: which wraps the
    other would depend on the order they were given in. (A `before` and an `after` commute.)"""
    first: dict[tuple, tuple[Any, str]] = {}
    for h, layer in hooks:
        key = (h.when, bool(getattr(h, "phase", False)), h.name)
        if key in first:
            other, other_layer = first[key]
            if other_layer != layer and not comes_after(content.after, layer, other_layer):
                what = f"`{h.when} {'' if key[1] else 'procedure '}{h.name}` is hooked"
                _conflict(content, what, h.name_loc or h.loc, layer, other_layer, other.name_loc or other.loc)
        first[key] = (h, layer)


# ---- card edits: `- remove: NAME` and `- replace: NAME` in a mod's card file ----------------------

def apply_card_edits(content: Any, first: int, layer: str, make_spec: Any) -> None:
    """Apply the `remove:`/`replace:` entries among `content.cards[first:]` (one layer's cards) to the
    cards of the layers before; warn about a plain card that repeats an earlier layer's name. Linear
    in the number of cards (an index by name), however many edits a file holds."""
    earlier = content.cards[:first]
    index: dict[str, list[int]] = {}
    for i, c in enumerate(earlier):
        if c.layer != layer:
            index.setdefault(c.name, []).append(i)
    dead: set[int] = set()
    kept: list = []
    for spec in content.cards[first:]:
        entry = spec.fields.get("__node__")
        keys = [k for k in ("remove", "replace") if entry is not None and k in entry]
        if not keys:
            twin = index.get(spec.name)
            if twin:
                other = earlier[twin[0]]
                content.warn("mod/card-twin", f"card `{spec.name}` is also a card of `{other.layer}` (at {other.loc}): "
                             "this one is added beside it", spec.loc,
                             f"write `- replace: {spec.name}` to correct that card, or `- remove: {spec.name}` "
                             "to take it out")
            kept.append(spec)
            continue
        if len(keys) == 2:
            content.error("cards/shape", "a card entry either removes or replaces a card, not both", spec.loc,
                          "write `- remove: NAME` or `- replace: NAME` with the card's fields")
            continue
        key = keys[0]
        target = entry[key]
        if not isinstance(target, str) or not target:
            content.error("cards/shape", f"`{key}:` takes the name of a card", spec.loc,
                          f"write `- {key}: Card name`")
            continue
        hits = index.get(target)
        if not hits:
            _missing(content, key, target, spec, layer, kept, index)
            continue
        owner = content.card_owner.get(target)
        owner_layer, owner_loc = (owner[0], owner[1]) if owner else (earlier[hits[0]].layer, earlier[hits[0]].loc)
        if owner_layer != layer and not comes_after(content.after, layer, owner_layer):
            _conflict(content, f"card `{target}` is {'removed' if key == 'remove' else 'replaced'}", spec.loc, layer,
                      owner_layer, owner_loc)
            continue
        content.card_owner[target] = (layer, spec.loc, key)
        del index[target]
        if key == "remove":
            if len(entry) > 1:
                others = ", ".join(f"`{k}`" for k in entry if k != "remove")
                content.error("cards/shape", f"a `remove:` entry has no other fields (it has {others})", spec.loc,
                              "to change the card instead, write `replace:`")
            dead.update(hits)
            continue
        entry = copy.deepcopy(entry)  # the loader shares a file's parsed data between loads: edit a copy
        del entry["replace"]
        old = earlier[hits[0]]
        if "name" not in entry:
            entry["name"] = target
        if "type" not in entry:
            entry["type"] = old.type
        if entry["name"] != target:
            content.card_owner[str(entry["name"])] = (layer, spec.loc, key)
        earlier[hits[0]] = make_spec(entry, spec.loc, layer)  # in the old card's place: the deck order stays
        dead.update(hits[1:])
    content.cards[:] = [c for i, c in enumerate(earlier) if i not in dead] + kept


def _missing(content: Any, key: str, target: str, spec: Any, layer: str, kept: list, index: dict) -> None:
    """An edit of a card no earlier layer has (any more): a conflict if an unordered mod removed it,
    else `mod/dangling` with a did-you-mean."""
    gone = content.card_owner.get(target)
    if gone is not None and gone[2] == "remove":
        if not comes_after(content.after, layer, gone[0]):
            _conflict(content, f"card `{target}` is edited", spec.loc, layer, gone[0], gone[1])
        else:
            content.error("mod/dangling", f"`{key}: {target}`: `{gone[0]}` has already removed that card "
                          f"(at {gone[1]})", spec.loc, "there is nothing left to edit")
        return
    own = any(c.name == target for c in kept)
    content.error("mod/dangling", f"`{key}: {target}`: no earlier ruleset of the stack has a card `{target}`",
                  spec.loc, "a card of this same ruleset is edited in its own file" if own
                  else did_you_mean(target, sorted(index)) or "remove or replace a card of the base")
