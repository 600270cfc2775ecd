"""Hostile files (issue 25): content is read only from regular files inside the ruleset's own
folders; links that leave them, FIFOs, devices and link loops are diagnostics (file, hint), never a
hang or a traceback; reads are bounded by the bytes read; invalid Unicode is a diagnostic at load;
`validate .` inside a ruleset folder checks its cards; a 1,000-long `extends` chain is a diagnostic.

Each test runs under `bounded(seconds)`: an alarm that fails it instead of letting it hang."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from interpreter.api import check_path
from interpreter.language.untrusted import FileRefused, printable, read_bytes, read_text

ROOT = Path(__file__).resolve().parents[2]

RULES = """
game "Tiny":
    players 2

card type Thing:
    value: 0..9 = 1

zone deck: pile, shared, hidden
zone hand: set, per player, public
player stat gold = 0

setup:
    move all_cards() to deck

turn:
    you gain 1 gold
    draw from deck to your hand
    if deck is empty:
        end game

score p: gold of p
"""

SECRET = "TOP-SECRET-FIRST-LINE"


@contextlib.contextmanager
def bounded(seconds: float):
    """Fail (not hang) when the body runs longer than `seconds`."""
    def expire(*_):
        raise TimeoutError(f"took longer than {seconds} s")
    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.perf_counter() - start < seconds


def _tree(tmp: Path, cards: str | None = "- {name: Coin, type: Thing, copies: 4}\n") -> Path:
    """rulesets/tiny with its cards in cards/tiny; returns the ruleset folder."""
    folder = tmp / "rulesets" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.rules").write_text(textwrap.dedent(RULES).lstrip(), encoding="utf-8")
    if cards is not None:
        (tmp / "cards" / "tiny").mkdir(parents=True)
        (tmp / "cards" / "tiny" / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def _diags(path: Path) -> list:
    _, content = check_path(path)
    return [d for d in content.diagnostics if d.severity == "error"]


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every ruleset, whose first line must never be printed."""
    f = tmp_path / "outside" / "secret.txt"
    f.parent.mkdir()
    f.write_text(SECRET + "\n", encoding="utf-8")
    return f


def test_rules_file_linked_outside_the_tree_is_refused_unread(tmp_path, secret):
    folder = _tree(tmp_path)
    (folder / "extra.rules").symlink_to(secret)
    with bounded(10):
        errs = _diags(folder)
    assert [e.code for e in errs] == ["load/link"]
    assert errs[0].loc.file.endswith("extra.rules") and "outside" in errs[0].message and errs[0].hint
    assert SECRET not in errs[0].format()


def test_card_file_linked_outside_the_tree_is_refused(tmp_path, secret):
    folder = _tree(tmp_path)
    (tmp_path / "cards" / "tiny" / "more.yaml").symlink_to(secret)
    with bounded(10):
        errs = _diags(folder)
    assert [e.code for e in errs] == ["load/link"] and errs[0].loc.file.endswith("more.yaml")


def test_link_inside_the_tree_is_still_read(tmp_path):
    """A link that stays in the ruleset's folder is fine (and its content really is loaded)."""
    folder = _tree(tmp_path)
    (folder / "parts").mkdir()
    (folder / "game.rules").rename(folder / "parts" / "real.rules")
    (folder / "game.rules").symlink_to(folder / "parts" / "real.rules")
    assert _diags(folder) == []


def test_cards_folder_linked_elsewhere_is_refused(tmp_path, secret):
    folder = _tree(tmp_path, cards=None)
    (tmp_path / "cards").mkdir()
    (secret.parent / "evil.yaml").write_text("- {name: Coin, type: Thing}\n", encoding="utf-8")
    (tmp_path / "cards" / "tiny").symlink_to(secret.parent)
    errs = _diags(folder)
    assert [e.code for e in errs] == ["load/link"] and "cards folder" in errs[0].message


def test_base_folder_linked_outside_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere" / "base"
    elsewhere.mkdir(parents=True)
    (elsewhere / "game.rules").write_text(textwrap.dedent(RULES).lstrip(), encoding="utf-8")
    folder = _tree(tmp_path)
    (folder.parent / "base").symlink_to(elsewhere)
    (folder / "game.rules").write_text(textwrap.dedent(RULES).lstrip().replace(
        'players 2', 'players 2\n    extends "base"'), encoding="utf-8")
    errs = _diags(folder)
    assert "load/link" in [e.code for e in errs]
    e = next(e for e in errs if e.code == "load/link")
    assert e.loc.file.endswith("game.rules") and e.loc.line == 3 and "outside" in e.message


def test_single_rules_file_linked_elsewhere_is_refused(tmp_path, secret):
    link = tmp_path / "mine" / "game.rules"
    link.parent.mkdir()
    link.symlink_to(secret)
    errs = _diags(link)
    assert [e.code for e in errs if e.code.startswith("load/")] == ["load/link"]
    assert SECRET not in "\n".join(e.format() for e in errs)


def test_fifo_as_rules_or_card_file_is_a_diagnostic_not_a_hang(tmp_path):
    folder = _tree(tmp_path)
    os.mkfifo(folder / "pipe.rules")
    os.mkfifo(tmp_path / "cards" / "tiny" / "pipe.yaml")
    with bounded(10):
        errs = _diags(folder)
    assert sorted((e.code, Path(e.loc.file).name) for e in errs) == [
        ("load/not-a-file", "pipe.rules"), ("load/not-a-file", "pipe.yaml")]
    assert all("FIFO" in e.message and e.hint for e in errs)


def test_device_is_never_opened(tmp_path):
    """/dev/zero has size 0 and never ends: refused by kind, before any read."""
    with bounded(5), pytest.raises(FileRefused, match="a device"):
        read_bytes("/dev/zero")
    folder = _tree(tmp_path)
    (folder / "zero.rules").symlink_to("/dev/zero")
    with bounded(10):
        assert [e.code for e in _diags(folder)] == ["load/link"]


def test_symlink_loop_is_a_diagnostic(tmp_path):
    folder = _tree(tmp_path)
    (folder / "a.rules").symlink_to(folder / "b.rules")
    (folder / "b.rules").symlink_to(folder / "a.rules")
    with bounded(10):
        errs = _diags(folder)
    assert [e.code for e in errs] == ["load/link", "load/link"] and all("loop" in e.message for e in errs)


def test_reads_are_bounded_by_bytes_read_not_st_size():
    """/proc files report size 0 yet hold bytes: the bound counts what is read."""
    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("needs /proc")
    assert status.stat().st_size == 0
    with pytest.raises(FileRefused, match="larger than 10 bytes") as e:
        read_bytes(status, limit=10)
    assert e.value.code == "limit/size"
    assert len(read_bytes(status, limit=1_000_000)) > 10


def test_undecodable_bytes_are_a_diagnostic_with_position(tmp_path):
    folder = _tree(tmp_path)
    (folder / "bad.rules").write_bytes(b"# fine\n# caf\xe9 \xed\xa0\x80\n")
    errs = _diags(folder)
    assert [(e.code, e.loc.line, e.loc.col) for e in errs] == [("load/encoding", 2, 6)]


def test_encoded_lone_surrogate_is_not_utf8(tmp_path):
    f = tmp_path / "s.rules"
    f.write_bytes(b"ok\n\xed\xa0\x80\n")  # UTF-8 of U+D800, which strict UTF-8 refuses
    with pytest.raises(FileRefused) as e:
        read_text(f)
    assert (e.value.code, e.value.line, e.value.col) == ("load/encoding", 2, 1)


def test_lone_surrogate_escape_in_a_card_is_a_diagnostic_at_load(tmp_path):
    folder = _tree(tmp_path, cards='- {name: "Bad\\ud800", type: Thing}\n')
    errs = _diags(folder)
    assert [(e.code, e.loc.line) for e in errs] == [("load/encoding", 1)]
    errs[0].format().encode("utf-8")  # the diagnostic itself can be printed


@pytest.mark.parametrize("cards", [
    '- {name: "Bad\\U0000d800", type: Thing}\n',  # the long escape
    '- {name: Coin, type: Thing, "x\\udfff": 1}\n',  # in a key
    '- {name: Coin, type: Thing, "x\\U0000dfff": 1}\n',  # in a key, the long escape
    '- name: Coin\n  type: Thing\n  text: [1, 2, {a: "\\ud800"}]\n',  # deep in a value
])
def test_every_lone_surrogate_escape_in_a_card_file_is_found(tmp_path, cards):
    """The plain-data check looks at texts only in a file that could hold a lone surrogate (one in
    its text, or a `\\u`/`\\U` escape): each of these must still be caught, wherever it is."""
    errs = _diags(_tree(tmp_path, cards=cards))
    assert [e.code for e in errs] == ["load/encoding"]


def test_validate_dot_inside_a_ruleset_folder_checks_its_cards(tmp_path):
    folder = _tree(tmp_path, cards="- {name: Coin, type: Thingy}\n")
    r = subprocess.run([sys.executable, "-m", "interpreter", "validate", "."], cwd=folder, capture_output=True,
                       text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 1, r.stdout + r.stderr
    assert "unknown card type `Thingy`" in r.stdout and "no problems found" not in r.stdout


def test_extends_chain_of_1000_is_a_diagnostic(tmp_path):
    rs = tmp_path / "rulesets"
    for i in range(1000):
        (rs / f"m{i}").mkdir(parents=True)
        ext = f'\n    extends "m{i + 1}"' if i < 999 else ""
        (rs / f"m{i}" / "game.rules").write_text(f'game "M{i}":\n    players 2{ext}\n', encoding="utf-8")
    with bounded(60):
        errs = _diags(rs / "m0")
    assert "limit/extends" in [e.code for e in errs]
    e = next(e for e in errs if e.code == "limit/extends")
    assert e.loc.line == 3 and e.hint


def test_diagnostic_escapes_control_characters_and_keeps_the_caret(tmp_path):
    folder = _tree(tmp_path)
    (folder / "x.rules").write_text('procedure p():\n    log "\x1b[2J"\n    wibble\n', encoding="utf-8")
    errs = _diags(folder)
    text = "\n".join(e.format() for e in errs)
    assert "\x1b" not in text
    assert printable("a\x1b[2Jb\nc\u202e") == "a\\x1b[2Jb\\nc\\u202e"


# ---- static bounds the parser keeps (compilation stays linear in the content's size) ----------

def test_a_5000_digit_number_is_a_diagnostic_not_an_internal_error(tmp_path):
    folder = _tree(tmp_path)
    text = (folder / "game.rules").read_text().replace("you gain 1 gold", "you gain " + "9" * 5000 + " gold")
    (folder / "game.rules").write_text(text, encoding="utf-8")
    with bounded(20):
        errs = _diags(folder)
    assert [(e.code, e.loc.line, e.loc.col) for e in errs] == [("limit/number", 15, 14)]
    assert "5000 digits" in errs[0].message and "18 digits" in errs[0].hint
    text = text.replace("9" * 5000, "9" * 18)  # the largest allowed still checks clean
    (folder / "game.rules").write_text(text, encoding="utf-8")
    assert _diags(folder) == []


def test_70_nested_quantifiers_are_a_diagnostic_not_exponential_compilation(tmp_path):
    """70 nested `some ... has` once validated clean, then took exponential time to compile."""
    q = "true"
    for i in range(70):
        q = f"(some x{i} in [1, 2] has {q})"
    folder = _tree(tmp_path)
    text = (folder / "game.rules").read_text().replace("    you gain 1 gold\n", f"    if {q}:\n        you gain 1 gold\n")
    (folder / "game.rules").write_text(text, encoding="utf-8")
    with bounded(20):
        errs = _diags(folder)
    assert [e.code for e in errs] == ["limit/depth"] and "more than 8" in errs[0].message and errs[0].hint
    # 8 deep is fine, and plays at once
    q = "true"
    for i in range(8):
        q = f"(some x{i} in [1, 2] has {q})"
    (folder / "game.rules").write_text(textwrap.dedent(RULES).lstrip().replace(
        "    you gain 1 gold\n", f"    if {q}:\n        you gain 1 gold\n"), encoding="utf-8")
    from interpreter.sim.simulate import simulate
    with bounded(30):
        assert _diags(folder) == []
        assert simulate(str(folder), 2, 2, 1, ["random"])["completed"] == 2


def test_a_diagnostic_on_a_huge_line_shows_a_window_around_the_spot(tmp_path):
    folder = _tree(tmp_path)
    (folder / "long.rules").write_text("procedure p():\n    log " + "x" * 500_000 + " + \x1b[2J nonsense\n",
                                       encoding="utf-8")
    with bounded(20):
        errs = _diags(folder)
    text = errs[0].format()
    assert len(text) < 1_000 and "\x1b" not in text
    line, caret = text.splitlines()[1:3]
    assert line.startswith("    …") and caret.strip().startswith("^")
    # the caret sits under the character the location names
    shown_col = caret.index("^")
    assert line[shown_col] == errs[0].source_line[errs[0].loc.col - 1] or line[shown_col] == "\\"


def test_random_hostile_trees_give_only_diagnostics_and_read_nothing_outside(tmp_path, secret, monkeypatch):
    """A seeded slice of the file fuzzing: 40 ruleset trees sprinkled with links (inside, outside,
    dangling, looping, to devices), FIFOs, folders named like files and random bytes. Loading
    gives diagnostics only, within a bound, and opens no file outside the ruleset's folders."""
    import random
    import shutil
    import interpreter.language.untrusted as untrusted
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(untrusted.os, "open", lambda p, *a, **k: (opened.append(str(p)), real_open(p, *a, **k))[1])
    rng = random.Random(25)
    for trial in range(40):
        root = tmp_path / f"t{trial}"
        folder = _tree(root)
        cards = root / "cards" / "tiny"
        for _ in range(rng.randint(1, 4)):
            where = rng.choice([folder, cards])
            name = f"x{rng.randrange(1000)}{rng.choice(['.rules', '.yaml'])}"
            f = where / name
            if f.exists() or f.is_symlink():
                continue
            kind = rng.choice(["outside", "inside", "dangling", "loop", "device", "fifo", "folder", "bytes"])
            if kind == "outside":
                f.symlink_to(secret)
            elif kind == "inside":
                f.symlink_to(folder / "game.rules")
            elif kind == "dangling":
                f.symlink_to(where / "nothing-here")
            elif kind == "loop":
                f.symlink_to(f)
            elif kind == "device":
                f.symlink_to("/dev/zero")
            elif kind == "fifo":
                os.mkfifo(f)
            elif kind == "folder":
                f.mkdir()
            else:
                f.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))))
        opened.clear()
        with bounded(20):
            _, content = check_path(folder)
        roots = (folder.resolve(), cards.resolve())
        assert any(p.endswith("game.rules") for p in opened)  # the recording sees the loader's reads
        assert all(Path(p).resolve().is_relative_to(roots[0]) or Path(p).resolve().is_relative_to(roots[1])
                   for p in opened), opened
        text = "\n".join(d.format() for d in content.diagnostics)
        assert SECRET not in text and "Traceback" not in text
        shutil.rmtree(root)


def test_an_oversized_file_costs_at_most_its_limit_in_memory(tmp_path):
    """A 200 MB (sparse) rule file is refused after reading 1 MB + 1 byte: memory stays near the
    limit, not the file's size."""
    import tracemalloc
    folder = _tree(tmp_path)
    with open(folder / "huge.rules", "wb") as f:
        f.truncate(200_000_000)
    tracemalloc.start()
    try:
        with bounded(10):
            errs = _diags(folder)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [e.code for e in errs] == ["limit/size"] and errs[0].loc.file.endswith("huge.rules")
    assert peak < 8_000_000, peak


def test_an_if_with_thousands_of_branches_is_a_diagnostic_not_an_internal_error(tmp_path):
    """A 5,000-branch `elif` once validated clean, then broke the compiler (RecursionError)."""
    branches = "".join(f"    elif gold == {i}:\n        you gain 1 gold\n" for i in range(1, 5000))
    folder = _tree(tmp_path)
    text = (folder / "game.rules").read_text().replace(
        "    you gain 1 gold\n", "    if gold == 0:\n        you gain 1 gold\n" + branches, 1)
    (folder / "game.rules").write_text(text, encoding="utf-8")
    with bounded(30):
        errs = _diags(folder)
    assert [(e.code, e.loc.line) for e in errs] == [("limit/branches", 15)]
    assert "4999 `elif` branches" in errs[0].message and "200" in errs[0].hint


def test_tens_of_thousands_of_declarations_are_a_diagnostic_and_parse_in_linear_time(tmp_path):
    """45,000 stat declarations once took minutes (the parser copied its growing list of
    declarations at each one) and then strained the compiler; now the parse is linear and the
    ruleset is refused after 5,000 declarations, at the first one too many."""
    folder = _tree(tmp_path)
    for k in range(3):
        (folder / f"stats{k}.rules").write_text(
            "".join(f"player stat s{i} = 0\n" for i in range(k * 15_000, (k + 1) * 15_000)), encoding="utf-8")
    with bounded(60):
        errs = _diags(folder)
    assert [e.code for e in errs] == ["limit/declarations"]
    assert "more than 5000 declarations" in errs[0].message and errs[0].hint
    # the first declaration past the bound is the one named (game.rules declares 8 things first)
    assert errs[0].loc.file.endswith("stats0.rules") and errs[0].loc.line == 5_000 - 8 + 1
