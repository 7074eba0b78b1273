"""The explorer's tournament page as a person uses it: headless Chromium
(Debian's chromium + chromium-driver through python3-selenium) against a
qipu-coordinator --http whose database holds a tournament a director ran
with `qipu tournament` (names in two scripts, a draw, a withdrawal with
its forfeit, a result changed with --force).

The list shows the event; following it, the crosstable equals `qipu
tournament crosstable --json` cell by cell (opponent's rank, result,
colour) with the names as registered in both scripts, and the standings
equal `qipu tournament standings --json`; a URL with an unknown id shows
the API's error. The page is read-only: it has no form and no button.

Screenshots go to $QIPU_BINARY_DIR/tests/web/screenshots/ (the build tree).
"""

import json
import os
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__),
                                "../../ops/fleet"))
sys.path.insert(0, os.path.dirname(__file__))
import fleet_testing as ft  # noqa: E402
from browser_testing import Explorer, chromium, shot, wait  # noqa: E402

PLAYERS = [("Li Wei", "李偉", "5d"), ("Wang Fang", "王芳", "4d"),
           ("Zhang Min", "張敏", "3d"), ("Chen Jie", "", "2d"),
           ("Liu Yang", "劉洋", "1d"), ("Zhao Lei", "趙磊", "1k")]


def run(qipu, *args):
    r = subprocess.run([qipu, "tournament", *args], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, (args, r.stderr)
    return r.stdout


def run_json(qipu, *args):
    return json.loads(run(qipu, *args, "--json").strip().splitlines()[-1])


@pytest.fixture(scope="module")
def server():
    qipu = ft.qipu_bin()
    coordinator = ft.coordinator_bin()
    tmp = tempfile.TemporaryDirectory(prefix="qipu-tournament-browser-")
    db = ["--db", os.path.join(tmp.name, "db")]
    tid = run_json(qipu, "new", "--name", "Spring Open <2026>", "--system",
                   "swiss", "--rounds", "4", *db)["tournament"]
    for name, alt, rank in PLAYERS:
        run(qipu, "player", "add", "--tournament", tid, "--name", name,
            "--alt-name", alt, "--rank", rank, *db)
    results = ["B+", "draw", "W+"]
    for rnd in (1, 2, 3):
        paired = run_json(qipu, "pair", "--tournament", tid, *db)
        if rnd == 3:
            # A withdrawal forfeits the player's game of round 3.
            run(qipu, "player", "withdraw", "--tournament", tid, "--name",
                paired["pairings"][0]["black"], *db)
        for p in paired["pairings"]:
            if rnd == 3 and p["table"] == 1:
                continue
            run(qipu, "result", "--tournament", tid, "--round", str(rnd),
                "--table", str(p["table"]), "--result",
                results[(p["table"] + rnd) % 3], *db)
    # A result of round 1 changed after later rounds: only with --force.
    run(qipu, "result", "--tournament", tid, "--round", "1", "--table", "1",
        "--result", "B+", "--force", *db)
    explorer = Explorer(db[1], tmp.name)
    grpc_addr = explorer.grpc

    def tournament(*args):
        return run_json(qipu, *args, "--server", grpc_addr)

    yield {"url": explorer.url, "id": tid, "tournament": tournament}
    explorer.stop()
    tmp.cleanup()


@pytest.fixture(scope="module")
def browser():
    d = chromium()
    yield d
    d.quit()


def cells(driver, table_id):
    """The rows of a table as the page shows them (header row left out)."""
    return driver.execute_script(f"""
      return [...document.querySelectorAll('#{table_id} tr')]
        .filter((tr) => tr.querySelector('td'))
        .map((tr) => [...tr.cells].map((c) => c.textContent));
    """)


def cell_text(c):
    """A crosstable cell as `qipu tournament crosstable` prints it."""
    if not c["opponent_rank"]:
        return c["result"]
    return (f"{c['opponent_rank']}{c['result']}" +
            (f"/{c['colour']}" if c["colour"] else ""))


def test_crosstable_and_standings_match_the_commands(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server["url"] + "/tournament.html")
    wait(d, lambda d: len(cells(d, "tournament-list")) > 0, "the list")
    listed = cells(d, "tournament-list")
    assert listed == [[server["id"], "Spring Open <2026>", "swiss", "6",
                       "3/4"]], listed
    shot(d, "tournament-list")
    d.find_element(By.LINK_TEXT, "Spring Open <2026>").click()
    wait(d, lambda d: len(cells(d, "crosstable")) == 6, "the crosstable")
    shot(d, "tournament-crosstable")
    want = server["tournament"]("crosstable", "--tournament", server["id"])
    shown = server["tournament"]("show", "--tournament", server["id"])
    alt = {p["name"]: p["alt_name"] for p in shown["players"]}
    full = {n: (f"{n} {a}" if a else n) for n, a in alt.items()}
    rows = cells(d, "crosstable")
    assert len(rows) == len(want["rows"])
    for row, w in zip(rows, want["rows"]):
        assert row[:3] == [str(w["rank"]), full[w["name"]],
                           str(w["points"])], (row, w)
        assert row[3:] == [cell_text(c) for c in w["cells"]], (row, w)
    # The forfeit of the withdrawal and the draws are on the page.
    flat = [c for row in rows for c in row[3:]]
    assert any(c.endswith("+!/b") or c.endswith("+!/w") for c in flat), flat
    assert any("=" in c for c in flat), flat
    assert "李偉" in d.find_element(By.ID, "crosstable").text
    st = server["tournament"]("standings", "--tournament", server["id"])
    srows = cells(d, "standings")
    assert [r[:3] for r in srows] == [
        [str(r["rank"]), full[r["name"]], str(r["points"])]
        for r in st["rows"]], srows
    assert [r[3] for r in srows] == [str(r["sos"]) for r in st["rows"]]
    order = d.find_element(By.ID, "standings-order").text
    assert order == "ranked by " + ", ".join(st["order"]), order
    # Read-only: nothing on the page changes the tournament.
    assert d.find_elements(By.CSS_SELECTOR, "main form, main button") == []


def test_unknown_tournament_shows_the_error(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server["url"] + "/tournament.html#id=99")
    wait(d, lambda d: d.find_element(By.ID, "tournament-error")
         .is_displayed(), "the error")
    assert (d.find_element(By.ID, "tournament-error").text ==
            "no tournament 99")
    shot(d, "tournament-unknown")
