"""The explorer's players page as a researcher uses it (issue 32): headless
Chromium on a qipu-coordinator --http filled with the shared fox-pro
corpus. Typing the start of a name lists the players `qipu query players`
lists; clicking one opens their page, whose results by colour, games by
year, first moves and game list equal what `qipu query players|openings|
games --player` answer; a first move opens the openings page on that
position with the player filter (its table equal to the CLI's); a game
opens in the viewer; the player filter on the openings page narrows the
table as the CLI does."""

import json
import os
import subprocess
import sys
import tempfile
import urllib.parse

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__),
                                "../../ops/fleet"))
sys.path.insert(0, os.path.dirname(__file__))
import fleet_testing as ft  # noqa: E402
from browser_testing import Explorer, chromium, shot, wait  # noqa: E402


def _corpus():
    for root in (os.path.join(ft.SOURCE_DIR, "../shared"), "/work/shared"):
        d = os.path.join(root, "corpora/fox-pro")
        if os.path.isdir(d):
            return d
    pytest.skip("the fox-pro corpus is absent")


@pytest.fixture(scope="module")
def server():
    qipu = ft.qipu_bin()
    tmp = tempfile.TemporaryDirectory(prefix="qipu-players-browser-")
    db = os.path.join(tmp.name, "db")
    r = subprocess.run([qipu, "import", "--db", db, _corpus(), "--source",
                        "fox", "--json"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    explorer = Explorer(db, tmp.name)

    def query(*args):
        r = subprocess.run([qipu, "query", *args, "--server", explorer.grpc,
                            "--json"], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, (args, r.stderr)
        return json.loads(r.stdout.strip().splitlines()[-1])

    yield {"url": explorer.url, "query": query}
    explorer.stop()
    tmp.cleanup()


@pytest.fixture(scope="module")
def browser():
    d = chromium()
    yield d
    d.quit()


def rows(driver, selector):
    """The data-* attributes of the elements `selector` selects."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".map((e) => ({...e.dataset}))", selector)


def test_player_page_matches_the_cli(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    # The player with the most games as both colours, whose page has
    # something to show in every part (fox-pro's most frequent player, a
    # teaching bot, plays White only).
    top = next(p for p in server["query"]("players", "--limit", "50")
               ["players"]
               if p["as_black"]["games"] and p["as_white"]["games"])
    key = top["key"]
    prefix = key[:2]
    d.get(server["url"] + "/players.html")
    box = wait(d, lambda d: d.find_element(By.ID, "player"), "the player box")
    box.send_keys(prefix)
    wait(d, lambda d: d.find_element(By.ID, "suggestions")
         .get_attribute("data-prefix") == prefix, "suggestions")
    want = server["query"]("players", "--prefix", prefix, "--limit", "10")
    shown = rows(d, "#suggestions a")
    assert [s["key"] for s in shown] == [p["key"] for p in want["players"]]
    assert [int(s["games"]) for s in shown] == \
        [p["games"] for p in want["players"]]

    d.find_element(By.CSS_SELECTOR,
                   f'#suggestions a[data-key="{key}"]').click()
    wait(d, lambda d: d.execute_script("return document.body.dataset.player")
         == key, f"the page of {key}")
    shot(d, "player-page")
    assert d.find_element(By.ID, "player-name").text == top["display"]
    by_colour = {r["colour"]: r for r in rows(d, "#by-colour tbody tr")}
    assert int(by_colour["B"]["games"]) == top["as_black"]["games"]
    assert int(by_colour["B"]["wins"]) == top["as_black"]["black_wins"]
    assert int(by_colour["B"]["losses"]) == top["as_black"]["white_wins"]
    assert int(by_colour["W"]["games"]) == top["as_white"]["games"]
    assert int(by_colour["W"]["wins"]) == top["as_white"]["white_wins"]
    assert int(by_colour["W"]["losses"]) == top["as_white"]["black_wins"]
    years = rows(d, "#years-chart g.year")
    assert [(int(y["year"]), int(y["games"]), int(y["wins"]))
            for y in years] == \
        [(y["year"], y["games"], y["wins"]) for y in top["years"]]
    assert sum(int(y["games"]) for y in years) <= top["games"]

    for colour, won in (("white", "white_wins"), ("black", "black_wins")):
        first = server["query"]("openings", "--size", "19", "--player", key,
                                "--as", colour, "--limit", "10")
        table = d.find_element(By.ID, f"openings-{colour}")
        assert int(table.get_attribute("data-games")) == first["games"]
        shown = rows(d, f"#openings-{colour} tr[data-move]")
        assert [(s["move"], int(s["games"]), int(s["won"]))
                for s in shown] == \
            [(c["move"], c["games"], c[won]) for c in first["continuations"]]
        assert len(shown) > 0, colour

    games = server["query"]("games", "--player", key, "--newest", "1",
                            "--page-size", "50")
    table = d.find_element(By.ID, "games")
    assert int(table.get_attribute("data-total")) == games["total"]
    assert games["total"] == top["games"]
    assert [r["id"] for r in rows(d, "#games tbody tr")] == \
        [g["id"] for g in games["games"]]

    # A first move: the openings page on that position, this player only.
    move = shown[0]["move"]
    d.find_element(By.CSS_SELECTOR,
                   f'#openings-black tr[data-move="{move}"] a').click()
    wait(d, lambda d: d.find_element(By.ID, "continuations")
         .get_attribute("data-moves") == move, f"the openings after {move}")
    state = dict(urllib.parse.parse_qsl(d.execute_script(
        "return location.hash.slice(1)")))
    assert state["player"] == key and state["as"] == "black", state
    want = server["query"]("openings", "--size", "19", "--player", key,
                           "--as", "black", "--moves", move)
    table_rows = rows(d, "#continuations tbody tr")
    assert [(r["move"], int(r["games"])) for r in table_rows] == \
        [(c["move"], c["games"]) for c in want["continuations"]]
    shot(d, "player-openings")

    # The player's page as a shared link; a game opens in the viewer.
    d.get(server["url"] + "/players.html#player=" +
          urllib.parse.quote(key))
    wait(d, lambda d: d.execute_script("return document.body.dataset.player")
         == key, f"the page of {key} again")
    gid = games["games"][0]["id"]
    d.find_element(By.CSS_SELECTOR,
                   f'#games tr[data-id="{gid}"] a.game-link').click()
    wait(d, lambda d: "game.html" in d.current_url and
         d.find_element(By.ID, "title").text == f"Game {gid}",
         "the viewer")
    assert d.find_element(By.ID, "board").get_attribute("data-move")


def test_unknown_player_says_so(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server["url"] + "/players.html#player=nobody%20of%20that%20name")
    err = wait(d, lambda d: d.find_element(By.ID, "players-error")
               if d.find_element(By.ID, "players-error").is_displayed()
               else None, "the error")
    assert "nobody of that name" in err.text
