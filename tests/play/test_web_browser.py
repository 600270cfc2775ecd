"""`grimoire serve` in a real browser: the command runs in a subprocess on a free loopback port and
Debian's headless `chromium` (driven by Selenium through the system `chromedriver`; nothing is
downloaded) opens each person's seat in its own window. Two people play a whole game of the
tutorial and a few turns of a second ruleset by clicking the decision buttons; after every answer
neither page holds a card its seat may not see. Screenshots go to the test's tmp folder
(GRIMOIRE_DOCS_SCREENSHOTS=1 also writes the ones in docs/images/).

CI installs chromium (.ci/run) and sets GRIMOIRE_BROWSER_TESTS=required, so there a missing browser
fails the test; on a developer machine without it, the test is skipped saying so."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
WAIT_S = 15  # for a page to catch up with the game (it is told within a fraction of a second)


def _browser_missing() -> str | None:
    if CHROMIUM and DRIVER:
        if importlib.util.find_spec("selenium") is None:
            return "selenium is not installed (pip install -e '.[test]')"
        return None
    return "Debian's chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"


@pytest.fixture(scope="module")
def browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("GRIMOIRE_BROWSER_TESTS") == "required":
            pytest.fail(missing)
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--disable-gpu", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    yield driver
    driver.quit()


class Server:
    """`grimoire serve` in a subprocess; the addresses it prints, and the designer's API."""

    def __init__(self, *args: str):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", *args, "--port", str(port),
                                      "--designer"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.seats: dict[int, str] = {}
        self.designer = ""
        for line in self.proc.stdout:
            m = re.match(r"\s+player (\d+) \(human\): (http://127\.0\.0\.1:\d+/seat/\S+)", line)
            if m:
                self.seats[int(m.group(1))] = m.group(2)
            m = re.match(r"\s+designer: (http://\S+/designer/(\S+))", line)
            if m:
                self.designer, token = m.group(1), m.group(2)
                self.api = f"http://127.0.0.1:{port}/api/{token}"
                break
        assert self.designer, "serve printed no designer address"
        for _ in range(100):  # until it listens
            try:
                self.state()
                break
            except OSError:
                time.sleep(0.1)

    def state(self) -> dict:
        with urllib.request.urlopen(self.api + "/state", timeout=10) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def unseen(full: dict, seat: int) -> set[str]:
    """From the designer's full state: labels (and wholly hidden names) of the cards `seat` may not
    see — in hidden zones and in other players' `owner` zones — unless the same is visible to it."""
    hidden, shown = set(), set()
    for z in full["zones"]:
        mine = z["visibility"] == "public" or (z["visibility"] == "owner" and z["owner"] == seat)
        cards = [c for row in z["rows"] for c in row] if "rows" in z else z["cards"]
        for c in cards:
            (shown if mine else hidden).update({c["label"], "name:" + c["name"]})
    return {h.removeprefix("name:") for h in hidden - shown}


def assert_page_hides(browser, seat: int, full: dict) -> None:
    """The current window's page (seat `seat`) holds no card that seat may not see in `full`."""
    page = browser.page_source
    leaked = {h for h in unseen(full, seat) if re.search(rf"(?<!\w){re.escape(h)}(?!\w)", page)}
    assert not leaked, f"player {seat}'s page shows cards it may not see: {leaked}"


def assert_pages_hide(browser, windows: dict[int, str], server: Server) -> None:
    full = server.state()
    for seat, handle in windows.items():
        browser.switch_to.window(handle)
        assert_page_hides(browser, seat, full)


def until(browser, condition) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, WAIT_S, poll_frequency=0.05).until(condition)


def wait_for(browser, handle: str, step: int, mine: bool) -> None:
    """Until the page in `handle` shows answer `step` (and whether the decision is its seat's)."""
    from selenium.webdriver.common.by import By
    browser.switch_to.window(handle)
    want = "1" if mine else "0"

    def ready(d) -> bool:
        s = d.find_element(By.ID, "status")
        return s.get_attribute("data-step") == str(step) and s.get_attribute("data-mine") == want
    until(browser, ready)


def play(browser, server: Server, windows: dict[int, str], pick, max_answers: int | None = None) -> int:
    """Answer every decision from the page of the seat that must decide; before each answer, every
    page has caught up with the game and holds no card its seat may not see. `pick(labels)` chooses
    a button. The number of answers given."""
    from selenium.webdriver.common.by import By
    answers = 0
    while True:
        full = server.state()
        if full["over"] or (max_answers is not None and answers >= max_answers):
            assert_pages_hide(browser, windows, server)
            return answers
        player, step = full["decision"]["player"], full["step"]
        assert player in windows, f"a bot's decision was left pending for player {player}"
        for seat in sorted(windows, key=lambda s: s == player):  # the deciding page last: it is clicked
            wait_for(browser, windows[seat], step, mine=seat == player)
            assert_page_hides(browser, seat, full)
        buttons = browser.find_elements(By.CSS_SELECTOR, "button.option")
        buttons[pick([b.text for b in buttons])].click()
        answers += 1
        deadline = time.monotonic() + WAIT_S
        while (now := server.state())["step"] == step and not now["over"]:
            assert time.monotonic() < deadline, "the click did not answer the decision"
            time.sleep(0.05)


def open_seats(browser, server: Server) -> dict[int, str]:
    windows = {}
    for seat, url in sorted(server.seats.items()):
        if windows:
            browser.switch_to.new_window("window")
        browser.get(url)
        windows[seat] = browser.current_window_handle
    return windows


def shoot(browser, handle: str, path: Path, docs_name: str | None = None) -> None:
    browser.switch_to.window(handle)
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 10_000  # a drawn page, not a blank one
    if docs_name and os.environ.get("GRIMOIRE_DOCS_SCREENSHOTS") == "1":
        shutil.copy(path, ROOT / "docs" / "images" / docs_name)


def close_extra_windows(browser) -> None:
    for handle in browser.window_handles[1:]:
        browser.switch_to.window(handle)
        browser.close()
    browser.switch_to.window(browser.window_handles[0])


def test_two_people_play_the_tutorial_to_the_end_in_two_pages(browser, tmp_path):
    from selenium.webdriver.common.by import By
    server = Server("rulesets/tutorial_fireflies", "--seed", "3")
    try:
        windows = open_seats(browser, server)
        assert sorted(windows) == [1, 2]
        assert_pages_hide(browser, windows, server)
        # catch while the jar is small, then stop: the game runs until the deck is empty
        answers = play(browser, server, windows, pick=lambda labels: 0)
        full = server.state()
        assert full["over"] and full["result"]["winners"] and answers >= 10
        for seat, handle in windows.items():
            browser.switch_to.window(handle)
            until(browser, lambda d: d.find_element(By.ID, "status").get_attribute("data-over") == "1")
            result = browser.find_element(By.ID, "result").text
            assert "winner" in result and "player 1:" in result and "player 2:" in result
            narration = browser.find_element(By.ID, "narration").text
            assert "game over" in narration
            shoot(browser, handle, tmp_path / f"fireflies-player{seat}.png",
                  "serve-fireflies.png" if seat == 1 else None)
    finally:
        close_extra_windows(browser)
        server.stop()


def test_a_few_turns_of_a_second_game_with_a_bot_and_the_designer_page(browser, tmp_path):
    from selenium.webdriver.common.by import By
    server = Server("rulesets/toil_and_troublez", "--players", "3", "--seat", "3=bot", "--seed", "2")
    try:
        assert sorted(server.seats) == [1, 2]  # the bot's seat has no address
        windows = open_seats(browser, server)
        turn0 = server.state()["turn"]
        # draw once, then stop: each person's turn is two or three clicks
        answers = play(browser, server, windows, pick=lambda labels: 1 if "no" in labels else 0, max_answers=12)
        full = server.state()
        assert answers == 12 and full["turn"] >= turn0 + 3 and not full["stopped_by"]
        # the bot's moves are narrated on a person's page
        browser.switch_to.window(windows[1])
        assert "player 3:" in browser.find_element(By.ID, "narration").text
        shoot(browser, windows[1], tmp_path / "toil-player1.png", "serve-toil-and-troublez.png")
        shoot(browser, windows[2], tmp_path / "toil-player2.png")
        # the designer's page: step back one answer, the seats' pages follow
        browser.switch_to.new_window("window")
        browser.get(server.designer)
        step = full["step"]
        until(browser, lambda d: d.find_element(By.ID, "d-back").is_displayed())  # once the state has loaded
        browser.find_element(By.ID, "d-back").click()
        deadline = time.monotonic() + WAIT_S
        while server.state()["step"] != step - 1:
            assert time.monotonic() < deadline, "step back did not rewind the game"
            time.sleep(0.05)
        until(browser, lambda d: f"answer {step - 1} of {step}" in d.find_element(By.ID, "d-at").text)
        shoot(browser, browser.current_window_handle, tmp_path / "toil-designer.png", "serve-designer.png")
        player = server.state()["decision"]["player"]
        if player in windows:
            wait_for(browser, windows[player], step - 1, mine=True)
        assert_pages_hide(browser, windows, server)
    finally:
        close_extra_windows(browser)
        server.stop()
