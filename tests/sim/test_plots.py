"""`simulate --plot DIR` writes real PNG charts."""
import struct

from interpreter.cli import main
from interpreter.sim.plots import CHARTS, write_plots


def _png_size(path) -> tuple[int, int]:
    """Width and height from a PNG's signature and first (IHDR) chunk; fails on anything else."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", data[16:24])


def test_simulate_plot_writes_every_chart(tmp_path, capsys):
    out = tmp_path / "charts"
    assert main(["simulate", "rulesets/tutorial_fireflies", "-n", "12", "--players", "3", "--quiet",
                 "--plot", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(CHARTS)
    for name in CHARTS:
        w, h = _png_size(out / name)
        assert w >= 300 and h >= 200
    assert "charts:" in capsys.readouterr().out


def test_charts_need_only_the_report(tmp_path):
    """A report without games (every one failed) gives the charts it can, without failing."""
    report = {"ruleset": "x", "players": 2, "completed": 0, "seats": [], "histograms": {}, "cards": {}}
    assert write_plots(report, tmp_path / "empty") == []


def test_score_histograms_share_bins_and_colours(tmp_path):
    """All players' and winners' scores are drawn with one bin width and two different colours,
    and the legend gives each sample size; card charts label every bar with its sample size."""
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    from interpreter.sim.plots import _cards, _scores
    wide = {str(v): 1 for v in range(0, 300, 7)}  # too wide for a bar per value: shared bins
    report = {"histograms": {"score": wide, "winning_score": {"150": 2, "293": 1}}, "players": 2}
    fig = _scores(plt, report)
    ax = fig.axes[0]
    patches = [p for p in ax.patches]
    widths = {round(p.get_width(), 6) for p in patches}
    assert len(widths) == 1  # one bin width for both series
    assert len({p.get_facecolor()[:3] for p in patches}) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["all players (n=43)", "winner (n=3)"]
    plt.close(fig)
    cards = {"Gem (value 1)": {"games": 10, "games_moved": 8, "takers": 12, "taker_win_rate": 0.5,
                               "taker_win_rate_ci95": [0.25, 0.75], "movers": 12, "mover_win_rate": 0.5,
                               "mover_win_rate_ci95": [0.25, 0.75], "players": 0, "holders": 0}}
    fig = _cards(plt, {"cards": cards, "players": 2})
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("n=12") == 2
    assert "Gem (value 1) (8/10 games)" in [t.get_text() for t in fig.axes[0].get_yticklabels()]
    plt.close(fig)


def test_sweep_chart(tmp_path, capsys):
    assert main(["sweep", "rulesets/tutorial_fireflies", "--players", "2,3", "-n", "6", "--quiet",
                 "--plot", str(tmp_path)]) == 0
    w, h = _png_size(tmp_path / "sweep.png")
    assert w >= 500 and h >= 300
    assert "chart:" in capsys.readouterr().out
