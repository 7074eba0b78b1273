"""Issue 32 from Python: QueryClient.games() and players(), the player
filters on the other queries, and python/examples/player_openings_by_year.py
end to end, against a real qipu-coordinator on 127.0.0.1 with the fox-pro
corpus imported, each answer compared with a count made here from the SGF
files (sgf_mainline.py).

Needs a coordinator that implements QueryService.Games, Players and the
Filter's player fields (issue 32 section 2); one that answers UNIMPLEMENTED
fails these tests.

Player names are compared as the records write them: the player picked is
one whose name the crawler kept intact (no '?' or U+FFFD in it), so that
qipu's normalised key and the name as written select the same games."""

import collections
import json
import os
import subprocess

import pytest

import qipu_testing
import sgf_mainline

grpc = qipu_testing.need_module("grpc")
pd = qipu_testing.need_module("pandas")
qipu_testing.need_module("matplotlib")
import qipu_client  # noqa: E402

EXAMPLE = os.path.join(qipu_testing.SOURCE_DIR, "python", "examples",
                       "player_openings_by_year.py")


@pytest.fixture(scope="module")
def corpus():
    return sgf_mainline.read_corpus(qipu_testing.corpus_dir("fox-pro"))


@pytest.fixture(scope="module")
def q(fox_pro_server):
    with qipu_client.QueryClient(fox_pro_server.address, timeout=60) as q:
        yield q


def clean(name):
    return bool(name) and "?" not in name and "\ufffd" not in name


@pytest.fixture(scope="module")
def player(corpus):
    """The intact name with even games as Black in the most years (two
    at most count), then the most of them, then by name."""
    years = collections.defaultdict(collections.Counter)
    for g in corpus:
        name = g.prop("PB").strip()
        if not g.setup and clean(name):
            years[name][sgf_mainline.ymd(g.prop("DT")) // 10000] += 1
    name, by_year = min(years.items(), key=lambda kv: (
        -min(len(kv[1]), 2), -sum(kv[1].values()), kv[0]))
    assert len(by_year) >= 2 and sum(by_year.values()) >= 5
    return name


def games_of(corpus, name, colour=None):
    sides = {"black": ("PB",), "white": ("PW",), None: ("PB", "PW")}[colour]
    return [g for g in corpus
            if any(g.prop(s).strip() == name for s in sides)]


def outcomes_of(records):
    kinds = collections.Counter(
        sgf_mainline.result_kind(r.prop("RE")) for r in records)
    return {"games": len(records), "black_wins": kinds["B+"],
            "white_wins": kinds["W+"], "draws": kinds["draw"],
            "void": kinds["void"]}


def test_games_pages_every_game_by_date(q, corpus):
    it = q.games(page_size=100)
    games = list(it)
    assert it.total == len(corpus) == len(games)
    assert it.pages == -(-len(corpus) // 100)
    assert len({g["id"] for g in games}) == len(games)
    # By date (then id); where undated games go the contract leaves open.
    keys = [(g["date_ymd"], g["id"]) for g in games if g["date_ymd"]]
    assert keys == sorted(keys)
    want = collections.Counter(sgf_mainline.ymd(g.prop("DT")) for g in corpus)
    assert collections.Counter(g["date_ymd"] for g in games) == want
    newest = list(q.games(page_size=1000, newest_first=True))
    assert sorted(g["id"] for g in newest) == sorted(g["id"] for g in games)
    dated = [g["date_ymd"] for g in newest if g["date_ymd"]]
    assert dated == sorted(dated, reverse=True)
    limited = list(q.games(page_size=7, limit=10))
    assert [g["id"] for g in limited] == [g["id"] for g in games[:10]]


def test_games_of_a_player(q, corpus, player):
    for colour in ("black", "white", None):
        want = games_of(corpus, player, colour)
        got = list(q.games(player=player, as_=colour, page_size=3))
        assert len(got) == len(want), colour
        for g in got:
            sides = [g["black"]] if colour == "black" else \
                [g["white"]] if colour == "white" else [g["black"], g["white"]]
            assert player in [s["name"] for s in sides]
        kind = sgf_mainline.result_kind
        assert sorted(kind(g["result"]) for g in got) == \
            sorted(kind(w.prop("RE")) for w in want)
    # By result.
    b_wins = [g for g in corpus if sgf_mainline.result_kind(g.prop("RE"))
              == "B+"]
    it = q.games(result="B+", limit=1)
    list(it)
    assert it.total == len(b_wins)


def test_games_frame(q, corpus, player):
    want = games_of(corpus, player)
    df = q.games(player=player, as_frame=True)
    assert len(df) == len(want) == df.attrs["total"]
    for col in ("id", "date_ymd", "black_name", "black_rank", "white_name",
                "event", "result", "moves"):
        assert col in df.columns
    assert sorted(df["moves"]) == sorted(len(g.moves) for g in want)


def test_players(q, corpus, player):
    r = q.players(player, limit=10)["players"]
    me = [p for p in r if player in [p["display"]] + p["names"]]
    assert len(me) == 1, r
    me = me[0]
    assert me["games"] == len(games_of(corpus, player))
    as_black = games_of(corpus, player, "black")
    assert me["as_black"] == outcomes_of(as_black)
    years = collections.Counter(
        sgf_mainline.ymd(g.prop("DT")) // 10000
        for g in games_of(corpus, player))
    assert {y["year"]: y["games"] for y in me["years"]} == \
        {y: n for y, n in years.items() if y}
    df = q.players(player, limit=10, as_frame=True)
    assert me["key"] in list(df["key"])
    assert "as_black_games" in df.columns
    # Most games first, over every player.
    top = q.players("", limit=50)["players"]
    counts = [p["games"] for p in top]
    assert counts == sorted(counts, reverse=True)


def test_player_filters_on_queries(q, corpus, player):
    as_black = games_of(corpus, player, "black")
    assert q.results(player=player, as_="black")["outcomes"] == \
        outcomes_of(as_black)
    assert q.results(player=player)["outcomes"] == \
        outcomes_of(games_of(corpus, player))
    even = [g for g in as_black if not g.setup]
    r = q.openings(player=player, as_="black", size=19)
    assert r["reached"]["games"] == len(even)
    got = collections.Counter()
    for c in r["continuations"]:
        got[sgf_mainline.gtp_class(c["move"])] += c["outcomes"]["games"]
    assert got == collections.Counter(
        sgf_mainline.sgf_class(g.moves[0][1]) for g in even)
    opponents = collections.Counter(g.prop("PW").strip() for g in as_black)
    opponent, n = max(opponents.items(), key=lambda kv: (kv[1], kv[0]))
    if clean(opponent):
        assert q.results(player=player, as_="black",
                         opponent=opponent)["outcomes"]["games"] == n


def run_example(server, *args):
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [qipu_testing.PYTHON, EXAMPLE, "--server", server] + list(args),
        capture_output=True, text=True, timeout=300, env=env)


def test_example_player_openings_by_year(fox_pro_server, corpus, player,
                                         tmp_root):
    png = os.path.join(tmp_root, "openings.png")
    p = run_example(fox_pro_server.address, "--player", player, "--out", png)
    assert p.returncode == 0, p.stdout + p.stderr
    out = qipu_testing.last_json(p.stdout)
    want = collections.defaultdict(collections.Counter)
    for g in games_of(corpus, player, "black"):
        if not g.setup:
            year = sgf_mainline.ymd(g.prop("DT")) // 10000
            want[str(year)][sgf_mainline.sgf_class(g.moves[0][1])] += 1
    got = {y: v["first_moves"] for y, v in out["years"].items()}
    assert got == {y: dict(c) for y, c in want.items()}
    assert {y: v["games"] for y, v in out["years"].items()} == \
        {y: sum(c.values()) for y, c in want.items()}
    assert len(out["latest_games"]) == min(5, len(games_of(corpus, player,
                                                           "black")))
    # The table names every year; the chart is a real PNG.
    for year in want:
        assert f"\n{year:>6} " in "\n" + p.stdout
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image
    img = matplotlib.image.imread(png)
    assert img.shape[0] >= 300 and img.shape[1] >= 300
    # Without --player: the player with the most games as Black.
    p = run_example(fox_pro_server.address, "--out", png, "--latest", "0")
    assert p.returncode == 0, p.stdout + p.stderr
    out = qipu_testing.last_json(p.stdout)
    top = max(q_players(fox_pro_server), key=lambda x: (
        min(len(x["years"]), 2), x["as_black"]["games"], x["key"]))
    assert out["key"] == top["key"] and out["latest_games"] == []


def q_players(server):
    with qipu_client.QueryClient(server.address) as q:
        return q.players("", limit=qipu_client.MAX_PAGE_SIZE)["players"]


def test_example_bad_flags(fox_pro_server):
    p = run_example(fox_pro_server.address, "--latest", "-1")
    assert p.returncode == 2 and "--latest" in p.stderr
