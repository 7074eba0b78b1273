"""QueryClient against a real qipu-coordinator on 127.0.0.1 with the
fox-pro corpus imported (qipu import --server): openings, ko, cycles,
results, game and pattern, each answer compared with a count made here
from the SGF files by an independent reader (sgf_mainline.py), as dicts
and as pandas DataFrames; paging; the argument and server errors.

Needs nothing of issue 32's server side (Games, Players and the player
filters are tested by test_query_players.py)."""

import collections

import numpy as np
import pytest

import qipu_testing
import sgf_mainline

grpc = qipu_testing.need_module("grpc")
pd = qipu_testing.need_module("pandas")
import qipu_client  # noqa: E402


@pytest.fixture(scope="module")
def corpus():
    return sgf_mainline.read_corpus(qipu_testing.corpus_dir("fox-pro"))


@pytest.fixture(scope="module")
def q(fox_pro_server, corpus):
    s = fox_pro_server.import_summary
    # Every distinct file is stored (equal files once).
    assert s["imported"] == len(corpus), s
    with qipu_client.QueryClient(fox_pro_server.address, timeout=60) as q:
        yield q


def outcomes_of(records):
    """The Outcomes qipu should count for `records`, from their RE."""
    kinds = collections.Counter(
        sgf_mainline.result_kind(r.prop("RE")) for r in records)
    return {"games": len(records), "black_wins": kinds["B+"],
            "white_wins": kinds["W+"], "draws": kinds["draw"],
            "void": kinds["void"]}


def test_results_by_re(q, corpus):
    r = q.results()
    assert r["outcomes"] == outcomes_of(corpus)
    assert sum(r["length"]["counts"]) == len(corpus)
    mean = sum(len(g.moves) for g in corpus) / len(corpus)
    assert r["mean_length"] == pytest.approx(mean, abs=0.01)
    resigned = [g for g in corpus if g.prop("RE").upper()[1:3] == "+R"]
    assert r["by_reason"].get("resign") == len(resigned)
    # Filters: a date range.
    since_2019 = [g for g in corpus
                  if sgf_mainline.ymd(g.prop("DT")) >= 20190101]
    assert 0 < len(since_2019) < len(corpus)
    assert (q.results(date_from="2019-01-01")["outcomes"] ==
            outcomes_of(since_2019))
    # The handicap: the setup stones before the first move.
    by_handicap = collections.defaultdict(list)
    for g in corpus:
        by_handicap[len(g.setup)].append(g)
    assert len(by_handicap) > 1
    for h, games in by_handicap.items():
        assert q.results(handicap=h, size=19)["outcomes"] == \
            outcomes_of(games), h
    # An empty selection.
    assert q.results(size=9)["outcomes"]["games"] == 0


def test_results_frame(q, corpus):
    df = q.results(as_frame=True)
    assert isinstance(df, pd.DataFrame) and len(df) == 1
    row = df.iloc[0]
    for k, v in outcomes_of(corpus).items():
        assert row[k] == v
    assert row["reason_resign"] == q.results()["by_reason"]["resign"]
    assert sum(df.attrs["length"]["counts"]) == len(corpus)


def even_games(corpus):
    return [g for g in corpus if not g.setup]


def test_openings_first_moves_by_symmetry(q, corpus):
    even = even_games(corpus)
    r = q.openings(size=19, examples=2)
    assert r["to_play"] == "black"
    assert r["reached"] == outcomes_of(even)
    got_games = collections.Counter()
    got_outcomes = collections.defaultdict(collections.Counter)
    for c in r["continuations"]:
        cls = sgf_mainline.gtp_class(c["move"])
        got_games[cls] += c["outcomes"]["games"]
        got_outcomes[cls].update(c["outcomes"])
        assert 1 <= len(c["example_game_ids"]) <= 2
    want = collections.defaultdict(list)
    for g in even:
        assert g.moves[0][0] == "B"
        want[sgf_mainline.sgf_class(g.moves[0][1])].append(g)
    assert got_games == {k: len(v) for k, v in want.items()}
    for cls, games in want.items():
        assert dict(got_outcomes[cls]) == outcomes_of(games), cls
    # Sorted by games, descending.
    counts = [c["outcomes"]["games"] for c in r["continuations"]]
    assert counts == sorted(counts, reverse=True)


def test_openings_after_moves_and_limit(q, corpus):
    # Black's 4-4 at Q16, then White's replies: games whose first move is
    # a 4-4 point, folded (the position after Q16 equals that after D4...).
    even = even_games(corpus)
    after = [g for g in even if sgf_mainline.sgf_class(g.moves[0][1]) == "4-4"]
    assert all(len(g.moves) > 1 for g in after)
    r = q.openings("Q16", size=19)
    assert r["to_play"] == "white"
    assert r["reached"]["games"] == len(after)
    assert sum(c["outcomes"]["games"] for c in r["continuations"]) == \
        len(after)
    # numpy integers (what a DataFrame gives) are ints.
    top = q.openings(["B:Q16"], size=np.int64(19), limit=np.int32(2))
    assert top["continuations"] == r["continuations"][:2]


def test_openings_frame(q):
    d = q.openings(size=19)
    df = q.openings(size=19, as_frame=True)
    assert list(df["move"]) == [c["move"] for c in d["continuations"]]
    assert list(df["games"]) == [c["outcomes"]["games"]
                                 for c in d["continuations"]]
    assert list(df["black_wins"]) == [c["outcomes"]["black_wins"]
                                      for c in d["continuations"]]
    assert df.attrs["reached"] == d["reached"]
    assert df["games"].sum() == d["reached"]["games"]
    # An empty answer keeps its columns.
    empty = q.openings(size=9, as_frame=True)
    assert len(empty) == 0 and "games" in empty.columns


def test_game_matches_its_record(q, corpus):
    by_moves = {tuple(g.moves): g for g in corpus}
    r = q.openings(size=19, examples=3)
    checked = 0
    for c in r["continuations"]:
        for game_id in c["example_game_ids"]:
            g = q.game(game_id)
            assert g["id"] == game_id
            _, setup, moves = sgf_mainline.parse_mainline(g["sgf"])
            source = by_moves[tuple(moves)]
            assert g["moves"] == [f"{c}:{gtp(p)}" for c, p in source.moves]
            assert sgf_mainline.sgf_class(source.moves[0][1]) == \
                sgf_mainline.gtp_class(c["move"])
            assert isinstance(g["game"], dict)
            checked += 1
    assert checked >= 3


def gtp(point, size=19):
    """The GTP vertex of an SGF point ("pd" -> "Q16"; "" -> "pass")."""
    if not point:
        return "pass"
    return (sgf_mainline.GTP_LETTERS[ord(point[0]) - 97] +
            str(size - (ord(point[1]) - 97)))


def test_game_moves_of_handicap_games(q, corpus):
    # The decoded main line of handicap games (White moves first) against
    # their records, found through the game list of an opening.
    handicap = {tuple(g.moves): g for g in corpus if len(g.setup) == 2}
    r = q.openings(handicap=2, size=19, examples=5)
    assert r["reached"]["games"] == len(handicap)
    assert r["to_play"] == "white"
    checked = 0
    for c in r["continuations"]:
        for game_id in c["example_game_ids"]:
            g = q.game(game_id)
            _, _, moves = sgf_mainline.parse_mainline(g["sgf"])
            source = handicap[tuple(moves)]
            assert g["moves"][0].startswith("W:")
            assert g["moves"] == [f"{col}:{gtp(p)}" for col, p in
                                  source.moves]
            checked += 1
    assert checked >= 5


def test_ko_and_cycles_count_every_game(q, corpus):
    k = q.ko()
    assert k["all"]["games"] == len(corpus)
    assert sum(k["histogram"]["counts"]) == len(corpus)
    assert sum(g["games"] for g in k["by_size"]) == len(corpus)
    df = q.ko(as_frame=True)
    assert df.iloc[0]["by"] == "all" and df.iloc[0]["games"] == len(corpus)
    assert set(df["by"]) >= {"all", "size", "rules"}
    c = q.cycles()
    assert c["games"] == len(corpus)
    for row in c["rows"]:
        assert isinstance(row["cls"], str) and isinstance(row["outcome"], str)
        assert row["results"]["games"] == row["games"]
    cf = q.cycles(as_frame=True)
    assert len(cf) == len(c["rows"]) and cf.attrs["games"] == len(corpus)


def played_at(game, colour, points):
    return (any(c == colour and p in points for c, p in game.setup) or
            any(c == colour and p in points for c, p in game.moves))


def test_pattern_pages(q, corpus):
    # A black stone on a 3-3 point, in any corner: games where Black ever
    # played there (or had a setup stone there).
    three_three = {"cc", "cq", "qc", "qq"}
    want = {g.digest for g in corpus if played_at(g, "B", three_three)}
    assert 10 < len(want) < len(corpus)
    it = q.pattern_matches("***/***/**X", placement="corner", page_size=25)
    matches = list(it)
    assert it.pages == -(-len(matches) // 25) and it.pages > 1
    ids = [m["id"] for m in matches]
    assert len(set(ids)) == len(ids) == len(want)
    assert ids == sorted(ids)  # game-id order, across pages
    assert it.summary["matched"]["games"] == len(want)
    assert it.summary["placement"] == "corner"
    # The same through pattern(), with a limit, and as a frame.
    first = q.pattern(["***", "***", "**X"], placement="corner",
                      page_size=10, limit=15)
    assert [m["id"] for m in first["matches"]] == ids[:15]
    df = q.pattern("***/***/**X", placement="corner", page_size=1000,
                   as_frame=True)
    assert list(df["id"]) == ids
    assert df.attrs["matched"]["games"] == len(want)


def test_argument_errors(q):
    with pytest.raises(ValueError, match="size"):
        q.results(size="nineteen")
    with pytest.raises(ValueError, match="date_to"):
        q.results(date_to="2019-02-30")
    with pytest.raises(ValueError, match="as_"):
        q.openings(player="x", as_="red")
    with pytest.raises(TypeError, match="komi"):
        q.ko(komi="6.5")
    with pytest.raises(TypeError, match="'colour'.*the filter takes"):
        q.results(colour="black")
    with pytest.raises(ValueError, match="examples"):
        q.openings(examples=11)
    with pytest.raises(ValueError, match="examples"):
        q.cycles(examples=0)  # 0 would be the server's default, 3
    with pytest.raises(TypeError, match="moves"):
        q.openings(moves=[16])
    with pytest.raises(ValueError, match="placement"):
        q.pattern("X", placement="middle")
    with pytest.raises(ValueError, match="page_size"):
        list(q.pattern_matches("X", page_size=0))
    with pytest.raises(ValueError, match="game_id"):
        q.game("")
    with pytest.raises(TypeError, match="server"):
        qipu_client.QueryClient(7070)


def test_server_errors(q, fox_pro_server):
    with pytest.raises(qipu_client.QipuError) as e:
        q.openings("Q16 Z99", size=19)
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "Z99" in e.value.message
    with pytest.raises(qipu_client.QipuError) as e:
        q.results(rules="no-such-rules")
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(qipu_client.QipuError) as e:
        q.game("i" + "0" * 32)
    assert e.value.code == grpc.StatusCode.NOT_FOUND
    with pytest.raises(qipu_client.QipuError) as e:
        q.pattern("XXXXXXXXXXXXXXXXXXXXXXXXXX")  # wider than the board
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_nobody_listening():
    # A port taken and closed again: nobody serves it.
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with qipu_client.QueryClient(f"127.0.0.1:{port}", timeout=5) as dead:
        with pytest.raises(qipu_client.QipuError) as e:
            dead.results()
    assert e.value.code in (grpc.StatusCode.UNAVAILABLE,
                            grpc.StatusCode.DEADLINE_EXCEEDED)


def test_channel_of_the_caller(fox_pro_server, corpus):
    ch = qipu_client.channel(fox_pro_server.address)
    try:
        with qipu_client.QueryClient(ch) as q:
            assert q.ko()["all"]["games"] == len(corpus)
        # Still open: the client leaves a caller's channel alone.
        with qipu_client.QueryClient(ch) as q:
            assert q.cycles()["games"] == len(corpus)
    finally:
        ch.close()
