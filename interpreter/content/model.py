"""The ruleset model: declarations gathered from parsed modules, plus the card list.

This is what the checker verifies and the compiler turns into an executable game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..language.tree import CardType, Node, PhaseDecl, ProcDecl
from ..language.diagnostics import Loc, did_you_mean
from .extend import apply_extensions
from .loader import Content, validate_cards
from .stack import comes_after, hook_conflicts, order_hint

__all__ = ["ZoneDef", "StatDef", "CardData", "Ruleset", "build", "ZONE_KINDS"]

MAX_PLAYERS = 100
ZONE_KINDS = {"pile", "deck", "set", "hand", "row", "rows", "stack"}
ZONE_OWNERS = {"shared", "per player"}
ZONE_VISIBILITY = {"hidden", "owner", "public"}


@dataclass
class ZoneDef:
    name: str
    kind: str = "pile"
    per_player: bool = False
    visibility: str = "public"
    max_rows: int | None = None
    width: int = 0  # a grid's columns and rows of spaces
    height: int = 0
    loc: Loc | None = None
    keeps: str | None = None  # `covered keep PART`: cards below the top keep only that part's abilities


@dataclass
class StatDef:
    name: str
    per_player: bool
    lo: int | None
    hi: int | None
    init: Node | None
    loc: Loc | None = None

    def clamp(self, v: int) -> int:
        if self.lo is not None and v < self.lo:
            return self.lo
        if self.hi is not None and v > self.hi:
            return self.hi
        return v


@dataclass(eq=False)
class CardData:
    """A physical card: immutable data; where it lies is in the game state, keyed by `id`."""

    id: int
    name: str
    type: str
    fields: dict[str, Any]
    effect: Node | None = None
    text: str | None = None  # hand-written card text, if the card file gives one

    def __repr__(self) -> str:
        return f"{self.name}#{self.id}"

    def __deepcopy__(self, memo) -> "CardData":
        return self  # card data never changes: copies of a game share it

    def label(self) -> str:
        vals = ", ".join(str(v) for v in self.fields.values())
        return f"{self.name} ({vals})" if vals else self.name


@dataclass
class Ruleset:
    """All declarations of a ruleset, by kind; `content` keeps sources for diagnostics."""

    content: Content
    title: str = "untitled"
    min_players: int = 2
    max_players: int = 6
    settings: dict[str, Node] = field(default_factory=dict)
    card_types: dict[str, Node] = field(default_factory=dict)
    die_types: dict[str, Node] = field(default_factory=dict)  # name → die_type node (faces)
    actions: list[Node] = field(default_factory=list)  # rule-level actions, open to every player
    short_triggers: dict[str, list[Node]] = field(default_factory=dict)  # stat → `when short of` rules
    zones: dict[str, ZoneDef] = field(default_factory=dict)
    stats: dict[str, StatDef] = field(default_factory=dict)
    constants: dict[str, Node] = field(default_factory=dict)
    events: dict[str, Loc] = field(default_factory=dict)
    phases: dict[str, Node] = field(default_factory=dict)
    procedures: dict[str, Node] = field(default_factory=dict)
    functions: dict[str, Node] = field(default_factory=dict)  # name → `function` node (a named expression)
    triggers: list[Node] = field(default_factory=list)
    watchers: list[Node] = field(default_factory=list)
    always: list[Node] = field(default_factory=list)
    placements: dict[str, Node] = field(default_factory=dict)
    scores: list[Node] = field(default_factory=list)
    tiebreaks: list[Node] = field(default_factory=list)
    values: list[Node] = field(default_factory=list)  # `value p: expr`: what bots should value (at most one)
    prefers: list[Node] = field(default_factory=list)  # `prefer p [for "PROMPT"]: expr`: guided bots' option preferences
    boards: dict[str, Node] = field(default_factory=dict)  # name → `board` node (a graph of space cards)
    cards: list[CardData] = field(default_factory=list)
    unparsed: set[tuple[str, str]] = field(default_factory=set)  # (kind, name) lost to syntax errors

    @property
    def partial(self) -> bool:
        """True when syntax errors hid part of the content: the checker then holds back guesses."""
        return bool(self.unparsed) or any(d.code == "syntax" for d in self.content.diagnostics)

    def lost(self, *kinds: str) -> set[str]:
        """Names of declarations of these kinds (all kinds when none given) lost to syntax errors."""
        return {n for k, n in self.unparsed if n and (not kinds or k in kinds)}

    @property
    def name(self) -> str:
        return self.content.path.name

    def check_players(self, players: int) -> None:
        """A ValueError, in the game's words, for a player count its header does not allow."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}")

    def enum_values(self) -> dict[str, list[tuple[str, str]]]:
        """value → [(card type, field)] for every enumeration value declared."""
        out: dict[str, list[tuple[str, str]]] = {}
        for tname, node in self.card_types.items():
            for f in node.fields_:
                if f.type.kind == "enum_type":
                    for v in f.type.values:
                        out.setdefault(v, []).append((tname, f.name))
        for dname, d in self.die_types.items():
            if d.faces.kind == "enum_type":
                for v in d.faces.values:
                    out.setdefault(v, []).append((dname, "face"))
        return out

    def die_faces(self, name: str) -> list:
        t = self.die_types[name].faces
        return list(range(t.lo, t.hi + 1)) if t.kind == "range_type" else list(t.values)

    def card_fields(self) -> dict[str, list[str]]:
        """field name → card types that have it."""
        out: dict[str, list[str]] = {}
        for tname, node in self.card_types.items():
            for f in node.fields_:
                out.setdefault(f.name, []).append(tname)
        for dname in self.die_types:
            out.setdefault("face", []).append(dname)
        out.setdefault("name", [])  # every card has a name (`c.name`), unless a type declares its own field
        return out


MAX_DECLARATIONS = 5_000  # the largest ruleset has about 250; checking and compiling stay fast below this


def build(content: Content) -> Ruleset:
    """Gather declarations; report duplicates and malformed declarations into `content`."""
    rs = Ruleset(content)
    seen: dict[str, tuple[str, Loc, str]] = {}  # name → (kind, where, ruleset of the chain)
    layer = ""  # the ruleset (of an extends chain) whose module is being read

    def claim(name: str, what: str, loc: Loc, d: Node | None = None) -> bool:
        """May `name` be declared here? A `replace` takes over a declaration of a base ruleset."""
        replacing = d is not None and d.replace
        if name in seen:
            other_what, other_loc, other_layer = seen[name]
            if replacing and other_what == what and other_layer != layer:
                if _unordered(content, f"`{name}` is replaced", loc, layer, other_layer, other_loc):
                    return False
                seen[name] = (what, loc, layer)
                return True
            if replacing and other_what == what:
                content.error("mod/replace", f"`replace {what} {name}` replaces a {what} of its own ruleset "
                              f"(at {other_loc})", loc, "`replace` is for parts of the ruleset this one extends; "
                              "edit the original instead")
            elif replacing:
                content.error("mod/replace", f"`replace {what} {name}`: `{name}` is a {other_what} (at {other_loc}), "
                              f"not a {what}", loc, f"write `replace {other_what} {name}`")
            elif other_layer != layer:
                content.error("mod/conflict", f"`{name}` is already declared as a {other_what} at {other_loc} "
                              f"(in `{other_layer}`)", loc, f"write `replace {what} {name}` to replace it, "
                              "or give it another name")
            else:
                content.error("name/duplicate", f"`{name}` is already declared as a {other_what} at {other_loc}", loc,
                              "give it another name")
            return False
        if replacing:
            _dangling(content, what, name, loc, [n for n, (w, _, _) in seen.items() if w == what])
            return False
        seen[name] = (what, loc, layer)
        return True

    phase_layer: dict[str, str] = {}
    action_at: dict[str, tuple[int, str]] = {}  # action label → (index in rs.actions, ruleset)
    score_layer = ""
    value_layer = ""
    prefer_layers: dict[tuple, str] = {}  # a `prefer` rule's prompt or action → the ruleset declaring it
    hooks: list[Node] = []
    extensions: list[tuple[Node, str]] = []  # `extend`, applied once every declaration is in (extend.py)
    hook_layers: list[tuple[Node, str]] = []  # for conflicts between mods hooking the same thing

    count = 0
    for module in content.modules:
        if count > MAX_DECLARATIONS:
            break
        rs.unparsed.update(getattr(module, "unparsed", ()))
        layer = module.layer
        for d in module.decls:
            count += 1
            if count > MAX_DECLARATIONS:
                content.error("limit/declarations", f"more than {MAX_DECLARATIONS} declarations in one ruleset",
                              d.loc, "a ruleset declares a few hundred things at most: gather similar stats in a "
                              "map, or similar cards in card files")
                break
            k = d.kind
            at = (getattr(d, "name_loc", None) or d.loc)
            if k == "game":
                rs.title = d.title
                for item in d.items:
                    rs.settings[item.name] = item.value
                    if item.name == "players":
                        v = item.value
                        if v.kind == "range" and v.lo.kind == "lit" and v.hi.kind == "lit":
                            rs.min_players, rs.max_players = v.lo.value, v.hi.value
                        elif v.kind == "lit" and isinstance(v.value, int):
                            rs.min_players = rs.max_players = v.value
                        else:
                            content.error("game/players", "`players` takes a number or a range like 2..6", item.loc)
                        if not 1 <= rs.min_players <= rs.max_players <= MAX_PLAYERS:
                            lo, hi = sorted((rs.min_players, rs.max_players))
                            content.error("game/players", f"`players` must go from at least 1 up to at most "
                                          f"{MAX_PLAYERS}, low to high", item.value.loc,
                                          f"write `players {lo}..{hi}`" if 1 <= lo <= hi <= MAX_PLAYERS else None)
                            rs.min_players, rs.max_players = 2, 2
                    elif item.name not in ("source", "version", "description", "extends", "after", "show", "provides"):
                        content.warn("game/setting", f"unknown game setting `{item.name}`", item.loc,
                                     "known settings: players, source, version, description, extends, after, show, provides")
            elif k == "card_type":
                if claim(d.name, "card type", at, d):
                    if _card_fields_ok(content, d):
                        rs.card_types[d.name] = d
                    else:
                        rs.unparsed.add(("card", d.name))
            elif k == "die_type":
                if claim(d.name, "die type", at, d):
                    rs.die_types[d.name] = d
            elif k == "action":
                _add_action(content, rs, d, layer, action_at)
            elif k == "short_trigger":
                rs.short_triggers.setdefault(d.stat, []).append(d)
            elif k == "zone":
                if claim(d.name, "zone", at, d):
                    rs.zones[d.name] = _zone(content, d)
            elif k == "stat":
                if claim(d.name, "stat", at, d):
                    if d.lo is not None and d.hi is not None and d.lo > d.hi:
                        content.error("stat/bounds", f"stat `{d.name}` has lower bound above upper bound", d.loc)
                    rs.stats[d.name] = StatDef(d.name, d.per_player, d.lo, d.hi, d.init, at)
            elif k == "constant":
                if claim(d.name, "constant", at, d):
                    rs.constants[d.name] = d
            elif k == "event":
                if claim(d.name, "event", at, d):
                    rs.events[d.name] = at
            elif k == "phase":
                replacing = d.replace
                if replacing and d.name not in rs.phases:
                    _dangling(content, "phase", d.name, d.loc, list(rs.phases), f"`replace {d.name}:`")
                    continue
                if replacing and _unordered(content, f"`{d.name}:` is replaced", d.loc, layer, phase_layer[d.name],
                                            rs.phases[d.name].loc):
                    continue
                if replacing and phase_layer[d.name] == layer:
                    content.error("mod/replace", f"`replace {d.name}:` replaces the `{d.name}:` of its own ruleset "
                                  f"(at {rs.phases[d.name].loc})", d.loc, "edit the original instead")
                elif d.name in rs.phases and not replacing and phase_layer[d.name] != layer:
                    content.error("mod/conflict", f"`{d.name}:` is already declared at {rs.phases[d.name].loc} "
                                  f"(in `{phase_layer[d.name]}`)", d.loc, f"write `replace {d.name}:` to replace it")
                elif d.name in rs.phases and not replacing:
                    content.error("name/duplicate", f"`{d.name}:` is declared twice", d.loc,
                                  f"the first is at {rs.phases[d.name].loc}")
                rs.phases[d.name] = d
                phase_layer[d.name] = layer
            elif k == "procedure":
                if claim(d.name, "procedure", at, d):
                    rs.procedures[d.name] = d
            elif k == "function":
                if claim(d.name, "function", d.loc, d):
                    rs.functions[d.name] = d
            elif k == "trigger":
                rs.triggers.append(d)
            elif k == "watcher":
                rs.watchers.append(d)
            elif k == "always":
                rs.always.append(d)
            elif k == "placement":
                if d.zone in rs.placements:
                    content.error("name/duplicate", f"placement rules for `{d.zone}` are declared twice", d.loc)
                rs.placements[d.zone] = d
            elif k == "score":
                if d.replace:
                    if not rs.scores:
                        _dangling(content, "score", "rule", d.loc, [], "`replace score`")
                    elif _unordered(content, "the score rule is replaced", d.loc, layer, score_layer, rs.scores[0].loc):
                        pass
                    elif score_layer == layer:
                        content.error("mod/replace", f"`replace score` replaces the score rule of its own ruleset "
                                      f"(at {rs.scores[0].loc})", d.loc, "edit the original instead")
                    else:
                        rs.scores = [d]
                        score_layer = layer
                    continue
                if rs.scores and score_layer != layer:
                    content.error("mod/conflict", f"a score rule is already declared at {rs.scores[0].loc} "
                                  f"(in `{score_layer}`)", d.loc, "write `replace score ...` to replace it")
                    continue
                rs.scores.append(d)
                score_layer = layer
            elif k == "extend":
                extensions.append((d, layer))
            elif k == "hook":
                hooks.append(d)
                hook_layers.append((d, layer))
            elif k == "tiebreak":
                rs.tiebreaks.append(d)
            elif k == "value":  # a mod's `value` takes the place of its base's: it only guides bots
                if rs.values and value_layer != layer:
                    rs.values = []
                rs.values.append(d)
                value_layer = layer
            elif k == "prefer":  # a mod's rule takes the place of its base's for the same prompt or
                # action, so an expansion rates its new actions and keeps the base's other rules
                key = _prefer_key(d)
                if prefer_layers.get(key, layer) != layer:
                    rs.prefers = [b for b in rs.prefers if _prefer_key(b) != key]
                rs.prefers.append(d)
                prefer_layers[key] = layer
            elif k == "board":  # a board is also the zone of the cards lying on its spaces
                if claim(d.name, "board", at):
                    rs.boards[d.name] = d
                    rs.zones[d.name] = ZoneDef(d.name, kind="board", loc=at)
    apply_extensions(content, rs, extensions, seen)
    hook_conflicts(content, hook_layers)
    for h in hooks:
        _apply_hook(content, rs, h)
    if "show" in rs.settings:
        _check_show(content, rs, rs.settings["show"])
    if len(rs.values) > 1:
        content.error("name/duplicate", "more than one `value` rule", rs.values[1].loc,
                      "combine them in one expression")
    seen_prompts: dict[tuple, Node] = {}
    for d in rs.prefers:  # one rule per prompt or action, and one for every other decision
        key = _prefer_key(d)
        if key in seen_prompts:
            which = f'for action "{d.action}"' if d.action is not None else \
                f'for "{d.prompt}"' if d.prompt is not None else "without `for`"
            what = "`this` is the card offering the action" if d.action is not None else "`it` is the option"
            content.error("name/duplicate", f"more than one `prefer` rule {which} (the first is at "
                          f"{seen_prompts[key].loc})", d.loc, f"combine them in one expression ({what})")
        seen_prompts.setdefault(key, d)
    if len(rs.scores) > 1:
        content.error("name/duplicate", "more than one `score` rule", rs.scores[1].loc, "combine them in one expression")
    lost_types = {"*"} if any(k == "*" for k, _ in rs.unparsed) else rs.lost("card")
    die_models = {n: CardType(loc=d.loc, name=n, fields_=[], name_loc=d.loc) for n, d in rs.die_types.items()}
    validate_cards(content, {**rs.card_types, **die_models}, lost_types)
    next_id = 0
    for name, d in rs.die_types.items():  # dice declared with a count need no card file
        for _ in range(d.count):
            rs.cards.append(CardData(next_id, name, name, {}, None))
            next_id += 1
    for spec in content.cards:
        if spec.type not in rs.card_types and spec.type not in rs.die_types:
            continue
        for _ in range(spec.copies):
            rs.cards.append(CardData(next_id, spec.name, spec.type, spec.fields, spec.effect, spec.text))
            next_id += 1
    return rs


_CARD_KEYS = {"name", "type", "copies", "effect", "text", "remove", "replace"}  # remove/replace: mods' card edits


def _check_show(content: Content, rs: Ruleset, v: Node) -> None:
    """`show [a, b]`: the stats screens show (docs/play.md); each must be a declared stat."""
    items = v.items if v.kind == "list" else [v]
    for n in items:
        if n.kind != "name":
            content.error("game/show", "`show` lists stat names, like `show [points, coins]`", n.loc)
        elif n.id not in rs.stats:
            content.error("game/show", f"`show {n.id}`: there is no stat `{n.id}`", n.loc,
                          did_you_mean(n.id, list(rs.stats)))


def _card_fields_ok(content: Content, d: Node) -> bool:
    """Field names become YAML keys beside the keys every card has: refuse clashes and repeats."""
    ok, seen = True, set()
    for f in d.fields_:
        at = (getattr(f, "name_loc", None) or f.loc)
        if f.name in seen:
            content.error("name/duplicate", f"card type {d.name} declares field `{f.name}` twice", at)
            ok = False
        elif f.name in _CARD_KEYS:
            content.error("card/field-name", f"`{f.name}` is a key of the card file format; a field cannot use it", at,
                          "pick another field name")
            ok = False
        seen.add(f.name)
    return ok


def _zone(content: Content, d: Node) -> ZoneDef:
    z = ZoneDef(d.name, loc=(getattr(d, "name_loc", None) or d.loc))
    for p in d.props:
        w = p.words
        if w in ZONE_KINDS:
            z.kind = {"deck": "pile", "hand": "set"}.get(w, w)
            if w == "rows":
                z.max_rows = p.number
        elif w == "grid":
            z.kind = "grid"
            z.width, z.height = p.width, p.height
            if not (1 <= p.width <= 1000 and 1 <= p.height <= 1000):
                content.error("zone/property", "a grid has 1 to 1000 columns and rows", p.loc)
        elif w.startswith("covered keep ") and len(w.split()) == 3:
            z.keeps = w.split()[2]  # see docs/language-stacks-and-markets.md
        elif w in ZONE_OWNERS:
            z.per_player = w == "per player"
        elif w in ZONE_VISIBILITY:
            z.visibility = w
        else:
            content.error("zone/property", f"unknown zone property `{w}`", p.loc,
                          did_you_mean(w, ZONE_KINDS | ZONE_OWNERS | ZONE_VISIBILITY)
                          or "kinds: pile, set, row, rows N, stack, grid W x H; owners: shared, per player; "
                             "visibility: hidden, owner, public; covered keep PART")
        if p.number is not None and w != "rows":
            content.error("zone/property", f"`{w}` takes no number", p.loc)
    return z


# ---- modding: replacements, hooks and conflicts across an extends chain (docs/modding.md) ----

def _prefer_key(d: Node) -> tuple:
    """What a `prefer` rule rates, for duplicates and a mod's replacements: a prompt (None: every
    other decision) or an action's label."""
    return ("action", d.action) if getattr(d, "action", None) is not None else ("prompt", d.prompt)


def _dangling(content, what: str, name: str, loc: Loc, known: list[str], text: str | None = None) -> None:
    """A `replace` (or hook) of something no base ruleset declares."""
    text = text or f"`replace {what} {name}`"
    content.error("mod/dangling", f"{text}: there is no {what} `{name}` to replace", loc,
                  did_you_mean(name, known) or f"declare a new {what} without `replace`, or extend the ruleset "
                  "that has it")


def _unordered(content, what: str, loc: Loc, layer: str, other: str, other_loc: Loc | None) -> bool:
    """Two mods of a stack replacing the same thing, neither saying it comes after the other: which
    wins would depend on the order they were given in (docs/modding.md). Reported; True then."""
    if other == layer or comes_after(content.after, layer, other):
        return False
    content.error("mod/conflict", f"{what} here (in `{layer}`) and at {other_loc} (in `{other}`): neither mod "
                  "says which comes first", loc, order_hint(layer, other))
    return True


def _add_action(content, rs: Ruleset, d: Node, layer: str, action_at: dict[str, tuple[int, str]]) -> None:
    """Actions are named by their label: a mod adds new ones or replaces a base's by label."""
    known = action_at.get(d.label)
    if d.replace:
        if known is None:
            content.error("mod/dangling", f'`replace action "{d.label}"`: there is no action "{d.label}" to replace',
                          d.loc, did_you_mean(d.label, list(action_at)) or "declare a new action without `replace`")
        elif _unordered(content, f'action "{d.label}" is replaced', d.loc, layer, known[1], rs.actions[known[0]].loc):
            pass
        elif known[1] == layer:
            content.error("mod/replace", f'`replace action "{d.label}"` replaces an action of its own ruleset '
                          f"(at {rs.actions[known[0]].loc})", d.loc, "edit the original instead")
        else:
            rs.actions[known[0]] = d
            action_at[d.label] = (known[0], layer)
        return
    if known is not None and known[1] != layer:
        content.error("mod/conflict", f'action "{d.label}" is already declared at {rs.actions[known[0]].loc} '
                      f"(in `{known[1]}`)", d.loc, f'write `replace action "{d.label}"` to replace it, '
                      "or give it another label")
        return
    action_at.setdefault(d.label, (len(rs.actions), layer))
    rs.actions.append(d)


def _apply_hook(content, rs: Ruleset, h: Node) -> None:
    """`before/after procedure NAME:` (or `before/after turn:`...) wraps the procedure's or phase's
    body (the latest hook outermost)."""
    if getattr(h, "phase", False):
        ph = rs.phases.get(h.name)
        if ph is None:
            content.error("mod/dangling", f"`{h.when} {h.name}:`: there is no `{h.name}:` to hook", h.name_loc,
                          f"declare `{h.name}:` instead")
            return
        body = list(h.body) + list(ph.body) if h.when == "before" else list(ph.body) + list(h.body)
        rs.phases[h.name] = PhaseDecl(loc=ph.loc, name=ph.name, body=body)
        return
    p = rs.procedures.get(h.name)
    if p is None:
        content.error("mod/dangling", f"`{h.when} procedure {h.name}`: there is no procedure `{h.name}` to hook",
                      h.name_loc, did_you_mean(h.name, list(rs.procedures)) or "hook a procedure the base declares")
        return
    if h.params and list(h.params) != list(p.params):
        content.error("mod/hook", f"`{h.name}` takes ({', '.join(p.params)}), not ({', '.join(h.params)})", h.name_loc,
                      f"write `{h.when} procedure {h.name}({', '.join(p.params)}):` or leave the parameters out")
        return
    body = list(h.body) + list(p.body) if h.when == "before" else list(p.body) + list(h.body)
    rs.procedures[h.name] = ProcDecl(loc=p.loc, name=p.name, params=p.params, body=body,
                                     name_loc=p.name_loc or p.loc)
