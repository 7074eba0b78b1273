"""The "every acknowledged game is stored" check, which the fleet tests
and the soak (ops/soak/soak_checks.py) run at their end over their
workers' ack logs (`qipu-worker --ack-log FILE`, worker/ack_log.h) and the
games the coordinator holds.

A job that finishes is not enough: a game acknowledged and then lost goes
back to the pool and is played again, and the job still ends with all its
games. So each acknowledged game must be stored, and its stored copy must
be the one that was acknowledged or an older one: stored
(provenance.stored_unix_micros, set by the coordinator before the commit)
no later than its first ack arrived (the ack log's time, taken by the
worker after the commit). A copy stored after its ack is a replay of a
lost game. The times come from one clock: the coordinator and the workers
of a test run on one machine. (The same check for the C++ process tests:
tests/ops/ack_check.h; tests/ops/acked_write_test.cc shows that both
kinds of loss fail it, with the coordinator's test fault
--test-fault-drop-acked-every.)

Usage:
    acks = read_ack_logs(paths)
    # export_path: `qipu export --format jsonl` of the games
    stored = stored_times_from_jsonl(export_path)
    result = check_acked_games_stored(acks, stored)  # or assert_...
"""

import json
import os
import re

_LINE = re.compile(r"(s\d+-\d+) (stored|duplicate) (\d+) (.+)")


class AckLogError(Exception):
    """An ack log that is missing or holds a line that is not an ack."""


def read_ack_logs(paths):
    """The acks of the ack logs at `paths`, in order: dicts with id,
    status ("stored" or "duplicate"), ack_us (unix microseconds), worker
    and where ("file:line"). Raises AckLogError naming the file (and line)
    for a missing file or a bad line. A line cut off at its end (a worker
    killed in the middle of a write cannot leave one: each ack message is
    one write) is an error too."""
    acks = []
    for path in paths:
        if not os.path.exists(path):
            raise AckLogError(f"ack log {path} is missing")
        with open(path, errors="replace") as f:
            text = f.read()
        if text and not text.endswith("\n"):
            raise AckLogError(f"ack log {path} ends in the middle of a line")
        for number, line in enumerate(text.splitlines(), 1):
            m = _LINE.fullmatch(line)
            if not m:
                raise AckLogError(
                    f"ack log {path}:{number}: not '<id> stored|duplicate "
                    f"<micros> <worker>': {line!r}")
            acks.append({"id": m.group(1), "status": m.group(2),
                         "ack_us": int(m.group(3)), "worker": m.group(4),
                         "where": f"{path}:{number}"})
    return acks


def stored_times_from_jsonl(path):
    """{game id: provenance.stored_unix_micros} of the games in a `qipu
    export --format jsonl` file."""
    stored = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                g = json.loads(line)
                stored[g["id"]] = int(g["provenance"]["stored_unix_micros"])
    return stored


def check_acked_games_stored(acks, stored):
    """Checks each acknowledged game (its earliest ack) against `stored`
    ({id: stored_unix_micros}, or a callable id -> micros or None).
    Returns {"ok", "acks", "games", "missing", "stored_after_ack",
    "details"}: the ids not stored and those stored only after their ack
    (sorted), and a line for each naming the ack (file:line, worker, time)
    and the stored time."""
    lookup = stored if callable(stored) else stored.get
    first = {}
    for a in acks:
        if a["id"] not in first or a["ack_us"] < first[a["id"]]["ack_us"]:
            first[a["id"]] = a
    missing, late, details = [], [], []
    for gid in sorted(first, key=_id_order):
        a = first[gid]
        t = lookup(gid)
        ack = (f"{gid}: acked ({a['status']}) to {a['worker']} at "
               f"{a['ack_us']} us ({a['where']})")
        if t is None:
            missing.append(gid)
            details.append(f"{ack}, not stored")
        elif t > a["ack_us"]:
            late.append(gid)
            details.append(f"{ack}, stored at {t} us, "
                           f"{(t - a['ack_us']) / 1e6:.3f} s after its ack")
    return {"ok": not missing and not late, "acks": len(acks),
            "games": len(first), "missing": missing,
            "stored_after_ack": late, "details": details}


def describe(result, limit=20):
    """One paragraph: the counts and up to `limit` detail lines."""
    lines = [f"{result['acks']} ack(s) of {result['games']} game(s): "
             f"{len(result['missing'])} not stored, "
             f"{len(result['stored_after_ack'])} stored only after their "
             f"ack (acknowledged, lost and played again)"]
    lines += ["  " + d for d in result["details"][:limit]]
    if len(result["details"]) > limit:
        lines.append(f"  ... and {len(result['details']) - limit} more")
    return "\n".join(lines)


def assert_acked_games_stored(ack_paths, stored, min_games=1):
    """Reads the ack logs and fails the test (AssertionError naming the
    games) unless every acknowledged game is stored, and stored before its
    ack; also unless at least `min_games` games were acknowledged (a check
    over empty logs proves nothing). Returns the result."""
    result = check_acked_games_stored(read_ack_logs(ack_paths), stored)
    assert result["games"] >= min_games, (
        f"only {result['games']} acknowledged game(s) in {ack_paths}, "
        f"expected at least {min_games}")
    assert result["ok"], "acknowledged games lost:\n" + describe(result)
    return result


def _id_order(gid):
    job, index = gid[1:].split("-")
    return int(job), int(index)
