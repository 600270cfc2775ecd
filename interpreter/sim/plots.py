"""PNG charts of a simulation report (matplotlib, drawn off-screen with the Agg backend).

Charts are drawn from the report alone (the dict `simulate` returns, or its JSON), so a saved
report can be charted again later. Each chart is one file in the output folder.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["write_plots", "write_sweep_plot", "CHARTS"]

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


SCORE_COLOURS = ("#4c72b0", "#dd8452")  # all players, winners: distinct, and readable when they overlap


def _bins(values: list[float]) -> tuple[bool, Any]:
    """One binning for every series of a chart: whole numbers over a short range get one bar per
    value; anything else 30 equal bins over the whole range of all series."""
    import numpy as np
    lo, hi = min(values), max(values)
    if hi - lo <= 40 and all(float(v).is_integer() for v in values):
        return True, None
    return False, np.histogram_bin_edges(values, bins=30)


def _hist(ax: Any, counts: dict, label: str, binning: tuple[bool, Any] | None = None, offset: float = 0.0,
          width: float = 0.9, **kw: Any) -> None:
    """A histogram of value → count (JSON makes the keys text) with the given binning (see `_bins`)."""
    from matplotlib.ticker import MaxNLocator
    xs = sorted(counts, key=float)
    values, weights = [float(x) for x in xs], [counts[x] for x in xs]
    whole, edges = binning or _bins(values)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if whole:
        ax.bar([v + offset for v in values], weights, width=width, alpha=0.85, label=label, **kw)
    else:
        ax.hist(values, bins=edges, weights=weights, alpha=0.6, label=label, **kw)


def _scores(plt: Any, r: dict):
    """Final scores of every player, and the winning score, as histograms with the same bins and
    distinct colours (side by side for whole-number scores)."""
    h = r.get("histograms", {})
    if not h.get("score"):
        return None
    series = [("all players", h["score"])] + ([("winner", h["winning_score"])] if h.get("winning_score") else [])
    binning = _bins([float(x) for _, c in series for x in c])
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.9 / len(series)
    for k, (label, counts) in enumerate(series):
        n = sum(counts.values())
        _hist(ax, counts, f"{label} (n={n})", binning, offset=(k - (len(series) - 1) / 2) * width if binning[0] else 0,
              width=width, color=SCORE_COLOURS[k])
    ax.set_xlabel("final score" + ("" if binning[0] else f" (bins of {binning[1][1] - binning[1][0]:.3g})"))
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


_CARD_FIGURES = (("taker", "takers", "#4c72b0"), ("player", "players", "#dd8452"),
                 ("mover", "movers", "#8172b3"), ("holder", "holders", "#55a868"))


def _cards(plt: Any, r: dict, top: int = 30):
    """Per card: the win rate of the seats that took, played, moved and ended holding it, with its
    95% interval; each bar is labelled with its sample size (seat-games)."""
    cards = r.get("cards") or {}
    if not cards:
        return None
    names = sorted(cards, key=lambda n: (-max(cards[n].get("takers", 0), cards[n].get("holders", 0),
                                              cards[n].get("movers", 0)), n))[:top]
    names.reverse()
    fig, ax = plt.subplots(figsize=(9, max(3.0, 0.45 * len(names) + 1.5)))
    ys = range(len(names))
    h = 0.8 / len(_CARD_FIGURES)
    for k, (who, count, colour) in enumerate(_CARD_FIGURES):
        pos = [y + (k - (len(_CARD_FIGURES) - 1) / 2) * h for y in ys]
        vals = [cards[n].get(f"{who}_win_rate") or 0.0 for n in names]
        cis = [cards[n].get(f"{who}_win_rate_ci95") or [v, v] for n, v in zip(names, vals)]
        err = [[max(0.0, v - lo) for v, (lo, _) in zip(vals, cis)], [max(0.0, hi - v) for v, (_, hi) in zip(vals, cis)]]
        ax.barh(pos, vals, height=h, color=colour, xerr=err, error_kw={"elinewidth": 0.6, "capsize": 1.5},
                label=count)
        for y, n, v in zip(pos, names, vals):
            size = cards[n].get(count, 0)
            if size:
                ax.text(min(v, 0.9) + 0.01, y, f"n={size}", va="center", fontsize=5)
    playing = r.get("players") or 2
    ax.axvline(1 / playing, color="grey", linestyle="--", label="fair share")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([f"{n} ({cards[n].get('games_moved', 0)}/{cards[n].get('games', r.get('completed', 0))} games)"
                        for n in names], fontsize=7)
    ax.set_xlabel("win rate (95% interval) of the seat-games that took / played / moved / ended holding the card; "
                  "n = seat-games", fontsize=8)
    ax.set_xlim(0, 1)
    ax.legend(fontsize=7)
    return fig


def write_sweep_plot(result: dict, out: str | Path) -> Path:
    """`sweep --plot DIR`: one chart of every batch's seat win rates (and the first player's) with
    their 95% intervals, each batch against its fair share; written as `sweep.png`."""
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    batches = result["batches"]
    several = len({b["ruleset"] for b in batches}) > 1
    labels = [", ".join(([Path(b["ruleset"]).name] if several else []) + [f"{b['players']}p"]
                        + [f"{k}={v}" for k, v in b["params"].items()]) for b in batches]
    width_seats = max((len(b["report"]["seats"]) for b in batches), default=1) + 1
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(batches) + 2), 4.5))
    bar = 0.8 / width_seats
    cmap = plt.get_cmap("tab10")
    for i, b in enumerate(batches):
        rep = b["report"]
        items = [(f"seat {s['seat']}", s["win_rate"], s["win_rate_ci95"], cmap((s["seat"] - 1) % 10))
                 for s in rep["seats"]]
        fp = rep.get("first_player")
        if fp:
            items.append(("first player", fp["win_rate"], fp["win_rate_ci95"], "black"))
        for k, (label, rate, (lo, hi), colour) in enumerate(items):
            x = i + (k - (len(items) - 1) / 2) * bar
            ax.bar(x, rate, width=bar, color=colour, yerr=[[max(0.0, rate - lo)], [max(0.0, hi - rate)]], capsize=2,
                   label=label if label not in ax.get_legend_handles_labels()[1] else None,
                   alpha=0.5 if label == "first player" else 1.0)
        ax.hlines(1 / b["players"], i - 0.45, i + 0.45, colors="grey", linestyles="--",
                  label="fair share" if i == 0 else None)
    ax.set_xticks(list(range(len(batches))))
    ax.set_xticklabels(labels, fontsize=8, rotation=20 if len(batches) > 6 else 0)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, ncol=2)
    fig.suptitle(f"sweep: {result['games_per_batch']} games per batch, seed {result['seed']}, agents "
                 f"{','.join(result['agents'])}", fontsize=9)
    fig.tight_layout()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sweep.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
