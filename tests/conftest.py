"""Shared pytest set-up. The helper modules of tests/ — rulekit (tiny rulesets, building and
playing them), golden_games (hash fingerprints) and transcripts (readable golden games) — are
importable from every test file, wherever it sits under tests/; test files import only those,
never another test file (tests/test_suite_layout.py checks it)."""
from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
