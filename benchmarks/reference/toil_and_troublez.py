"""Toil and Troublez hand-coded in plain Python: the speed baseline for the interpreter.

Same rules as rulesets/toil_and_troublez (same deck, same decisions, a uniformly random
agent that is not asked when only one option exists), no interpreter. Usage mirrors
`grimoire simulate`:

    python benchmarks/reference/toil_and_troublez.py -n 2000 --players 4 --seed 0 --json out.json
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

KINDS = ["Toad", "Flower", "Crystal", "Mushroom", "Raven"]
COLORS = ["Sun", "Moon", "Star"]
SPELLS = {"Vanish": [2, 2, 2], "Summon": [2, 2, 2], "Poison": [2, 2, 1], "Cloak": [2, 2, 2]}


def make_deck() -> list[tuple]:
    """Cards as tuples: ("T", kind, number, color) or ("M", spell, None, color)."""
    deck = [("T", k, n + 1, c) for n, k in enumerate(KINDS) for c in COLORS for _ in range(4)]
    for spell, per_color in SPELLS.items():
        for c, copies in zip(COLORS, per_color):
            deck += [("M", spell, None, c)] * copies
    return deck


class Game:
    def __init__(self, players: int, seed: int, agent_seed: int):
        self.n = players
        self.rng = random.Random(seed)
        self.agent = random.Random(agent_seed)
        self.cards = make_deck()
        self.draw = list(range(len(self.cards)))
        self.rng.shuffle(self.draw)
        self.discard: list[int] = []
        self.forest: list[list[int]] = []  # rows of top cards
        self.under: dict[int, int] = {}  # cloak id -> talisman id
        self.trove = [[] for _ in range(players)]
        self.markers = [0] * players
        self.depletions = 0
        self.reshuffles = {2: 0, 3: 0, 4: 1, 5: 1, 6: 2}[players]
        self.ending = False
        self.start = self.rng.randrange(players)
        self.turns = 0
        self.decisions = 0

    def choose(self, options: list):
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        return options[self.agent.randrange(len(options))]

    # -- placement ---------------------------------------------------------------------------
    def row_ok(self, row: list[int]) -> bool:
        cards = self.cards
        kinds, spells, numbers = set(), set(), []
        prev = None
        for cid in row:
            t, name, num, color = cards[cid]
            if t == "T":
                if name in kinds:
                    return False
                kinds.add(name)
                if numbers and num <= numbers[-1]:
                    return False
                numbers.append(num)
            elif name != "Cloak":
                if name in spells:
                    return False
                spells.add(name)
            if prev is not None and cards[prev][3] == color and cards[prev][1] != "Cloak" and name != "Cloak":
                return False
            prev = cid
        return True

    def positions(self, cid: int) -> list:
        out = []
        for i, row in enumerate(self.forest):
            if self.row_ok([cid] + row):
                out.append((i, "left"))
            if self.row_ok(row + [cid]):
                out.append((i, "right"))
        if len(self.forest) < 3:
            out.append((None, "new"))
        return out

    # -- card movement -----------------------------------------------------------------------
    def remove_from_forest(self, cid: int) -> None:
        for i, row in enumerate(self.forest):
            if cid in row:
                j = row.index(cid)
                if cid in self.under:
                    row[j] = self.under.pop(cid)
                else:
                    del row[j]
                    if not row:
                        del self.forest[i]
                return

    def after_draw(self) -> None:
        if not self.draw:
            self.depletions += 1
            if self.depletions <= self.reshuffles:
                self.draw, self.discard = self.discard, []
                self.rng.shuffle(self.draw)
            if not self.draw:
                self.ending = True

    def collections(self) -> None:
        for p in range(self.n):
            tr = self.trove[p]
            kinds = []
            for cid in tr:
                k = self.cards[cid][1]
                if k not in kinds:
                    kinds.append(k)
            if len(kinds) == 5:
                chosen = [next(c for c in tr if self.cards[c][1] == k) for k in kinds]
                self.markers[p] += 1
                for c in chosen:
                    tr.remove(c)
                self.discard += chosen[1:]
            for k in list(kinds):
                same = [c for c in tr if self.cards[c][1] == k]
                if len(same) >= 4:
                    self.markers[p] += 1
                    for c in same[:4]:
                        tr.remove(c)
                    self.discard += same[1:4]

    def others(self, p: int) -> list[int]:
        return [(p + k) % self.n for k in range(1, self.n)]

    def picked_up(self, cid: int, p: int) -> None:
        spell = self.cards[cid][1]
        if spell == "Vanish":
            k = self.choose(KINDS)
            for q in self.others(p):
                held = [c for c in self.trove[q] if self.cards[c][1] == k]
                if held:
                    c = self.choose(held)
                    self.trove[q].remove(c)
                    self.discard.append(c)
        elif spell == "Summon":
            loot = [c for q in self.others(p) for c in self.trove[q]]
            if loot:
                c = self.choose(loot)
                for q in range(self.n):
                    if c in self.trove[q]:
                        self.trove[q].remove(c)
                self.trove[p].append(c)
                self.collections()
        elif spell == "Poison":
            if self.trove[p]:
                c = self.choose(list(self.trove[p]))
                self.trove[p].remove(c)
                self.discard.append(c)

    # -- the turn ----------------------------------------------------------------------------
    def turn(self, p: int) -> None:
        took_row = False
        while True:
            cid = self.draw.pop()
            self.after_draw()
            t, name, _, _ = self.cards[cid]
            if t == "M" and name == "Cloak":
                targets = [c for row in self.forest for c in row if self.cards[c][0] == "T"]
                if not targets:
                    self.discard.append(cid)
                    break
                target = self.choose(targets)
                for row in self.forest:
                    if target in row:
                        row[row.index(target)] = cid
                self.under[cid] = target
            else:
                pos = self.positions(cid)
                if not pos:
                    self.discard.append(cid)
                    break
                i, side = self.choose(pos)
                if side == "new":
                    self.forest.append([cid])
                elif side == "left":
                    self.forest[i].insert(0, cid)
                else:
                    self.forest[i].append(cid)
            if self.draw and self.choose([True, False]):
                continue
            took_row = True
            break
        if took_row and self.forest:
            row = self.forest.pop(self.choose(list(range(len(self.forest)))))
            for c in row:
                if self.cards[c][0] == "M":
                    self.picked_up(c, p)
            for c in row:  # Magicians to the discard; every Talisman (cloaked ones too) to the trove
                if self.cards[c][0] == "M":
                    self.discard.append(c)
                    below = self.under.pop(c, None)
                    if below is not None:
                        self.trove[p].append(below)
                else:
                    self.trove[p].append(c)
            self.collections()
        for q in self.others(p):
            if not self.forest:
                break
            ends = []
            for row in self.forest:
                ends.append(row[0])
                if len(row) > 1:
                    ends.append(row[-1])
            c = self.choose(ends)
            if self.cards[c][0] == "T":
                self.remove_from_forest(c)
                self.trove[q].append(c)
            else:
                self.picked_up(c, q)
                below = self.under.get(c)
                self.remove_from_forest(c)  # a covered Talisman surfaces in its place
                if below is not None:
                    self.remove_from_forest(below)
                    self.trove[q].append(below)
                self.discard.append(c)
            self.collections()

    def play(self) -> dict:
        p = self.start
        while True:
            self.turns += 1
            self.turn(p)
            if self.ending:
                break
            p = (p + 1) % self.n
        scores = [10 * self.markers[q] + len(self.trove[q]) for q in range(self.n)]
        keys = [(scores[q], self.markers[q]) for q in range(self.n)]
        best = max(keys)
        return {"scores": scores, "winners": [q for q in range(self.n) if keys[q] == best], "turns": self.turns,
                "decisions": self.decisions}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    args = ap.parse_args()
    t = time.perf_counter()
    results = [Game(args.players, args.seed * 1_000_003 + i, f"{args.seed}/{i}").play() for i in range(args.n)]
    elapsed = time.perf_counter() - t
    wins = [0.0] * args.players
    for r in results:
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
    report = {"games": args.n, "players": args.players, "seed": args.seed,
              "win_rate": [round(w / args.n, 4) for w in wins],
              "mean_score": round(statistics.fmean(s for r in results for s in r["scores"]), 3),
              "mean_turns": round(statistics.fmean(r["turns"] for r in results), 3),
              "mean_decisions": round(statistics.fmean(r["decisions"] for r in results), 3),
              "timing": {"seconds": round(elapsed, 3), "games_per_second": round(args.n / elapsed, 1)}}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
