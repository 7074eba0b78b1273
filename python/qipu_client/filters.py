"""The filter of the queries (qipu.v1.Filter) from keyword arguments.

The names are those of `qipu query`'s flags (backend/query_args.h) in
Python spelling: size, rules, komi, handicap, source, job, policy, records,
date_from (--from), date_to (--to), player, as_ (--as), opponent, event,
result, rank_min, rank_max. Arguments are checked here, so that a wrong
type or value fails before any call as TypeError or ValueError naming the
argument; the server checks again (and what only it can judge, such as a
rules axis, comes back as QipuError INVALID_ARGUMENT).
"""

import datetime
import numbers
import re

from qipu.v1 import game_pb2
from qipu.v1 import query_pb2

# Every filter keyword, in the order of the flags.
FILTER_ARGS = ("size", "rules", "komi", "handicap", "source", "job", "policy",
               "records", "date_from", "date_to", "player", "as_",
               "opponent", "event", "result", "rank_min", "rank_max")

_RECORDS = ("", "all", "clean", "noted", "cut")
_RESULTS = {"b+": "B+", "w+": "W+", "draw": "draw", "void": "void"}
_COLOURS = {"b": game_pb2.COLOR_BLACK, "black": game_pb2.COLOR_BLACK,
            "w": game_pb2.COLOR_WHITE, "white": game_pb2.COLOR_WHITE}
_RANK = re.compile(r"^\s*(\d{1,2})\s*([kdp])\s*$", re.IGNORECASE)


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _text(name, value):
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a str, not "
                        f"{type(value).__name__} {value!r}")
    return value


def parse_size(size):
    """(width, height) of `size`: N, "N", "WxH" or (W, H); None or 0 = any
    (0, 0). ValueError / TypeError naming `size` otherwise."""
    if size is None or (_is_int(size) and size == 0):
        return 0, 0
    if _is_int(size):
        w = h = int(size)
    elif isinstance(size, str):
        m = re.fullmatch(r"\s*(\d+)\s*(?:[xX]\s*(\d+)\s*)?", size)
        if not m:
            raise ValueError(f"size: {size!r} is not N or WxH")
        w = int(m.group(1))
        h = int(m.group(2)) if m.group(2) else w
    elif isinstance(size, (tuple, list)) and len(size) == 2 and all(
            _is_int(v) for v in size):
        w, h = int(size[0]), int(size[1])
    else:
        raise TypeError(f"size: expected N, 'WxH' or (W, H), not {size!r}")
    if not (2 <= w <= 25 and 2 <= h <= 25):
        raise ValueError(f"size: {w}x{h} is off the boards qipu stores "
                         f"(2..25 a side)")
    return w, h


def parse_date(name, value):
    """YYYYMMDD of `value`: an int or str YYYYMMDD, "YYYY-MM-DD" or a
    datetime.date; None or 0 = open (0). Errors name `name`."""
    if value is None or (_is_int(value) and value == 0):
        return 0
    if isinstance(value, datetime.date):
        return value.year * 10000 + value.month * 100 + value.day
    if _is_int(value):
        text = str(int(value))
    elif isinstance(value, str):
        text = value.strip().replace("-", "")
    else:
        raise TypeError(f"{name}: expected YYYYMMDD, 'YYYY-MM-DD' or a "
                        f"datetime.date, not {value!r}")
    try:
        day = datetime.datetime.strptime(text, "%Y%m%d").date()
    except ValueError:
        raise ValueError(f"{name}: {value!r} is not a day YYYYMMDD") from None
    return day.year * 10000 + day.month * 100 + day.day


def parse_colour(name, value):
    """COLOR_BLACK / COLOR_WHITE of "B"/"black"/"W"/"white" (any case);
    None or "" = COLOR_UNSPECIFIED."""
    if value is None or value == "":
        return game_pb2.COLOR_UNSPECIFIED
    if not isinstance(value, str) or value.strip().lower() not in _COLOURS:
        raise ValueError(f"{name}: {value!r} is not black or white "
                         f"('B', 'W', 'black', 'white')")
    return _COLOURS[value.strip().lower()]


def _rank(name, value):
    value = _text(name, value)
    if not value:
        return ""
    m = _RANK.match(value)
    ok = m is not None
    if ok:
        n, kind = int(m.group(1)), m.group(2).lower()
        ok = (1 <= n <= 30) if kind == "k" else (1 <= n <= 9)
    if not ok:
        raise ValueError(f"{name}: {value!r} is not a rank 30k..1k, 1d..9d "
                         f"or 1p..9p")
    return value.strip()


def make_query_filter(*, size=None, rules="", komi=None, handicap=None,
                      source="", job=None, policy="", records="",
                      date_from=None, date_to=None, player="", as_=None,
                      opponent="", event="", result="", rank_min="",
                      rank_max=""):
    """A qipu.v1.Filter of the keyword arguments (module docstring); every
    argument left at its default matches every game.

      size       N, "N", "WxH" or (W, H)
      rules      a preset ("chinese") or axes ("ko=positional")
      komi       a number (6.5)
      handicap   0..9 (0 = even games)
      source     "import", "job:N" (or job=N)
      policy     "import", "gtp:gnugo", ...
      records    "all", "clean", "noted", "cut"
      date_from, date_to   YYYYMMDD, "YYYY-MM-DD", datetime.date (inclusive)
      player     a name, either side (or the side as_ names)
      as_        "black" / "white" ("B" / "W"; needs player)
      opponent   a name
      event      text the event contains
      result     "B+", "W+", "draw", "void"
      rank_min, rank_max   "2k", "5d", "9p"
    """
    width, height = parse_size(size)
    f = query_pb2.Filter(width=width, height=height)
    f.rules = _text("rules", rules)
    if komi is not None:
        if not isinstance(komi, numbers.Real) or isinstance(komi, bool):
            raise TypeError(f"komi: expected a number, not {komi!r}")
        if komi != komi or abs(komi) > 1000:
            raise ValueError(f"komi: {komi!r} is not a komi")
        f.has_komi = True
        f.komi = float(komi)
    if handicap is not None:
        if not _is_int(handicap):
            raise TypeError(f"handicap: expected an int, not {handicap!r}")
        if not 0 <= handicap <= 9:
            raise ValueError(f"handicap: {handicap} is not 0..9")
        f.has_handicap = True
        f.handicap = int(handicap)
    f.source = _text("source", source)
    if job is not None:
        if not _is_int(job) or job < 0:
            raise ValueError(f"job: {job!r} is not a job id")
        if f.source:
            raise ValueError("job: give source or job, not both")
        f.source = f"job:{int(job)}"
    f.policy = _text("policy", policy)
    records = _text("records", records)
    if records not in _RECORDS:
        raise ValueError(f"records: {records!r} is not one of "
                         f"{', '.join(r for r in _RECORDS if r)}")
    f.records = records
    f.date_from = parse_date("date_from", date_from)
    f.date_to = parse_date("date_to", date_to)
    if f.date_from and f.date_to and f.date_from > f.date_to:
        raise ValueError(f"date_from {f.date_from} is after date_to "
                         f"{f.date_to}")
    f.player = _text("player", player)
    f.player_as = parse_colour("as_", as_)
    if f.player_as and not f.player:
        raise ValueError("as_: names the colour of `player`; give player too")
    f.opponent = _text("opponent", opponent)
    f.event = _text("event", event)
    result = _text("result", result).strip()
    if result and result.lower() not in _RESULTS:
        raise ValueError(f"result: {result!r} is not one of B+, W+, draw, "
                         f"void")
    f.result = _RESULTS[result.lower()] if result else ""
    f.rank_min = _rank("rank_min", rank_min)
    f.rank_max = _rank("rank_max", rank_max)
    return f
