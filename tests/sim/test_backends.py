"""Batches give the same games whatever runs them: one process, two worker processes, or Ray."""
import builtins
import importlib.util

import pytest

from interpreter.sim.backends import BackendError, run_chunks
from interpreter.cli import main
from interpreter.sim.simulate import simulate

FIREFLIES = "rulesets/tutorial_fireflies"


def _games(report: dict) -> list[tuple]:
    return [(r["index"], r["seed"], r["error"], r["decisions"], r.get("scores"), r.get("winners"), r.get("taken"))
            for r in report["per_game"]]


def test_one_and_two_workers_play_identical_games():
    """Each game's seed depends on (master seed, index) only: chunking and order do not matter."""
    one = simulate(FIREFLIES, 12, 3, 5, ["random"], workers=1, per_game=True)
    two = simulate(FIREFLIES, 12, 3, 5, ["random"], workers=2, per_game=True)
    assert [g[0] for g in _games(one)] == list(range(12))
    assert _games(one) == _games(two)
    assert len({g[1] for g in _games(one)}) == 12  # twelve different games, not one repeated
    assert one["seats"] == two["seats"] and one["cards"] == two["cards"]


def test_one_process_without_progress_plays_the_batch_in_one_chunk(monkeypatch):
    """Each chunk sets the memory limit and the time alarm up again: a batch this process plays
    with no progress to show is one chunk (up to 200 games), the same games as in many chunks,
    while a progress bar still moves every few games."""
    import interpreter.sim.simulate as sim
    sizes: list[int] = []
    played = sim.run_chunk
    monkeypatch.setattr(sim, "run_chunk", lambda *a: sizes.append(len(a[-1])) or played(*a))  # (the chunk last)
    quiet = simulate(FIREFLIES, 24, 3, 5, ["random"], per_game=True)
    assert sizes == [24]
    sizes.clear()
    shown: list[int] = []
    moving = simulate(FIREFLIES, 24, 3, 5, ["random"], per_game=True, progress=shown.append)
    assert sizes == [3] * 8 and shown == [3] * 8
    assert _games(quiet) == _games(moving)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_backend_plays_the_same_games_as_local_workers():
    """A private Ray cluster (2 CPUs, no dashboard), started and stopped by the batch itself."""
    import ray
    on_ray = simulate(FIREFLIES, 6, 2, 9, ["random"], workers=2, backend="ray", per_game=True)
    assert not ray.is_initialized()
    local = simulate(FIREFLIES, 6, 2, 9, ["random"], workers=1, per_game=True)
    assert on_ray["timing"]["backend"] == "ray"
    assert _games(on_ray) == _games(local)


def test_missing_ray_is_a_plain_error(monkeypatch, capsys):
    """Without Ray installed, `--backend ray` says what to install instead of a traceback."""
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(BackendError, match=r"pip install 'grimoire\[ray\]'"):
        run_chunks(lambda c: [], (), [[0]], backend="ray")
    assert main(["simulate", FIREFLIES, "-n", "2", "--backend", "ray", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "needs Ray" in err and "Traceback" not in err


def test_unknown_backend_is_rejected():
    with pytest.raises(BackendError, match="unknown backend"):
        run_chunks(lambda c: [], (), [[0]], backend="carrier-pigeon")
