"""QueryClient: the game database's queries over a coordinator's gRPC API.

The calls of QueryService (proto/qipu/v1/query.proto) -- Openings, Ko,
Cycles, Results, GetGame, Pattern, Games, Players -- with the filter as
keyword arguments (filters.make_query_filter: `qipu query`'s flags in
Python spelling), each answer as plain Python data (records.to_dict: the
response's fields by their proto names) or, with as_frame=True, as a
pandas DataFrame of its table (records.frame). Paged calls (games, pattern
matches) are iterators that ask for the next page when the caller gets
there.

    q = qipu_client.QueryClient("127.0.0.1:7070")
    r = q.openings(moves=["Q16"], player="Ke Jie", as_="black")
    r["reached"]["games"], r["continuations"][0]["move"]
    df = q.openings(moves="Q16 D4", size=19, as_frame=True)
    for game in q.games(player="Ke Jie", date_from=20170101):
        print(game["id"], game["date"], game["result"])

Every call has a deadline (`timeout`, seconds). Server errors are
QipuError (stream.QipuError: `.code` the grpc.StatusCode, `.message` the
server's reason); wrong arguments are TypeError / ValueError naming the
argument, raised before any call. Not thread-safe per client object (the
channel is; make one client per thread if you like).
"""

import numbers
import os

import grpc

from qipu.v1 import game_pb2
from qipu.v1 import query_pb2

from . import records
from .filters import FILTER_ARGS, make_query_filter, parse_colour
from .stream import QipuError, channel

_SERVICE = "/qipu.v1.QueryService/"
_PLACEMENTS = {
    "fixed": query_pb2.PATTERN_PLACEMENT_FIXED,
    "corner": query_pb2.PATTERN_PLACEMENT_CORNER,
    "side": query_pb2.PATTERN_PLACEMENT_SIDE,
    "anywhere": query_pb2.PATTERN_PLACEMENT_ANYWHERE,
}
# The most items a page may hold (backend/query_args.h kMaxQueryLimit).
MAX_PAGE_SIZE = 1000

_OUTCOME_COLUMNS = ["games", "black_wins", "white_wins", "draws", "void"]


def _filter(method, filter_args):
    """make_query_filter(**filter_args), a keyword it does not take being a
    TypeError that names `method` and lists the filter's keywords."""
    unknown = sorted(set(filter_args) - set(FILTER_ARGS))
    if unknown:
        raise TypeError(f"{method}() got an unexpected keyword argument "
                        f"{unknown[0]!r} (the filter takes "
                        f"{', '.join(FILTER_ARGS)})")
    return make_query_filter(**filter_args)


def _count(name, value, lo, hi):
    """`value` as an int in lo..hi (numpy integers too), or TypeError /
    ValueError naming `name`."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{name}: expected an int, not {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name}: {value} is not {lo}..{hi}")
    return int(value)


def _moves(name, moves):
    """A list of move strings from a list or one string separated by spaces,
    commas or semicolons."""
    if moves is None:
        return []
    if isinstance(moves, str):
        return moves.replace(",", " ").replace(";", " ").split()
    if isinstance(moves, (list, tuple)) and all(
            isinstance(m, str) for m in moves):
        return [m.strip() for m in moves]
    raise TypeError(f"{name}: expected a list of moves or a string "
                    f"('Q16 D4'), not {moves!r}")


def decode_moves(game):
    """The main line of a qipu.v1.Game as ["B:Q16", "W:pass", ...]: its
    `moves` bytes are varints of y * width + x + 1 (y from the top; 0 a
    pass); the first move is `first_color`'s (unspecified: Black, White
    after a handicap), and colours alternate except at the indices in
    `same_color_moves`. ValueError for bytes that do not decode."""
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    width, height = game.width, game.height
    data = game.moves
    colour = game.first_color
    if colour == game_pb2.COLOR_UNSPECIFIED:
        colour = (game_pb2.COLOR_WHITE if game.handicap >= 2
                  else game_pb2.COLOR_BLACK)
    same = set(game.same_color_moves)
    out = []
    i = 0
    while i < len(data):
        value, shift = 0, 0
        while True:
            if i >= len(data) or shift > 28:
                raise ValueError(f"game moves: a varint cut at byte {i}")
            b = data[i]
            i += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        if out and len(out) not in same:
            colour = (game_pb2.COLOR_WHITE if colour == game_pb2.COLOR_BLACK
                      else game_pb2.COLOR_BLACK)
        if value == 0:
            vertex = "pass"
        else:
            y, x = divmod(value - 1, width)
            if y >= height:
                raise ValueError(f"game moves: move {len(out) + 1} is off "
                                 f"the {width}x{height} board")
            vertex = f"{letters[x]}{height - y}"
        out.append(("B:" if colour == game_pb2.COLOR_BLACK else "W:") +
                    vertex)
    return out


class Paged:
    """An iterator over the items of a paged call, page by page.

    `total` (Games: games matching the filter) and `summary` (Pattern: the
    first page's answer without its matches) are None until the first page
    has been fetched; `pages` counts the pages fetched. Stops after `limit`
    items when one was given."""

    def __init__(self, fetch, items_field, limit):
        # fetch(page_token) -> (the page as a dict, its next_page_token).
        self._fetch = fetch
        self._field = items_field
        self._limit = limit
        self._token = ""
        self._buffer = []
        self._done = False
        self._given = 0
        self.pages = 0
        self.total = None
        self.summary = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._limit is not None and self._given >= self._limit:
            raise StopIteration
        while not self._buffer:
            if self._done:
                raise StopIteration
            asked = self._token
            page, self._token = self._fetch(asked)
            self.pages += 1
            if self._token and self._token == asked:
                raise QipuError(grpc.StatusCode.INTERNAL,
                                f"the server gave page token {asked!r} "
                                f"back as the next one: the pages would "
                                f"never end")
            self._done = not self._token
            items = page.pop(self._field)
            page.pop("next_page_token", None)
            if self.summary is None:
                self.summary = page
                self.total = page.get("total")
            self._buffer = list(reversed(items))
        self._given += 1
        return self._buffer.pop()


class QueryClient:
    """The queries of one coordinator.

    `server`: "host:port", or a grpc.Channel that stays the caller's.
    `timeout`: the deadline of each call, in seconds. `token` is sent as
    `authorization: Bearer <token>` (a coordinator with --auth required
    wants a reader token; default: the environment's QIPU_TOKEN); tls_ca,
    tls_cert, tls_key: as stream.channel() (PEM files; "host:port" only).
    Use it as a context manager, or close() it, to close its own channel.
    """

    def __init__(self, server, *, timeout=30.0, token=None, tls_ca=None,
                 tls_cert=None, tls_key=None):
        if timeout is not None and (not isinstance(timeout, (int, float)) or
                                    timeout <= 0):
            raise ValueError(f"timeout: {timeout!r} is not a positive number "
                             f"of seconds")
        if isinstance(server, str):
            if not server.strip():
                raise ValueError("server: empty; give host:port")
            self._channel = channel(server, tls_ca=tls_ca, tls_cert=tls_cert,
                                    tls_key=tls_key)
            self._own = True
        elif isinstance(server, grpc.Channel):
            if tls_ca or tls_cert or tls_key:
                raise ValueError("tls_ca/tls_cert/tls_key: only with a "
                                 "host:port server, not a grpc.Channel")
            self._channel = server
            self._own = False
        else:
            raise TypeError(f"server: expected 'host:port' or a grpc.Channel, "
                            f"not {server!r}")
        self.timeout = timeout
        if token is None:
            token = os.environ.get("QIPU_TOKEN") or None
        self._metadata = (("authorization", "Bearer " + token),) if token \
            else None

    def close(self):
        """Closes the channel this client made (not a caller's)."""
        if self._own:
            self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, method, request, response_type):
        stub = self._channel.unary_unary(
            _SERVICE + method,
            request_serializer=type(request).SerializeToString,
            response_deserializer=response_type.FromString)
        try:
            return stub(request, timeout=self.timeout,
                        metadata=self._metadata)
        except grpc.RpcError as e:
            code = e.code() if hasattr(e, "code") else grpc.StatusCode.UNKNOWN
            details = e.details() if hasattr(e, "details") else str(e)
            raise QipuError(code, details or "") from None

    # -- One answer per call --------------------------------------------

    def openings(self, moves=None, *, setup=None, to_play=None, examples=3,
                 limit=0, as_frame=False, **filter_args):
        """The position after `setup` and `moves` (a list, or one string
        "Q16 D4"; each a GTP vertex or "pass", optionally "B:"/"W:"),
        with `to_play` ("B"/"W"; default the natural side) to move: the
        games that reached it, all symmetries folded, and every
        continuation (`examples` game ids each, 1..10; at most `limit`,
        0 = all).

        Dict: {"reached": outcomes, "continuations": [{"move",
        "outcomes", "example_game_ids"}], "position_key", "to_play"}, an
        outcomes dict being {"games", "black_wins", "white_wins", "draws",
        "void"}. Frame: one row per continuation (move, the outcome
        columns, example_game_ids); attrs reached, position_key, to_play.
        """
        request = query_pb2.OpeningsRequest(
            filter=_filter("openings", filter_args),
            moves=_moves("moves", moves), setup=_moves("setup", setup),
            examples=_count("examples", examples, 1, 10),
            limit=_count("limit", limit, 0, MAX_PAGE_SIZE),
            to_play=parse_colour("to_play", to_play))
        r = records.to_dict(
            self._call("Openings", request, query_pb2.OpeningsResponse))
        if not as_frame:
            return r
        return records.frame(
            r["continuations"],
            ["move"] + _OUTCOME_COLUMNS + ["example_game_ids"],
            {k: v for k, v in r.items() if k != "continuations"})

    def ko(self, *, as_frame=False, **filter_args):
        """Ko captures per game. Dict: {"all": group, "histogram":
        {"bucket", "counts"}, "by_size", "by_rules", "by_length": [group]},
        a group being {"label", "games", "games_with_ko", "ko_captures",
        "mean", "p50", "p90", "p99", "max"}. Frame: one row per group (all
        first), with a column "by" ("all", "size", "rules", "length");
        attrs histogram."""
        request = query_pb2.KoRequest(filter=_filter("ko", filter_args))
        r = records.to_dict(self._call("Ko", request, query_pb2.KoResponse))
        if not as_frame:
            return r
        rows = [dict(r["all"], by="all")]
        for by in ("size", "rules", "length"):
            rows += [dict(g, by=by) for g in r["by_" + by]]
        return records.frame(rows, attrs={"histogram": r["histogram"]})

    def cycles(self, *, examples=3, as_frame=False, **filter_args):
        """Cycles by class and outcome. Dict: {"games", "rows": [{"cls",
        "outcome", "cycles", "games", "per_10k", "example_game_ids",
        "results"}], "results_with_cycle"} (cls "triple_ko", ...; outcome
        "no_result", "draw", "prevented_superko", ...). Frame: one row per
        class and outcome (results as results_<outcome> columns); attrs
        games, results_with_cycle."""
        request = query_pb2.CyclesRequest(
            filter=_filter("cycles", filter_args),
            examples=_count("examples", examples, 1, 10))
        r = records.to_dict(
            self._call("Cycles", request, query_pb2.CyclesResponse))
        if not as_frame:
            return r
        return records.frame(
            r["rows"], ["cls", "outcome", "cycles", "games", "per_10k"],
            {"games": r["games"],
             "results_with_cycle": r["results_with_cycle"]})

    def results(self, *, as_frame=False, **filter_args):
        """Wins by colour, end reasons, margins, lengths. Dict:
        {"outcomes", "by_reason": {reason: games}, "black_margin",
        "white_margin", "length": {"bucket", "counts"}, "mean_length"}.
        Frame: one row, the outcome columns, mean_length and a
        "reason_<reason>" column per end reason; attrs the histograms."""
        request = query_pb2.ResultsRequest(
            filter=_filter("results", filter_args))
        r = records.to_dict(
            self._call("Results", request, query_pb2.ResultsResponse))
        if not as_frame:
            return r
        row = dict(r["outcomes"], mean_length=r["mean_length"])
        row.update({"reason_" + k: v for k, v in
                    sorted(r["by_reason"].items())})
        return records.frame(
            [row], attrs={k: r[k] for k in ("black_margin", "white_margin",
                                            "length")})

    def game(self, game_id):
        """One stored game by its id ("s12-345" or "i<32 hex>"): {"id",
        "sgf" (FF[4] SGF text), "game" (the qipu.v1.Game message as a
        dict: rules, setup, result, meta, ...; its packed "moves" bytes as
        they are), "moves" (the main line decoded: ["B:Q16", "W:D4",
        "B:pass", ...], what openings() takes)}."""
        if not isinstance(game_id, str) or not game_id.strip():
            raise ValueError(f"game_id: {game_id!r} is not a game id "
                             f"(s<job>-<index> or i<32 hex>)")
        r = self._call("GetGame", query_pb2.GetGameRequest(id=game_id.strip()),
                       query_pb2.GetGameResponse)
        out = records.to_dict(r)
        out["moves"] = decode_moves(r.game)
        return out

    def players(self, prefix="", *, limit=20, as_frame=False):
        """Players whose normalised name (or an alias) starts with `prefix`
        ("" = all), most games first, at most `limit` (1..1000). Dict:
        {"players": [{"key" (what player= takes), "display", "names",
        "games", "as_black", "as_white" (outcomes; as Black, black_wins are
        the player's wins), "first_ymd", "last_ymd", "years": [{"year",
        "games", "wins", "losses"}], "rank"}]}. Frame: one row per player
        (as_black_games, as_black_black_wins, ... columns)."""
        if not isinstance(prefix, str):
            raise TypeError(f"prefix: expected a str, not {prefix!r}")
        request = query_pb2.PlayersRequest(
            prefix=prefix, limit=_count("limit", limit, 1, MAX_PAGE_SIZE))
        r = records.to_dict(
            self._call("Players", request, query_pb2.PlayersResponse))
        if not as_frame:
            return r
        return records.frame(r["players"], ["key", "display", "games"])

    # -- Paged -------------------------------------------------------------

    def _paged(self, method, build, response_type, items, limit, page_size):
        if limit is not None:
            _count("limit", limit, 0, 1 << 62)
        _count("page_size", page_size, 1, MAX_PAGE_SIZE)

        def fetch(token):
            r = self._call(method, build(token), response_type)
            return records.to_dict(r), r.next_page_token

        return Paged(fetch, items, limit)

    def games(self, *, newest_first=False, page_size=200, limit=None,
              as_frame=False, **filter_args):
        """The games matching the filter, oldest first (newest_first=True:
        newest first), as an iterator over every page (`page_size` games a
        call, 1..1000; stop after `limit` games). Each game: {"id", "date"
        (as written), "date_ymd" (YYYYMMDD, 0 unknown), "black", "white"
        ({"name", "key", "rank"}), "event", "result" (SGF RE), "moves",
        "record" ("clean", "noted", "cut"), "width", "height"}. The
        iterator's `total` is the number of matching games once the first
        page is in. Frame: every game (up to `limit`), one row each
        (black_name, black_key, black_rank, ... columns); attrs total."""
        f = _filter("games", filter_args)
        it = self._paged(
            "Games",
            lambda token: query_pb2.GamesRequest(
                filter=f, page_size=page_size, page_token=token,
                newest_first=bool(newest_first)),
            query_pb2.GamesResponse, "games", limit, page_size)
        if not as_frame:
            return it
        rows = list(it)
        return records.frame(rows, ["id", "date", "date_ymd", "result"],
                             {"total": it.total})

    def pattern_matches(self, pattern, *, placement="fixed", anchor="",
                        colour_swap=False, page_size=200, limit=None,
                        **filter_args):
        """The games in which a local pattern appeared, as an iterator over
        every page of matches: {"id", "move_number" (moves before it first
        appeared), "next" (the move played next, in the pattern's frame;
        "" when the game ended), "next_color", "result" (SGF RE)}. The
        iterator's `summary`, once the first page is in, holds the rest of
        the answer: "matched" (outcomes of all matched games),
        "continuations" ([{"move", "color", "outcomes"}]), "games_scanned",
        "games_indexed", "pattern", "placement", "anchor", "colour_swap".

        `pattern`: rows top row first, separated by "/" or new lines (a
        list of rows also), cells X O . * x o (query.proto); `placement`
        "fixed" (top-left cell at `anchor`, a GTP vertex; default the
        board's top-left corner), "corner", "side" or "anywhere";
        `colour_swap` also matches the colours swapped."""
        if isinstance(pattern, (list, tuple)):
            if not all(isinstance(row, str) for row in pattern):
                raise TypeError(f"pattern: rows must be str, not {pattern!r}")
            pattern = "/".join(pattern)
        if not isinstance(pattern, str) or not pattern.strip():
            raise ValueError(f"pattern: {pattern!r} is not a pattern (rows "
                             f"of X O . * x o separated by '/')")
        if placement not in _PLACEMENTS:
            raise ValueError(f"placement: {placement!r} is not one of "
                             f"{', '.join(_PLACEMENTS)}")
        if not isinstance(anchor, str):
            raise TypeError(f"anchor: expected a GTP vertex, not {anchor!r}")
        f = _filter("pattern_matches", filter_args)
        return self._paged(
            "Pattern",
            lambda token: query_pb2.PatternRequest(
                filter=f, pattern=pattern.strip(),
                placement=_PLACEMENTS[placement], anchor=anchor,
                colour_swap=bool(colour_swap), page_size=page_size,
                page_token=token),
            query_pb2.PatternResponse, "matches", limit, page_size)

    def pattern(self, pattern, *, as_frame=False, **options):
        """pattern_matches() read to its end (or `limit`): its summary with
        "matches", the list of every match. Frame: one row per match;
        attrs the summary."""
        it = self.pattern_matches(pattern, **options)
        matches = list(it)
        if it.summary is None:  # limit=0: no page asked for.
            it.summary = {}
        if as_frame:
            return records.frame(matches, ["id", "move_number", "next",
                                           "next_color", "result"],
                                 it.summary)
        return dict(it.summary, matches=matches)


__all__ = ["MAX_PAGE_SIZE", "Paged", "QueryClient"]
