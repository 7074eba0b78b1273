"""The web explorer as a person uses it: headless Chromium (Debian's
chromium + chromium-driver through python3-selenium) against a
qipu-coordinator --http filled with the shared fox-pro corpus, over HTTPS
(--http-tls-cert/--http-tls-key with a certificate of ops/tls/make-certs;
Chromium is told to accept it, Python's ssl verifies it against the CA)
and over plain HTTP: the page tests run once for each.

Openings: the continuation table the page shows equals `qipu query
openings --json` for the same position, on the empty board and after
moves clicked on the board and in the table; back and a reload of the
shared URL give the same table; a shift+drag region search shows what
`qipu query pattern --json` answers for that region (counts, games of the
first and second page, continuations drawn on the board).
Game viewer: an example game opened from the table, stepped through, its
final area count drawn. Ko and cycles: the charts render the data of
`qipu query ko|cycles --json`. Tokens: against --auth required the page
asks for one, keeps it for the tab and gets its data.

Screenshots go to $QIPU_BINARY_DIR/tests/web/screenshots/ (the build tree).
"""

import json
import os
import re
import ssl
import subprocess
import sys
import tempfile
import urllib.request

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


def _https_flags(tmp):
    """make-certs into tmp/certs: the coordinator's --http-tls-* flags and
    the CA's path."""
    certs = os.path.join(tmp, "certs")
    subprocess.run([os.path.join(ft.SOURCE_DIR, "ops/tls/make-certs"),
                    "--out", certs], check=True, capture_output=True,
                   timeout=60)
    return (["--http-tls-cert", os.path.join(certs, "server.pem"),
             "--http-tls-key", os.path.join(certs, "server.key")],
            os.path.join(certs, "ca.pem"))


def _check_https(url, ca):
    """The explorer at `url` answers /api/v1/health over HTTPS with a
    certificate that verifies against `ca` for 127.0.0.1."""
    ctx = ssl.create_default_context(cafile=ca)
    with urllib.request.urlopen(url + "/api/v1/health", context=ctx,
                                timeout=30) as r:
        assert r.status == 200
        assert json.loads(r.read())["status"] == "ok"


@pytest.fixture(scope="module", params=["https", "http"])
def server(request):
    qipu = ft.qipu_bin()
    corpus = _corpus()
    tmp = tempfile.TemporaryDirectory(prefix="qipu-browser-")
    db = os.path.join(tmp.name, "db")
    r = subprocess.run([qipu, "import", "--db", db, corpus, "--source", "fox",
                        "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    https_flags, ca = _https_flags(tmp.name)
    if request.param == "http":
        https_flags = []
    explorer = Explorer(db, tmp.name, https_flags, request.param)
    grpc_addr = explorer.grpc

    def query(*args):
        r = subprocess.run([qipu, "query", *args, "--server", grpc_addr,
                            "--json"], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout.strip().splitlines()[-1])

    url = explorer.url
    if request.param == "https":
        _check_https(url, ca)
    yield {"url": url, "query": query}
    explorer.stop()
    tmp.cleanup()


@pytest.fixture(scope="module")
def browser():
    # The explorer's certificate is of the test's own CA (checked by
    # _check_https); Chromium is told to accept it.
    d = chromium(["--ignore-certificate-errors"])
    yield d
    d.quit()


def table_rows(driver):
    """The continuation table as the page shows it, row by row."""
    return driver.execute_script("""
      return [...document.querySelectorAll('#continuations tbody tr')].map(
        (tr) => ({move: tr.dataset.move, games: +tr.dataset.games,
                  black_wins: +tr.dataset.blackWins,
                  white_wins: +tr.dataset.whiteWins,
                  draws: +tr.dataset.draws, void: +tr.dataset.void,
                  shown: [...tr.cells].slice(0, 6).map((c) => c.textContent)}));
    """)


def expect_table(driver, server, moves):
    """Waits for the table of `moves` and checks it against the CLI."""
    from selenium.webdriver.common.by import By
    wait(driver, lambda d: d.find_element(By.ID, "continuations")
         .get_attribute("data-moves") == " ".join(moves),
         f"the table of {moves}")
    args = ["openings", "--size", "19"]
    if moves:
        args += ["--moves", " ".join(moves)]
    want = server["query"](*args)
    rows = table_rows(driver)
    assert len(rows) == len(want["continuations"])
    assert len(rows) > 0
    for row, c in zip(rows, want["continuations"]):
        for k in ("move", "games", "black_wins", "white_wins", "draws",
                  "void"):
            assert row[k] == c[k], (moves, k, row, c)
        assert row["shown"] == [c["move"], str(c["games"]),
                                str(c["black_wins"]), str(c["white_wins"]),
                                str(c["draws"]), str(c["void"])]
    summary = driver.find_element(By.ID, "summary").text
    assert summary.startswith(f"{want['games']} games"), summary
    return want


def test_openings_board_matches_cli(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server["url"] + "/openings.html#size=19")
    want = expect_table(d, server, [])
    scheme = server["url"].split(":")[0]
    assert d.execute_script("return location.protocol") == scheme + ":"
    shot(d, "openings-0")
    moves = []
    # Click the most played continuation on the board, three times.
    for step in range(3):
        move = want["continuations"][0]["move"]
        mark = d.find_element(By.CSS_SELECTOR,
                              f'svg.board circle.mark[data-vertex="{move}"]')
        mark.click()
        moves.append(move)
        want = expect_table(d, server, moves)
        shot(d, f"openings-{step + 1}")
    # A row of the table plays its move too.
    second = want["continuations"][min(1, len(want["continuations"]) - 1)]
    row = d.find_element(By.CSS_SELECTOR,
                         f'#continuations tr[data-move="{second["move"]}"] td')
    row.click()
    moves.append(second["move"])
    expect_table(d, server, moves)
    # Back, then the shared URL reloaded: the same tables.
    d.find_element(By.ID, "back").click()
    moves.pop()
    expect_table(d, server, moves)
    url = d.current_url
    assert "moves=" in url
    d.get("about:blank")
    d.get(url)
    expect_table(d, server, moves)
    shot(d, "openings-shared-url")


def test_region_search(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    d = browser
    d.get(server["url"] + "/openings.html#size=19&moves=Q16+D4+Q3")
    expect_table(d, server, ["Q16", "D4", "Q3"])
    svg = d.find_element(By.CSS_SELECTOR, "svg.board")
    cell = svg.size["width"] / 20  # 19 points plus a margin each side
    # Shift+drag over the upper right corner (columns N..T, rows 19..13).
    def at(x, y):
        return (int((x + 1) * cell - svg.size["width"] / 2),
                int((y + 1) * cell - svg.size["height"] / 2))
    (x0, y0), (x1, y1) = at(12, 0), at(18, 6)
    (ActionChains(d).key_down(Keys.SHIFT)
     .move_to_element_with_offset(svg, x0, y0).click_and_hold()
     .move_to_element_with_offset(svg, x1, y1).release()
     .key_up(Keys.SHIFT).perform())
    text = d.find_element(By.ID, "selection-text").text
    assert "7x7" in text, text
    assert "pattern" in text and "X" in text, text  # Q16 is in the region
    d.find_element(By.ID, "search-pattern").click()
    wait(d, lambda d: d.find_element(By.ID, "pattern-error").is_displayed()
         or d.find_elements(By.ID, "pattern-matches"), "the pattern answer")
    shot(d, "pattern-search")
    errors = d.find_element(By.ID, "pattern-error")
    assert not errors.is_displayed(), errors.text
    # The region N19-T13 holds Black's Q16 only: the same search by the CLI.
    rows = ["......."] * 7
    rows[3] = "...X..."
    want = server["query"]("pattern", "--size", "19", "--pattern",
                           "/".join(rows), "--anchor", "N19")
    assert want["games"] > 0, want
    summary = d.find_element(By.CSS_SELECTOR, "#pattern-result p").text
    assert summary.startswith(f"{want['games']} games"), summary
    shown = d.execute_script("""
      return [...document.querySelectorAll('#pattern-matches tbody tr')]
        .map((tr) => [tr.querySelector('a.game-link').dataset.id,
                     +tr.cells[1].textContent]);
    """)
    assert len(shown) == len(want["matches"]) > 0
    for (game, move), m in zip(shown, want["matches"]):
        assert game == m["id"], (game, m)
        assert move == m["move_number"], (move, m)
    nexts = d.execute_script("""
      return [...document.querySelectorAll('#pattern-continuations tbody tr')]
        .map((tr) => [tr.cells[0].textContent, +tr.cells[2].textContent]);
    """)
    assert nexts == [[c["move"], c["games"]] for c in want["continuations"]]
    # Continuations inside the region are drawn on their points.
    inside = [c["move"] for c in want["continuations"]
              if c["move"] not in ("pass", "tenuki")]
    for move in inside[:3]:
        d.find_element(By.CSS_SELECTOR,
                       f'svg.board circle.mark[data-vertex="{move}"]')
    # More games than a page: the next page is the CLI's next page.
    if want["next_page_token"]:
        d.find_element(By.ID, "pattern-next").click()
        page2 = server["query"]("pattern", "--size", "19", "--pattern",
                                "/".join(rows), "--anchor", "N19",
                                "--page-token", want["next_page_token"])
        first = page2["matches"][0]["id"]
        wait(d, lambda d: d.execute_script(
            "const a = document.querySelector('#pattern-matches a.game-link');"
            "return a ? a.dataset.id : null;") == first, "the second page")
        shot(d, "pattern-search-page-2")


def test_game_viewer(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server["url"] + "/openings.html#size=19&moves=Q16")
    expect_table(d, server, ["Q16"])
    link = d.find_element(By.CSS_SELECTOR, "#continuations a.game-link")
    game_id = link.get_attribute("data-id")
    link.click()
    wait(d, lambda d: d.find_element(By.ID, "board").get_attribute(
        "data-move") == "2", "the viewer at move 2")
    want = server["query"]("game", game_id)
    assert d.find_element(By.ID, "title").text == f"Game {game_id}"
    for _ in range(3):
        d.find_element(By.ID, "next").click()
    wait(d, lambda d: d.find_element(By.ID, "board").get_attribute(
        "data-move") == "5", "move 5")
    stones = d.find_elements(By.CSS_SELECTOR, "svg.board circle.stone")
    assert len(stones) >= 4  # a handful of stones, none captured this early
    assert "move 5:" in d.find_element(By.ID, "move-text").text
    shot(d, "game-move-5")
    d.find_element(By.ID, "end").click()
    d.find_element(By.ID, "show-area").click()
    n = len(want["moves"])
    wait(d, lambda d: d.find_element(By.ID, "board").get_attribute(
        "data-move") == str(n), "the last move")
    areas = d.find_elements(By.CSS_SELECTOR, "svg.board rect.area")
    assert areas, "the final area count is drawn"
    area = d.find_element(By.ID, "area-text").text
    black = want["area"]["black"]
    assert f"Black {black:g}" in area.replace(".0 ", " "), area
    shot(d, "game-end-area")


def test_token_dialog(browser):
    """With --auth required the page asks for a token on the 401, keeps it
    for the tab and sends it as Bearer."""
    from selenium.webdriver.common.by import By
    qipu = ft.qipu_bin()
    corpus = _corpus()
    with tempfile.TemporaryDirectory(prefix="qipu-browser-auth-") as tmp:
        db = os.path.join(tmp, "db")
        files = sorted(os.path.join(root, f)
                       for root, _, names in os.walk(corpus)
                       for f in names if f.endswith(".sgf"))[:20]
        r = subprocess.run([qipu, "import", "--db", db, "--source", "fox",
                            *files], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        r = subprocess.run([qipu, "token", "create", "--role", "reader",
                            "--name", "browser", "--db", db, "--json"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        token = json.loads(r.stdout.strip().splitlines()[-1])["token"]
        https_flags, ca = _https_flags(tmp)
        explorer = Explorer(db, tmp, ["--auth", "required", *https_flags],
                            "https")
        try:
            _check_https(explorer.url, ca)
            d = browser
            d.get(f"{explorer.url}/stats.html")
            d.execute_script("sessionStorage.clear()")
            d.get(f"{explorer.url}/stats.html")
            dialog = wait(d, lambda d: d.find_element(By.ID, "token-dialog")
                          if d.find_elements(By.CSS_SELECTOR,
                                             "#token-dialog[open]") else None,
                          "the token dialog")
            assert "token" in dialog.text
            shot(d, "token-dialog")
            d.find_element(By.ID, "token-input").send_keys(token)
            d.find_element(By.ID, "token-ok").click()
            wait(d, lambda d: d.find_element(By.TAG_NAME, "body")
                 .get_attribute("data-loaded"), "the charts after the token")
            summary = d.find_element(By.ID, "ko-summary").text
            assert re.match(r"\d+ games", summary), summary
            assert d.execute_script(
                "return sessionStorage.getItem('qipuToken')") == token
        finally:
            explorer.stop()


def test_ko_and_cycles_pages(server, browser):
    from selenium.webdriver.common.by import By
    d = browser
    d.get(server["url"] + "/stats.html")
    wait(d, lambda d: d.find_element(By.TAG_NAME, "body")
         .get_attribute("data-loaded"), "the charts")
    ko = server["query"]("ko")
    bars = d.find_elements(By.CSS_SELECTOR, "#ko-histogram rect.bar")
    assert bars
    total = sum(int(b.get_attribute("data-count")) for b in bars)
    assert total == sum(ko["histogram"]) == ko["games"]
    assert f"{ko['games']} games" in d.find_element(By.ID, "ko-summary").text
    cycles = server["query"]("cycles")
    summary = d.find_element(By.ID, "cycles-summary").text
    assert summary.startswith(f"{cycles['games']} games"), summary
    shown = d.find_elements(By.CSS_SELECTOR, "#cycles tbody tr")
    assert len(shown) == len(cycles["rows"])
    for tr, row in zip(shown, cycles["rows"]):
        assert tr.get_attribute("data-class") == row["class"]
        assert tr.get_attribute("data-outcome") == row["outcome"]
    # Per rule set: at least the rules the corpus was played under.
    assert d.find_elements(By.CSS_SELECTOR, "#cycles-by-rules h4")
    shot(d, "ko-and-cycles")
