"""Direct-style compilation (direct.py) of what cards in play can do: actions, `whenever`
triggers and card parts.

`AbilityGen` is the part of `direct._Gen` that writes the functions of actions (a rule's
`action "..."` and a card's) and of cards' `whenever` triggers, and the `take actions` statement;
`AbilityRuntime` is the part of `directgame.Runtime` that finds, as the task engine does
(`Game.available_actions`, `Game.fire_task`, `Game.ability_live`), which of them apply now: the
same actions in the same order, the same use counts in `GameState.uses`, the same conditions
evaluated in the same order, so that both engines ask the same questions and draw the same
random numbers.
"""
from __future__ import annotations

from functools import partial
from operator import itemgetter
from typing import Any, Callable

from .game import Decision
from ..runtime.errors import RuleError, explain
from ..runtime.values import Seat

__all__ = ["AbilityGen", "AbilityRuntime", "GENERATED_KEYWORDS"]


def _action_entry(key: str, fn: str, cond: Any, node: Any, c: Any) -> tuple:
    """An action as `AbilityRuntime.actions` gives it, with the key its uses are counted under
    (None: the action has no use limit)."""
    return (key, fn, cond, node, c), (f"{node.period}:{key}" if node.limit is not None else None)


_UNSEEN = object()  # (`whenever_held` before its first look)


def _key_owner(at: str) -> int:
    """`in_play_owner` of a card at zone key `at`, -1 for none."""
    if at[0] == "^" or "#" not in at:
        return -1
    return int(at.partition("#")[2])


def _action_label(done: str, option: Any) -> str:
    """An action decision's option as people read it: the action's label (and its card's name);
    None, the last option, is `done` ("End the turn")."""
    if option is None:
        return done
    card = option[4]
    return f"{option[1].label} ({card.name})" if card is not None else option[1].label

# attribute names the code written here uses (direct.py's token check allows them)
# (and `_`, the unused counter of direct.py's `repeat N times`)
GENERATED_KEYWORDS = frozenset({"actions", "action_decision", "use_action", "reset_uses", "uses", "_"})


class AbilityGen:
    """Mixed into `direct._Gen` (which provides `function`, `expr_function`, `expr`, `emit`,
    `temp`, `k`, `cards_src`, `you`, `rs`)."""

    def abilities(self, trigger_fn: Callable[[Any], tuple]) -> dict:
        """Write the functions of every action and `whenever` trigger; the tables the runtime
        looks them up in (`info` entries), and under "exported" the functions' names.

        `whenever`: event → [(function, condition, binder?, node, card id)], in card order then
        effect order (as `Program.whenever`). Actions: per rule action and per card,
        [(function, condition, node)] (as `Program.rule_actions` and `card_actions`)."""
        rs = self.rs
        exported: list[str] = []
        whenever: dict[str, list] = {}
        for card in rs.cards:
            if card.effect is None:
                continue
            for t in card.effect.triggers:
                if t.kind != "action" and t.whenever:
                    name, cond, binder, node = trigger_fn(t)
                    whenever.setdefault(t.event, []).append((name, cond, binder, node, card.id))
        made: dict[int, tuple] = {}

        def action_fn(a: Any) -> tuple:
            got = made.get(id(a))
            if got is None:
                i = len(made)
                params = [("you", "player"), ("this", "card")]
                self.function(f"_ac{i}", params, a.body, a.loc, call=True)
                cond = None
                if a.cond is not None:
                    cond = f"_acc{i}"
                    self.expr_function(cond, params, a.cond, a.loc)
                exported.extend(x for x in (f"_ac{i}", cond) if x)
                got = made[id(a)] = (f"_ac{i}", cond, a)
            return got
        rule_actions = [action_fn(a) for a in rs.actions]
        card_actions: dict[int, list] = {}
        for card in rs.cards:
            acts = [action_fn(t) for t in (card.effect.triggers if card.effect is not None else ())
                    if t.kind == "action"]
            if acts:
                card_actions[card.id] = acts
        copies = self.copy_functions(exported)  # `copies EXPR` (directcopies.py)
        return {"whenever": whenever, "rule_actions": rule_actions, "card_actions": card_actions, "copies": copies,
                "kept_parts": dict(self.p.kept_parts), "boards": self.board_tables(exported),
                "board_names": frozenset(rs.boards), "exported": exported}


def condition_error(ex: Exception, node: Any) -> RuleError:
    """The error of a trigger's condition, `when` or `whenever`, that failed with `ex` (a content
    bug in it names the trigger's rule); `fired` and `whenever_pending` test conditions in place
    and raise this."""
    return RuleError(f"in this trigger's condition: {explain(ex)}", node.loc)


class AbilityRuntime:
    """Mixed into `directgame.Runtime` (which provides `state`, `info`, `rows_zones`, `rs`,
    `game`)."""

    def in_play_owner(self, cid: int) -> int | None:
        """As `Game._in_play_owner`: the owner of the per-player zone a card lies uncovered in."""
        at = self.state.where.get(cid)
        if at is None or at[0] == "^" or "#" not in at:
            return None
        return int(at.partition("#")[2])

    def ability_live(self, cid: int, node: Any) -> bool:
        """As `Game.ability_live`: in a zone declared `covered keep PART`, a card below the top
        keeps only that part's abilities."""
        kept = self.info["kept_parts"]
        if not kept:
            return True
        st = self.state
        at = st.where.get(cid)
        if at is None or at[0] == "^":
            return True
        part = kept.get(at.partition("#")[0])
        if part is None:
            return True
        z = st.zones[at]
        return (bool(z) and z[-1] == cid) or getattr(node, "part", None) == part

    def whenever_pending(self, event: str, subject: Any) -> list:
        """The `whenever` triggers of cards in play answering `event` whose condition holds, as
        (function, arguments, node, card name) (the end of `Game.fire_task`'s candidates)."""
        return self.whenever_answers(self.whenever_held(event), subject)

    def whenever_held(self, event: str) -> list:
        """The `whenever` triggers of `event` whose card is in play, each as (its entry, the
        card's owner): `_in_play` of the event's table, looked at again only when one of its
        cards lies somewhere else than at the last look. Why: a dice game fires `rolled` for
        every die rolled and its few `whenever rolled` cards are seldom in play; their places,
        read in one call (`itemgetter`) and compared with the last ones, cost a fraction of the
        full look. What it gives depends only on those places (the owners' seats are numbers),
        so the last answer is kept per ruleset and player count, for every game and copy of it."""
        info = self.info
        if info["copies"]:  # copying cards answer with the copied card's triggers too
            return self._in_play(list(info["whenever"].get(event, ())) + self.copied_whenever(event))
        memo = self.tables["whenever_held"]
        got = memo.get(event)
        if got is None:
            table = info["whenever"].get(event, ())
            got = memo[event] = [table, itemgetter(*[e[4] for e in table]) if table else None, _UNSEEN, []]
        places = got[1]
        if places is None:
            return got[3]
        try:
            now = places(self.state.where)
        except KeyError:  # a card out of every zone (being moved): look at each
            return self._in_play(got[0])
        if now != got[2]:
            got[3] = self._in_play(got[0])
            got[2] = now
        return got[3]

    def whenever_answers(self, held: list, subject: Any) -> list:
        """Of `whenever_held`'s triggers, those answering `subject` now (a live ability whose
        condition holds), as `whenever_pending` gives them."""
        out = []
        if not held:
            return out
        fns = self.game.fns
        live = self.ability_live if self.info["kept_parts"] else None
        for entry, you in held:
            name, cond, binder, node, cid = entry
            if live is not None and not live(cid, node):
                continue
            args = (you, cid, subject) if binder else (you, cid)
            if cond is not None:
                try:  # (tested here, not through a call per condition: a dice game tests one per die)
                    if not fns[cond](*args):
                        continue
                except RuleError:
                    raise
                except Exception as ex:
                    raise condition_error(ex, node) from None
            out.append((fns[name], args, node, self.rs.cards[cid].name))
        return out

    def _in_play(self, table: Any) -> list:
        """The entries of a `whenever` table whose card lies in a player's zone (`in_play_owner`,
        its answer per zone key remembered), each as (entry, that player)."""
        # (`where.get` bound once: on card statistics' map, a dict subclass, a bound call is the fast one)
        place, owners, seats, held = self.state.where.get, self.tables["key_owners"], self.seats, []
        for entry in table:
            at = place(entry[4])
            if at is None:
                continue
            owner = owners.get(at)
            if owner is None:
                owner = owners[at] = _key_owner(at)
            if owner >= 0:
                held.append((entry, seats[owner] if owner < len(seats) else Seat(owner)))  # (a dummy's zone)
        return held

    def actions(self, player: Any, sources: list | None) -> list:
        """As `Game.available_actions`: the rules' actions, then those of the player's cards in
        play and of `sources`, each within its use limit and condition; as (use key, function,
        condition, node, card id or None). Asked before every action decision (much of a
        game that offers actions all turn): the entries, their use keys and which of a covered
        card's actions live are found once per ruleset (`action_plan`), the player's zones once
        per seat (`own_action_zones`)."""
        st = self.state
        p = int(player)
        rule, entries, lower, kept = self.tables.get("action_plan") or self.action_plan()
        if entries is None:  # no card has actions
            out = rule
        elif self.info["copies"]:
            out = self._copying_actions(p, sources, rule)
        else:
            out = list(rule)
            zones = st.zones
            for key, part in self.tables["own_action_zones"].get((p, st.dummies)) or self.own_action_zones(p):
                z = zones[key]
                if not z:
                    continue
                if part is None:
                    for c in z:
                        made = entries.get(c)
                        if made is not None:
                            out += made
                else:  # a card below the top keeps that part's actions only (`ability_live`)
                    top = z[-1]
                    for c in z:
                        made = entries.get(c) if c == top else lower.get((part, c))
                        if made is not None:
                            out += made
            if sources:
                where = st.where
                own = self.tables["own_key_sets"][p, st.dummies]
                seen: list = []
                for c in sources:  # a source in one of the player's zones was counted there
                    made = entries.get(c)
                    if made is None or c in seen:
                        continue
                    seen.append(c)
                    at = where.get(c)
                    if at in own:
                        continue
                    part = kept.get(at.partition("#")[0]) if kept and at is not None else None
                    if part is not None and zones[at][-1] != c:
                        made = lower.get((part, c))
                        if made is None:
                            continue
                    out += made
        legal = []
        uses, fns = st.uses, self.game.fns
        you = Seat(p)
        for entry, use_key in out:
            if use_key is not None and uses.get(use_key, 0) >= entry[3].limit:
                continue
            cond = entry[2]
            if cond is not None and not fns[cond](you, entry[4]):
                continue
            legal.append(entry)
        return legal

    def action_plan(self) -> tuple:
        """What `actions` reads, made once per ruleset and player count: the rules' actions' entries
        (as (entry, use key or None)); card id → its own actions' entries (None: no card has
        actions); (part, card id) → those that belong to `part`, for a card below the top of a zone
        that keeps that part; and the zones that keep a part (`ability_live`). Each seat's zones
        are found when it first asks (`own_action_zones`)."""
        info = self.info
        rule = [_action_entry(f"rule:{i}", fn, cond, node, None) for i, (fn, cond, node) in enumerate(info["rule_actions"])]
        entries = {c: [_action_entry(f"{c}:{i}", fn, cond, node, c) for i, (fn, cond, node) in enumerate(own)]
                   for c, own in info["card_actions"].items()}
        kept = info["kept_parts"]
        lower = {}
        for part in set(kept.values()):
            for c, made in entries.items():
                ok = [pair for pair in made if getattr(pair[0][3], "part", None) == part]
                if ok:
                    lower[part, c] = ok
        self.tables["own_action_zones"], self.tables["own_key_sets"] = {}, {}
        got = self.tables["action_plan"] = (rule, entries or None, lower, kept)
        return got

    def own_action_zones(self, p: int) -> list:
        """`own_zone_keys(p)`, each with the part its covered cards keep (None: all of it); and
        the set of those keys in `tables["own_key_sets"]` (a source lying there is counted there)."""
        at = (p, self.state.dummies)
        kept, keys = self.info["kept_parts"], self.own_zone_keys(p)
        zones = self.tables["own_action_zones"][at] = [(key, kept.get(key.partition("#")[0])) for key in keys]
        self.tables["own_key_sets"][at] = frozenset(keys)
        return zones

    def _copying_actions(self, p: int, sources: list | None, out: list) -> list:
        """`_card_actions` where some cards copy others (`copies EXPR`): each card's actions
        found anew (its own, then those of the card it copies now), each tested by `ability_live`."""
        zones, info = self.state.zones, self.info
        out = list(out)
        cards: list = []
        for key in self.own_zone_keys(p):
            cards += zones[key]
        if sources is not None:
            cards += [c for c in sources if c is not None and c not in cards]
        card_actions = info["card_actions"]
        live = self.ability_live if info["kept_parts"] else None
        for c in cards:
            made = [_action_entry(f"{c}:{i}", fn, cond, node, c)
                    for i, (fn, cond, node) in self.copied_actions(c, card_actions.get(c) or ())]
            for pair in made:
                if live is None or live(c, pair[0][3]):
                    out.append(pair)
        return out

    @property
    def key_owners(self) -> dict:
        """Zone key (as `where` gives it) → the owner of the player's zone it names, -1 for a
        shared zone or a card below another (made as keys are met, shared by a ruleset's games)."""
        return self.tables["key_owners"]

    def own_zone_keys(self, p: int) -> list:
        """The keys of player `p`'s own zones but rows (`pile#2`), in the state's order: where the
        cards whose actions `p` may take lie."""
        got = self.tables["own_zone_keys"]  # shared by a ruleset's games and their copies (a search's)
        at = (p, self.state.dummies)  # (the zones are the setup's and each dummy player's)
        keys = got.get(at)
        if keys is None:
            suffix = f"#{p}"
            keys = got[at] = [key for key in self.state.zones
                              if key.endswith(suffix) and key.partition("#")[0] not in self.rows_zones]
        return keys

    def action_decision(self, player: Any, legal: list, done: str) -> Decision:
        """The question `ActionsTask` asks: each action by its label (and its card), then "done"
        (the labels made when read: `_action_label`). Each action's option is made once per
        ruleset and player count, as the entries are (`action_plan`)."""
        made = self.tables.get("action_options")
        if made is None:
            made = self.tables["action_options"] = {}, {}
        known, labels = made  # by its use key (it names the card and the action), and by `done`
        options = []
        for entry in legal:
            option = known.get(entry[0])
            if option is None:
                c = entry[4]
                option = known[entry[0]] = (entry[0], entry[3], None, None, self.rs.cards[c] if c is not None else None)
            options.append(option)
        options.append(None)
        label = labels.get(done)
        if label is None:
            label = labels[done] = partial(_action_label, done)
        return Decision(int(self.player_or_active(player)), "action", "Choose an action", options, None, None,
                        label)

    def use_action(self, entry: tuple) -> Callable:
        """Count a use of a limited action; the action's function."""
        key, fn, _, node, _ = entry
        if node.limit is not None:
            k = f"{node.period}:{key}"
            self.state.uses[k] = self.state.uses.get(k, 0) + 1
        return self.game.fns[fn]

    def reset_uses(self, prefix: str) -> None:
        """A new turn (`turn:`) or round (`round:`): its actions' uses start again."""
        uses = self.state.uses
        for k in [k for k in uses if k.startswith(prefix)]:
            del uses[k]
