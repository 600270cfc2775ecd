"""The documentation is tested, so that it cannot drift from the language.

Fenced blocks in docs/*.md are checked by their info string:

    ```grimoire            a whole .rules file (or part of one): it must parse
    ```grimoire effect     a card's `effect:` text: it must parse
    ```grimoire fragment   statements: parsed inside a `turn:` block
    ```grimoire game       a complete game: it must validate without errors and play to its end
                           (the first option of every decision is taken; `players=N` picks the
                           player count). A ```yaml cards block right after it gives its cards; a
                           ```log block after that lists the `log` lines it must print, and a last
                           line `error: TEXT` says it must stop with an error containing TEXT.
    ```yaml ...            must be valid YAML
    ```grimoire file=PATH  (or ```yaml file=PATH) must be exactly the file PATH of the repository

Besides: every builtin function is documented in docs/language.md, the language changelog there
matches the grammar's, and the tutorial game validates cleanly, passes its scenarios and plays
50 games without error.
"""
from __future__ import annotations

import functools
import re
import textwrap
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from interpreter.api import check_path
from interpreter.library import BUILTINS
from interpreter.language.diagnostics import ContentError, format_all
from interpreter.engine.game import Limits, Program
from interpreter.language.parser import GRAMMAR_PATH, parse_effect, parse_rules
from interpreter.play.scenario import run_scenario
from interpreter.sim.simulate import simulate
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
LANGUAGE = ROOT / "docs" / "language.md"
TUTORIAL_GAME = ROOT / "rulesets" / "tutorial_fireflies"

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


class Block:
    def __init__(self, doc: Path, line: int, info: str, text: str):
        self.doc, self.line, self.text = doc, line, text
        words = info.split()
        self.lang = words[0] if words else ""
        self.kind = next((w for w in words[1:] if "=" not in w), "")
        self.options = dict(w.split("=", 1) for w in words[1:] if "=" in w)

    @property
    def id(self) -> str:
        return f"{self.doc.name}:{self.line}"


def _blocks(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    return [Block(doc, text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2))
            for m in _FENCE.finditer(text)]


ALL_BLOCKS = [b for doc in DOCS for b in _blocks(doc)]
GRIMOIRE = [b for b in ALL_BLOCKS if b.lang == "grimoire"]
YAML_BLOCKS = [b for b in ALL_BLOCKS if b.lang == "yaml"]


def _games() -> list[tuple[Block, Block | None, Block | None]]:
    """Each ```grimoire game block with the cards and the expected log that follow it."""
    out = []
    for doc in DOCS:
        blocks = _blocks(doc)
        for i, b in enumerate(blocks):
            if b.lang != "grimoire" or b.kind != "game":
                continue
            rest = blocks[i + 1:i + 3]
            cards = rest[0] if rest and rest[0].lang == "yaml" and rest[0].kind == "cards" else None
            if cards is not None:
                rest = rest[1:]
            log = rest[0] if rest and rest[0].lang == "log" else None
            out.append((b, cards, log))
    return out


GAMES = _games()


def _parse(block: Block) -> None:
    name = f"{block.doc.name}:{block.line + 1}"
    if block.kind == "effect":
        parse_effect(block.text, name)
    elif block.kind == "fragment":
        parse_rules("turn:\n" + textwrap.indent(block.text, "    "), name)
    else:
        parse_rules(block.text, name)


@pytest.mark.parametrize("block", GRIMOIRE, ids=[b.id for b in GRIMOIRE])
def test_grimoire_block_parses(block: Block) -> None:
    assert block.kind in ("", "effect", "fragment", "game"), f"{block.id}: unknown block kind `{block.kind}`"
    try:
        _parse(block)
    except ContentError as e:
        pytest.fail(f"{block.id}: the example does not parse\n{format_all(e.diagnostics)}")


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=[b.id for b in YAML_BLOCKS])
def test_yaml_block_loads(block: Block) -> None:
    YAML(typ="safe").load(block.text)


FILE_BLOCKS = [b for b in ALL_BLOCKS if "file" in b.options]


@pytest.mark.parametrize("block", FILE_BLOCKS, ids=[b.id for b in FILE_BLOCKS])
def test_block_matches_file(block: Block) -> None:
    path = ROOT / block.options["file"]
    assert path.is_file(), f"{block.id}: no file {block.options['file']}"
    assert block.text == path.read_text(encoding="utf-8"), \
        f"{block.id}: the block differs from {block.options['file']}; copy the file into the docs again"


@pytest.mark.parametrize("game", GAMES, ids=[g[0].id for g in GAMES])
def test_game_example_runs(game, tmp_path: Path) -> None:
    block, cards, log = game
    folder = tmp_path / "example"
    folder.mkdir()
    (folder / "game.rules").write_text(block.text, encoding="utf-8")
    if cards is not None:
        (folder / "cards").mkdir()
        (folder / "cards" / "cards.yaml").write_text(cards.text, encoding="utf-8")
    rs, content = check_path(folder)
    assert rs is not None and content.ok, f"{block.id}: the example does not validate\n" \
                                          f"{format_all(content.diagnostics)}"
    players = int(block.options.get("players", rs.min_players))
    g = new_game(Program(rs), players, int(block.options.get("seed", 0)), limits=Limits(max_steps=200_000, max_turns=500))
    for _ in range(1000):
        if g.over:
            break
        g.answer(0)
    assert g.over, f"{block.id}: the example game did not end"
    expected = log.text.splitlines() if log is not None else []
    want_error = expected[-1][len("error: "):] if expected and expected[-1].startswith("error: ") else None
    if want_error is not None:
        expected = expected[:-1]
        assert g.error is not None and want_error in str(g.error), \
            f"{block.id}: expected an error containing {want_error!r}, got {g.error}"
    else:
        assert g.error is None, f"{block.id}: the example stopped with an error: {g.error}"
    if log is not None:
        assert g.log == expected, f"{block.id}: the example logs\n" + "\n".join(g.log)


# ---- the reference covers the whole function library and the grammar's changelog --------------

def test_every_builtin_is_documented() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    missing = [name for name in BUILTINS if not re.search(rf"^\| `{name}\(", text, re.M)]
    assert not missing, f"builtins missing from the function table of docs/language.md: {missing}"


def test_documented_functions_exist() -> None:
    text = LANGUAGE.read_text(encoding="utf-8")
    documented = re.findall(r"^\| `([a-z_]+)\(", text, re.M)
    assert documented, "docs/language.md has no function table"
    stale = [name for name in documented if name not in BUILTINS]
    assert not stale, f"docs/language.md documents functions that do not exist: {stale}"


def _changelog(text: str, prefix: str) -> dict[str, str]:
    """version → entry text (whitespace normalised) of a changelog written `N — text`."""
    entries: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        body = line[len(prefix):] if line.startswith(prefix) else None
        if body is None:
            current = None
            continue
        m = re.match(r"\s*(\d+) — (.*)", body)
        if m:
            current = m.group(1)
            entries[current] = m.group(2).strip()
        elif current is not None and body.strip():
            entries[current] += " " + body.strip()
        else:
            current = None
    return entries


def test_changelog_matches_grammar() -> None:
    grammar = _changelog(GRAMMAR_PATH.read_text(encoding="utf-8"), "//")
    docs = _changelog(LANGUAGE.read_text(encoding="utf-8"), "-")
    assert grammar, "the grammar has no changelog"
    for version, entry in grammar.items():
        assert docs.get(version) == entry, \
            f"docs/language.md's changelog entry {version} should read: {version} — {entry}"


def test_every_diagnostic_family_is_documented() -> None:
    """Each family of diagnostic codes (`name/...`, `cards/...`) is explained under Diagnostics."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "interpreter").rglob("*.py"))
    families = set(re.findall(r'"([a-z]+)/[a-z_-]+"', source)) | set(re.findall(r'f"([a-z]+)/\{', source))
    text = LANGUAGE.read_text(encoding="utf-8")
    heading = re.search(r"^## \d+\. Diagnostics$", text, re.M)
    assert heading, "docs/language.md has no Diagnostics chapter"
    section = text[heading.start():]
    missing = sorted(f for f in families if f"`{f}/" not in section)
    assert families and not missing, f"diagnostic code families not explained in docs/language.md: {missing}"


# ---- the tutorial game ------------------------------------------------------------------------

def test_tutorial_game_validates_cleanly() -> None:
    rs, content = check_path(TUTORIAL_GAME)
    assert rs is not None and not content.diagnostics, format_all(content.diagnostics)


SCENARIOS = sorted((TUTORIAL_GAME / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_tutorial_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, result.format()


@pytest.mark.parametrize("players", [2, 4])
def test_tutorial_game_plays(players: int) -> None:
    report = simulate(str(TUTORIAL_GAME), 25, players, 7, ["random"])
    assert report["errors"] == [], report["errors"][:3]
    assert report["completed"] == 25


# ---- links between the documents land, and every construct has its section --------------------

def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _without_code(text: str) -> str:
    return _FENCE.sub("", text)


@functools.lru_cache(maxsize=None)
def _anchors(doc: Path) -> frozenset[str]:
    """The anchors of a document's headings; a repeated heading gets `-1`, `-2`, … as on GitHub."""
    out, seen = set(), {}
    for heading in re.findall(r"^#{1,6} (.+)$", _without_code(doc.read_text(encoding="utf-8")), re.M):
        slug = _slug(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(out)


LINKED_DOCS = DOCS + [ROOT / "README.md"]


@pytest.mark.parametrize("doc", LINKED_DOCS, ids=[d.name for d in LINKED_DOCS])
def test_links_land(doc: Path) -> None:
    """A relative link names a file that exists and, after `#`, a heading of that file."""
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", _without_code(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc.resolve()
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{doc.name}: links that lead nowhere: {broken}"


CONSTRUCTS_TSV = ROOT / "docs" / "constructs.tsv"


def _construct_rows() -> list[tuple[str, str]]:
    rows = [line.split("\t") for line in CONSTRUCTS_TSV.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert all(len(r) == 2 for r in rows), "docs/constructs.tsv: each line is `ClassName<TAB>heading`"
    return [(r[0], r[1]) for r in rows]


def test_every_construct_row_names_a_section() -> None:
    """docs/constructs.tsv gives each construct class one section of docs/language.md, verbatim."""
    rows = _construct_rows()
    names = [name for name, _ in rows]
    assert len(names) == len(set(names)), f"classes listed twice: {sorted({n for n in names if names.count(n) > 1})}"
    headings = set(re.findall(r"^### (.+)$", _without_code(LANGUAGE.read_text(encoding="utf-8")), re.M))
    missing = [f"{name}: {heading}" for name, heading in rows if heading not in headings]
    assert not missing, f"docs/constructs.tsv names headings docs/language.md lacks: {missing}"


def test_every_construct_class_has_its_section() -> None:
    """The rows are the construct classes of the syntax tree, no more and no fewer: a new construct
    is not done until docs/language.md documents it."""
    from interpreter.language.tree import CONSTRUCTS
    listed = {name for name, _ in _construct_rows()}
    classes = {c.__name__ for c in CONSTRUCTS}
    assert not classes - listed, f"construct classes with no section in docs/constructs.tsv: {sorted(classes - listed)}"
    assert not listed - classes, f"docs/constructs.tsv names classes that do not exist: {sorted(listed - classes)}"


def test_every_construct_section_is_listed() -> None:
    """A section of the Declarations, Statements or Expressions chapter that starts with syntax
    documents a construct, so docs/constructs.tsv must say which."""
    text = _without_code(LANGUAGE.read_text(encoding="utf-8"))
    listed = {heading for _, heading in _construct_rows()}
    chapters = re.split(r"^## ", text, flags=re.M)
    syntax = [h for ch in chapters if re.match(r"\d+\. (Declarations|Statements|Expressions)$", ch.splitlines()[0])
              for h in re.findall(r"^### (`.+)$", ch, re.M)]
    assert syntax, "docs/language.md has no construct sections"
    unlisted = [h for h in syntax if h not in listed]
    assert not unlisted, f"construct sections no construct class claims in docs/constructs.tsv: {unlisted}"
    contents = text[:text.index("## 1. ")]
    unindexed = [h for h in syntax if f"(#{_slug(h)})" not in contents]
    assert not unindexed, f"construct sections missing from the table at the top of docs/language.md: {unindexed}"
