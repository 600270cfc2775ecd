"""`grimoire new game NAME`: a tiny playable ruleset to start from, laid out as the shipped ones are
(rules in `rulesets/NAME/`, cards in `cards/NAME/`, a scenario beside the rules), so that
`validate`, `play`, `simulate` and `scenario` work on it at once. `grimoire new expansion NAME
--extends BASE`: a mod of an existing ruleset, beside it, that does the same."""
from __future__ import annotations

import re
from pathlib import Path

from ..api import check_path

__all__ = ["scaffold", "scaffold_expansion", "ScaffoldError"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


class ScaffoldError(ValueError):
    """A name that cannot be a ruleset folder, or a ruleset that already exists."""


RULES = '''# {title}: a starting point made by `grimoire new`. Each turn you draw a gem and may keep it
# (its value counts at the end) or throw it away. The game ends when the
# bag is empty; the most points wins. Change anything: `grimoire validate` says what is wrong.

game "{title}":
    players 2..4
    version "1"

card type Gem:
    colour: Red | Blue | Green
    value: 1..3

zone bag: deck, shared, hidden
zone drawn: pile, shared, public        # the gem just drawn, while its player decides
zone kept: set, per player, public
zone discard: pile, shared, public
player stat points: 0..999

setup:
    move all_cards() to bag
    shuffle bag
    set start_player to random(players)

turn:
    draw from bag to drawn as g
    if you may "Keep the gem?":
        move g to your kept
        your points += g.value
    else:
        move g to discard

as soon as bag is empty:
    end game after this turn

score p: points of p
'''

CARDS = '''# The gems of {title}: `copies` makes several cards of one entry.
- {{name: Ruby, type: Gem, colour: Red, value: 3, copies: 2}}
- {{name: Sapphire, type: Gem, colour: Blue, value: 2, copies: 3}}
- {{name: Emerald, type: Gem, colour: Green, value: 1, copies: 4}}
'''

SCENARIO = '''name: a kept gem scores its value
description: Player 1 draws a Ruby and keeps it; it is in their kept gems and worth 3 points.
ruleset: ..
players: 2
seed: 1
setup:
  start_player: 1
  zones:
    bag: ["Ruby", "Emerald"]          # top first
choices:
  - yes                               # keep the Ruby
expect:
  zones:
    "kept of 1": ["Ruby"]
  stats: {{"points of 1": 3, "points of 2": 0}}
  decision: {{player: 2, prompt: "Keep the gem?"}}
'''


def scaffold(name: str, where: Path) -> list[Path]:
    """Write the new ruleset's files under `where` and return them; nothing is overwritten."""
    if not _NAME.fullmatch(name):
        raise ScaffoldError(f"`{name}` cannot name a ruleset: use letters, digits and _, starting with a letter")
    rules_dir, cards_dir = where / "rulesets" / name, where / "cards" / name
    for d in (rules_dir, cards_dir):
        if d.exists():
            raise ScaffoldError(f"{d} already exists: choose another name or --dir")
    title = name.replace("_", " ").title()
    files = {rules_dir / "game.rules": RULES, cards_dir / "gems.yaml": CARDS,
             rules_dir / "scenarios" / "first_turn.yaml": SCENARIO}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(title=title), encoding="utf-8")
    return list(files)


EXPANSION_RULES = '''# {title}: an expansion of `{base}` made by `grimoire new expansion`. It changes the base game
# without editing it (docs/modding.md): it adds a stat and hooks the base's phases. To change a
# rule of the base, `replace` its named declaration (`replace procedure NAME(...):`) or hook it
# (`before procedure NAME:`); `grimoire explain` on the base lists what it declares.

game "{title}":
    extends "{base}"
    version "1"

stat {name}_count: 0..1000000          # what the expansion counts: here, the {unit}s played

after setup:
    log "{title} is in play"
{hooks}'''

EXPANSION_SCENARIO = '''name: the expansion is in play and counts the base game's {unit}s
description: >
  Played to the end with first-option players, the game ends; the expansion announced itself after
  the base game's setup{counted}.
ruleset: ..
players: {players}
seed: 1
then: first
expect:
  over: true
  log: ["{title} is in play"]{values}
'''

_HOOK = '''
after {phase}:                         # counts each {phase} of the base game
    {name}_count += 1
'''


def scaffold_expansion(name: str, base: str, where: Path) -> list[Path]:
    """Write an expansion ruleset `NAME` extending the ruleset folder `BASE` (beside it, under
    `where/rulesets/`): rules that hook the base's phases, and a scenario. Nothing is overwritten."""
    if not _NAME.fullmatch(name):
        raise ScaffoldError(f"`{name}` cannot name a ruleset: use letters, digits and _, starting with a letter")
    rulesets = where / "rulesets"
    base_dir = rulesets / base
    if not _NAME.fullmatch(base) or not any(base_dir.glob("*.rules")):
        known = sorted(p.name for p in rulesets.iterdir() if any(p.glob("*.rules"))) if rulesets.is_dir() else []
        hint = f" (rulesets there: {', '.join(known)})" if known else ""
        raise ScaffoldError(f"no base ruleset `{base}` in {rulesets}{hint}: an expansion is written beside its base")
    rs, content = check_path(base_dir)
    if rs is None or not content.ok:
        raise ScaffoldError(f"the base ruleset {base_dir} has errors: run `grimoire validate {base_dir}` first")
    rules_dir = rulesets / name
    if rules_dir.exists():
        raise ScaffoldError(f"{rules_dir} already exists: choose another name or --dir")
    phase = next((p for p in ("turn", "round", "play") if p in rs.phases), None)
    title = name.replace("_", " ").title()
    hooks = _HOOK.format(phase=phase, name=name) if phase else ""
    files = {rules_dir / "game.rules": EXPANSION_RULES.format(title=title, base=base, name=name, unit=phase or "game",
                                                              hooks=hooks),
             rules_dir / "scenarios" / "starts.yaml": EXPANSION_SCENARIO.format(
                 title=title, name=name, players=rs.min_players, unit=phase or "game",
                 counted=f" and counted at least one {phase}" if phase else "",
                 values=f'\n  values: {{"{name}_count > 0": true}}' if phase else "")}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
