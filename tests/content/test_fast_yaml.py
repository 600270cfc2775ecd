"""The libyaml fast path of the card loader must give exactly what ruamel's own parser gives:
values, their types (quote styles, `|` blocks), and every key's and item's position."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from interpreter.content import loader

ROOT = Path(__file__).resolve().parents[2]
CARD_FILES = sorted((ROOT / "cards").rglob("*.y*ml"))


def _same(fast, slow, path: str) -> None:
    assert type(fast) is type(slow), path
    if isinstance(fast, (CommentedMap, CommentedSeq)):
        assert (fast.lc.line, fast.lc.col, fast.lc.data) == (slow.lc.line, slow.lc.col, slow.lc.data), path
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
    fast, slow = _both(path.read_text(encoding="utf-8"))
    assert fast is not loader._SLOW, "a shipped card file should take the fast path"
    _same(fast, slow, path.name)


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
