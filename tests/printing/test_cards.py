"""Cards people can read and print: SVG faces, PDF sheets, PNG previews, layout diagnostics."""
from __future__ import annotations

import math
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pypdf
import pypdfium2
import pytest

from interpreter.analysis.explain import explain_card
from interpreter.api import check_path
from interpreter.cli import main
from interpreter.language.diagnostics import ContentError
from interpreter.printing import card_faces, card_text, write_pngs, write_sheets, write_svgs
from interpreter.printing.faces import TextBlock, fit, text_width
from rulekit import ruleset

ROOT = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"

RULES = """\
    game "Print test":
        players 2

    card type Spell:
        cost: 0..9
        school: Fire | Ice
    zone deck: pile, shared, hidden
    zone hand: set, per player, hidden

    setup:
        move all_cards() to deck
    turn:
        draw 1 from deck to your hand
        if deck is empty:
            end game
    """


def _cards(*lines: str) -> str:
    return "cards:\n" + "".join(f"  - {line}\n" for line in lines)


def _svg_text(path: Path) -> str:
    """All text of an SVG, parsed as XML (a malformed file fails here)."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{NS}svg"
    return " ".join(" ".join(t.itertext()) for t in root.iter(f"{NS}text"))  # a tspan per line


def _faces(folder: Path):
    rs, content = check_path(folder)
    assert rs is not None and content.ok, [d.format() for d in content.diagnostics]
    return rs, card_faces(folder, rs)


def test_svg_is_xml_with_the_cards_name_and_text(tmp_path: Path) -> None:
    folder = ruleset(tmp_path, RULES, _cards(
        '{name: Fireball, type: Spell, cost: 3, school: Fire, text: "Deal 3 damage to every dragon."}'))
    _, cf = _faces(folder)
    [svg] = write_svgs(cf, tmp_path / "out")
    text = _svg_text(svg)
    assert "Fireball" in text and "Deal 3 damage" in text and "cost 3" in text.replace(":", "")
    assert (tmp_path / "out" / "back.svg").exists()


def test_effect_english_is_printed_when_there_is_no_text(tmp_path: Path) -> None:
    rs, cf = _faces(ROOT / "rulesets/toil_and_troublez")
    [vanish] = {c.name: c for c in rs.cards if c.name == "Vanish"}.values()
    english = card_text(vanish)
    assert vanish.text is None and english == vanish.effect.describe() and english.startswith("When picked up")
    svgs = write_svgs(cf, tmp_path / "out")
    [svg] = [p for p in svgs if p.name.endswith("-vanish.svg")][:1]
    assert " ".join(english.split()) in " ".join(_svg_text(svg).split())  # every word, in order, wrapped


def test_hostile_card_name_is_escaped_in_svg_and_file_name(tmp_path: Path) -> None:
    hostile = '</text><script>alert(1)</script>&amp;"\'../../etc'
    folder = ruleset(tmp_path, RULES, _cards(
        "{name: " + repr(hostile).replace("\\'", "''") + ", type: Spell, cost: 1, school: Ice}"))
    rs, cf = _faces(folder)
    assert rs.cards[0].name == hostile
    [svg] = write_svgs(cf, tmp_path / "out")
    assert svg.parent == tmp_path / "out" and "/" not in svg.name and ".." not in svg.name
    root = ET.parse(svg).getroot()
    assert not list(root.iter(f"{NS}script")), "a card name became markup"
    assert hostile in " ".join("".join(t.itertext()) for t in root.iter(f"{NS}text")) + root.find(f"{NS}title").text
    assert "<script>" not in svg.read_text(encoding="utf-8")


def test_control_characters_in_a_name_still_give_xml_and_a_clean_drawing(tmp_path: Path, recwarn) -> None:
    folder = ruleset(tmp_path, RULES, _cards('{name: "Bad\\x01\\x1b[31mName", type: Spell, cost: 1, school: Ice, '
                                             'text: "tab\\there\\x02"}'))
    _, cf = _faces(folder)
    [svg] = write_svgs(cf, tmp_path / "out")
    text = _svg_text(svg)  # parses: XML 1.0 cannot hold \x01 even escaped
    assert "Bad\ufffd\ufffd[31mName" in text and "tab here\ufffd" in text
    write_sheets(cf, tmp_path / "c.pdf")
    assert not [w for w in recwarn if "missing from font" in str(w.message)]


def test_long_text_wraps_inside_its_box(tmp_path: Path) -> None:
    long = "Every player draws a card, then discards a card of their choice. " * 4
    folder = ruleset(tmp_path, RULES, _cards(
        f'{{name: Wordy, type: Spell, cost: 1, school: Ice, text: "{long.strip()}"}}'))
    _, cf = _faces(folder)
    face, _ = cf.faces[0]
    [block] = [i for i in face.items if isinstance(i, TextBlock) and "Every" in i.lines[0]]
    assert len(block.lines) > 3
    assert all(text_width(line, block.size) <= block.w + 1e-6 for line in block.lines)
    assert " ".join(block.lines) == " ".join(long.split())  # wrapped, nothing lost
    assert not cf.overflow


def test_text_that_cannot_fit_is_cut_and_reported_by_name() -> None:
    lines, size, cut = fit("word " * 400, 20, 10, 9)
    assert cut and size == 5.0 and lines[-1].endswith("…")
    lines, size, cut = fit("short", 20, 10, 9)
    assert not cut and lines == ["short"] and size == 9


def test_cli_reports_a_card_whose_text_was_cut(tmp_path: Path, capsys) -> None:
    folder = ruleset(tmp_path, RULES, _cards(
        '{name: Tome, type: Spell, cost: 1, school: Ice, text: "' + "lorem ipsum " * 300 + '"}'))
    assert main(["cards", str(folder), "--svg", str(tmp_path / "svg")]) == 0
    assert "text cut to fit: Tome: text" in capsys.readouterr().err


def _pages(pdf: Path) -> int:
    return len(pypdf.PdfReader(pdf).pages)


def test_pdf_has_a_page_per_nine_cards_and_backs_double_it(tmp_path: Path) -> None:
    folder = ruleset(tmp_path, RULES, _cards(
        "{name: Bolt, type: Spell, cost: 1, school: Fire, copies: 10}",
        "{name: Frost, type: Spell, cost: 2, school: Ice, copies: 9}"))
    _, cf = _faces(folder)
    assert write_sheets(cf, tmp_path / "a.pdf") == 3 == _pages(tmp_path / "a.pdf")  # 19 cards → 9 + 9 + 1
    assert write_sheets(cf, tmp_path / "b.pdf", backs=True) == 6 == _pages(tmp_path / "b.pdf")
    page = pypdf.PdfReader(tmp_path / "a.pdf").pages[0]
    assert round(float(page.mediabox.width) / 72 * 25.4) == 210 and round(float(page.mediabox.height) / 72 * 25.4) == 297
    write_sheets(cf, tmp_path / "c.pdf", paper="letter")
    page = pypdf.PdfReader(tmp_path / "c.pdf").pages[0]
    assert round(float(page.mediabox.width) / 72, 2) == 8.5 and round(float(page.mediabox.height) / 72, 2) == 11
    assert _pages(tmp_path / "c.pdf") == 3  # 3×3 poker cards fit Letter too
    assert write_sheets(cf, tmp_path / "d.pdf", bleed=2) == 3  # and A4 with 2 mm bleed
    assert write_sheets(cf, tmp_path / "e.pdf", bleed=3) == 4  # 3 mm: 2×3 a page, 19 cards → 4 pages


def test_toil_and_troublez_sheets_render_and_are_not_blank(tmp_path: Path) -> None:
    out = tmp_path / "tt.pdf"
    assert main(["cards", str(ROOT / "rulesets/toil_and_troublez"), "--pdf", str(out), "--backs"]) == 0
    assert _pages(out) == 2 * math.ceil(83 / 9)
    reader = pypdf.PdfReader(out)
    assert "Vanish" in reader.pages[12].extract_text()  # 7th front page, cards 55-63: Magicians from card 61
    assert "Vanish" not in reader.pages[10].extract_text()
    assert reader.pages[13].extract_text().count("Toil and Troublez") == 9  # its backs
    image = pypdfium2.PdfDocument(out)[0].render(scale=1).to_pil()
    assert abs(image.size[0] - 595) <= 1 and abs(image.size[1] - 842) <= 1  # A4 at 72 dpi (rounding)
    grey = image.convert("L")
    lo, hi = grey.getextrema()
    assert hi - lo > 100  # ink on paper
    dark = sum(grey.histogram()[:200]) / (image.size[0] * image.size[1])
    assert 0.02 < dark < 0.9, dark


def test_every_shipped_ruleset_draws_every_card(tmp_path: Path) -> None:
    for folder in sorted((ROOT / "rulesets").iterdir()):
        rs, cf = _faces(folder)
        assert sum(n for _, n in cf.faces) == sum(1 for c in rs.cards if c.type not in rs.die_types)
        assert all(f.items for f, _ in cf.faces)


def test_png_preview_is_the_card_at_its_size(tmp_path: Path) -> None:
    _, cf = _faces(ROOT / "rulesets/talisman")
    cf.faces = cf.faces[:2]
    [png, _] = write_pngs(cf, tmp_path, dpi=100)
    assert png.read_bytes()[:4] == b"\x89PNG"
    width, height = int.from_bytes(png.read_bytes()[16:20], "big"), int.from_bytes(png.read_bytes()[20:24], "big")
    assert (width, height) == (round(63 / 25.4 * 100), round(88 / 25.4 * 100))


def _layout(tmp_path: Path, text: str) -> Path:
    folder = ruleset(tmp_path, RULES, _cards("{name: Bolt, type: Spell, cost: 1, school: Fire}"))
    (folder / "layout.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


@pytest.mark.parametrize("text, line, col, words", [
    ("types:\n  Spell:\n    regions:\n      - {show: name, box: [1, 2, 3]}\n", 4, 27, "box"),
    ("types:\n  Spel:\n    regions: []\n", 2, 3, "unknown card type `Spel`"),
    ("types:\n  Spell:\n    color_by: {field: shcool, values: {Fire: '#f00'}}\n", 3, 23, "no field `shcool`"),
    ("types:\n  Spell:\n    background: red\n", 3, 17, "#rrggbb"),
    ("types:\n  Spell:\n    regions:\n      - {show: art, path: ../../secret.png, box: [1, 1, 5, 5]}\n", 4, 27,
     "leaves the ruleset's folders"),
    ("size: [63, 88]\ntypes:\n  Spell:\n    regions:\n      - {show: wobble, box: [1, 1, 5, 5]}\n", 5, 16, "show"),
    ("types:\n  Spell: {regions: [\n", 3, 1, "YAML"),
])
def test_bad_layout_gives_a_diagnostic_at_its_line(tmp_path: Path, text: str, line: int, col: int,
                                                   words: str) -> None:
    folder = _layout(tmp_path, text)
    rs, _ = check_path(folder)
    with pytest.raises(ContentError) as e:
        card_faces(folder, rs)
    [d] = e.value.diagnostics
    assert (Path(d.loc.file).name, d.loc.line, d.loc.col) == ("layout.yaml", line, col), d.format()
    assert words in d.message


def test_bad_layout_on_the_command_line_is_a_diagnostic_not_a_traceback(tmp_path: Path, capsys) -> None:
    folder = _layout(tmp_path, "types:\n  Spell:\n    regions:\n      - {show: name, box: [1, 2, 3], size: big}\n")
    assert main(["cards", str(folder), "--svg", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "layout.yaml:4:" in err and "Traceback" not in err


def test_missing_art_is_a_placeholder(tmp_path: Path) -> None:
    folder = _layout(tmp_path, "types:\n  Spell:\n    regions:\n      - {show: art, path: 'art/{name}.png', "
                               "box: [5, 5, 50, 30]}\n      - {show: name, box: [5, 40, 50, 10]}\n")
    _, cf = _faces(folder)
    [svg] = write_svgs(cf, tmp_path / "o")
    assert "art" in _svg_text(svg) and "Bolt" in _svg_text(svg)
    (folder / "art").mkdir()
    mpimg.imsave(folder / "art" / "Bolt.png", np.linspace(0, 1, 64).reshape(8, 8))  # a real image is embedded
    _, cf = _faces(folder)
    [svg] = write_svgs(cf, tmp_path / "p")
    assert any(e.get("href", "").startswith("data:image/png;base64,")
               for e in ET.parse(svg).getroot().iter(f"{NS}image"))
    write_sheets(cf, tmp_path / "art.pdf")  # and drawn into the PDF without error


def test_cards_needs_an_output(tmp_path: Path, capsys) -> None:
    assert main(["cards", str(ROOT / "rulesets/toil_and_troublez")]) == 2
    assert "--svg" in capsys.readouterr().err


DRIFT_RULES = RULES.replace("    zone deck", "    player stat gems: 0..99 = 0\n    event bought\n    zone deck")


@pytest.mark.parametrize("text, warned", [
    ("Immediately: gain 2 gems.", True),  # the effect was changed to 3, the text was not
    ("Immediately: gain 3 gems.", False),
    ("Immediately: gain three gems.", False),  # a number as a word counts
])
def test_check_text_warns_when_the_text_drifts_from_the_effect(tmp_path: Path, capsys, text: str,
                                                               warned: bool) -> None:
    folder = ruleset(tmp_path, DRIFT_RULES, "cards:\n  - name: Treasure\n    type: Spell\n    cost: 1\n"
                     f"    school: Fire\n    text: \"{text}\"\n    effect: |\n      when bought:\n"
                     "          you gain 3 gems\n")
    assert main(["cards", str(folder), "--check-text"]) == 0
    out = capsys.readouterr().out
    assert ("cards.yaml:2:5: warning: the text of `Treasure` does not mention 3" in out) == warned, out
    assert ("[cards/text-drift]" in out) == warned


def test_a_mod_uses_its_bases_layout() -> None:
    _, cf = _faces(ROOT / "rulesets/enchanters_overlords")
    assert cf.layout.file and Path(cf.layout.file).parent.name == "enchanters"
    assert "Item" in cf.layout.types


def test_printed_words_are_what_grimoire_explain_says() -> None:
    """No second English: a card without `text:` prints explain_card's effect text, word for word."""
    rs, _ = _faces(ROOT / "rulesets/stonehenge_wizards")
    checked = 0
    for card in rs.cards:
        if card.effect is not None and not card.text:
            assert card_text(card) == explain_card(card).split("\n", 1)[1]
            checked += 1
        elif card.text:
            assert card_text(card) == card.text
    assert checked > 10


def test_a_field_shown_as_an_icon_picks_the_image_by_its_value(tmp_path: Path) -> None:
    """Fields as icons: an art region whose path names a field draws the image of that value."""
    folder = ruleset(tmp_path, RULES, _cards("{name: Bolt, type: Spell, cost: 1, school: Fire}",
                                             "{name: Frost, type: Spell, cost: 2, school: Ice}"))
    (folder / "icons").mkdir()
    for school, colour in (("Fire", (255, 0, 0)), ("Ice", (0, 0, 255))):
        mpimg.imsave(folder / "icons" / f"{school}.png", np.full((4, 4, 3), colour, dtype=np.uint8))
    (folder / "layout.yaml").write_text("types:\n  Spell:\n    regions:\n"
                                        "      - {show: art, path: 'icons/{school}.png', box: [2, 2, 8, 8]}\n",
                                        encoding="utf-8")
    rs, _ = check_path(folder)
    pictures = {face.name: [i for i in face.items if hasattr(i, "data")] for face, _ in card_faces(folder, rs).faces}
    assert pictures["Bolt"][0].data == (folder / "icons" / "Fire.png").read_bytes()
    assert pictures["Frost"][0].data == (folder / "icons" / "Ice.png").read_bytes()
