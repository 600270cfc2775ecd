"""A search's finished copy of a game made into a new copy in place (`ResumableGame.clone(into=)`).

A search copies its game again and again (`mcts`: once per playout, ten per decision) and throws
each copy away when its playout ends. Most of a copy's cost is not the state but its generated
functions: `build` makes hundreds of closures over the copy's runtime and the containers of its
state (each zone's list, the map of where cards lie, the cards under others, the random source),
and each generator's lowered step is bound again as the copy's frames need it. A finished copy
already has all of these. Recycling it fills those same containers with the new state's contents,
so every function it bound still sees the right objects, and copies the rest of the state, the
runtime's counters and the frames anew, exactly as a new copy would: the game played on is the
same, answer for answer (tests/engine/test_recycle.py compares them).

Only a copy of a game of the same program, player count and number of dummy players is taken (a
dummy player grows the tables its functions bound: directforms.add_dummy).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from .resumable import _ATOMIC, copy_value
from .resumablelazy import steps_into
from ..runtime.state import GameState

__all__ = ["recyclable", "recycle_into", "function_memo", "copied_rows"]

_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(GameState))
# what a recycled copy copies anew: every field but the containers it refills and the random source
_COPIED_FIELDS = tuple(n for n in _STATE_FIELDS if n not in ("zones", "under", "row_ids", "where", "rng"))
# the game's own entries a recycled copy keeps: its runtime, its functions bound to that runtime
# and to its state, and the rule expressions it bound (directeval._bound_function, by runtime)
_BOUND = ("covered", "tbit", "settle", "_player_zones", "_plan_bits")  # the runtime's, likewise
_KEPT = ("R", "fns", "state", "_bound_exprs", "_function_memo")


def recyclable(src: Any, dst: Any) -> bool:
    """Whether `dst`, a copy of a game, can become a copy of `src` in place."""
    return (type(dst) is type(src) and dst.dp is src.dp and dst.rp is src.rp
            and type(dst.R) is type(src.R) and dst.state.players == src.state.players
            and src.state.dummies == dst.state.dummies  # the zone tables it bound as long
            and type(dst.state.where) is dict)  # a copy's (an original's may track moves)


def function_memo(src: Any, dst: Any) -> dict:
    """What each generated function of `src` becomes in `dst` (by id), for copying frames."""
    old, fns = src.fns, dst.fns
    memo = {id(old): fns, id(src.dp.info): src.dp.info}
    for k, f in old.items():
        memo[id(f)] = fns[k]
    return memo


def recycle_into(src: Any, dst: Any, reseeded: bool = False, steps_key: str | None = None) -> dict:
    """Make `dst` hold `src`'s state and runtime counters, keeping the containers its functions
    bound; the memo of what each of `src`'s containers and functions became (its frames are
    copied with it next, `ResumableGame._copy_flow`), with `src`'s step functions too when
    `steps_key` names the entry of its functions' table that holds them. `reseeded`: the caller
    seeds the random source itself, so its state is not copied (a tenth of the cost).

    What `src`'s functions and steps become in `dst` is the same from one copy to the next while
    `dst` is made into copies of the same game (a search's playouts from one decision, and on
    from decision to decision of one game): that map is kept on `dst` and grown by the steps
    `src` bound since; each copy starts from a copy of it (one C call for hundreds of entries)."""
    kept = {k: dst.__dict__[k] for k in _KEPT if k in dst.__dict__}
    dst.__dict__.clear()
    dst.__dict__.update(src.__dict__)
    dst.__dict__.update(kept)
    cached = kept.get("_function_memo")
    if cached is None or cached[0] is not src.fns or cached[1][id(src.fns)] is not dst.fns:  # (one game's copies)
        cached = dst.__dict__["_function_memo"] = (src.fns, function_memo(src, dst), [0])
    base, known = cached[1], cached[2]
    if steps_key is not None:
        old, new = src.fns[steps_key], dst.fns[steps_key]
        if type(old) is list:  # the whole module lowered at once: every step, once
            if not known[0]:
                for a, b in zip(old, new):
                    base[id(a)] = b
                known[0] = len(old)
        elif len(old.bound) > known[0]:
            known[0] = steps_into(old, new, base, known[0])
    memo = _state_into(src.state, dst.state, not reseeded, {})
    memo[id(src)] = dst
    R, R2 = src.R, dst.R
    # bound by the generated functions: kept, and refilled (`_player_zones`: the per-player zone
    # tables they bound, `_plan_bits` the seats' bits of per-player rules, as many as the seats)
    own = {k: R2.__dict__[k] for k in _BOUND if k in R2.__dict__}
    R2.__dict__.clear()
    R2.__dict__.update(R.__dict__)
    R2.__dict__.update(own)
    R2.take_slots(R)
    R2.covered[:] = R.covered
    if R2.tbit != R.tbit:  # (the same table where the games have as many dummy players: nearly always)
        R2.tbit.clear()
        R2.tbit.update(R.tbit)
    R2.game, R2.state = dst, dst.state
    # `seats`, `bits` and `key_name` are shared, not copied as `clone` copies them: the only change
    # made to them, a dummy player's (directforms.add_dummy), makes the game's own copies first
    R2.__dict__.pop("_grid_seen", None)  # which card lies on which grid space: each game's own
    R2.row_home = {id(memo[i]): k for i, k in R.row_home.items() if i in memo}
    R2.const = copy_value(R.const, memo)
    memo[id(R)] = R2
    bound = kept.get("_bound_exprs")
    if bound is not None and bound[0] is not R2:
        del dst.__dict__["_bound_exprs"]
    out = base.copy()
    out.update(memo)
    return out


def _state_into(src: GameState, dst: GameState, rng: bool, memo: dict) -> dict:
    """`src`'s contents copied into `dst`: the containers the generated functions bind (the zones'
    lists, `where`, `under`, the random source) filled in place, the rest copied anew (in
    declaration order, after those: a value or number as it is); each container's copy noted in
    `memo`."""
    memo[id(src)] = dst
    _lists_into(src.zones, dst.zones, memo)
    _lists_into(src.under, dst.under, memo)
    dst.row_ids = _lists_into(src.row_ids, {}, memo)
    v, w = src.where, dst.where
    w.clear()
    w.update(v)
    memo[id(v)] = w
    old, new = src.__dict__, dst.__dict__
    for name in _COPIED_FIELDS:
        v = old[name]
        t = type(v)
        if t in _ATOMIC:
            new[name] = v
        elif t is dict and set(map(type, v.values())) <= _ATOMIC:  # (`copy_value`'s, without the call)
            new[name] = memo[id(v)] = v.copy()
        else:
            new[name] = copy_value(v, memo)
    if rng:
        dst.rng.setstate(src.rng.getstate())
    return memo


def copied_rows(rows: list, memo: dict) -> list:
    """A list of rows (lists of ids) copied row by row, each new row noted in `memo`."""
    new = []
    for row in rows:
        r = memo[id(row)] = row[:]
        new.append(r)
    return new


def _lists_into(src: dict, dst: dict, memo: dict) -> dict:
    """`src` (a key → a list of ids, or of rows of ids) copied into `dst`, each of `dst`'s lists
    kept and refilled; every list noted in `memo`."""
    if dst.keys() != src.keys():  # (nearly always the same zones: one comparison in C)
        for k in [k for k in dst if k not in src]:
            del dst[k]
    for k, xs in src.items():
        new = copied_rows(xs, memo) if xs and type(xs[0]) is list else xs
        mine = dst.get(k)
        if mine is None:
            mine = dst[k] = []
        mine[:] = new
        memo[id(xs)] = mine
    memo[id(src)] = dst
    return dst
