"""`grimoire fmt`: the canonical layout of .rules files. Every shipped file is already in it, the
layout is idempotent, keeps every comment and every line where it was (file:line references stay
valid), and refuses a file that does not parse instead of guessing."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.language.diagnostics import ContentError
from interpreter.language.formatter import comments, format_rules
from interpreter.language.parser import parse_rules

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "rulesets").rglob("*.rules"))

MESSY = textwrap.dedent('''\
    # header
    game "Messy" :
      players 2..4
    card type Gem :
      color : Red|Blue   # aligned
      points: 0 .. 5=1
    zone hand : hidden , per player
    player stat score:0..99
    constant x=3
    function f( a,b )=a-b*-1 if a>b else (a+b)
    procedure go(p):
      # inside the procedure
      let ys = [ 1,2 ,
            3 ]
      if count(hand of p)>0 :
          move top(hand of p) to hand of p
          # still in the if
        # back in the procedure
      set score of p to score of p+x - -1
    # before setup
    setup:
      for each p in players :
          go( p )


    turn:
      end game
    ''')

CANONICAL = textwrap.dedent('''\
    # header
    game "Messy":
        players 2..4
    card type Gem:
        color: Red | Blue  # aligned
        points: 0..5 = 1
    zone hand: hidden, per player
    player stat score: 0..99
    constant x = 3
    function f(a, b) = a - b * -1 if a > b else (a + b)
    procedure go(p):
        # inside the procedure
        let ys = [1, 2,
              3]
        if count(hand of p) > 0:
            move top(hand of p) to hand of p
            # still in the if
        # back in the procedure
        set score of p to score of p + x - -1
    # before setup
    setup:
        for each p in players:
            go(p)


    turn:
        end game
    ''')


def test_messy_file_gets_the_canonical_layout():
    assert format_rules(MESSY) == CANONICAL
    assert format_rules(CANONICAL) == CANONICAL


def test_the_grammar_decides_sign_or_subtraction_and_keyword_or_name():
    # `x` is a keyword in `grid 3 x 4` and a name elsewhere; `-` after a name subtracts
    src = 'zone z: grid 3 x 4\nconstant x = 2\nfunction g(a) = x-a+(-a)\nfunction h(a) = [x -1, - a]\n'
    assert format_rules(src).splitlines()[2:] == ["function g(a) = x - a + (-a)", "function h(a) = [x - 1, -a]"]


def test_end_of_line_comments_keep_their_column_when_there_is_room():
    src = "constant  a  =  1            # aligned\nconstant bb = 22222222222 # tight\n"
    assert format_rules(src) == "constant a = 1               # aligned\nconstant bb = 22222222222  # tight\n"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_are_formatted_idempotent_and_keep_comments_and_lines(path):
    text = path.read_text(encoding="utf-8")
    once = format_rules(text, str(path))
    assert once == text, f"{path} is not in canonical layout: run `grimoire fmt {path}`"
    twice = format_rules(once, str(path))
    assert twice == once
    assert comments(once) == comments(text) and len(comments(text)) > 0
    assert once.count("\n") == text.count("\n")


def test_shipped_files_with_spaces_squeezed_format_back_to_themselves():
    """Spaces after commas and around `=`, `+`, `==` removed from every code line: fmt puts them back
    (end-of-line comments keep their column, so they do not move either)."""
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        messy = "\n".join(_squeeze(line) for line in text.split("\n"))
        assert messy != text and format_rules(messy, str(path)) == text, path


def _squeeze(line: str) -> str:
    code, hash_, comment = line.partition("#")
    if '"' in code:
        return line  # spaces inside text stay
    for spaced, tight in ((", ", ","), (" = ", "="), (" + ", "+"), (" == ", "==")):
        code = code.replace(spaced, tight)
    return code + (" " * (len(line) - len(code) - len(hash_ + comment)) + hash_ + comment if hash_ else "")


def test_line_numbers_never_move():
    out = format_rules(MESSY)
    before = parse_rules(MESSY, "f.rules")
    after = parse_rules(out, "f.rules")
    assert [d.loc.line for d in before.decls] == [d.loc.line for d in after.decls]


def test_fmt_check_cli(tmp_path, capsys):
    f = tmp_path / "a.rules"
    f.write_text(MESSY, encoding="utf-8")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    assert f"{f}:2:1" in capsys.readouterr().out and f.read_text() == MESSY  # check writes nothing
    assert main(["fmt", str(tmp_path)]) == 0
    assert f.read_text() == CANONICAL and "1 file(s) reformatted" in capsys.readouterr().out
    assert main(["fmt", "--check", str(f)]) == 0


def test_fmt_check_passes_on_shipped_rulesets(capsys):
    assert main(["fmt", "--check", str(ROOT / "rulesets")]) == 0
    assert f"0 file(s) would be reformatted, {len(SHIPPED)} already formatted" in capsys.readouterr().out


def test_fmt_refuses_a_file_that_does_not_parse(tmp_path, capsys):
    f = tmp_path / "bad.rules"
    f.write_text('game "x":\n  players 2..x(\n', encoding="utf-8")
    assert main(["fmt", str(f)]) == 1
    out = capsys.readouterr().out
    assert "bad.rules:2:" in out and "not formatted" in out and f.read_text().endswith("x(\n")
    with pytest.raises(ContentError):
        format_rules(f.read_text())
