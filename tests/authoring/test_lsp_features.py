"""The language server in-process: diagnostics at 0-based UTF-16 positions, hover, completion and
go to definition across `extends`, on a ruleset made by `grimoire new` (and a mod of it)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from interpreter.authoring.features import (analyse, builtin_signature, char_index, completion, definition, hover, references,
                                             ruleset_root, symbols, utf16_col)
import interpreter.authoring.server as server_module
from interpreter.authoring.scaffold import scaffold
from interpreter.authoring.server import make_server
from interpreter.cli import main

BROKEN_LINE = '        log ["🎲é", nosuch]'  # an emoji (2 UTF-16 units) and an accent before the mistake


@pytest.fixture
def game(tmp_path) -> Path:
    scaffold("pebble_game", tmp_path)
    return tmp_path / "rulesets" / "pebble_game"


def _pos(text: str, needle: str, nth: int = 0) -> lsp.Position:
    """The LSP position (0-based line, UTF-16 column) of `needle`'s `nth` occurrence in `text`."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start)
    line_text = text.split("\n")[line]
    return lsp.Position(line, utf16_col(line_text, start - (text.rfind("\n", 0, start) + 1)))


def _initialised(offered: list[str]):
    """A server after `initialize` from a client offering these column units, and its answer."""
    server = make_server("test")
    steps = server.protocol.lsp_initialize(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(
        general=lsp.GeneralClientCapabilities(position_encodings=offered))))
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return server, done.value


def _broken(rules: Path) -> str:
    text = rules.read_text(encoding="utf-8")
    return text.replace("        your points += g.value\n", f"        your points += g.value\n{BROKEN_LINE}\n")


def test_utf16_columns():
    assert utf16_col("a🎲b", 2) == 3 and utf16_col("éb", 1) == 1
    assert char_index("a🎲b", 3) == 2 and char_index("a🎲b", 0) == 0


def test_unsaved_mistake_is_reported_at_its_utf16_position(game):
    rules = game / "game.rules"
    text = _broken(rules)
    server, answer = _initialised([lsp.PositionEncodingKind.Utf8, lsp.PositionEncodingKind.Utf16])
    assert answer.capabilities.position_encoding == lsp.PositionEncodingKind.Utf16  # what the columns are in
    assert answer.capabilities.hover_provider and answer.capabilities.definition_provider
    published: list[lsp.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = published.append  # what would go to the client
    server.workspace.put_text_document(lsp.TextDocumentItem(uri=rules.as_uri(), language_id="grimoire",
                                                            version=1, text=text))
    server.check(rules.as_uri())
    mine = [p for p in published if p.uri == rules.resolve().as_uri()]
    assert len(mine) == 1
    (d,) = mine[0].diagnostics
    assert d.code == "name/undefined" and "nosuch" in d.message
    line = text.split("\n").index(BROKEN_LINE)
    # `nosuch` is character 19 of the line, but UTF-16 unit 20: the emoji counts twice
    assert BROKEN_LINE.index("nosuch") == 19
    assert d.range == lsp.Range(lsp.Position(line, 20), lsp.Position(line, 26))
    assert d.severity == lsp.DiagnosticSeverity.Error
    assert rules.read_text(encoding="utf-8") != text  # checked from the editor's text, not the file

    # fixed in the editor: the next check clears the file's diagnostics
    server.workspace.put_text_document(lsp.TextDocumentItem(uri=rules.as_uri(), language_id="grimoire",
                                                            version=2, text=rules.read_text(encoding="utf-8")))
    published.clear()
    server.check(rules.as_uri())
    assert [p.diagnostics for p in published if p.uri == rules.resolve().as_uri()] == [[]]


def test_card_file_mistake_is_reported_in_the_card_file(game):
    cards = game.parent.parent / "cards" / "pebble_game" / "gems.yaml"
    assert ruleset_root(cards) == game.resolve()
    text = cards.read_text(encoding="utf-8").replace("value: 3", "value: 7")
    analysis = analyse(game, {cards: text})
    (d,) = analysis.by_file[cards.resolve()]
    assert d.code.startswith("cards/") and "value" in d.message


def test_hover_shows_declarations_builtins_and_constructs(game):
    rules = game / "game.rules"
    text = rules.read_text(encoding="utf-8")
    analysis = analyse(game, {})
    on_zone = hover(analysis, rules.resolve(), text, _pos(text, "bag", 2))  # `move all_cards() to bag`
    assert "zone bag: deck, shared, hidden" in on_zone.contents.value
    assert "The bag is a zone" in on_zone.contents.value
    on_builtin = hover(analysis, rules.resolve(), text, _pos(text, "all_cards"))
    assert "all_cards()" in on_builtin.contents.value
    on_move = hover(analysis, rules.resolve(), text, _pos(text, "move g to your kept"))
    assert on_move.contents.value.startswith("**move**:")
    assert "kept" in on_move.contents.value
    on_nothing = hover(analysis, rules.resolve(), text, lsp.Position(0, 0))
    assert on_nothing is None  # a comment before any construct


def test_completion_offers_keywords_names_cards_and_builtins(game):
    items = {i.label: i for i in completion(analyse(game, {})).items}
    assert items["move"].kind == lsp.CompletionItemKind.Keyword
    assert items["bag"].detail == "zone" and items["points"].detail == "stat"
    assert items["Gem"].detail == "card type"
    assert items["Ruby"].detail == "card"
    assert items["first"].detail == builtin_signature("first") == "first(a, [b])"
    assert items["first"].documentation


def test_definition_reaches_the_base_of_an_extends_chain(game):
    mod = game.parent / "pebble_mod"
    mod.mkdir()
    (mod / "mod.rules").write_text('game "Pebble mod":\n    extends "pebble_game"\n\n'
                                   'after setup:\n    shuffle bag\n', encoding="utf-8")
    text = (mod / "mod.rules").read_text(encoding="utf-8")
    analysis = analyse(mod, {})
    assert not [d for d in analysis.content.diagnostics if d.severity == "error"]
    where = definition(analysis, text, _pos(text, "bag"))
    assert where.uri == (game / "game.rules").resolve().as_uri()
    base = (game / "game.rules").read_text(encoding="utf-8").split("\n")
    assert base[where.range.start.line][where.range.start.character:where.range.end.character] == "bag"
    assert base[where.range.start.line].startswith("zone bag")
    card = definition(analysis, 'move "Ruby"', lsp.Position(0, 7))
    assert card.uri.endswith("cards/pebble_game/gems.yaml")


def test_card_effect_text_has_hover_and_definitions():
    root = Path(__file__).resolve().parents[2]
    cards = (root / "cards" / "tutorial_fireflies" / "critters.yaml").resolve()
    text = cards.read_text(encoding="utf-8")
    analysis = analyse(root / "rulesets" / "tutorial_fireflies", {})
    on_move = hover(analysis, cards, text, _pos(text, "move last(jar)"))
    assert on_move.contents.value == "**move**: move last of jar to discard"
    where = definition(analysis, text, _pos(text, "jar)"))  # the zone named in the effect
    rules = (root / "rulesets" / "tutorial_fireflies" / "game.rules").read_text(encoding="utf-8").split("\n")
    assert where.uri.endswith("rulesets/tutorial_fireflies/game.rules")
    assert rules[where.range.start.line].startswith("zone jar:")


def test_checks_in_a_session_reuse_parsed_files_and_give_the_same_diagnostics(game):
    rules = (game / "game.rules").resolve()
    broken = _broken(rules)
    cold = analyse(game, {rules: broken})
    parsed: dict = {}
    first = analyse(game, {rules: broken}, parsed)
    again = analyse(game, {rules: broken}, parsed)  # from the cache: the same words at the same places
    assert [d.to_json() for d in again.content.diagnostics] == [d.to_json() for d in first.content.diagnostics] \
        == [d.to_json() for d in cold.content.diagnostics]
    rule_texts = [k[2] for k in parsed if k[0] == "rules"]
    assert len(cold.content.diagnostics) == 1 and rule_texts == [broken]
    kept = set(parsed)
    fixed = analyse(game, {rules: rules.read_text(encoding="utf-8")}, parsed)
    assert not fixed.content.diagnostics
    new = set(parsed) - kept  # the edit parsed its own file (declaration by declaration) and nothing else
    assert {k[0] for k in new} <= {"rules", "declarations", "declaration"} and [k[2] for k in new if k[0] == "rules"]


def test_references_and_outline():
    root = Path(__file__).resolve().parents[2]
    rules = (root / "rulesets" / "tutorial_fireflies" / "game.rules").resolve()
    text = rules.read_text(encoding="utf-8")
    analysis = analyse(root / "rulesets" / "tutorial_fireflies", {})
    found = references(analysis, text, _pos(text, "jar:"))
    files = {"game.rules": text.split("\n"),
             "guidance.rules": (rules.parent / "guidance.rules").read_text().split("\n"),
             "critters.yaml": (root / "cards" / "tutorial_fireflies" / "critters.yaml").read_text().split("\n")}
    spots = [(loc.uri.rsplit("/", 1)[1], loc.range.start.line) for loc in found]
    assert spots[0] == ("game.rules", files["game.rules"].index("zone jar: row, shared, public             "
                                                               "# this turn's catch, in the order it was caught"))
    for loc in found:  # each range spans the word itself
        line = files[loc.uri.rsplit("/", 1)[1]][loc.range.start.line]
        assert line[loc.range.start.character:loc.range.end.character] == "jar"
    # every line of code that names the zone `jar`, in rules and card effects (not comments, not
    # `jar_size`, not a card's `text:` prose)
    expected = [(name, i) for name, lines in files.items() for i, line in enumerate(lines)
                if re.search(r"\bjar\b", line.split("#")[0]) and "text:" not in line]
    assert sorted(spots) == sorted(expected) and len(spots) == 11  # 10 in the game, 1 in its guidance
    assert references(analysis, text, _pos(text, "jar:"), include_declaration=False)[0].range.start.line != spots[0][1]
    outline = [(s.name, s.detail) for s in symbols(analysis, rules)]
    assert outline[:3] == [("Firefly", "card type"), ("Critter", "card type"), ("deck", "zone")]
    assert ("lanterns", "stat") in outline and ("jar_size", "constant") in outline


def test_hover_on_a_card_name_shows_its_fields_and_effect():
    root = Path(__file__).resolve().parents[2]
    analysis = analyse(root / "rulesets" / "tutorial_fireflies", {})
    text = "move Frog to discard"
    shown = hover(analysis, Path("x.rules"), text, lsp.Position(0, 6)).contents.value
    assert shown.startswith("card **Frog** (Critter: kind: Frog)")
    assert "When drawn: if jar is not empty: move last of jar to discard." in shown  # the effect in English
    assert "critters.yaml" in shown


def test_an_internal_error_is_a_diagnostic_not_a_dead_server(game, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(server_module, "analyse", broken)
    server, _ = _initialised([])
    published: list[lsp.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = published.append
    uri = (game / "game.rules").as_uri()
    assert server.check(uri) is None
    (only,) = published
    assert only.uri == uri and "could not check this ruleset" in only.diagnostics[0].message


def test_completion_after_a_dot_offers_card_fields(game):
    analysis = analyse(game, {})
    text = "        your points += g.va"
    items = {i.label: i for i in completion(analysis, text, lsp.Position(0, len(text))).items}
    assert set(items) == {"colour", "value", "name", "type"}
    assert items["value"].detail == "field of Gem" and items["value"].kind == lsp.CompletionItemKind.Field
    ranged = "    players 2..4"  # a range's `..` is not a field access
    assert "move" in {i.label for i in completion(analysis, ranged, lsp.Position(0, len(ranged) - 1)).items}


def test_diagnostics_go_to_the_uri_the_editor_opened(game, tmp_path):
    linked = tmp_path / "linked_game"
    linked.symlink_to(game)
    rules = linked / "game.rules"  # the editor knows the file by the link's name
    server, _ = _initialised([])
    published: list[lsp.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = published.append
    server.workspace.put_text_document(lsp.TextDocumentItem(uri=rules.as_uri(), language_id="grimoire",
                                                            version=1, text=_broken(game / "game.rules")))
    server.check(rules.as_uri())
    mine = [p for p in published if p.diagnostics]
    assert [p.uri for p in mine] == [rules.as_uri()] and "linked_game" in mine[0].uri


BROKEN = sorted(p for p in (Path(__file__).resolve().parents[1] / "fixtures" / "broken").iterdir() if p.is_dir())


@pytest.mark.parametrize("folder", BROKEN, ids=[p.name for p in BROKEN])
def test_the_server_reports_what_validate_reports(folder, capsys):
    """Every diagnostic of `grimoire validate --format json` on the broken-file fixtures reaches the
    editor, in its file, at its line (0-based in LSP), with its code."""
    main(["validate", "--format", "json", str(folder)])
    report = json.loads(capsys.readouterr().out)["diagnostics"]
    expected = sorted((d["code"], d["line"] - 1 if d["line"] else 0) for d in report)
    server, _ = _initialised([])
    published: list[lsp.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = published.append
    doc = next(iter(sorted(folder.glob("*.rules"))), folder / "game.rules")
    server.check(doc.as_uri())
    got = sorted((d.code, d.range.start.line) for p in published for d in p.diagnostics)
    assert got == expected
