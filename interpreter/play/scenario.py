"""Rule scenarios: a YAML file sets up a game, scripts the choices and states what must follow.

    name: a cover hides the number under it
    description: optional prose (state here which reading of an ambiguous rule is tested)
    covers: [R-077, R-079]                        # rule IDs this scenario asserts
    ruleset: ../../rulesets/example               # relative to this file
    players: 3
    seed: 1
    set: {hard_mode: 1}                           # optional: variants, as `--set NAME=VALUE` plays them
    setup:                                        # applied after the rules' own setup
      start_player: 1                             # players are numbered from 1
      active: 1                                   # optional; the first turn is the start player's
      zones:
        table: [["Alpha:Red", "Beta:Blue"]]       # rows left to right; piles top first
        deck: ["Gamma:Blue", "Alpha:Green"]       # exact contents
        "hand of 2": ["Beta:Red"]                 # per-player zones: `zone of N`
      stats: {rounds_left: 1, "coins of 2": 3}    # global stats, or `stat of N`
      spare: discard                              # optional, see below
    rolls: [3, 6, 6]                              # faces the next dice rolled show, in order
    choices:                                      # answers to the decisions, in order
      - "Beta:Blue"
      - expect: {count: {table: 1}}               # a checkpoint: checked here, mid-game
      - yes
      - [yes, no, no]                             # a list answers several decisions in a row
    then: stop                                    # or `random` / `first`: play on to the end
    expect:
      zones: {"hand of 1": ["Alpha:Red"]}         # exact contents (piles top first, a row left to right, sets any order)
      contains: {discard: ["Gamma:Blue"]}
      excludes: {"hand of 2": ["Beta"]}
      count: {table: 0, "hand of 1": 1}
      stats: {rounds_left: 0}
      scores: [1, 0, 0]
      winners: [1]
      over: false
      active: 2
      decision: {player: 2, prompt: "Take which", options: ["Alpha:Red", "Beta:Blue"]}
      error: "for 2 to 6 players"                 # the game (or its creation) failed with this text
      log: ["some text"]                          # lines the rules logged
      offered: [{player: 1, options: ["Beta:Blue"]}]  # a decision offered since the last checkpoint
      shuffled: [deck]                            # exactly the zones shuffled since the last checkpoint
      values: {"your coins + 1": 4, "player 2: count(hand of you)": 1}   # rule-language expressions

Cards are named `Name` or `Name:value:value` (values of the card's fields, in any order);
`"Gamma:Red on Beta:Blue"` is a card lying on another. Every zone named under `setup.zones`
is emptied first: the cards it held are set aside out of play, or put into the zone named by
`spare:`. The listed cards are then taken from wherever they lie (the rules' setup usually put
them all in the draw pile), so listing the draw pile makes the listed cards the whole pile.

A choice is matched against the pending decision's options in this order: `yes`/`no`, an
integer index (0-based), an exact label, a card spec, the option's text, `player N`, and last
a label prefix (`"row 2"` for `"row 2 of table: ..."`). Decisions with a single option are
taken by the engine without asking, so they get no entry in `choices`; `offered` still sees
them (the engine tells the scenario through `DirectGame.observer`). A `- expect: {...}`
entry in `choices` is a checkpoint: the same checks as the final `expect`, made at that point.
A list inside `choices` answers as many decisions in a row (handy for `choose any`, which asks
yes/no once per option). `rolls` scripts dice: each die rolled after the rules' setup shows the
next listed face, until the list runs out (then dice are random again). Stats of a dummy player
are set and checked like any other seat's (`vp of 2` in a one-player game with one dummy).
See docs/scenarios.md for the full format.
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from .agents import make_agent, share_copies
from ..api import load_program
from ..language.parser import parse_rules
from ..language.tree import walk
from ..library import BUILTINS
from ..library.names import SPECIAL_NAMES
from ..language.diagnostics import ContentError
from ..engine.directexpr import Unsupported
from ..engine.factory import new_game
from ..engine.directgame import DirectGame
from ..runtime.errors import RuleError
from ..content.model import CardData
from ..content.stack import stack_path
from ..language.untrusted import FileRefused, read_text
from ..runtime.values import RowRef, Seat, ZoneRef
from ..runtime.zones import cover, put, row_ids, take_out, zone_cards
from ..engine.views import board_graph
from .variants import VariantError, load_variant

__all__ = ["run_scenario", "ScenarioResult", "load_scenario"]


class _Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start_player: Optional[int] = None
    active: Optional[int] = None
    zones: dict[str, list[Any]] = {}
    stats: dict[str, Any] = {}
    spare: Optional[str] = None
    on_spaces: dict[str, list[Any]] = {}  # board space spec → the cards lying on it (docs/boards.md)


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
    on_spaces: dict[str, list[Any]] = {}  # board space spec → exactly the cards lying on it
    offered: list[dict[str, Any]] = []  # decisions offered since the last checkpoint, one option or more
    shuffled: Optional[list[str]] = None  # exactly the zones shuffled since the last checkpoint, in order
    values: dict[str, Any] = {}  # rule-language expression (`player N:` prefix: as that player) → value


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    ruleset: str
    mods: list[str] = Field([], alias="with")  # mods stacked on the ruleset, in order (docs/modding.md)
    players: int
    seed: Union[int, str] = 0
    covers: list[str] = []
    description: Optional[str] = None
    set: dict[str, Union[bool, int, float, str]] = {}  # constant or Card.field → value (a variant, like --set)
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


MAX_SCENARIO_BYTES = 1_000_000


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file as untrusted input: a regular file of bounded size (FileRefused),
    YAML nested at most 50 deep (YAMLError), then the model's shape (ValidationError)."""
    text = read_text(path, MAX_SCENARIO_BYTES)
    y = YAML(typ="safe")
    y.max_depth = 50  # a fresh loader each time: ruamel keeps its depth count between loads
    data = y.load(text)
    return Scenario.model_validate(data)


def run_scenario(path: str | Path) -> ScenarioResult:
    """Run one scenario file. Whatever the file holds, this returns a result (a bad file is a
    failed scenario with the reason), so a run over many files goes on to the next."""
    path = Path(path)
    try:
        sc = load_scenario(path)
    except FileRefused as e:
        return ScenarioResult(str(path), "?", False, [f"cannot read scenario: {e.message}"])
    except (OSError, YAMLError, RecursionError) as e:
        first = str(e).splitlines()[0] if str(e) else "nested too deeply"
        if "maximum depth" in first or isinstance(e, RecursionError):
            first = "values are nested more than 50 levels deep"
        return ScenarioResult(str(path), "?", False, [f"cannot read scenario: {first}"])
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
    except RecursionError:
        res.failures.append("the scenario's values are nested too deeply")
    except Exception as e:  # noqa: BLE001 - a scenario the runner cannot follow: say so, go on
        res.failures.append(f"this scenario could not be run: {type(e).__name__}: {str(e)[:300]}")
    res.passed = not res.failures
    return res


class _Fail(Exception):
    pass


class _Observer:
    """What happened since the last checkpoint that the state does not show: the decisions
    offered (answered, or taken without asking because they had one option) and the shuffles.
    The engine tells it through `DirectGame.observer`; it never changes how the game plays."""

    def __init__(self) -> None:
        self.decisions: list = []  # Decision objects, their labels made when offered
        self.shuffles: list[str] = []

    def only_option(self, d) -> None:
        d.labels, d.prompt  # the labels and prompt describe the state now, before the option is taken
        self.decisions.append(d)

    def answered(self, d) -> None:
        d.labels, d.prompt
        self.decisions.append(d)

    def shuffled(self, zone: ZoneRef) -> None:
        self.shuffles.append(zone.name if zone.owner is None else f"{zone.name} of {zone.owner + 1}")

    def reset(self) -> None:
        self.decisions, self.shuffles = [], []


def _run(sc: Scenario, path: Path, res: ScenarioResult) -> None:
    rpath = (path.parent / sc.ruleset).resolve()
    if sc.mods:  # `with: [mod, ...]`, each relative to this file like `ruleset:`
        rpath = stack_path(str(rpath), [str((path.parent / m).resolve()) for m in sc.mods])
    if sc.set:  # a variant: the same overrides `simulate --set` applies, so a scenario can pin one
        try:
            program = load_variant(str(rpath), tuple(sc.set.items()))
        except VariantError as e:
            raise _Fail(f"set: {e}") from None
    else:
        program = load_program(rpath)
    setup_failures: list[_Fail] = []

    def arrange(g: DirectGame) -> None:  # a bad setup is the scenario's fault: report it as such
        try:
            if sc.setup.model_fields_set:
                _apply_setup(g, sc.setup)  # on the game's own state (direct code: `arranged()` follows)
                observer.reset()  # what the rules' setup shuffled, the scenario's setup replaced
            g.forced_rolls = list(sc.rolls)
        except _Fail as e:
            setup_failures.append(e)

    observer = _Observer()
    try:  # generated code, in the form that tells an observer (engine/factory.py)
        game = new_game(program, sc.players, sc.seed, seats=[],
                        after_setup=arrange if sc.setup.model_fields_set or sc.rolls else None, observer=observer)
    except ValueError as e:  # the ruleset refuses this game (e.g. the player count)
        if sc.expect.error is None:
            raise _Fail(f"the game cannot start: {e}") from None
        if sc.expect.error not in str(e):
            raise _Fail(f"error: expected one containing {sc.expect.error!r}, got {str(e)!r}") from None
        return
    if setup_failures:
        raise setup_failures[0]
    if game.error and sc.expect.error is None:
        raise _Fail(f"setup failed: {game.error}")
    choices = [c for item in sc.choices for c in (item if isinstance(item, list) else [item])]
    for i, choice in enumerate(choices):
        if isinstance(choice, dict):  # a checkpoint: `- expect: {...}` between choices
            _checkpoint(game, choice, i, res, observer)
            continue
        if game.over:
            raise _Fail(f"choice {i + 1} ({choice!r}): the game is already over"
                        + (f" — error: {game.error}" if game.error else ""))
        d = game.decision
        idx = _match_choice(game, d, choice)
        if idx is None:
            raise _Fail(f"choice {i + 1}: {choice!r} is not an option for player {d.player + 1} at "
                        f"“{d.prompt}” ({d.loc}); options: {d.labels}")
        observer.answered(d)
        game.answer(idx)
        if setup_failures:  # the arrangement runs once the rules' setup has had its answers
            raise setup_failures[0]
    if sc.then != "stop":
        agents = share_copies([make_agent(sc.then, f"{sc.seed}/{p}") for p in range(sc.players)])
        while not game.over:
            game.answer(agents[game.decision.player].choose(game, game.decision))
    _check(game, sc.expect, res, observer)


def _checkpoint(game: DirectGame, item: dict, i: int, res: ScenarioResult, observer: _Observer) -> None:
    if set(item) != {"expect"}:
        raise _Fail(f"entry {i + 1} of `choices`: a mapping there must be a checkpoint `- expect: {{...}}`")
    try:
        ex = _Expect.model_validate(item["expect"])
    except ValidationError as e:
        raise _Fail("; ".join(f"bad checkpoint (entry {i + 1} of `choices`): {'.'.join(map(str, err['loc']))}: {err['msg']}"
                              for err in e.errors())) from None
    found: list[str] = []
    _check(game, ex, ScenarioResult(res.file, res.name, True, found), observer)
    observer.reset()
    res.failures += [f"checkpoint (entry {i + 1} of `choices`): {f}" for f in found]


def _apply_setup(game: DirectGame, setup: _Setup) -> None:
    st = game.state
    if setup.start_player is not None:
        st.start_player = setup.start_player - 1
    if setup.active is not None:
        st.active = setup.active - 1
    spare = setup.spare  # None: displaced cards are set aside, out of play
    rows_zones = _rows_zones(game)
    taken: set[int] = set()
    for zname, content in setup.zones.items():
        ref = _zone(game, zname)
        is_rows = ref.name in rows_zones
        if spare is not None and _zone(game, spare) == ref:
            raise _Fail(f"setup: `spare: {spare}` cannot be a zone that the setup fills")
        # empty the zone: its cards are set aside (or go to `spare`)
        while ids := _all_ids(game, ref.key, is_rows):  # a card lying on another uncovers it
            cid = ids[0]
            take_out(st, cid, rows_zones)
            if spare is not None:
                put(st, cid, _zone(game, spare).key, False)
        rows = content if is_rows else [content]
        if not is_rows and game.rs.zones[ref.name].kind == "pile":
            rows = [list(reversed(content))]  # piles are written top first
        for r, row in enumerate(rows):
            if is_rows:
                st.zones[ref.key].append([])
            for spec in row:
                spec, space = _grid_space(game, ref, str(spec))
                stack = [s.strip() for s in str(spec).split(" on ")]
                ids = [_find_card(game, s, taken).id for s in stack]
                for cid in ids:
                    if cid in st.where:
                        take_out(st, cid, rows_zones)
                    taken.add(cid)
                bottom = ids[-1]
                if is_rows:
                    st.zones[ref.key][-1].append(bottom)
                    st.where[bottom] = ref.key
                else:
                    put(st, bottom, ref.key, False)
                    if space is not None:
                        st.spaces[bottom] = space
                for above in reversed(ids[:-1]):
                    cover(st, above, bottom, rows_zones)
                    bottom = above
    for name, value in setup.stats.items():
        _set_stat(game, name, _card_value(game, value))
    _setup_spaces(game, setup.on_spaces, taken)


def _grid_space(game: DirectGame, ref: ZoneRef, spec: str) -> tuple[str, int | None]:
    """In a grid zone a card is written `Name at X,Y` (from 1); without `at`, the first empty
    space, row by row, as `move` does."""
    zd = game.rs.zones[ref.name]
    if zd.kind != "grid":
        return spec, None
    w, h = zd.width, zd.height
    name, sep, where = spec.rpartition(" at ")
    spaces = game.state.spaces
    taken = {spaces[c] for c in game.state.zones[ref.key] if c in spaces}
    if sep:
        x, _, y = where.partition(",")
        if not (x.strip().isdigit() and y.strip().isdigit()):
            raise _Fail(f"setup: `{spec}`: write a grid card as `Name at X,Y`")
        x, y = int(x), int(y)
        if not (1 <= x <= w and 1 <= y <= h):
            raise _Fail(f"setup: `{spec}`: {ref.key} has no space {x},{y} (it is {w} x {h})")
        if (y - 1) * w + x - 1 in taken:
            raise _Fail(f"setup: `{spec}`: space {x},{y} is taken")
        return name, (y - 1) * w + x - 1
    free = [i for i in range(w * h) if i not in taken]
    if not free:
        raise _Fail(f"setup: `{spec}`: {ref.key} is full")
    return spec, free[0]


def _rows_zones(game: DirectGame) -> frozenset[str]:
    """The ruleset's `rows` zones (an instance holds a list of rows, not of cards)."""
    return frozenset(n for n, z in game.rs.zones.items() if z.kind == "rows")


def _all_ids(game: DirectGame, key: str, is_rows: bool) -> list[int]:
    z = game.state.zones[key]
    return [c for row in z for c in row] if is_rows else list(z)


def _set_stat(game: DirectGame, name: str, value: Any) -> None:
    stat = name.partition(" of ")[0]
    if stat in game.dp.info.get("number_stats", ()) and not isinstance(value, int):
        # the rules only ever give it a number, and the generated code reads it so
        raise _Fail(f"setup: `{stat}` holds a number (the rules never give it anything else), not {value!r}")
    if " of " in name:
        stat, _, who = name.partition(" of ")
        game.state.pstats[int(who) - 1][stat] = value
    elif name in game.state.stats:
        game.state.stats[name] = value
    else:
        raise _Fail(f"setup: unknown stat `{name}` (per-player stats are written `name of N`)")


def _zone(game: DirectGame, text: str) -> ZoneRef:
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


def _find_card(game: DirectGame, spec: str, taken: set[int]) -> CardData:
    for c in game.cards:
        if c.id not in taken and _matches(c, spec):
            return c
    raise _Fail(f"setup: no card `{spec}` left to place")


def _match_choice(game: DirectGame, d, choice: Any) -> int | None:
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
    for i, o in enumerate(game.option_values(d)):
        if isinstance(o, CardData) and _matches(o, text):
            return i
        if str(o) == text:
            return i
    if text.startswith("player ") and text[7:].isdigit():
        for i, o in enumerate(game.option_values(d)):
            if isinstance(o, int) and int(o) == int(text[7:]) - 1:
                return i
    for i, label in enumerate(d.labels):
        if label.startswith(text):
            return i
    return None


def _option_matches(game: DirectGame, d, i: int, choice: Any) -> bool:
    """Whether `choice` (as written in a scenario) names option `i` of decision `d`."""
    if isinstance(choice, bool) or choice in ("yes", "no"):
        return d.options[i] is (choice is True or choice == "yes")
    if isinstance(choice, int):
        return choice == i
    text, o, label = str(choice), game.option_values(d)[i], d.labels[i]
    if label == text or str(o) == text or (isinstance(o, CardData) and _matches(o, text)):
        return True
    if text.startswith("player ") and text[7:].isdigit() and isinstance(o, int) and not isinstance(o, bool):
        return int(o) == int(text[7:]) - 1
    return label.startswith(text)


def _same_options(game: DirectGame, d, expected: list[Any]) -> bool:
    """True when the expected options name the decision's options one to one (any order)."""
    if len(expected) != len(d.options):
        return False
    used: set[int] = set()

    def assign(k: int) -> bool:
        if k == len(expected):
            return True
        for i in range(len(d.options)):
            if i not in used and _option_matches(game, d, i, expected[k]):
                used.add(i)
                if assign(k + 1):
                    return True
                used.discard(i)
        return False
    return assign(0)


def _describe(game: DirectGame, ids: list[int]) -> list[str]:
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


def _same(game: DirectGame, ids: list[int], expected: list[str], ordered: bool) -> bool:
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


def _matches_stack(game: DirectGame, cid: int, spec: str) -> bool:
    parts = [s.strip() for s in spec.split(" on ")]
    stack = [cid] + list(reversed(game.state.under.get(cid, [])))
    return len(parts) == len(stack) and all(_matches(game.cards[c], p) for c, p in zip(stack, parts))


def _check(game: DirectGame, ex: _Expect, res: ScenarioResult, observer: _Observer | None = None) -> None:
    f = res.failures
    st = game.state
    f += _check_spaces(game, ex.on_spaces)
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
            ok = _same(game, ids, content, kind in ("pile", "row"))  # a row: left to right
            got = _describe(game, ids)
        if not ok:
            f.append(f"zone {zname}: expected {content}, got {got}")
    for zname, content in ex.contains.items():
        ref = _zone(game, zname)
        ids = _all_ids(game, ref.key, ref.name in _rows_zones(game))
        for spec in content:
            if not any(_matches_stack(game, cid, str(spec)) or _matches(game.cards[cid], str(spec)) for cid in ids):
                f.append(f"zone {zname}: expected it to contain {spec}, got {_describe(game, ids)}")
    for zname, content in ex.excludes.items():
        ref = _zone(game, zname)
        ids = _all_ids(game, ref.key, ref.name in _rows_zones(game))
        for spec in content:
            if any(_matches_stack(game, cid, str(spec)) or _matches(game.cards[cid], str(spec)) for cid in ids):
                f.append(f"zone {zname}: expected no {spec}, got {_describe(game, ids)}")
    for zname, n in ex.count.items():
        ref = _zone(game, zname)
        got = len(_all_ids(game, ref.key, ref.name in _rows_zones(game)))
        if got != n:
            f.append(f"count of {zname}: expected {n}, got {got}")
    for name, value in ex.stats.items():
        if " of " in name:
            stat, _, who = name.partition(" of ")
            got = st.pstats[int(who) - 1].get(stat)
        else:
            got = st.stats.get(name, game.constants_value(name))
        if isinstance(got, CardData) and isinstance(value, str):  # a stat holding a card (a board space)
            if not _matches(got, value):
                f.append(f"stat {name}: expected {value}, got {_spec_of(got)}")
        elif isinstance(got, list) and isinstance(value, list) and got and all(isinstance(c, CardData) for c in got):
            if len(got) != len(value) or not all(isinstance(v, str) and _matches(c, v) for c, v in zip(got, value)):
                f.append(f"stat {name}: expected {value}, got {[_spec_of(c) for c in got]}")  # a list of cards
        elif got != value:
            f.append(f"stat {name}: expected {value!r}, got {got!r}")
    if ex.over is not None and game.over != ex.over:
        f.append(f"game over: expected {ex.over}, got {game.over}"
                 + (f" (waiting for player {game.decision.player + 1}: {game.decision.prompt})"
                    if game.decision else ""))
    result = None
    if ex.scores is not None or ex.winners is not None:
        try:
            result = game.result or game.scores()
        except Exception as e:  # the score rules fail on this position: a failure, not a traceback
            f.append(f"scores: the score rules failed: {e if isinstance(e, RuleError) else f'{type(e).__name__}: {e}'}")
    if result is not None:
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
            f += _decision_failures(game, d, ex.decision)
    if observer is not None:
        f += _check_offered(game, ex.offered, observer)
        if ex.shuffled is not None and observer.shuffles != ex.shuffled:
            f.append(f"shuffled: expected {ex.shuffled}, got {observer.shuffles} (since the last checkpoint)")
    f += _check_values(game, ex.values)
    for text in ex.log:
        if not any(text in line for line in game.log):
            f.append(f"log: expected a line containing {text!r}")


# ---- board spaces (docs/boards.md): cards lying on spaces, stats holding a space ------------
def _card_value(game: DirectGame, value: Any) -> Any:
    """`{card: SPEC}` in `setup: stats:` stands for that card (a piece's space, say)."""
    if isinstance(value, dict) and set(value) == {"card"}:
        return _find_card(game, str(value["card"]), set())
    if isinstance(value, list):                  # a list stat: `[{card: A}, {card: B}]`
        return [_card_value(game, v) for v in value]
    return value


def _board_of(game: DirectGame) -> dict[int, str]:
    """Each board space (a card id) → its board, from the board graph the game's engine built."""
    return board_graph(game).board_of if game.rs.boards else {}


def _space(game: DirectGame, spec: str) -> CardData:
    board_of = _board_of(game)
    for c in game.cards:
        if c.id in board_of and _matches(c, spec):
            return c
    raise _Fail(f"no board space `{spec}`")


def _lay_on(game: DirectGame, card: CardData, space: CardData) -> None:
    """`card` goes onto board space `space`, as `move card to space` does in the rules."""
    game.R.move_onto([card.id], space.id)


def _setup_spaces(game: DirectGame, on_spaces: dict[str, list[Any]], taken: set[int]) -> None:
    for spec, content in on_spaces.items():
        space = _space(game, spec)
        for c in game.cards:  # the space is emptied first: what lay there is set aside
            if game.state.spaces.get(c.id) == space.id and game.state.where.get(c.id) in game.rs.boards:
                take_out(game.state, c.id, _rows_zones(game))
        for item in content:
            card = _find_card(game, str(item), taken)
            taken.add(card.id)
            _lay_on(game, card, space)


def _check_spaces(game: DirectGame, on_spaces: dict[str, list[Any]]) -> list[str]:
    """Each listed space holds exactly the listed cards (in any order)."""
    out = []
    for spec, content in on_spaces.items():
        space = _space(game, spec)
        ids = [c.id for c in game.cards if game.state.spaces.get(c.id) == space.id
               and game.state.where.get(c.id) in game.rs.boards]
        left, want = list(ids), [str(x) for x in content]
        for w in want:
            hit = next((i for i in left if _matches(game.cards[i], w)), None)
            if hit is not None:
                left.remove(hit)
        if left or len(ids) != len(want):
            out.append(f"space {spec}: expected {want}, got {[_spec_of(game.cards[i]) for i in ids]}")
    return out


# ---- decisions offered, expressions' values ----------------------------------------------------
def _decision_failures(game: DirectGame, d, want: dict[str, Any]) -> list[str]:
    """How decision `d` differs from `want` (keys player, kind, prompt, options; see docs)."""
    f: list[str] = []
    unknown = set(want) - {"player", "kind", "prompt", "options"}
    if unknown:
        f.append(f"decision: unknown key(s) {sorted(unknown)} (player, kind, prompt, options)")
    if "player" in want and d.player + 1 != want["player"]:
        f.append(f"decision player: expected {want['player']}, got {d.player + 1}")
    if "prompt" in want and str(want["prompt"]) not in d.prompt:
        f.append(f"decision prompt: expected {want['prompt']!r}, got {d.prompt!r}")
    if "kind" in want and d.kind != want["kind"]:
        f.append(f"decision kind: expected {want['kind']!r}, got {d.kind!r}")
    if "options" in want:
        exp = want["options"]
        if isinstance(exp, int) and not isinstance(exp, bool):
            if len(d.options) != exp:
                f.append(f"decision options: expected {exp}, got {len(d.options)}: {d.labels}")
        elif not isinstance(exp, list):
            f.append(f"decision options: write a number or a list, not {exp!r}")
        elif not _same_options(game, d, list(exp)):
            f.append(f"decision options: expected {exp}, got {d.labels}")
    return f


def _check_offered(game: DirectGame, wanted: list[dict[str, Any]], observer: _Observer) -> list[str]:
    """Each expected decision matches one offered since the last checkpoint: answered by
    `choices`, taken without asking (one option), or pending now."""
    seen = observer.decisions + ([game.decision] if game.decision is not None else [])
    out = []
    for want in wanted:
        if not isinstance(want, dict):
            out.append(f"offered: each entry is a mapping like `decision`, not {want!r}")
            continue
        if not any(not _decision_failures(game, d, want) for d in seen):
            found = [f"player {d.player + 1} “{d.prompt}” {d.labels}" for d in seen]
            out.append(f"offered: no decision like {want} since the last checkpoint; offered: {found}")
    return out


_PLAYER_PREFIX = re.compile(r"^\s*player\s+(\d+)\s*:\s*(.*)$", re.S)


def _check_values(game: DirectGame, values: dict[str, Any]) -> list[str]:
    """Each expression, in the rule language, has the expected value now (`you`: the active
    player, or N with a `player N:` prefix)."""
    out = []
    for key, want in values.items():
        m = _PLAYER_PREFIX.match(key)
        who, text = (int(m.group(1)) - 1, m.group(2)) if m else (game.state.active, key)
        if not 0 <= who < game.state.players + game.state.dummies:
            out.append(f"value `{key}`: there is no player {who + 1}")
            continue
        try:
            got = game.expression_value(_expression(game, text), {"you": Seat(who)})
        except _Fail as e:
            out.append(f"value `{key}`: {e}")
            continue
        except RuleError as e:
            out.append(f"value `{key}`: the rules cannot evaluate it: {e.message}")
            continue
        except Unsupported as e:  # an expression direct code does not compile (yet)
            out.append(f"value `{key}`: the rules cannot evaluate it here: {e}")
            continue
        if not _same_value(game, got, want):
            out.append(f"value `{key}`: expected {want!r}, got {_show(game, got)!r}")
    return out


_EXPRESSIONS: "weakref.WeakKeyDictionary[Any, dict[str, Any]]" = weakref.WeakKeyDictionary()


def _expression(game: DirectGame, text: str) -> Any:
    """`text` parsed as an expression of the game's rules, its names checked (cached per
    program; the game's engine compiles it: `expression_value`)."""
    cache = _EXPRESSIONS.setdefault(game.program, {})
    if text not in cache:
        try:
            module = parse_rules(f"function __value__() = {text}\n", "<scenario value>")
        except ContentError as e:
            d = e.diagnostics[0]
            raise _Fail(f"not an expression of the rule language: {d.message}") from None
        decls = module.decls
        if len(decls) != 1 or decls[0].kind != "function" or "\n" in text.strip():
            raise _Fail("write one expression on one line")
        unknown = _unknown_name(game.rs, decls[0].expr)
        if unknown:
            raise _Fail(f"the rules cannot evaluate it: {unknown}")
        cache[text] = decls[0].expr
    return cache[text]


def _unknown_name(rs: Any, expr: Any) -> str | None:
    """What `expr` names that the rules do not know (a zone, stat, constant, function, card type
    or value, or a name one of its own parts binds), said as the checker says it; None if all known."""
    bound = {"you", "this", "it"} | {getattr(n, a) for n in walk(expr) for a in ("name", "binder", "var")
                               if n.kind not in ("of", "attr") and isinstance(getattr(n, a, None), str)}
    bound |= {x for n in walk(expr) for x in (getattr(n, "names", None) or ()) if isinstance(x, str)}
    known = set(rs.zones) | set(rs.stats) | set(rs.constants) | set(rs.card_types) | set(rs.die_types) \
        | set(rs.enum_values()) | SPECIAL_NAMES | bound
    for n in walk(expr):
        if n.kind == "name" and n.id not in known and n.id not in rs.procedures:
            return f"unknown name `{n.id}`"
        if n.kind == "of" and n.name not in rs.zones and n.name not in rs.stats and n.name not in BUILTINS:
            return f"`{n.name}` is not a zone or player stat"
        if n.kind == "call" and n.func not in rs.functions and n.func not in BUILTINS:
            return f"unknown function `{n.func}`"
    return None


def _same_value(game: DirectGame, got: Any, want: Any) -> bool:
    """A value as a scenario writes it: cards by spec, players as `player N`, zones and rows as
    the list of their cards (a pile top first), lists item by item."""
    if isinstance(got, (ZoneRef, RowRef)):
        got = _zone_cards_top_first(game, got)
    if isinstance(got, bool) or isinstance(want, bool):
        return isinstance(got, bool) and isinstance(want, bool) and got is want
    if isinstance(got, Seat):
        return str(got) == str(want)
    if isinstance(got, CardData):
        return isinstance(want, str) and _matches(got, want)
    if isinstance(got, (list, tuple)):
        return isinstance(want, list) and len(got) == len(want) and all(
            _same_value(game, g, w) for g, w in zip(got, want))
    if isinstance(got, dict):  # keys and values as `_show` writes them
        return _show(game, got) == want
    return got == want


def _zone_cards_top_first(game: DirectGame, ref: Any) -> list:
    """A zone's or a row's cards as a scenario lists them: a pile top first, a row left to right."""
    st = game.state
    if isinstance(ref, RowRef):  # the row it names now (none once it has emptied and closed up)
        rows = st.zones[ref.key]
        if ref.rid < 0:
            ids = rows[ref.index] if 0 <= ref.index < len(rows) else []
        else:
            rids = row_ids(st, ref.key)
            ids = rows[rids.index(ref.rid)] if ref.rid in rids else []
    else:
        ids = zone_cards(st, ref.key, ref.name in _rows_zones(game))
        if game.rs.zones[ref.name].kind == "pile":
            ids = list(reversed(ids))
    return [game.cards[c] for c in ids]


def _show(game: DirectGame, v: Any) -> Any:
    if isinstance(v, (ZoneRef, RowRef)):
        v = _zone_cards_top_first(game, v)
    if isinstance(v, CardData):
        return _spec_of(v)
    if isinstance(v, Seat):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [_show(game, x) for x in v]
    if isinstance(v, dict):
        return {_show(game, k): _show(game, x) for k, x in v.items()}
    return v
