"""The libyaml fast path of the card loader must give exactly what ruamel's own parser gives:
values, their types (quote styles, `|` blocks), and every key's and item's position."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.mergevalue import merge_attrib

from interpreter.content import loader
from interpreter.content.yamldirect import Unusual

ROOT = Path(__file__).resolve().parents[2]
CARD_FILES = sorted((ROOT / "cards").rglob("*.y*ml"))


def _same(fast, slow, path: str) -> None:
    assert type(fast) is type(slow), path
    if isinstance(fast, (CommentedMap, CommentedSeq)):
        assert (fast.lc.line, fast.lc.col, fast.lc.data) == (slow.lc.line, slow.lc.col, slow.lc.data), path
        assert fast.anchor.value == slow.anchor.value, path
        assert fast.fa.flow_style() == slow.fa.flow_style(), path
        merged = [getattr(x, merge_attrib, None) for x in (fast, slow)]
        assert [(m.merge_pos, len(m), [list(v) for v in m.value]) if m else None for m in merged][0] == \
            [(m.merge_pos, len(m), [list(v) for v in m.value]) if m else None for m in merged][1], path
        if isinstance(fast, CommentedMap):
            assert fast._ok == slow._ok, path  # its own keys, not the merged ones
        if isinstance(fast, CommentedMap):
            assert list(fast) == list(slow), path
            for k in fast:
                _same(fast[k], slow[k], f"{path}/{k}")
        else:
            assert len(fast) == len(slow), path
            for i, (a, b) in enumerate(zip(fast, slow)):
                _same(a, b, f"{path}/{i}")
    else:
        assert fast == slow, path


def _both(text: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return loader._fast_load(text), loader._yaml().load(text)


@pytest.mark.skipif(loader._CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_card_files_load_identically(path: Path) -> None:
    """Every shipped file, anchors and merges included, is built straight from libyaml's events
    (content/yamldirect.py: `Unusual` would fail here), and gives what ruamel gives."""
    text = path.read_text(encoding="utf-8")
    _same(loader._direct_load(text), _both(text)[1], path.name)
    assert loader._fast_load(text) is not loader._SLOW


@pytest.mark.skipif(loader._CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", [
    "a: &x 5\nb: *x\nc: &s text\nd: [*s, *x]\n",  # anchored scalars keep ruamel's anchored types
    "a: &m {p: 1}\nb: *m\nc:\n  - *m\n  - &l [1, 2]\n  - *l\n",  # an alias's place is its anchor's
    "- <<: [&a {x: 1}, &b {y: 2}]\n  x: 3\n- {<<: *a, z: 0}\n",
    "- [0, 00, +5, -3, 1.5, 2001-12-14, 0x1F, '7', \"8\", True, FALSE, Null, ~]\n",
    "- effect: >\n    a\n    b\n- effect: |\n    a\n    b\n- id001: &id001 {a: 1}\n",
    "1: a\n-2: b\n'3': c\n",
])
def test_the_direct_pass_builds_what_ruamel_builds(text: str) -> None:
    _same(loader._direct_load(text), _both(text)[1], "doc")


@pytest.mark.skipif(loader._CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n",  # a duplicate key: ruamel words it
    "a: &a [*a]\n",  # an alias inside its own anchor
    "a: *nowhere\n",
    "a:\n  <<: 5\n",  # nothing to merge
    "a: {<<: {x: 1}, <<: {y: 2}}\n",
    "? [a, b]\n: c\n",  # a list as a key
    "- !!str 5\n",
    "- name:\n",
])
def test_the_direct_pass_declines_what_ruamel_must_read_or_word(text: str) -> None:
    with pytest.raises(Unusual):
        loader._direct_load(text)


@pytest.mark.skipif(loader._CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", [
    "base: &b {a: 1, b: 'q'}\nc:\n  - <<: *b\n    x: \"2\"\n  - <<: [*b]\n    a: 3\n",
    "- [yes, no, on, true, ~, 0o17, 012, 1_000, .inf, 0x1F, 1e3, -0, '5']\n",
    "- effect: >\n    a\n    b\n\n    c\n- x: |+\n    a\n\n- y: |-\n    b\n",
    "a: &a [*a]\n",  # ruamel reads the alias inside its own anchor as null
    "- name: a\r\n  type: b\r\n",
    "1: a\n2.5: b\n~: c\n",
])
def test_unusual_but_valid_yaml_loads_identically(text: str) -> None:
    fast, slow = _both(text)
    assert fast is not loader._SLOW
    _same(fast, slow, "doc")


@pytest.mark.parametrize("text", [
    "- name:\ta\n",  # ruamel refuses this tab, libyaml would not
    "- name:\n  type: b\n",  # an empty value: ruamel places it at the next token
    "%YAML 1.1\n---\n- yes\n",  # a directive changes how values read
    "- !!str 5\n",  # tags are refused by `_not_plain_data` with ruamel's tag objects
    "- a\n---\n- b\n",  # errors are worded by ruamel
    "- name: [a, b\n",
])
def test_files_ruamel_reads_differently_take_the_slow_path(text: str) -> None:
    assert loader._fast_load(text) is loader._SLOW
