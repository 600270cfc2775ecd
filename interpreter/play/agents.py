"""Agents: anything that answers a Decision. All play any ruleset through the same interface."""
from __future__ import annotations

import math
from itertools import chain, repeat
import random
import weakref
from _random import Random as _CRandom
from typing import Protocol

from ..engine.directgame import DirectGame, GameRandom
from ..engine.game import Decision
from ..engine.resumable import CopyPlan
from ..runtime.values import ZoneRef
from .endings import can_end_with_no_winner

__all__ = ["Agent", "RandomAgent", "GuidedAgent", "FirstAgent", "GreedyAgent", "MCTSAgent", "determinize", "deal_plan",
           "DealPlan", "make_agent", "share_copies",
           "guided_choice", "AGENT_KINDS"]


class Agent(Protocol):
    def choose(self, game: DirectGame, decision: Decision) -> int: ...


class RandomAgent:
    """Uniformly random legal choices from its own seeded RNG (not the game's)."""

    copies_game = False  # never clones or searches: games can run as compiled code (directgame.py)
    answers_in_range = True  # `draw_below` is: a batch does not check each answer (`DirectGame._advance`)

    def __init__(self, seed: object = 0):
        self.rng = random.Random(str(seed))

    def choose(self, game: DirectGame, decision: Decision) -> int:
        n = len(decision.options)
        if n <= 0:
            return self.rng.randrange(n)  # its own error: no options
        getrandbits = self.rng.getrandbits  # (`draw_below`, inline: one call less per decision of a batch)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r


def draw_below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)`, drawn the way `random.Random` draws it (bits until one is below `n`),
    so the same answers and random stream, without randrange's two calls of checks: a batch asks
    this at every decision."""
    if n <= 0:
        return rng.randrange(n)  # its own error: no options
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


class GuidedAgent:
    """Random play that follows the ruleset's option preferences (`prefer p: EXPR`): a uniformly
    random choice among the options rated highest. Without a `prefer` rule it draws exactly as
    `RandomAgent` does (the same answers for the same seed), so it is the default seat of a batch:
    a ruleset that says which moves a sensible player makes is played that way, at about the speed
    of random play (no copies of the game, no look-ahead), and one that does not is played at
    random. What the rule reads is the designer's choice: write it from what the player can see."""

    copies_game = False
    reads_preferences = True  # calls `preferences` (both engines offer it: engine/directfacade.py)
    answers_in_range = True  # an option's index, from `guided_choice` (`DirectGame._advance`)

    def __init__(self, seed: object = 0):
        self.rng = random.Random(str(seed))

    def choose(self, game: DirectGame, decision: Decision) -> int:
        return guided_choice(game, decision, self.rng)


def guided_choice(game: DirectGame, decision: Decision, rng: random.Random) -> int:
    """The `guided` policy: a uniformly random option among those the ruleset's `prefer` rules rate
    highest; without a rule for the decision, one draw of `rng.randrange` over all options, so a
    ruleset without `prefer` gets exactly the answers (and random stream) of uniform play. Used by
    `GuidedAgent` and by `MCTSAgent`'s playouts, so a search plays on as a sensible player would."""
    prefs = game.preferences(decision)
    if prefs is None:
        return draw_below(rng, len(decision.options))
    best = max(prefs)
    top = [i for i, v in enumerate(prefs) if v == best]
    return top[rng.randrange(len(top))]


class FirstAgent:
    """Always the first legal option: a deterministic baseline."""

    copies_game = False

    def __init__(self, seed: object = 0):
        pass

    def choose(self, game: DirectGame, decision: Decision) -> int:
        return 0


def _outcome(result: dict | None, seat: int) -> float:
    """A finished game's value for `seat`: 1 for a win, 1/k for a win shared by k, else 0."""
    if not result:
        return 0.0
    winners = result.get("winners") or []
    return 1.0 / len(winners) if seat in winners else 0.0


def _margin(game: DirectGame, seat: int) -> float:
    """`seat`'s current score minus the best other score (scores evaluated mid-game)."""
    scores = game.scores()["scores"]
    others = [s for i, s in enumerate(scores) if i != seat]
    return float(scores[seat] - (max(others) if others else 0))


def _value_margin(values: list[float], seat: int) -> float:
    """`seat`'s declared value minus the best other seat's."""
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - (max(others) if others else 0.0)


def _value_shares(values: list[float], zero_bottom: bool = False) -> list[float]:
    """An unfinished game's worth to each seat from its declared values, on the scale of outcomes:
    the leader 1, the last 0, the others in proportion (all equal: 1/seats each). Unlike "who would
    win if it ended now", a step forward counts even when it does not change the lead.
    With `zero_bottom` (rules that can end with no winner: `endings.py`) the bottom is 0 where no
    value is negative, not the last seat's value: a seat valued 0 (out of the game) scores as
    everybody losing does, and the last seat still in play above that — with the last as the
    bottom both scored 0, and a trailing seat's search could not tell a move that keeps it in the
    game from one that ends its part in it."""
    least, hi = min(values), max(values)
    if hi <= least:
        return [1.0 / len(values)] * len(values)
    lo = min(least, 0.0) if zero_bottom else least
    return [(v - lo) / (hi - lo) for v in values]


def _cut_values(game: DirectGame) -> list[float]:
    """Each seat's worth in a playout cut before the end: by the ruleset's `value` when it declares
    one, else the game's result as if it ended here."""
    values = game.values()
    if values is not None:
        return _value_shares(values, can_end_with_no_winner(game))
    won = game.leaders()  # (`scores()`'s winners: `_outcome` of its result)
    share = 1.0 / len(won) if won else 0.0
    return [share if p in won else 0.0 for p in range(len(game.seats))]


def _estimate(game: DirectGame, seat: int) -> float:
    """Value of an unfinished (cut) playout for `seat` (see `_cut_values`)."""
    try:
        return _cut_values(game)[seat]
    except Exception:  # noqa: BLE001 - a score that cannot be evaluated yet is worth nothing
        return 0.0


def determinize(game: DirectGame, seat: int, rng: random.Random, plan: "DealPlan | None" = None) -> None:
    """Make `game` (a clone) one possible world consistent with what `seat` may see.

    Look-ahead agents search only such worlds, so their choices cannot depend on what their seat
    may not see. The game's RNG is reseeded from `rng` (future draws and dice are unknown), and the
    cards `seat` cannot see — in hidden zones, in other players' `owner` zones, and under other
    cards (a covered card is hidden from everyone, as `view` shows it, engine/views.py) — are dealt again among
    the places they occupy, each place keeping its size (a rows zone keeps every row's size, a grid
    its occupied spaces). Cards are only exchanged with cards of the same type: a card's back (its
    type) is taken as visible. Visible cards stay put. The deal forgets the actual arrangement
    (ids are sorted first), so two games that look the same to `seat` become the same world.
    `plan`: `deal_plan(g, seat)` of a game `g` whose copy `game` is (a search makes many worlds
    from one game: the places are found once); without it, they are found in `game`.
    """
    r = game.state.rng
    if type(r) is GameRandom or type(r) is random.Random:  # `r.seed(bits)` without its Python-level checks of the seed's type
        _seed(r, rng.getrandbits(64))
        r.gauss_next = None
    else:
        r.seed(rng.getrandbits(64))
    (plan or deal_plan(game, seat)).deal(game, rng)
    game.arranged()  # covered cards and grid spaces read again; anything may have changed for
    # `as soon as` conditions (the same for every world)


_seed = _CRandom.seed  # what `random.Random.seed` calls for a number


class DealPlan:
    """The places of the cards a seat cannot see, by card type, and the cards dealt among them
    (sorted): what `determinize` deals again in each world made from one game.

    A search deals once per world (`mcts`: ten worlds per decision), so what does not change from
    world to world is worked out here once: each type's places as runs of consecutive slots of one
    list (a zone, a row, the cards under a card), filled by one slice assignment each, and the
    keys of `where` in the order of the places, written in one `dict.update`."""

    __slots__ = ("groups", "_runs", "_draws")

    def __init__(self, groups: list[tuple[list[tuple[str, int, int, str]], list[int]]]):
        self.groups = groups  # per type: (places: (where, row or -1, index, where-key), sorted ids)
        self._runs = [_runs_of(places) for places, _ in groups]
        # each type's shuffle, slot by slot (`_shuffle`): (the slot, the slots it draws among,
        # the bits drawn for that), the same in every world
        self._draws = [tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(ids) - 1, 0, -1))
                       for _, ids in groups]

    def deal(self, game: DirectGame, rng: random.Random) -> None:
        """Deal each type's cards among its places in `game` (a copy of the planned game)."""
        st = game.state
        where = st.where
        spaces = getattr(st, "spaces", None)  # card id → grid space: a space belongs to the slot
        for (places, sorted_ids), (runs, keys), draws in zip(self.groups, self._runs, self._draws):
            ids = list(sorted_ids)  # forget the actual arrangement before dealing
            _shuffle(rng, ids, draws)
            if spaces:
                _deal_spaced(st, places, ids, spaces)
                continue
            for place, start, at, n in runs:
                _place_row(st, place)[start:start + n] = ids[at:at + n]
            where.update(zip(ids, keys))


def _runs_of(places: list[tuple[str, int, int, str]]) -> tuple[list[tuple[tuple, int, int, int]], list[str]]:
    """A type's places as runs (a place of the run's list, its first slot, the run's first card
    in the deal's order, its length) of consecutive slots of one list, and each place's key of
    `where`, in order."""
    runs: list[list] = []
    for at, place in enumerate(places):
        last = runs[-1] if runs else None
        if (last is not None and last[0][:2] == place[:2] and last[0][3] == place[3]
                and last[1] + last[3] == place[2]):
            last[3] += 1
        else:
            runs.append([place, place[2], at, 1])
    return [tuple(r) for r in runs], [place[3] for place in places]  # type: ignore[misc]


def _shuffle(rng: random.Random, xs: list, draws: tuple | None = None) -> None:
    """`rng.shuffle(xs)`, drawn as `random.Random` draws it (the same bits, the same order), without
    a call of `_randbelow` per card: a search shuffles every hidden card in every world. `draws`:
    `DealPlan`'s steps for a list of this length, worked out once per plan."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise
        rng.shuffle(xs)
        return
    if draws is None:
        draws = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(xs) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in draws:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        xs[i], xs[j] = xs[j], xs[i]


def _deal_spaced(st, places: list[tuple[str, int, int, str]], ids: list[int], spaces: dict) -> None:
    """The deal of `DealPlan.deal` in a game with a grid: the space of each slot stays with the
    slot (the card dealt there lies on it)."""
    where = st.where
    rows = [_place_row(st, place) for place in places]
    slot_spaces = [spaces.get(r[i]) for r, (_, _, i, _) in zip(rows, places)]
    for r, (_, _, i, key), cid in zip(rows, places, ids):
        r[i] = cid
        where[cid] = key
    for r, (_, _, i, _), space in zip(rows, places, slot_spaces):
        if space is None:
            spaces.pop(r[i], None)
        else:
            spaces[r[i]] = space


def _place_row(st, place: tuple[str, int, int, str]) -> list:
    """The list holding a planned place: a zone, one of its rows, or the cards under a card."""
    name, r, _, key = place
    return st.under[int(key[1:])] if r == -2 else st.zones[name] if r < 0 else st.zones[name][r]


def deal_plan(game: DirectGame, seat: int) -> DealPlan:
    """Where the cards `seat` cannot see lie in `game` now (see `determinize`)."""
    st = game.state
    slots: dict[str, tuple[list[tuple[str, int, int, str]], list[int]]] = {}  # card type → places, ids
    players = len(game.seats)
    cards = game.cards
    under = st.under

    def add(row: list, name: str, r: int, key: str) -> None:
        for i, cid in enumerate(row):
            if cid not in under:  # a card with cards under it stays: its stack keeps its shape
                got = slots.get(t := cards[cid].type)
                if got is None:
                    got = slots[t] = ([], [])
                got[0].append((name, r, i, key))
                got[1].append(cid)

    for name, zd in game.rs.zones.items():
        owners = range(players) if zd.per_player else [None]
        visible = zd.visibility == "public" or zd.visibility == "owner"
        for o in owners:
            key = ZoneRef(name, o).key
            raw = st.zones.get(key)
            if not raw or (visible and (zd.visibility == "public" or o == seat)):
                continue
            if zd.kind == "rows":
                for r, row in enumerate(raw):
                    add(row, key, r, key)
            else:
                add(raw, key, -1, key)
    for top in sorted(under):  # cards lying under others (whatever the zone of the top card)
        add(under[top], "", -2, f"^{top}")
    return DealPlan([(places, sorted(ids)) for places, ids in slots.values() if len(places) >= 2])


class GreedyAgent:
    """One-step look-ahead: the option after which the deciding player's score leads the best
    other score by most, on average over `samples` determinised copies of the game (see
    `determinize`: it never looks at cards its seat may not see, nor at the dice to come). When the
    ruleset declares `value p: ...`, that value is compared instead of the score: what the
    designer says a player should strive for mid-game. The same worlds judge every option; ties
    are broken by its own seeded RNG."""

    def __init__(self, seed: object = 0, samples: int = 4):
        self.rng = random.Random(str(seed))
        self.samples = max(1, samples)
        # the last world and the last look-ahead's copy, made into the next ones (engine/recycle.py)
        self._world: DirectGame | None = None
        self._spare: DirectGame | None = None

    def choose(self, game: DirectGame, decision: Decision) -> int:
        seat = decision.player
        n = len(decision.options)
        if n <= 1:
            return 0
        totals = [0.0] * n
        plan = deal_plan(game, seat)
        for _ in range(self.samples):
            spare = self._world  # (determinize seeds the world's random source)
            world = self._world = game.clone(into=spare, reseeded=True) if spare is not None else game.clone()
            world.record_digests = False
            determinize(world, seat, self.rng, plan)
            for i in range(n):
                totals[i] += self._value(world, i, seat)
        best = max(totals)
        return self.rng.choice([i for i in range(n) if totals[i] == best])

    def _value(self, world: DirectGame, i: int, seat: int) -> float:
        """The margin after answering `i` in `world`; winning beats any margin, failing is worst."""
        try:
            spare = self._spare
            g = self._spare = world.clone(into=spare) if spare is not None else world.clone()
            g.answer(i)
            if g.error is not None:
                return -math.inf
            values = None if g.over else g.values()
            value = _value_margin(values, seat) if values is not None else _margin(g, seat)
            if g.over and g.result:
                value += 1e9 * _outcome(g.result, seat)
            return value
        except Exception:  # noqa: BLE001 - a failing option is simply the worst one
            return -math.inf


class _Node:
    """A node of the information-set tree: reached by a move (an option label) of `player`."""

    __slots__ = ("player", "children", "visits", "total", "avail", "seen")

    def __init__(self, player: int):
        self.player = player
        self.children: dict[tuple[str, int], _Node] = {}
        self.visits = 0
        self.total = 0.0  # summed outcomes for `player`
        self.avail = 0  # iterations in which this move was legal
        # (a move of the searching seat, `keep_tree`) what the seat saw after it, the same in every
        # world that made it (`_seen`), else `_MIXED`: the node can root the seat's next search
        self.seen: object = None


_PLAIN = frozenset({int, float, str, bool, type(None)})  # a stat's value that `view` shows as it is
_MIXED = object()
_NONE: tuple = ()  # a zone the state does not hold yet  # worlds that differed in what the searching seat saw after a move


def _sight(game: DirectGame, seat: int) -> tuple[list[tuple[str, bool, bool]], set[str], tuple[list[str], ...]]:
    """Each zone's key, whether it is a rows zone and whether `seat` sees its cards (else only
    their number) (as `deal_plan` and `view` draw the line); the keys of the zones it sees; and
    the keys by kind: seen lists, seen rows zones, unseen lists, unseen rows zones."""
    out = []
    for name, zd in game.rs.zones.items():
        for o in (range(len(game.seats)) if zd.per_player else [None]):
            out.append((ZoneRef(name, o).key, zd.kind == "rows",
                        zd.visibility == "public" or (zd.visibility == "owner" and o == seat)))
    kinds = tuple([key for key, rows, visible in out if rows is r and visible is v]
                  for v in (True, False) for r in (False, True))
    return out, {key for key, _, visible in out if visible}, kinds


def _seen(game: DirectGame, seat: int, sight: tuple) -> tuple:
    """What `seat` sees of `game` now, as a value to compare: the cards of the zones it sees (the
    number of the others'), the faces, spaces and covered cards of the cards it sees, the stats as
    its view shows them (`view`: a card it may not see is `?`), the turn and the decision asked.
    Nothing hidden enters it, so comparing it tells a search only what the seat knows."""
    st = game.state
    zones, where = st.zones, st.where
    get = zones.get
    lists, rows, unseen, unseen_rows = sight[2]
    none = repeat(_NONE)  # (the loops over zones in C: `_seen` runs about twice a playout)
    shown = (list(map(list, map(get, lists, none))), [[r[:] for r in get(k, _NONE)] for k in rows],
             list(map(len, map(get, unseen, none))), [[len(r) for r in get(k, _NONE)] for k in unseen_rows])
    keys = sight[1]
    plain = game._plain
    d = game.decision
    return (shown, {c: f for c, f in st.faces.items() if where.get(c) in keys},
            {c: x for c, x in st.spaces.items() if where.get(c) in keys},
            {c: len(u) for c, u in st.under.items() if where.get(c) in keys},
            _plain_stats(st.stats, plain, seat), _plain_pstats(st.pstats, plain, seat),
            dict(st.uses),
            st.active, st.turn_number, st.round_number, st.ending,
            None if d is None else (d.player, d.prompt, list(d.labels)))


def _sees_the_same(game: DirectGame, seat: int, sight: tuple, seen: object) -> bool:
    """`_seen(game, seat, sight) == seen`, read from the game without copying what it compares:
    a search asks this after each of its seat's moves in every world after the first that made
    the move (`_note_seen`), and the answer is nearly always yes. The cheap parts first."""
    if type(seen) is not tuple:
        return False
    st = game.state
    shown, faces, spaces, under, stats, pstats, uses, active, turn, rnd, ending, asked = seen
    d = game.decision
    if (active != st.active or turn != st.turn_number or rnd != st.round_number or ending != st.ending
            or (None if d is None else (d.player, d.prompt, d.labels)) != asked):
        return False
    zones, where = st.zones, st.where
    get = zones.get
    lists, rows, unseen, unseen_rows = sight[2]
    keys = sight[1]
    plain = game._plain
    return (shown[0] == list(map(get, lists, repeat(_EMPTY)))  # (a list equals its copy)
            and shown[1] == list(map(get, rows, repeat(_EMPTY)))
            and shown[2] == list(map(len, map(get, unseen, repeat(_NONE))))
            and shown[3] == [[len(r) for r in get(k, _NONE)] for k in unseen_rows]
            and faces == {c: f for c, f in st.faces.items() if where.get(c) in keys}
            and spaces == {c: x for c, x in st.spaces.items() if where.get(c) in keys}
            and under == {c: len(u) for c, u in st.under.items() if where.get(c) in keys}
            and uses == st.uses
            and stats == (st.stats if set(map(type, st.stats.values())) <= _PLAIN else _plain_stats(st.stats, plain, seat))
            and pstats == (st.pstats if set(map(type, chain.from_iterable(map(dict.values, st.pstats)))) <= _PLAIN
                           else _plain_pstats(st.pstats, plain, seat)))


_EMPTY: list = []  # (a zone the state does not hold yet, as `_seen` copies it: never filled)


def _plain_stats(stats: dict, plain, seat: int) -> dict:
    """Stats as `view` shows them to `seat` (`plain`: the game's `_plain`), copied; stats of plain
    numbers and texts (nearly all) by one copy of the dict."""
    if set(map(type, stats.values())) <= _PLAIN:
        return stats.copy()
    return {k: v if type(v) in _PLAIN else plain(v, seat) for k, v in stats.items()}


def _plain_pstats(pstats: list[dict], plain, seat: int) -> list[dict]:
    """Each player's stats as `_plain_stats` gives them; where all are plain numbers and texts
    (nearly always), by one look at all their types and a copy of each dict."""
    if set(map(type, chain.from_iterable(map(dict.values, pstats)))) <= _PLAIN:
        return list(map(dict.copy, pstats))
    return [_plain_stats(ps, plain, seat) for ps in pstats]


def _note_seen(node: _Node, seen: object) -> None:
    """Record what the seat saw after `node`'s move in this world (before this playout is counted)."""
    if node.visits == 0:
        node.seen = seen
    elif node.seen is not _MIXED and node.seen != seen:
        node.seen = _MIXED


def _move_keys(labels: list[str]) -> list[tuple[str, int]]:
    """Options named by label (and occurrence, for repeated labels): the same move keeps its key
    across determinisations even when the option lists differ. The same labels come up again and
    again in a search (every world at each step of the tree): their keys are remembered (a list
    the callers only read)."""
    at = tuple(labels)
    keys = _KEYS.get(at)
    if keys is None:
        if len(_KEYS) >= _KEYS_KEPT:
            _KEYS.clear()
        seen: dict[str, int] = {}
        keys = []
        for lab in labels:
            seen[lab] = seen.get(lab, 0) + 1
            keys.append((lab, seen[lab]))
        _KEYS[at] = keys  # (stored once made: another thread's search may read the table)
    return keys


_KEYS: dict[tuple, list[tuple[str, int]]] = {}  # labels → their moves' keys (`_move_keys`)
_KEYS_KEPT = 4096


class _Cut(BaseException):
    """A playout's policy declines to answer: the playout is cut (`_Policy`). Not an `Exception`:
    the game's driver takes any of those for a failing rule (`DirectGame._advance`)."""


class _Policy:
    """The playout policy as the seat of every player, for `DirectGame.play_out`: the game answers
    decision after decision in its own loop (no `answer` call per decision) until it ends, or
    until `left` decisions are answered or the rules' work reaches `cap`, where it raises `_Cut`
    (the game is left at the pending decision, as a cut playout is). The same answers and random
    draws as answering by `answer` in a loop (`draw_below`, `guided_choice`)."""

    __slots__ = ("rng", "getrandbits", "guided", "left", "R", "cap")
    answers_in_range = True  # (`DirectGame._advance` checks no answer of a playout)

    def __init__(self, rng: random.Random, guided: bool, left: int, R: object, cap: float):
        self.rng, self.getrandbits, self.guided, self.left, self.R, self.cap = rng, rng.getrandbits, guided, left, R, cap

    def seats(self, n: int) -> list:
        return [self] * n

    def choose(self, g: DirectGame, d: Decision) -> int:
        if self.left <= 0 or self.R.work >= self.cap:  # type: ignore[attr-defined]
            raise _Cut
        self.left -= 1
        if self.guided:
            return guided_choice(g, d, self.rng)
        n = len(d.options)
        if n <= 0:
            return self.rng.randrange(n)  # its own error: no options
        getrandbits = self.getrandbits  # (`draw_below`, inline: one call less per playout step)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r


class _Spare:
    """A search agent's copy of a game, kept to be made into its next copy (`clone(into=...)`,
    engine/recycle.py: a copy made in a finished one keeps its generated functions, so only the
    first copy costs a new game's functions and the binding of each lowered generator it runs)."""

    __slots__ = ("game",)

    def __init__(self) -> None:
        self.game: DirectGame | None = None


def share_copies(agents: list) -> list:
    """Let the search agents among `agents`, the seats of one game, make their copies in one spare
    (`_Spare`): they answer one at a time, and each copy is made afresh in it, the same copy as in
    a spare of its own (recycle.py), so the answers are unchanged; only the first copy of the
    game is made anew, not the first of each seat. Returns `agents`."""
    spare = _Spare()
    for a in agents:
        if isinstance(a, MCTSAgent):
            a._spares = spare
    return agents


def _settled(visits: list[int], left: int) -> bool:
    """Whether the most visited root move is chosen whatever the `left` iterations still to run
    do: it leads every other by more than `left` visits. A search stops there (the move it
    returns is the one the full search returns, at less cost; only its random stream is left
    further back)."""
    top = max(visits)
    return sum(1 for v in visits if v + left >= top) == 1


class MCTSAgent:
    """Monte Carlo tree search over determinised clones (single-observer information-set MCTS).

    Each of `iterations` iterations clones the game and determinises it for the deciding seat (see
    `determinize`: the agent never uses what its seat may not see). With `tree=True` (default) it
    then descends a tree of moves shared by all determinisations — every seat's decisions, moves
    keyed by their labels, selected by UCB1 over the iterations in which they were legal — adds one
    node, and plays on by the playout policy; with `tree=False` it is flat Monte Carlo: UCB1 over
    the root options only, then the playout policy. The policy is the `guided` one (`guided_choice`)
    when `guided_playouts` is on (default) and the ruleset declares `prefer` rules — a playout by
    sensible players says more about a move than one by random players — else uniformly random
    choices (the same draws as before such rules existed). Playouts stop after `max_playout`
    decisions.
    A finished playout scores 1 for a win (1/k for a win shared by k) and 0 otherwise for each
    seat; a cut one scores by the ruleset's `value` when it declares one (the leader 1, the last 0
    — a seat valued 0 where the rules can end with no winner —, the others in proportion: see
    `_value_shares`), else as if the game ended there; a playout whose game fails
    scores 0 for all.
    The most visited root option is chosen; the search stops early once no other option can catch
    up with it in the iterations left (`_settled`). With `keep_tree` (on in `--agents mcts`) a
    search that follows the seat's own last move — the seat asks again at once, sees what every
    world of its last search showed it after that move (`_seen`), and the cards it cannot see lie
    in the same places — starts from that move's node, whose playouts count towards `iterations`.
    Everything is driven by the agent's own seeded RNG.
    """

    # its playouts read `DirectGame.preferences`: a ruleset with `prefer` rules is played on the engine
    # that offers them (as for `GuidedAgent`); one without plays where it did before
    reads_preferences = True

    def __init__(self, seed: object = 0, iterations: int = 200, max_playout: int = 2000,
                 exploration: float = 0.7, tree: bool = True, guided_playouts: bool = True, prior: float = 0.0,
                 max_playout_work: int | None = None, keep_tree: bool = False):
        self.rng = random.Random(str(seed))
        self.iterations = iterations
        self.max_playout = max_playout
        # a playout also stops once its rules have done this much work (the engine's count of
        # items visited, `Limits.max_work`: the same for the same game on any machine), so one
        # search costs about the same in a ruleset whose every decision sets off long rules
        self.max_playout_work = max_playout_work
        self.exploration = exploration
        self.tree = tree
        self.guided_playouts = guided_playouts
        # progressive bias (Chaslot et al. 2008): a move the `prefer` rules rate highest gets
        # prior / (its visits + 1) in the tree's UCB1 and is expanded first, so a small budget
        # follows the designer's rule unless its playouts clearly say otherwise (0: off)
        self.prior = prior
        # the seat's next search, when it asks again right after its own move with nothing new
        # in sight, starts from the node of that move (`_kept_root`)
        self.keep_tree = keep_tree
        self._kept: tuple | None = None
        self._sight: tuple | None = None  # (ruleset, seat, `_sight`)
        self._last_plan: tuple | None = None  # (cards, seat, hidden zones' and covered cards' contents, plan)
        self._spares = _Spare()  # the last playout's copy, made into the next one (`share_copies`)
        self._copies = CopyPlan()  # how the frames of the game searched are copied into the spare
        self._plan: DealPlan | None = None
        self._guided = guided_playouts  # and the ruleset has `prefer` rules: set per search

    @property
    def _spare(self) -> DirectGame | None:
        """The copy the next playout is made in (shared with the other seats' agents of the game
        where `share_copies` says so)."""
        return self._spares.game

    @_spare.setter
    def _spare(self, g: DirectGame | None) -> None:
        self._spares.game = g

    def _playout_choice(self, g: DirectGame) -> int:
        """The playout policy's answer to `g`'s decision (see the class doc)."""
        d = g.decision
        if self._guided:
            return guided_choice(g, d, self.rng)
        return draw_below(self.rng, len(d.options))  # (`randrange`'s answer and draws)

    def choose(self, game: DirectGame, decision: Decision) -> int:
        n = len(decision.options)
        if n <= 1:
            return 0
        self._plan = None  # where the hidden cards lie in this game: found at the first playout
        # the playouts ask the `prefer` rules only where the ruleset has some (without, the guided
        # policy draws uniformly: `guided_choice`), so a playout step is one draw
        self._guided = self.guided_playouts and bool(game.rs.prefers)
        try:
            if self.tree:
                return self._tree_search(game, decision)
            return self._search(game, decision.player, n)
        except Exception:  # noqa: BLE001 - never let a search failure escape: play randomly
            return self.rng.randrange(n)

    # ---- tree search ---------------------------------------------------------------------
    def _tree_search(self, game: DirectGame, decision: Decision) -> int:
        seat = decision.player
        root_keys = _move_keys(decision.labels)
        root = None
        if self._sight is None or self._sight[0] is not game.rs or self._sight[1] != seat:
            self._sight = (game.rs, seat, _sight(game, seat))
        self._plan = self._plan_for(game, seat)
        if self.keep_tree:
            root = self._kept_root(game, decision)
        root = root or _Node(seat)
        children = root.children
        total = max(self.iterations, 1)
        # the iterations the kept node's moves already hold count towards the budget
        kept = sum(c.visits for k in root_keys if (c := children.get(k)))
        todo = total - min(kept, total - 1)
        for it in range(todo):
            self._iterate(game, seat, root)
            if _settled([c.visits if (c := children.get(k)) else 0 for k in root_keys], todo - it - 1):
                break
        best_i, best = [], (-1, -1.0)
        for i, k in enumerate(root_keys):
            child = root.children.get(k)
            stat = (child.visits, child.total / child.visits) if child and child.visits else (0, 0.0)
            if stat > best:
                best_i, best = [i], stat
            elif stat == best:
                best_i.append(i)
        pick = self.rng.choice(best_i)
        if self.keep_tree:
            self._kept = (weakref.ref(game), game.decisions_made, pick, seat, self._plan.groups,
                          children.get(root_keys[pick]))
        return pick

    def _plan_for(self, game: DirectGame, seat: int) -> DealPlan:
        """`deal_plan(game, seat)`, or the last search's plan where the zones the seat cannot see
        and the covered cards hold what they held then (the same plan: a seat that decides about
        one die after another deals the same hidden cards each time)."""
        st = game.state
        zones = st.zones
        held = []
        for key, rows, visible in self._sight[2][0]:
            if not visible:
                raw = zones.get(key) or []
                held.append([r[:] for r in raw] if rows else raw[:])
        covered = {top: below[:] for top, below in st.under.items()}
        last = self._last_plan
        if last is not None and last[0] is game.cards and last[1] == seat and last[2] == held and last[3] == covered:
            return last[4]
        plan = deal_plan(game, seat)
        self._last_plan = (game.cards, seat, held, covered, plan)
        return plan

    def _kept_root(self, game: DirectGame, decision: Decision) -> _Node | None:
        """The node of the seat's last move, to root this search, where the seat asks again right
        after answering its last search with that move and sees what every world that made the
        move showed it (`_seen`), the cards it cannot see lying in the same places: the playouts
        below the node are then samples of this decision's worlds too."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        ref, made, pick, seat, groups, node = kept
        if (node is None or ref() is not game or game.decisions_made != made + 1 or decision.player != seat
                or (getattr(game, "choices", None) or [None])[-1] != pick or type(node.seen) is not tuple
                or self._plan.groups != groups):
            return None
        if not _sees_the_same(game, seat, self._sight[2], node.seen):
            return None
        return node

    def _world(self, game: DirectGame, seat: int) -> DirectGame:
        """A determinised copy of `game` for `seat`'s next playout, made in the copy the last
        playout used (`clone(into=...)`: its generated functions are kept, engine/recycle.py)."""
        spares = self._spares
        spare = spares.game  # (determinize seeds the copy's random source)
        g = spares.game = (game.clone(into=spare, reseeded=True, plan=self._copies) if spare is not None
                           else game.clone())
        g.record_digests = False
        if self._plan is None:
            self._plan = deal_plan(game, seat)
        determinize(g, seat, self.rng, self._plan)
        return g

    def _iterate(self, game: DirectGame, seat: int, root: _Node) -> None:
        path = [root]
        values: list[float] | None = None
        try:
            g = self._world(game, seat)
            node, steps, expanded = root, 0, False
            rng = self.rng
            R, cap = g.R, self.max_playout_work
            cap = math.inf if cap is None else R.work + cap
            limit, answer, guided = self.max_playout, g.answer, self._guided
            keep = self.keep_tree
            sight = self._sight[2] if keep else None
            while not g.over and steps < limit and R.work < cap:
                d = g.decision
                if expanded:  # the playout: the game drives itself, asking the policy (`_Policy`)
                    try:
                        g.play_out(_Policy(rng, guided, limit - steps, R, cap).seats(len(g.seats)))
                    except _Cut:
                        pass
                    break
                else:
                    keys = _move_keys(d.labels)
                    preferred = self._preferred(g, d, keys)
                    children, untried = node.children, []
                    for j, k in enumerate(keys):
                        c = children.get(k)
                        if c is None:
                            untried.append(j)
                        else:
                            c.avail += 1
                    if untried:
                        i = rng.choice(([i for i in untried if keys[i] in preferred] if preferred else None) or untried)
                        child = node.children[keys[i]] = _Node(d.player)
                        child.avail = 1
                        expanded = True
                    else:
                        i = self._select(node, keys, preferred)
                        child = node.children[keys[i]]
                    path.append(child)
                    node = child
                    answer(i)
                    if keep and d.player == seat and child.seen is not _MIXED:  # (mixed stays mixed)
                        if g.over or g.decision.player != seat:
                            _note_seen(child, _MIXED)
                        elif child.visits == 0:
                            child.seen = _seen(g, seat, sight)
                        elif not _sees_the_same(g, seat, sight, child.seen):  # (`_note_seen`, not copying)
                            child.seen = _MIXED
                steps += 1
            if g.over:
                if g.error is None:
                    values = [_outcome(g.result, p) for p in range(len(g.seats))]
            else:
                values = _cut_values(g)
        except Exception:  # noqa: BLE001 - a playout that breaks counts as a loss for everyone
            values = None
            for n in path[1:]:
                n.seen = _MIXED  # (what the seat saw may not have been noted)
        for n in path:
            n.visits += 1
            if values is not None and n is not root and n.player < len(values):
                n.total += values[n.player]

    def _preferred(self, g: DirectGame, d: Decision, keys: list[tuple[str, int]]) -> frozenset:
        """The moves of `d` that the ruleset's `prefer` rules rate highest, when they tell the
        options apart and the prior is on (else none)."""
        if self.prior <= 0 or not self.guided_playouts:
            return frozenset()
        prefs = g.preferences(d)
        if prefs is None or min(prefs) == max(prefs):
            return frozenset()
        best = max(prefs)
        return frozenset(keys[i] for i, v in enumerate(prefs) if v == best)

    def _select(self, node: _Node, keys: list[tuple[str, int]], preferred: frozenset = frozenset()) -> int:
        best_i, best = [], -math.inf
        children, exploration, sqrt, log = node.children, self.exploration, math.sqrt, math.log  # (per tree step)
        for i, k in enumerate(keys):
            c = children[k]
            n = c.visits
            v = c.total / n + exploration * sqrt(log(max(c.avail, 1)) / n)
            if k in preferred:
                v += self.prior / (n + 1)
            if v > best:
                best_i, best = [i], v
            elif v == best:
                best_i.append(i)
        return self.rng.choice(best_i)

    # ---- flat search ---------------------------------------------------------------------

    def _search(self, game: DirectGame, seat: int, n: int) -> int:
        visits = [0] * n
        totals = [0.0] * n
        order = list(range(n))
        self.rng.shuffle(order)
        for it in range(max(self.iterations, 1)):
            if it < n:
                i = order[it]
            else:
                log_t = math.log(it)
                i = max(range(n), key=lambda k: totals[k] / visits[k]
                        + self.exploration * math.sqrt(log_t / visits[k]))
            visits[i] += 1
            totals[i] += self._playout(game, seat, i)
            if it >= n and _settled(visits, self.iterations - it - 1):
                break
        most = max(v for v in visits)
        tied = [k for k in range(n) if visits[k] == most]
        best = max(totals[k] / visits[k] for k in tied)
        return self.rng.choice([k for k in tied if totals[k] / visits[k] == best])

    def _playout(self, game: DirectGame, seat: int, first: int) -> float:
        try:
            g = self._world(game, seat)
            g.answer(first)
            steps = 0
            R, cap = g.R, self.max_playout_work
            cap = math.inf if cap is None else R.work + cap
            while not g.over:
                if steps >= self.max_playout or R.work >= cap:
                    return _estimate(g, seat)
                g.answer(self._playout_choice(g))
                steps += 1
            if g.error is not None:
                return 0.0
            return _outcome(g.result, seat)
        except Exception:  # noqa: BLE001 - a playout that breaks counts as a loss
            return 0.0


# ---- the `mcts` of `--agents`: a budget measured to win clearly and still play a batch ----------
# Full playouts (the class's defaults) cost tens of seconds per decision in a game of a few hundred
# decisions; 10 playouts cut after 30 decisions take a few hundred ms and still beat random agents
# clearly (docs/performance.md, Agents: 0.525 against three random agents at 4 players).
# A playout also stops after 50,000 items of rule work: more than 30 decisions took in every
# shipped ruleset but the largest, where half the playouts took three times that and one search
# cost 2.5 times what it costs with the cap (docs/performance.md, "Search agents").
MCTS_DEFAULT_BUDGET = {"iterations": 10, "max_playout": 30, "prior": 1.0, "max_playout_work": 50_000,
                       "keep_tree": True}


def default_mcts(seed: object = 0) -> MCTSAgent:
    """The search agent that `--agents mcts` and `--seat N=mcts` seat."""
    return MCTSAgent(seed, **MCTS_DEFAULT_BUDGET)


AGENT_KINDS = {"random": RandomAgent, "guided": GuidedAgent, "first": FirstAgent, "greedy": GreedyAgent, "mcts": default_mcts}


def make_agent(kind: str, seed: object) -> Agent:
    try:
        return AGENT_KINDS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown agent `{kind}` (known: {', '.join(AGENT_KINDS)})") from None
