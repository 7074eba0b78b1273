#!/usr/bin/python3
"""player_openings_by_year: how a player's first moves as Black changed by
year, from a running coordinator (qipu_client.QueryClient).

For --player (default: of the players who played in two years or more,
the one with the most games as Black), it asks
  - QueryService.Players for the player's key and the years they played,
  - QueryService.Openings once per year, with the filter player=<key>,
    as_="black" and that year's dates: the games from the empty board
    (even games; handicap games start from their stones) and Black's first
    moves, all 8 symmetries folded,
  - QueryService.Games for the player's latest games as Black,
classes each first move by its lines from the two nearest edges ("4-4",
"3-4", "3-3", ...: the same class under every symmetry), prints a table
(years by classes, games and shares), draws the shares as stacked bars
into a PNG (matplotlib, Agg backend: no display needed), and ends with one
JSON line: {"player", "key", "display", "years": {"<year>": {"games",
"first_moves": {"<class>": games}}}, "latest_games": [ids], "png"}.

  PYTHONPATH=build/release/python python/examples/player_openings_by_year.py \
      --server 127.0.0.1:7070 --player "Shin Jinseo" --out shin.png

Needs Debian's python3-matplotlib, and a coordinator with issue 32's
players and game lists; an older one answers UNIMPLEMENTED, and the
script says so and exits 3. Exit 1 for other failed calls, 2 for bad
flags.
"""

import argparse
import json
import sys

import grpc

import qipu_client

GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
EXIT_FAILED, EXIT_USAGE, EXIT_UNIMPLEMENTED = 1, 2, 3


def point_class(vertex, size=19):
    """"a-b" (a <= b): the lines of a GTP vertex from its two nearest
    edges, equal for its 8 symmetric images; "pass" for a pass."""
    if vertex.lower() == "pass":
        return "pass"
    col = GTP_LETTERS.index(vertex[0].upper())
    row = size - int(vertex[1:])
    a = min(col, size - 1 - col) + 1
    b = min(row, size - 1 - row) + 1
    return f"{min(a, b)}-{max(a, b)}"


def default_rank(player):
    """What the default player maximises: playing in two years or more
    first (a change by year needs two), then games as Black, then key."""
    return (min(len(player["years"]), 2), player["as_black"]["games"],
            player["key"])


def choose_player(q, name):
    """The PlayerSummary dict of `name` (the one whose key or names equal it,
    else the first by prefix), or when `name` is None of the player who
    played in two years or more with the most games as Black."""
    if name is None:
        players = q.players("", limit=qipu_client.MAX_PAGE_SIZE)["players"]
        if not players:
            raise SystemExit("player_openings_by_year: the database has no "
                             "players")
        return max(players, key=default_rank)
    players = q.players(name, limit=50)["players"]
    for p in players:
        if name in [p["key"], p["display"]] + p["names"]:
            return p
    if not players:
        raise SystemExit(f"player_openings_by_year: no player named "
                         f"{name!r} (qipu query players lists them)")
    return players[0]


def first_moves_by_year(q, key, years):
    """{year: (games from the empty board, {class: games})}."""
    out = {}
    for year in years:
        r = q.openings(player=key, as_="black", size=19, examples=1,
                       date_from=year * 10000 + 101,
                       date_to=year * 10000 + 1231)
        classes = {}
        for c in r["continuations"]:
            cls = point_class(c["move"])
            classes[cls] = classes.get(cls, 0) + c["outcomes"]["games"]
        out[year] = (r["reached"]["games"], classes)
    return out


def print_table(player, by_year, classes):
    print(f"First moves as Black of {player['display']} "
          f"(key {player['key']!r}; even games, symmetries folded)")
    head = f"{'year':>6} {'games':>6}" + "".join(f" {c:>12}" for c in classes)
    print(head)
    for year, (games, counts) in sorted(by_year.items()):
        cells = ""
        for c in classes:
            n = counts.get(c, 0)
            share = f"{n} ({100 * n / games:.0f}%)" if games else "-"
            cells += f" {share:>12}"
        print(f"{year:>6} {games:>6}{cells}")


def drawable(text):
    """Whether matplotlib's default font has a glyph for every character of
    `text` (Debian's DejaVu fonts have none for CJK names; a title of empty
    boxes helps nobody, so the chart leaves such a name out)."""
    from matplotlib import font_manager, ft2font
    path = font_manager.findfont(font_manager.FontProperties())
    charmap = ft2font.FT2Font(path).get_charmap()
    return all(ord(c) in charmap for c in text)


def draw(path, player, by_year, classes):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    years = sorted(by_year)
    fig, ax = plt.subplots(figsize=(max(4, 1 + 0.8 * len(years)), 4))
    bottom = [0.0] * len(years)
    for cls in classes:
        shares = [by_year[y][1].get(cls, 0) / by_year[y][0]
                  if by_year[y][0] else 0 for y in years]
        ax.bar([str(y) for y in years], shares, bottom=bottom, label=cls)
        bottom = [b + s for b, s in zip(bottom, shares)]
    for i, y in enumerate(years):
        ax.text(i, 1.01, f"n={by_year[y][0]}", ha="center", fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("share of even games as Black")
    title = "First moves as Black by year"
    if drawable(player["display"]):
        title += ": " + player["display"]
    ax.set_title(title)
    ax.legend(title="point", fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", required=True, help="coordinator HOST:PORT")
    p.add_argument("--player", default=None,
                   help="a name (default: most games as Black)")
    p.add_argument("--out", default="player_openings_by_year.png",
                   help="the PNG chart written")
    p.add_argument("--latest", type=int, default=5,
                   help="latest games as Black listed")
    p.add_argument("--timeout", type=float, default=30,
                   help="deadline of each call, seconds")
    p.add_argument("--token", default=None,
                   help="reader token (default: $QIPU_TOKEN)")
    p.add_argument("--tls-ca", default=None)
    p.add_argument("--tls-cert", default=None)
    p.add_argument("--tls-key", default=None)
    args = p.parse_args(argv)
    if args.latest < 0:
        p.error("--latest: must be 0 or more")
    try:
        q = qipu_client.QueryClient(
            args.server, timeout=args.timeout, token=args.token,
            tls_ca=args.tls_ca, tls_cert=args.tls_cert, tls_key=args.tls_key)
    except (ValueError, TypeError) as e:
        p.error(str(e))
    try:
        with q:
            player = choose_player(q, args.player)
            years = [y["year"] for y in player["years"]]
            by_year = first_moves_by_year(q, player["key"], years)
            by_year = {y: v for y, v in by_year.items() if v[0] > 0}
            latest = [g["id"] for g in q.games(
                player=player["key"], as_="black", newest_first=True,
                limit=args.latest, page_size=max(1, args.latest))]
    except qipu_client.QipuError as e:
        if e.code == grpc.StatusCode.UNIMPLEMENTED:
            print(f"player_openings_by_year: the coordinator at "
                  f"{args.server} does not answer player queries "
                  f"(QueryService.Players, Games: {e}); it predates issue "
                  f"32's players and game lists: run a newer "
                  f"qipu-coordinator", file=sys.stderr)
            return EXIT_UNIMPLEMENTED
        print(f"player_openings_by_year: {e}", file=sys.stderr)
        return EXIT_FAILED
    total = {}
    for _, counts in by_year.values():
        for cls, n in counts.items():
            total[cls] = total.get(cls, 0) + n
    classes = sorted(total, key=lambda c: (-total[c], c))
    print_table(player, by_year, classes)
    if latest:
        print("Latest games as Black: " + " ".join(latest))
    draw(args.out, player, by_year, classes)
    print(f"Chart: {args.out}")
    print(json.dumps({
        "player": args.player, "key": player["key"],
        "display": player["display"],
        "years": {str(y): {"games": g, "first_moves": c}
                  for y, (g, c) in sorted(by_year.items())},
        "latest_games": latest, "png": args.out}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
