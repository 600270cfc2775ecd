"""The one module of shared test helpers (tests import it; no test imports another test file):
writing tiny rulesets to a tmp_path, building and playing them, answering decisions by label."""
from __future__ import annotations

import itertools
import random
import re
import textwrap
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from interpreter.api import check_path, load_program
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game
from interpreter.engine.game import Limits
from interpreter.engine.resumablegame import ResumableGame
from interpreter.play.session import agents_for, game_seed

_counter = itertools.count(1)
HEADER = 'game "T":\n    players 2..6\n\n'  # the header `build` puts above the rules


# fourteen chips of three values, for the `card type Chip: value: 1..3` of small test rulesets
CHIPS = """\
cards:
  - {name: Low, type: Chip, value: 1, copies: 5}
  - {name: Mid, type: Chip, value: 2, copies: 5}
  - {name: High, type: Chip, value: 3, copies: 4}
"""


def ruleset(tmp_path: Path, rules: str, cards: str | None = None) -> Path:
    """A ruleset folder holding `game.rules` (and `cards/cards.yaml`); a fresh path each call."""
    folder = tmp_path / f"game{next(_counter)}"
    folder.mkdir()
    (folder / "game.rules").write_text(textwrap.dedent(rules).lstrip(), encoding="utf-8")
    if cards is not None:
        (folder / "cards").mkdir()
        (folder / "cards" / "cards.yaml").write_text(textwrap.dedent(cards).lstrip(), encoding="utf-8")
    return folder


def game(tmp_path: Path, rules: str, cards: str | None = None, players: int = 2, seed: int = 0) -> Any:
    return new_game(load_program(ruleset(tmp_path, rules, cards)), players, seed)


def answer(g: Any, player: int, label: str) -> None:
    """Answer the pending decision of `player` with the option labelled `label` (or `label ...`)."""
    d = g.decision
    assert d is not None, f"no decision pending (error: {g.error})"
    assert d.player == player, f"decision is for player {d.player + 1}, expected {player + 1}"
    hits = [i for i, text in enumerate(d.labels) if text == label or text.startswith(label + " ")]
    assert hits, f"{label!r} is not among {d.labels}"
    g.answer(hits[0])


def errors(tmp_path: Path, rules: str, cards: str | None = None) -> list:
    _, content = check_path(ruleset(tmp_path, rules, cards))
    return [d for d in content.diagnostics if d.severity == "error"]


def build(tmp_path: Path, rules: str, cards: str | None = None, header: bool = True):
    """Write `tmp_path/rs` (game.rules under HEADER unless `header` is false, + cards/cards.yaml) and
    compile it; `rules` is dedented, so preludes indented like the tests' blocks can be prepended."""
    d = tmp_path / "rs"
    d.mkdir(parents=True, exist_ok=True)
    (d / "game.rules").write_text((HEADER if header else "") + textwrap.dedent(rules), encoding="utf-8")
    if cards is not None:
        (d / "cards").mkdir(exist_ok=True)
        (d / "cards" / "cards.yaml").write_text(textwrap.dedent(cards), encoding="utf-8")
    return load_program(d)


def line_of(program, text: str) -> int:
    """1-based line of the first line of game.rules containing `text`."""
    src = (Path(program.rs.content.path) / "game.rules").read_text(encoding="utf-8")
    for i, line in enumerate(src.splitlines(), 1):
        if text in line:
            return i
    raise AssertionError(f"{text!r} not in the rules")


def run(program, players: int = 2, seed: int = 0, choices=(), limits: Limits | None = None) -> Any:
    """A game of `program` after the scripted answers `choices` (each asked while the game runs)."""
    g = new_game(program, players, seed, limits=limits)
    for c in choices:
        assert not g.over, f"game over before choice {c}: {g.error}"
        g.answer(c)
    return g


def finish(g: Any) -> Any:
    """Play `g` to its end, always answering the first option (bounded, so a loop fails the test)."""
    guard = 0
    while not g.over:
        g.answer(0)
        guard += 1
        assert guard < 10_000
    return g


def ok(g: Any) -> Any:
    """`g`, failing the test with the rule error if it stopped on one."""
    assert g.error is None, g.error
    return g


def rule_ids(text: str, prefix: str = "EN") -> list[int]:
    """The rule numbers a text names: `EN-007..EN-013, EN-015` → [7, ..., 13, 15]."""
    out: list[int] = []
    for lo, hi in re.findall(prefix + r"-(\d{3})(?:\.\." + prefix + r"-(\d{3}))?", text):
        out += range(int(lo), int(hi or lo) + 1)
    return out


def not_modelled_rules(notes: Path, prefix: str = "EN") -> dict[str, str]:
    """The rules a NOTES.md's section "Not modelled, by rule ID" lists, one `- EN-nnn — reason`
    line each (ranges and lists allowed), with their reasons."""
    section = notes.read_text(encoding="utf-8").split("## Not modelled, by rule ID", 1)[1].split("\n## ", 1)[0]
    out: dict[str, str] = {}
    item = prefix + r"-\d{3}(?:\.\." + prefix + r"-\d{3})?"
    for line in section.splitlines():
        m = re.match(r"\s*-\s+((?:" + item + r"(?:,\s*)?)+)\s+—\s+(.+)", line)
        if m:
            out.update({f"{prefix}-{i:03d}": m.group(2) for i in rule_ids(m.group(1), prefix)})
    return out


def cited_rules(folder: Path) -> set[str]:
    """The rule IDs the `covers:` lists of a folder's scenario files cite (a coverage test's count)."""
    ids: set[str] = set()
    for f in sorted(folder.glob("*.yaml")):
        ids.update(YAML(typ="safe").load(f.read_text(encoding="utf-8")).get("covers", []) or [])
    return ids


def docstring_rules(files, prefix: str = "EN") -> set[str]:
    """The rule IDs the docstrings of test files cite (a coverage test's count, beside its scenarios')."""
    ids: set[str] = set()
    for f in files:
        for doc in re.findall(r'"""(.*?)"""', Path(f).read_text(encoding="utf-8"), re.S):
            ids.update(f"{prefix}-{i:03d}" for i in rule_ids(doc, prefix))
    return ids


def play_trace(game, seats, prompts: dict | None = None) -> list:
    """Play `game` to its end with `seats` (agents), giving each decision's player, kind, prompt and
    labels (for comparing engines); `prompts` (a Counter), when given, counts the prompts met."""
    trace = []
    while not game.over:
        d = game.decision
        trace.append((d.player, d.kind, d.prompt, tuple(d.labels)))
        if prompts is not None:
            prompts[d.prompt] += 1
        game.answer(seats[d.player].choose(game, d))
    return trace


def same_games_in_both_forms(program, players=(2, 3), games: int = 3) -> None:
    """Random seats play `games` seeds per player count on generated code's two forms, the
    generators (`DirectGame`) and the copyable frames (`ResumableGame`), each ending without an
    error: the same decisions, result, log and final state."""
    for n in players:
        for i in range(games):
            seed = game_seed(5, i)
            a, b = new_game(program, n, seed, seats=[]), new_game(program, n, seed)
            assert isinstance(b, ResumableGame) and not isinstance(a, ResumableGame)
            ta = play_trace(a, agents_for(["random"], n, seed))
            tb = play_trace(b, agents_for(["random"], n, seed))
            assert a.error is None and b.error is None, (a.error, b.error)
            assert ta == tb and (a.result, a.log) == (b.result, b.log)
            assert a.state.digest() == b.state.digest()


def copies_play_alike(dp, players: int, seed: int, at) -> bool:
    """Generated code's two forms (`DirectGame`, copyable `ResumableGame`) play seed `seed` alike
    with random seats; then a copy taken at the first decision `at(game, decision)` accepts plays
    on exactly as the original (first-option seats). Whether such a decision came up."""
    a, b = DirectGame(dp, players, seed), ResumableGame(dp, players, seed)
    assert play_trace(a, agents_for(["random"], players, seed)) == \
        play_trace(b, agents_for(["random"], players, seed))
    assert (a.result, a.log, a.state.digest()) == (b.result, b.log, b.state.digest())
    g = ResumableGame(dp, players, seed)
    seats = agents_for(["first"], players, seed)
    while not g.over:
        d = g.decision
        if at(g, d):
            twin = g.clone()
            rest = play_trace(twin, agents_for(["first"], players, seed))
            assert play_trace(g, seats) == rest and g.state.digest() == twin.state.digest()
            return True
        g.answer(seats[d.player].choose(g, d))
    return False


def named_ruleset(root: Path, name: str, rules: str, cards: str | None = None) -> Path:
    """A ruleset folder `root/name` (its own `cards/cards.yaml`): mods name each other by folder name."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "game.rules").write_text(textwrap.dedent(rules).lstrip(), encoding="utf-8")
    if cards is not None:
        (folder / "cards").mkdir()
        (folder / "cards" / "cards.yaml").write_text(textwrap.dedent(cards).lstrip(), encoding="utf-8")
    return folder


# ---- tiny games for agents (tests/play) ------------------------------------------------------------
TOKS = "".join(f"- {{name: T{v}, type: Tok, value: {v}}}\n" for v in range(1, 7))

# Guess the value of the hidden top card: the right answer depends only on a hidden card.
GUESS = """
    card type Tok:
        value: 1..9
    zone deck: pile, shared, hidden
    zone hand: set, per player, owner
    zone won: set, per player, public
    setup:
        move all_cards() to deck
        shuffle deck
        draw 2 from deck to hand of 1
    turn:
        you choose x from [1, 2, 3, 4, 5, 6] "guess"
        if x == top(deck).value:
            move top(deck) to your won
        end game
    score p: count(won of p)
    """


def tiny(tmp_path: Path, name: str, rules: str):
    """A two- or three-player ruleset `name` made of `rules` and six tokens valued 1..6 (TOKS)."""
    d = tmp_path / name
    (d / "cards").mkdir(parents=True)
    (d / "game.rules").write_text(f'game "{name}":\n    players 2..3\n' + textwrap.dedent(rules))
    (d / "cards" / "c.yaml").write_text(TOKS)
    return load_program(d)


# ---- a small board (tests/engine: boards on both engines) --------------------------------------
# three regions of space cards: an outer ring, a middle ring (a bridge from the outer one) and a
# core path (a one-way gate from the middle); coins of another card type to move on it
BOARD_WORLD = """
card type Land:
    area: Out | Mid | Core
card type Token:
    area: Out | Mid | Core

zone lands: set
zone bag: pile

board world:
    ring all_cards() where it is Land and it.area == Out as Out
    ring all_cards() where it is Land and it.area == Mid as Mid
    path all_cards() where it is Land and it.area == Core as Core
    link card_named("A2") to card_named("C1") as bridge
    link card_named("C3") to card_named("D1") one way as gate
"""


def board_cards(coins: int) -> str:
    """The space cards of BOARD_WORLD (six outer, four middle, three core) and `coins` coins."""
    spaces = [(f"A{i}", "Out") for i in range(1, 7)] + [(f"C{i}", "Mid") for i in range(1, 5)] + \
        [(f"D{i}", "Core") for i in range(1, 4)]
    return "\n" + "".join(f"- {{name: {n}, type: Land, area: {a}}}\n" for n, a in spaces) + \
        f"- {{name: Coin, type: Token, area: Out, copies: {coins}}}\n"


# ---- the shipped rulesets that the every-ruleset tests play ---------------------------------

SHIPPED = Path(__file__).resolve().parent.parent / "rulesets"
# A game of these bases takes 10-20 s to replay on the task engine: their mods are played by their
# own scenarios, coverage tests and one stacked batch (tests/games/), not by every test that plays
# each ruleset (golden games, transcripts, save/resume, properties, invariants), which would cost
# minutes of every run per mod. Their parsing, checking and loading tests still take every mod.
SLOW_BASES = ("talisman",)


def _root_of(folder: Path) -> str:
    """The game a ruleset folder is built on, following `extends` down to a folder that extends
    nothing (talisman_highland -> talisman_regions -> talisman)."""
    seen = {folder.name}
    while (folder / "game.rules").exists():
        m = re.search(r'^\s*extends\s+"([^"]+)"', (folder / "game.rules").read_text(encoding="utf-8"), re.M)
        if not m or m.group(1) in seen:
            break
        seen.add(m.group(1))
        folder = folder.parent / m.group(1)
    return folder.name


def played_rulesets() -> list[Path]:
    """The folders of rulesets/ holding a game or a mod, sorted by name, that every
    play-each-ruleset test plays: all but the mods of SLOW_BASES (see above)."""
    found = sorted(p for p in SHIPPED.iterdir() if (p / "game.rules").exists())
    return [p for p in found if p.name in SLOW_BASES or _root_of(p) not in SLOW_BASES]


def base_test_files(base: str) -> list[Path]:
    """The pytest files of a base game's own rules, `tests/**/test_BASE*.py`: not those of its
    mods (`test_BASE_MOD*.py` for a folder rulesets/BASE_MOD) nor any coverage test, which cite
    the mods' rule IDs."""
    mods = [p.name[len(base) + 1:] for p in SHIPPED.glob(f"{base}_*") if (p / "game.rules").exists()]
    tests = Path(__file__).resolve().parent
    return sorted(f for f in tests.rglob(f"test_{base}*.py")
                  if not f.name.endswith("_coverage.py")
                  and not any(f.name.startswith(f"test_{base}_{m}") for m in mods))


def put_card(game: Any, cid: int, zone: str) -> None:
    """Set-up by hand: card `cid` leaves the plain zone it lies in and goes on top of `zone` (the
    raw zone name, e.g. `objects#0` for seat 1's)."""
    st = game.state
    st.zones[st.where[cid]].remove(cid)
    st.zones[zone].append(cid)
    st.where[cid] = zone


# ---- a game that differs only in what a seat cannot see (the agents' fairness tests) ----
def _slot(game: Any, cid: int) -> tuple[list, int]:
    """The list holding card `cid` and its index there (a zone, a row of a rows zone, or the cards
    under another card)."""
    st = game.state
    at = st.where[cid]
    if at.startswith("^"):
        lst = st.under[int(at[1:])]
        return lst, lst.index(cid)
    raw = st.zones[at]
    for row in (raw if raw and isinstance(raw[0], list) else [raw]):
        if cid in row:
            return row, row.index(cid)
    raise AssertionError(f"card {cid} is not where `where` says")


def _swap(game: Any, a: int, b: int) -> None:
    """Exchange the places of two cards (their grid spaces too)."""
    st = game.state
    (la, ia), (lb, ib) = _slot(game, a), _slot(game, b)
    la[ia], lb[ib] = b, a
    st.where[a], st.where[b] = st.where[b], st.where[a]
    sa, sb = st.spaces.pop(a, None), st.spaces.pop(b, None)
    if sb is not None:
        st.spaces[a] = sb
    if sa is not None:
        st.spaces[b] = sa


def hidden_twin(game: Any, seat: int) -> Any | None:
    """A copy of `game` that differs in the cards `seat` cannot see and in its random generator,
    or None when no two hidden cards of the same type (the same back) differ in name."""
    twin = game.clone()
    by_type: dict[str, list[int]] = {}
    for cid in sorted(twin.state.where):
        if not twin._sees(cid, seat) and cid not in twin.state.under:
            by_type.setdefault(twin.cards[cid].type, []).append(cid)
    swapped = False
    for ids in by_type.values():  # reverse each group's places: a different arrangement
        for a, b in zip(ids, reversed(ids[len(ids) // 2:])):
            if a != b and twin.cards[a].name != twin.cards[b].name:
                _swap(twin, a, b)
                swapped = True
    if not swapped:
        return None
    twin.state.rng.seed(random.Random(repr(game.state.rng.getstate())).getrandbits(64) ^ 0x5EED)
    twin.touched = None
    return twin


def scenario_log(monkeypatch: Any, path: Path) -> list[str]:
    """The game's log at the final check of the scenario file `path`, which must pass: what a
    scenario's `log:` cannot state, that a line was not logged (or was logged once)."""
    import interpreter.play.scenario as scenario

    lines: list[str] = []
    check = scenario._check

    def keep_log(game, ex, res, observer=None):
        lines[:] = [str(line) for line in game.log]
        return check(game, ex, res, observer)

    monkeypatch.setattr(scenario, "_check", keep_log)
    res = scenario.run_scenario(path)
    assert res.passed, res.failures
    assert lines
    return lines
