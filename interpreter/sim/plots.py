"""PNG charts of a simulation report (matplotlib, drawn off-screen with the Agg backend).

Charts are drawn from the report alone (the dict `simulate` returns, or its JSON), so a saved
report can be charted again later. Each chart is one file in the output folder.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["write_plots", "CHARTS"]

CHARTS = ("win_rates.png", "scores.png", "lengths.png", "cards.png")


def write_plots(report: dict, out: str | Path) -> list[Path]:
    """Write every chart the report has data for into folder `out`; return the files written."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install matplotlib") from None
    matplotlib.use("Agg", force=True)  # files only: never open a window
    import matplotlib.pyplot as plt

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    title = f"{Path(str(report.get('ruleset', ''))).name}, {report.get('players')} players, " \
            f"{report.get('completed', 0)} games"
    written = []
    for name, draw in (("win_rates.png", _win_rates), ("scores.png", _scores), ("lengths.png", _lengths),
                       ("cards.png", _cards)):
        fig = draw(plt, report)
        if fig is None:
            continue
        fig.suptitle(title, fontsize=9)
        fig.tight_layout()
        path = folder / name
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def _win_rates(plt: Any, r: dict):
    """Per seat (and the first player): win rate with its 95% interval, against the fair share."""
    seats = r.get("seats", [])
    if not seats:
        return None
    labels = [f"seat {s['seat']}" + (" (dummy)" if s.get("dummy") else "") for s in seats]
    rates = [s["win_rate"] for s in seats]
    cis = [s["win_rate_ci95"] for s in seats]
    fp = r.get("first_player")
    if fp:
        labels.append("first player")
        rates.append(fp["win_rate"])
        cis.append(fp["win_rate_ci95"])
    err = [[max(0.0, v - lo) for v, (lo, _) in zip(rates, cis)], [max(0.0, hi - v) for v, (_, hi) in zip(rates, cis)]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar(labels, rates, yerr=err, capsize=4, color=["#4c72b0"] * len(seats) + ["#dd8452"] * bool(fp))
    playing = r.get("players") or len(seats)
    ax.axhline(1 / playing, color="grey", linestyle="--", label=f"fair share 1/{playing}")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.legend()
    return fig


def _hist(ax: Any, counts: dict, label: str, **kw: Any) -> None:
    """One bar per whole number over a short range, else 30 bins (JSON makes the keys text)."""
    from matplotlib.ticker import MaxNLocator
    xs = sorted(counts, key=float)
    values, weights = [float(x) for x in xs], [counts[x] for x in xs]
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if values[-1] - values[0] <= 40 and all(v.is_integer() for v in values):
        ax.bar(values, weights, width=0.9, alpha=0.6, label=label, **kw)
    else:
        ax.hist(values, bins=30, weights=weights, alpha=0.6, label=label, **kw)


def _scores(plt: Any, r: dict):
    """Final scores of every player, and the winning score, as histograms."""
    h = r.get("histograms", {})
    if not h.get("score"):
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    _hist(ax, h["score"], "all players")
    if h.get("winning_score"):
        _hist(ax, h["winning_score"], "winner")
    ax.set_xlabel("final score")
    ax.set_ylabel("count")
    ax.legend()
    return fig


def _lengths(plt: Any, r: dict):
    """Game length in turns, and decisions per game."""
    h = r.get("histograms", {})
    if not h.get("turns"):
        return None
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 4))
    _hist(a, h["turns"], "turns")
    a.set_xlabel("turns per game")
    a.set_ylabel("games")
    if h.get("decisions"):
        _hist(b, h["decisions"], "decisions", color="#55a868")
    b.set_xlabel("decisions per game")
    return fig


def _cards(plt: Any, r: dict, top: int = 30):
    """Per card: the win rate of the seats that took, played and ended holding it."""
    cards = r.get("cards") or {}
    if not cards:
        return None
    names = sorted(cards, key=lambda n: -max(cards[n].get("takers", 0), cards[n].get("holders", 0)))[:top]
    names.reverse()
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.3 * len(names) + 1.5)))
    ys = range(len(names))
    for k, (who, colour) in enumerate((("taker", "#4c72b0"), ("player", "#dd8452"), ("holder", "#55a868"))):
        vals = [cards[n].get(f"{who}_win_rate") or 0.0 for n in names]
        ax.barh([y + (k - 1) * 0.27 for y in ys], vals, height=0.27, color=colour, label=f"{who}s")
    playing = r.get("players") or 2
    ax.axvline(1 / playing, color="grey", linestyle="--", label="fair share")
    ax.set_yticks(list(ys))
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xlabel("win rate of the seats that took / played / ended holding the card")
    ax.set_xlim(0, 1)
    ax.legend(fontsize=8)
    return fig
