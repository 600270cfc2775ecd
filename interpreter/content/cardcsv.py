"""Card lists kept as spreadsheets: a `.csv` file in a ruleset's card folder, one card a row.

Designers who lay out cards with nanDECK or Squib keep their card data in a spreadsheet; Grimoire
reads the same file. The first row names the columns (`name`, `type`, `copies`, `effect` and the
card type's fields); every other row is a card. A cell is read as a plain YAML value would be: a
whole number is a number, `true`/`false` a flag, anything else text; an empty cell is left out
(the field's default applies). Each card becomes the same mapping a YAML card file gives, with
the position of every cell, so diagnostics point at the row and column of the cell at fault.
"""
from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.comments import CommentedMap

from ..language.diagnostics import Loc

__all__ = ["csv_cards", "CsvProblem"]

_INT = re.compile(r"-?[0-9]+")
MAX_COLUMNS = 200


class CsvProblem(ValueError):
    """A CSV file that cannot be read as cards: the message, its 1-based line and column, a hint."""

    def __init__(self, message: str, line: int, col: int, hint: str):
        super().__init__(message)
        self.message, self.line, self.col, self.hint = message, line, col, hint


def csv_cards(text: str, file: str) -> list[tuple[CommentedMap, Loc]]:
    """Every data row of `text` as (a card mapping with cell positions, the row's location)."""
    rows = _records(text)
    if not rows:
        return []
    header = rows[0]
    names = [cell for cell, _, _ in header]
    for cell, line, col in header:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", cell):
            raise CsvProblem(f"column name {cell!r} is not a field name", line, col,
                             "the first row names the columns: name, type, copies, effect and the card's fields")
    seen: set[str] = set()
    for cell, line, col in header:
        if cell in seen:
            raise CsvProblem(f"column `{cell}` appears twice", line, col, "name each column once")
        seen.add(cell)
    if len(names) > MAX_COLUMNS:
        raise CsvProblem(f"{len(names)} columns", header[0][1], 1, f"a card file has at most {MAX_COLUMNS} columns")
    cards = []
    for row in rows[1:]:
        if all(not cell.strip() for cell, _, _ in row):
            continue  # a blank line between groups of cards
        first_line, first_col = row[0][1], row[0][2]
        if len(row) > len(names):
            cell, line, col = row[len(names)]
            raise CsvProblem(f"this row has {len(row)} cells but the first row names {len(names)} columns",
                             line, col, "add a column name to the first row, or remove the extra cell")
        entry = CommentedMap()
        for (key, key_line, key_col), (cell, line, col) in zip(header, row):
            if cell.strip() == "":
                continue
            entry[key] = _value(cell)
            entry.lc.add_kv_line_col(key, [key_line - 1, key_col - 1, line - 1, col - 1])
        cards.append((entry, Loc(file, first_line, first_col)))
    return cards


def _value(cell: str) -> Any:
    """A cell as a plain YAML scalar reads: a whole number, a flag, or text."""
    text = cell.strip()
    if _INT.fullmatch(text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    return cell if "\n" in cell else text  # an effect keeps its lines


def _records(text: str) -> list[list[tuple[str, int, int]]]:
    """RFC 4180 records: each cell's text and the 1-based line and column where it starts.
    Quoted cells may hold commas, doubled quotes and line breaks."""
    records: list[list[tuple[str, int, int]]] = []
    row: list[tuple[str, int, int]] = []
    i, n, line, col = 0, len(text), 1, 1
    while i < n or row:
        start_line, start_col = line, col
        if i < n and text[i] == '"':
            i, col = i + 1, col + 1
            chars = []
            while True:
                if i >= n:
                    raise CsvProblem("a quoted cell is never closed", start_line, start_col,
                                     'close it with `"`; write a quote inside a cell as `""`')
                ch = text[i]
                if ch == '"':
                    if i + 1 < n and text[i + 1] == '"':
                        chars.append('"')
                        i, col = i + 2, col + 2
                        continue
                    i, col = i + 1, col + 1
                    break
                chars.append(ch)
                i += 1
                line, col = (line + 1, 1) if ch == "\n" else (line, col + 1)
            cell = "".join(chars).replace("\r\n", "\n")
            if i < n and text[i] not in ",\r\n":
                raise CsvProblem("text after a quoted cell", line, col, "put the whole cell in quotes")
        else:
            j = i
            while j < n and text[j] not in ",\r\n":
                j += 1
            cell, col, i = text[i:j], col + (j - i), j
        row.append((cell, start_line, start_col))
        if i < n and text[i] == ",":
            i, col = i + 1, col + 1
            continue
        if i < n and text[i] == "\r":
            i += 1
        if i < n and text[i] == "\n":
            i += 1
        line, col = line + 1, 1
        records.append(row)
        row = []
        if i >= n:
            break
    return records
