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
