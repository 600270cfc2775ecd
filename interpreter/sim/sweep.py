"""Parameter sweeps: one simulation batch per combination of ruleset (variant), player count and
parameter values, tabulated side by side.

Every batch uses the same master seed, so batches differ only by the swept parameter (common
random numbers: differences between rows are not sampling noise in the deal, as far as the
changed rule leaves the random stream alone).
"""
from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Callable, Sequence

from .simulate import simulate
from ..play.variants import parse_value

__all__ = ["parse_param", "sweep", "format_table"]


def parse_param(text: str) -> tuple[str, list[Any]]:
    """`NAME=V1,V2,...` → (NAME, [values]); NAME is a constant or Card.field (see `variants`)."""
    target, sep, values = text.partition("=")
    items = [v for v in values.split(",") if v.strip()]
    if not sep or not target.strip() or not items:
        raise ValueError(f"--param {text}: write NAME=V1,V2,... (a constant, or Card.field)")
    return target.strip(), [parse_value(v) for v in items]


def sweep(rulesets: Sequence[str], players: Sequence[int], params: Sequence[tuple[str, list[Any]]], n: int,
          seed: int, agents: Sequence[str], workers: int = 1, backend: str = "local", address: str | None = None,
          progress: Callable[[int], None] | None = None, **limits: Any) -> dict:
    """Run a batch of `n` games for each (ruleset, player count, parameter values) combination."""
    names = [p for p, _ in params]
    rows = []
    for ruleset, count, values in itertools.product(rulesets, players, itertools.product(*[v for _, v in params])):
        overrides = tuple(zip(names, values))
        rep = simulate(ruleset, n, count, seed, agents, workers, progress=progress, backend=backend,
                       address=address, overrides=overrides, **limits)
        rows.append({"ruleset": ruleset, "players": count, "params": dict(overrides), "report": rep})
    return {"games_per_batch": n, "seed": seed, "agents": list(agents), "swept": names, "batches": rows}


def _rate(rate: float, ci: list[float] | None) -> str:
    """A win rate and its 95% interval: `0.52 (0.40-0.63)`."""
    return f"{rate:.2f} ({ci[0]:.2f}-{ci[1]:.2f})" if ci else f"{rate:.2f}"


def _cell(rep: dict) -> dict[str, str]:
    seats = " ".join(_rate(s["win_rate"], s.get("win_rate_ci95")) for s in rep["seats"])
    fp = rep["first_player"]
    fair = rep.get("fairness", {}).get("seats")
    ends = rep.get("endings") or {}
    return {"errors": str(len(rep["errors"])), "seat win rates (95%)": seats,
            "seats p": f"{fair['p_value']:.3f}" if fair else "-",
            "1st player": f"{_rate(fp['win_rate'], fp.get('win_rate_ci95'))}/{fp['fair_share']:.2f}",
            "capped": f"{ends['capped_share']:.0%}" if ends else "-",
            "mean score": f"{rep['score'].get('mean', '-')}", "win score": f"{rep['winning_score'].get('mean', '-')}",
            "turns": f"{rep['turns'].get('mean', '-')}",
            "decisions per turn": f"{rep['decisions_per_turn'].get('mean', '-')}"}


def format_table(result: dict) -> str:
    """A plain-text table: one line per batch, the swept values first."""
    batches = result["batches"]
    several = len({b["ruleset"] for b in batches}) > 1
    header = (["ruleset"] if several else []) + ["players"] + result["swept"]
    lines = []
    for b in batches:
        row = ([Path(b["ruleset"]).name] if several else []) + [str(b["players"])] + \
              [str(b["params"][k]) for k in result["swept"]]
        lines.append(row + list(_cell(b["report"]).values()))
    if batches:
        header += list(_cell(batches[0]["report"]))
    widths = [max(len(h), *(len(r[i]) for r in lines)) for i, h in enumerate(header)] if lines else []
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in lines]
    out.append(f"{result['games_per_batch']} games per batch, seed {result['seed']}, agents "
               f"{','.join(result['agents'])}; win rates with 95% intervals; seats p: chi-square test of equal "
               "seat win rates; 1st player: win rate / fair share; capped: games that hit a cap or a limit")
    return "\n".join(out)
