"""Per-card statistics: which cards each seat took (into its own zones) and played (from a zone of
its own that others cannot see into a public zone), and the win rates of those seats."""
from interpreter.api import load_program
from interpreter.engine.factory import new_game
from interpreter.play.session import agents_for
from interpreter.runtime.cardstats import MoveTracker
from interpreter.sim.simulate import simulate
from rulekit import ruleset

CHIP_START = """
card type Chip:
    kind: Red | Blue | Green
zone pile: pile, shared, hidden
zone hand: set, per player, owner
zone table: set, per player, public
setup:
    move all_cards() to pile
    for each p in players:
"""  # the cards, zones and setup loop both chip games share
RULES = """
game "Take and show":
    players 2..2
""" + CHIP_START + """        move first(pile where it.kind == Blue) to hand of p
turn:
    if turn_number <= 2:
        move first(pile where it.kind == Red) to your hand
        move first(pile where it.kind == Green) to your table
    elif you may "Show the red chip?":
        move your hand where it.kind == Red to your table
    if turn_number == 4:
        end game after this turn
score p: count(table of p where it.kind == Red)
"""
CARDS = """
- {name: Red, type: Chip, kind: Red, copies: 2}
- {name: Blue, type: Chip, kind: Blue, copies: 2}
- {name: Green, type: Chip, kind: Green, copies: 2}
"""


def test_taken_and_played_follow_zone_ownership_and_visibility(tmp_path):
    """Blue is dealt in setup (held, never taken); Red is taken by both seats and played by those
    that show it, who are exactly the seats scoring 1; Green goes straight from a shared pile to a
    public zone: taken, but not played (the pile was nobody's)."""
    report = simulate(str(ruleset(tmp_path, RULES, CARDS)), 40, 2, 3, ["random"], per_game=True)
    assert report["completed"] == 40 and not report["errors"]
    showed = 0
    for g in report["per_game"]:
        assert g["taken"] == [["Green", "Red"], ["Green", "Red"]]
        for seat in (0, 1):
            assert ("Red" in g["played"][seat]) == (g["scores"][seat] == 1)
            assert "Green" not in g["played"][seat] and "Blue" not in g["played"][seat]
            showed += g["scores"][seat]
    cards = report["cards"]
    assert cards["Blue"]["games_held"] == 40 and cards["Blue"]["games_taken"] == 0
    assert cards["Blue"]["taker_win_rate"] is None
    assert cards["Red"]["takers"] == 80 and cards["Red"]["taker_win_rate"] == 0.5
    assert cards["Red"]["players"] == showed and 0 < showed < 80
    assert cards["Red"]["player_win_rate"] > 0.5  # showing wins outright or ties: never loses
    assert cards["Green"]["games_played"] == 0


PASSING = """
game "Pass through":
    players 2..2
card type Gem:
    value: 1..9
zone bag: pile, shared, hidden
zone hand: set, per player, public
zone table: set, per player, public
zone gone: pile, shared, public
setup:
    move all_cards() to bag
turn:
    if you may "Take a gem?":
        move top(bag) to your hand
        if top(your hand).value == 1:
            move top(your hand) to gone
        else:
            move top(your hand) to your table
    if turn_number == 4:
        end game after this turn
score p: sum((table of p).value)
"""
GEMS = """
- {name: Gem, type: Gem, value: 1, copies: 2}
- {name: Gem, type: Gem, value: 5, copies: 2}
"""


def test_every_move_counts_cards_by_identity_and_public_play(tmp_path):
    """A value-1 Gem passes through the taker's hand and leaves within the same answer: it is still
    taken and moved by that seat. The two kinds of Gem share a name and are told apart by value;
    copies with the same value are one card. Moving a Gem from a public hand to one's own table is
    playing it, though nothing in this game is hidden."""
    report = simulate(str(ruleset(tmp_path, PASSING, GEMS)), 30, 2, 5, ["random"], per_game=True)
    assert report["completed"] == 30 and not report["errors"]
    cards = report["cards"]
    assert set(cards) == {"Gem (value 1)", "Gem (value 5)"}
    one, five = cards["Gem (value 1)"], cards["Gem (value 5)"]
    assert one["takers"] > 0 and one["movers"] >= one["takers"] and one["games_moved"] > 0
    assert one["players"] == 0 and one["holders"] == 0  # it went to a shared zone: not played, not held
    assert five["players"] == five["takers"] > 0  # every value-5 taken went on to its taker's table
    for x in (one, five):
        assert x["games"] == 30 and x["taker_win_rate_ci95"][0] <= x["taker_win_rate"] <= x["taker_win_rate_ci95"][1]
    for g in report["per_game"]:
        took_one = any("Gem (value 1)" in t for t in g["taken"])
        assert took_one == ("Gem (value 1)" in g["moved"])
        assert all(set(t) <= set(m) for t, m in zip(g["taken"], g["movers"]))  # you take what your answer moves


STACKS = """
game "Keep and stack":
    players 2..2
""" + CHIP_START + """        p chooses c from pile "Keep which chip?"
        move c to hand of p
turn:
    move top(pile) to your hand
    if you may "Lay a chip?":
        you choose c from your hand "Which chip?"
        if count(your table) == 0:
            move c to your table
        elif you may "On another chip?":
            place c on first(your table)
        else:
            move c to your table
    if count(your hand) > 1:
        if you may "Pass a chip on?":
            move first(your hand) to pile
    if turn_number == 8:
        end game after this turn
score p: count(table of p)
"""
CHIPS = """
- {name: Red, type: Chip, kind: Red, copies: 3}
- {name: Blue, type: Chip, kind: Blue, copies: 3}
- {name: Green, type: Chip, kind: Green, copies: 3}
"""


def test_the_move_log_read_at_the_end_counts_what_a_look_at_every_decision_counts(tmp_path):
    """A batch notes each decision's player in the move log and reads it once, at the end of the
    game (`MoveTracker.marks`); a look before every decision (`update`) must give the same figures,
    here with a decision in the setup (before the tracker starts), cards laid on cards, and cards
    that come and go within one answer."""
    folder = str(ruleset(tmp_path, STACKS, CHIPS))
    report = simulate(folder, 12, 2, 9, ["random"], per_game=True)
    assert report["completed"] == 12 and not report["errors"]
    program = load_program(folder)
    for row in report["per_game"]:
        tracker = MoveTracker(program)
        seats = agents_for(["random"], 2, row["seed"])
        g = new_game(program, 2, row["seed"], seats=seats, after_setup=tracker.start, log_moves=True)
        while not g.over:
            tracker.update(g)
            g.answer(seats[g.decision.player].choose(g, g.decision))
        tracker.update(g)
        taken, played = tracker.per_seat(2)
        assert (taken, played, tracker.moved_by(2), tracker.moved_cards(), tracker.held(g, 2)) == \
            (row["taken"], row["played"], row["movers"], row["moved"], row["held"])
        assert any(row["movers"]) and any(row["played"])


def test_every_move_reaches_the_tracker_whichever_way_the_engine_writes_it(tmp_path):
    """Most moves are written by the generated code and `Runtime.place` without the move log's hooks,
    noting their one event themselves (cardstats.ChangeLog); the rest run the hooks. At every
    decision, where the tracker last saw each card must be where it lies: a move written without
    its event would leave a card behind. Rows, cards laid on cards (Toil and Troublez's Cloak) and
    a setup decision (the chip game) all take part."""
    from interpreter.runtime.cardstats import ChangeLog, _resolve
    cases = [(str(ruleset(tmp_path, STACKS, CHIPS)), 2, range(4)),
             ("rulesets/toil_and_troublez", 4, range(4))]
    for folder, players, seeds in cases:
        program = load_program(folder)
        for seed in seeds:
            tracker = MoveTracker(program)
            seats = agents_for(["random"], players, seed)
            g = new_game(program, players, seed, seats=seats, after_setup=tracker.start, log_moves=True)
            assert isinstance(g.state.where, ChangeLog)
            looks = 0
            while not g.over:
                tracker.update(g)
                where = g.state.where
                assert tracker.pos == [_resolve(where, c) for c in range(len(tracker.pos))], (folder, seed)
                looks += 1
                g.answer(seats[g.decision.player].choose(g, g.decision))
            assert g.error is None and looks > 10


FIVE = """
game "Five cards":
    players 2..2
card type Thing:
    size: 1..9
zone pile: pile, shared, hidden
zone hand: set, per player, owner
zone table: set, per player, public
setup:
    move all_cards() to pile
turn:
    end game after this turn
score p: count(table of p)
"""
FIVE_CARDS = """
- {name: Ace, type: Thing, size: 1}
- {name: Bell, type: Thing, size: 2}
- {name: Coin, type: Thing, size: 3}
- {name: Drum, type: Thing, size: 4}
- {name: Egg, type: Thing, size: 5}
"""


def test_the_replay_reads_every_kind_of_event_in_the_move_log(tmp_path):
    """The move log's every kind of event, written as the engine writes them (the generated code's
    own event, the map's hooks) with the decisions told to it (`decide`), read once at the end: a card
    taken and laid open; a card taken out and not put back before the next decision (it left play
    then, moved by the seat deciding before it, and is taken from out of play after); a card set
    where it lies (no move); a card laid on another (where its top card lies), carried along with
    it, and taken out and laid on a card that is itself between two places (it lands with it: it
    did not leave play)."""
    from types import SimpleNamespace

    from interpreter.runtime.cardstats import ChangeLog
    program = load_program(str(ruleset(tmp_path, FIVE, FIVE_CARDS)))
    ace, bell, coin, drum, egg = range(5)
    where = ChangeLog({ace: "pile", bell: "pile", coin: "pile", drum: "pile", egg: "hand#0"})
    state = SimpleNamespace(where=where, under={}, zones={}, players=2, dummies=0)
    g = SimpleNamespace(state=state, decision=None, over=False)
    tracker = MoveTracker(program)
    tracker.start(g)
    log = where.events
    assert tracker.marks(g) is where

    def lone_move(card: int, key: str) -> None:  # as the generated code moves a lone card
        dict.pop(where, card)
        dict.setdefault(where, card, key)
        log.append((card, key, where.mover))

    where.decide(0)  # player 1 decides
    lone_move(ace, "hand#0")  # taken by player 1
    lone_move(ace, "table#0")  # from a hand laid open: played by player 1
    del where[bell]  # taken out, not put back before the next decision: left play
    where.decide(1)  # player 2 decides
    where[bell] = "hand#1"  # from out of play: taken by player 2
    where[coin] = "pile"  # where it lies: no move
    lone_move(drum, "table#1")  # taken by player 2
    state.under[drum] = [egg]
    where[egg] = f"^{drum}"  # laid on Drum: from player 1's hand to player 2's table (taken; played by player 1)
    where[drum] = "table#0"  # Egg comes along: both taken by player 1, moved by player 2
    where.decide(0)
    del where[drum]  # Drum between two places...
    del where[coin]
    state.under[drum].append(coin)
    where[coin] = f"^{drum}"  # ...Coin taken out and laid on it waits (not out of play)...
    where[drum] = "hand#0"  # ...and lands with it (Drum and Egg played: a public zone of player 1's for a hand)
    where.decide(1)
    state.under[drum].remove(coin)
    where[coin] = "table#1"  # from player 1's hand: taken by player 2, played by player 1
    g.over = True
    tracker.update(g)

    taken, played = tracker.per_seat(2)
    assert taken == [["Ace", "Coin", "Drum", "Egg"], ["Bell", "Coin", "Drum", "Egg"]]
    assert played == [["Ace", "Coin", "Drum", "Egg"], []]
    assert tracker.moved_by(2) == [["Ace", "Bell", "Coin", "Drum", "Egg"], ["Bell", "Coin", "Drum", "Egg"]]
    assert tracker.moved_cards() == ["Ace", "Bell", "Coin", "Drum", "Egg"]
