"""Rule scenarios: a YAML file sets up a game, scripts the choices and states what must follow.

    name: a card laid on another hides it
    covers: [XX-012, XX-013]
    ruleset: ../../rulesets/some_game              # relative to this file
    players: 3
    seed: 1
    setup:                                        # applied after the rules' own setup
      start_player: 1                             # players are numbered from 1
      zones:
        table: [["Knight:Red", "Queen:Blue"]]     # rows left to right; piles top first
        deck: ["Joker:Green", "King:Red"]         # exact contents; displaced cards go to `spare`
      stats: {"gold of 2": 3, round_limit: 5}     # player stats are `name of N`
    rolls: [3, 6, 6]                              # faces the next dice rolled show, in order
    choices: ["Queen:Blue", yes, "row 1, right end", no, [yes, no, no]]
    then: stop                                    # or `random` / `first`: play on to the end
    expect:
      zones: {"hand of 1": ["Knight:Red"]}
      count: {table: 0}
      stats: {"gold of 2": 0}
      over: false

Cards are named `Name` or `Name:value:value` (values of the card's fields, in any order);
`"Joker:Green on Queen:Blue"` is a card lying on another. A list inside `choices` answers as many
decisions in a row (handy for `choose any`, which asks yes/no once per option). `rolls` scripts
dice: each die rolled after the rules' setup shows the next listed face, until the list runs
out (then dice are random again). Stats of a dummy player are set and checked like any other
seat's (`vp of 2` in a one-player game with one dummy).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from .agents import make_agent
from .api import load_program
from .diagnostics import ContentError
from .engine import Game
from .model import CardData
from .values import ZoneRef
from .zones import put, take_out

__all__ = ["run_scenario", "ScenarioResult", "load_scenario"]


class _Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start_player: Optional[int] = None
    active: Optional[int] = None
    zones: dict[str, list[Any]] = {}
    stats: dict[str, Any] = {}
    spare: Optional[str] = None


class _Expect(BaseModel):
    model_config = ConfigDict(extra="forbid")
    zones: dict[str, list[Any]] = {}
    contains: dict[str, list[Any]] = {}
    excludes: dict[str, list[Any]] = {}
    count: dict[str, int] = {}
    stats: dict[str, Any] = {}
    scores: Optional[list[int]] = None
    winners: Optional[list[int]] = None
    over: Optional[bool] = None
    error: Optional[str] = None
    decision: Optional[dict[str, Any]] = None
    active: Optional[int] = None
    log: list[str] = []


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    ruleset: str
    players: int
    seed: Union[int, str] = 0
    covers: list[str] = []
    description: Optional[str] = None
    setup: _Setup = _Setup()
    choices: list[Any] = []
    rolls: list[Union[int, str]] = []
    then: Literal["stop", "random", "first"] = "stop"
    expect: _Expect = _Expect()


@dataclass
class ScenarioResult:
    file: str
    name: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)

    def format(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.file}: {self.name}"
        return head + "".join(f"\n    {f}" for f in self.failures)


def load_scenario(path: str | Path) -> Scenario:
    text = Path(path).read_text(encoding="utf-8")
    data = YAML(typ="safe").load(text)
    return Scenario.model_validate(data)


def run_scenario(path: str | Path) -> ScenarioResult:
    path = Path(path)
    try:
        sc = load_scenario(path)
    except (OSError, YAMLError) as e:
        return ScenarioResult(str(path), "?", False, [f"cannot read scenario: {e}".splitlines()[0]])
    except ValidationError as e:
        return ScenarioResult(str(path), "?", False,
                              [f"bad scenario: {'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()])
    res = ScenarioResult(str(path), sc.name, True, covers=sc.covers)
    try:
        _run(sc, path, res)
    except ContentError as e:
        res.failures.append("the ruleset does not load:\n" + str(e))
    except _Fail as e:
        res.failures.append(str(e))
    res.passed = not res.failures
    return res


class _Fail(Exception):
    pass


def _run(sc: Scenario, path: Path, res: ScenarioResult) -> None:
    rpath = (path.parent / sc.ruleset).resolve()
    program = load_program(rpath)
    def arrange(g: Game) -> None:
        if sc.setup.model_fields_set:
            _apply_setup(g, sc.setup)
        g.forced_rolls = list(sc.rolls)
    game = Game(program, sc.players, sc.seed, after_setup=arrange if sc.setup.model_fields_set or sc.rolls else None)
    if game.error and sc.expect.error is None:
        raise _Fail(f"setup failed: {game.error}")
    choices = [c for item in sc.choices for c in (item if isinstance(item, list) else [item])]
    for i, choice in enumerate(choices):
        if game.over:
            raise _Fail(f"choice {i + 1} ({choice!r}): the game is already over"
                        + (f" — error: {game.error}" if game.error else ""))
        d = game.decision
        idx = _match_choice(game, d, choice)
        if idx is None:
            raise _Fail(f"choice {i + 1}: {choice!r} is not an option for player {d.player + 1} at "
                        f"“{d.prompt}” ({d.loc}); options: {d.labels}")
        game.answer(idx)
    if sc.then != "stop":
        agents = [make_agent(sc.then, f"{sc.seed}/{p}") for p in range(sc.players)]
        while not game.over:
            game.answer(agents[game.decision.player].choose(game, game.decision))
    _check(game, sc.expect, res)


def _apply_setup(game: Game, setup: _Setup) -> None:
    st = game.state
    if setup.start_player is not None:
        st.start_player = setup.start_player - 1
    if setup.active is not None:
        st.active = setup.active - 1
    spare = setup.spare or next((n for n, z in game.rs.zones.items()
                                 if not z.per_player and z.kind == "pile" and n not in setup.zones), None)
    rows_zones = game.program.rows_zones
    taken: set[int] = set()
    for zname, content in setup.zones.items():
        ref = _zone(game, zname)
        is_rows = ref.name in rows_zones
        # empty the zone into the spare pile
        for cid in list(_all_ids(game, ref.key, is_rows)):
            if cid in st.where:
                take_out(st, cid, rows_zones)
                if spare is None:
                    raise _Fail(f"setup: no spare pile for the cards displaced from {zname}; set `spare:`")
                put(st, cid, _zone(game, spare).key, False)
        rows = content if is_rows else [content]
        if not is_rows and game.rs.zones[ref.name].kind == "pile":
            rows = [list(reversed(content))]  # piles are written top first
        for r, row in enumerate(rows):
            if is_rows:
                st.zones[ref.key].append([])
            for spec in row:
                stack = [s.strip() for s in str(spec).split(" on ")]
                ids = [_find_card(game, s, taken).id for s in stack]
                for cid in ids:
                    take_out(st, cid, rows_zones)
                    taken.add(cid)
                bottom = ids[-1]
                if is_rows:
                    st.zones[ref.key][-1].append(bottom)
                    st.where[bottom] = ref.key
                else:
                    put(st, bottom, ref.key, False)
                for above in reversed(ids[:-1]):
                    from .zones import cover
                    cover(st, above, bottom, rows_zones)
                    bottom = above
    for name, value in setup.stats.items():
        _set_stat(game, name, value)


def _all_ids(game: Game, key: str, is_rows: bool) -> list[int]:
    z = game.state.zones[key]
    return [c for row in z for c in row] if is_rows else list(z)


def _set_stat(game: Game, name: str, value: Any) -> None:
    if " of " in name:
        stat, _, who = name.partition(" of ")
        game.state.pstats[int(who) - 1][stat] = value
    elif name in game.state.stats:
        game.state.stats[name] = value
    else:
        raise _Fail(f"setup: unknown stat `{name}` (per-player stats are written `name of N`)")


def _zone(game: Game, text: str) -> ZoneRef:
    name, _, owner = text.partition(" of ")
    if name not in game.rs.zones:
        raise _Fail(f"unknown zone `{name}`")
    zd = game.rs.zones[name]
    if zd.per_player:
        if not owner.strip().isdigit():
            raise _Fail(f"zone `{name}` is per player: write `{name} of N`")
        return ZoneRef(name, int(owner) - 1)
    return ZoneRef(name, None)


def _matches(card: CardData, spec: str) -> bool:
    parts = spec.split(":")
    if parts[0] != card.name:
        return False
    values = {str(v) for v in card.fields.values()}
    return all(p in values for p in parts[1:])


def _find_card(game: Game, spec: str, taken: set[int]) -> CardData:
    for c in game.cards:
        if c.id not in taken and _matches(c, spec):
            return c
    raise _Fail(f"setup: no card `{spec}` left to place")


def _match_choice(game: Game, d, choice: Any) -> int | None:
    if isinstance(choice, bool) or choice in ("yes", "no"):
        want = choice is True or choice == "yes"
        for i, o in enumerate(d.options):
            if o is want:
                return i
        return None
    if isinstance(choice, int):
        return choice if 0 <= choice < len(d.options) else None
    text = str(choice)
    for i, label in enumerate(d.labels):
        if label == text:
            return i
    for i, o in enumerate(d.options):
        if isinstance(o, CardData) and _matches(o, text):
            return i
        if str(o) == text:
            return i
    if text.startswith("player ") and text[7:].isdigit():
        for i, o in enumerate(d.options):
            if isinstance(o, int) and int(o) == int(text[7:]) - 1:
                return i
    for i, label in enumerate(d.labels):
        if label.startswith(text):
            return i
    return None


def _describe(game: Game, ids: list[int]) -> list[str]:
    out = []
    for cid in ids:
        c = game.cards[cid]
        text = _spec_of(c)
        for u in reversed(game.state.under.get(cid, [])):
            text += " on " + _spec_of(game.cards[u])
        out.append(text)
    return out


def _spec_of(c: CardData) -> str:
    return ":".join([c.name] + [str(v) for v in c.fields.values() if str(v) != c.name])


def _same(game: Game, ids: list[int], expected: list[str], ordered: bool) -> bool:
    if len(ids) != len(expected):
        return False
    if ordered:
        return all(_matches_stack(game, cid, str(spec)) for cid, spec in zip(ids, expected))
    remaining = list(ids)
    for spec in expected:
        hit = next((cid for cid in remaining if _matches_stack(game, cid, str(spec))), None)
        if hit is None:
            return False
        remaining.remove(hit)
    return True


def _matches_stack(game: Game, cid: int, spec: str) -> bool:
    parts = [s.strip() for s in spec.split(" on ")]
    stack = [cid] + list(reversed(game.state.under.get(cid, [])))
    return len(parts) == len(stack) and all(_matches(game.cards[c], p) for c, p in zip(stack, parts))


def _check(game: Game, ex: _Expect, res: ScenarioResult) -> None:
    f = res.failures
    st = game.state
    if ex.error is not None:
        got = str(game.error) if game.error else None
        if got is None or ex.error not in got:
            f.append(f"error: expected one containing {ex.error!r}, got {got!r}")
    elif game.error:
        f.append(f"the game stopped with an error: {game.error}")
    for zname, content in ex.zones.items():
        ref = _zone(game, zname)
        kind = game.rs.zones[ref.name].kind
        raw = st.zones[ref.key]
        if kind == "rows":
            ok = len(raw) == len(content) and all(_same(game, r, c, True) for r, c in zip(raw, content))
            got = [_describe(game, r) for r in raw]
        else:
            ids = list(reversed(raw)) if kind == "pile" else list(raw)
            ok = _same(game, ids, content, kind == "pile")
            got = _describe(game, ids)
        if not ok:
            f.append(f"zone {zname}: expected {content}, got {got}")
    for zname, content in ex.contains.items():
        ref = _zone(game, zname)
        ids = _all_ids(game, ref.key, ref.name in game.program.rows_zones)
        for spec in content:
            if not any(_matches_stack(game, cid, str(spec)) or _matches(game.cards[cid], str(spec)) for cid in ids):
                f.append(f"zone {zname}: expected it to contain {spec}, got {_describe(game, ids)}")
    for zname, content in ex.excludes.items():
        ref = _zone(game, zname)
        ids = _all_ids(game, ref.key, ref.name in game.program.rows_zones)
        for spec in content:
            if any(_matches(game.cards[cid], str(spec)) for cid in ids):
                f.append(f"zone {zname}: expected no {spec}, got {_describe(game, ids)}")
    for zname, n in ex.count.items():
        ref = _zone(game, zname)
        got = len(_all_ids(game, ref.key, ref.name in game.program.rows_zones))
        if got != n:
            f.append(f"count of {zname}: expected {n}, got {got}")
    for name, value in ex.stats.items():
        if " of " in name:
            stat, _, who = name.partition(" of ")
            got = st.pstats[int(who) - 1].get(stat)
        else:
            got = st.stats.get(name, game.constants.get(name))
        if got != value:
            f.append(f"stat {name}: expected {value!r}, got {got!r}")
    if ex.over is not None and game.over != ex.over:
        f.append(f"game over: expected {ex.over}, got {game.over}"
                 + (f" (waiting for player {game.decision.player + 1}: {game.decision.prompt})"
                    if game.decision else ""))
    if ex.scores is not None or ex.winners is not None:
        result = game.result or game.scores()
        if ex.scores is not None and result["scores"] != ex.scores:
            f.append(f"scores: expected {ex.scores}, got {result['scores']}")
        if ex.winners is not None and [w + 1 for w in result["winners"]] != ex.winners:
            f.append(f"winners: expected {ex.winners}, got {[w + 1 for w in result['winners']]}")
    if ex.active is not None and st.active + 1 != ex.active:
        f.append(f"active player: expected {ex.active}, got {st.active + 1}")
    if ex.decision is not None:
        d = game.decision
        if d is None:
            f.append(f"decision: expected one pending, but none is (game over: {game.over})")
        else:
            want = ex.decision
            if "player" in want and d.player + 1 != want["player"]:
                f.append(f"decision player: expected {want['player']}, got {d.player + 1}")
            if "prompt" in want and want["prompt"] not in d.prompt:
                f.append(f"decision prompt: expected {want['prompt']!r}, got {d.prompt!r}")
            if "options" in want:
                got = sorted(d.labels)
                exp = want["options"]
                if isinstance(exp, int):
                    if len(d.options) != exp:
                        f.append(f"decision options: expected {exp}, got {len(d.options)}: {d.labels}")
                elif sorted(map(str, exp)) != got and not all(
                        _match_choice(game, d, o) is not None for o in exp) or (
                        not isinstance(exp, int) and len(exp) != len(d.options)):
                    f.append(f"decision options: expected {exp}, got {d.labels}")
    for text in ex.log:
        if not any(text in line for line in game.log):
            f.append(f"log: expected a line containing {text!r}")
