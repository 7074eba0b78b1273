"""batches() against a real qipu-coordinator on 127.0.0.1 with the shared
fox-pro corpus imported through it (`qipu import --server`): shapes and
dtypes, rows byte-identical to `qipu train export` of the same request,
the cursor (a client that stops mid-stream, or is killed, and restarts
from its cursor gets every selected game's rows exactly once), the recent
window, max_rows, bad requests (INVALID_ARGUMENT with the reason) and
cancelled streams."""

import collections
import glob
import json
import os
import signal
import subprocess
import time

import pytest

from qipu_testing import (PYTHON, corpus_dir, last_json, need_module,
                          run_qipu)

np = need_module("numpy")
need_module("grpc")
need_module("google.protobuf")
import grpc  # noqa: E402
import qipu_client  # noqa: E402

# Rows of the corpus used by most tests: 6 positions of each game.
SAMPLE = dict(positions_per_game=6, min_move=0)


def pull(server, **options):
    """Every batch of a stream, as a list."""
    return list(qipu_client.batches(server.address, timeout=300, **options))


def row_keys(batch):
    """(kind, hi, lo, turn) of each row: a row of a game, once."""
    ids = batch["qipuRowIdNC"]
    return [tuple(int(v) for v in r[:4]) for r in ids]


def rows_as_bytes(batch):
    """Each row's bytes, all members concatenated: the row's identity."""
    n = batch["qipuRowIdNC"].shape[0]
    parts = [batch[m].reshape(n, -1).view(np.uint8) for m in qipu_client.MEMBERS]
    return [b"".join(p[i].tobytes() for p in parts) for i in range(n)]


@pytest.fixture(scope="module")
def server(fox_pro_server):
    s = fox_pro_server.import_summary
    assert s["imported"] > 600, s
    return fox_pro_server


@pytest.fixture(scope="module")
def export_db(tmp_root):
    """The same corpus in a database of its own (the coordinator holds the
    other): imported games are keyed by their content, so both databases
    hold the same games in the same order."""
    db = os.path.join(tmp_root, "export_db")
    last_json(run_qipu(["import", "--db", db, corpus_dir("fox-pro"),
                        "--json", "--no-progress"]))
    return db


def test_shapes_dtypes_and_batching(server):
    got = pull(server, batch_size=256, symmetries=8, seed=1, **SAMPLE)
    assert len(got) > 5
    games_done = 0
    cursors = set()
    for i, batch in enumerate(got):
        n = qipu_client.check_batch(batch, 19)
        assert n == 256 or (i == len(got) - 1 and 0 < n <= 256)
        for name, (_, dtype) in qipu_client.MEMBERS.items():
            assert batch[name].dtype == dtype
            assert batch[name].shape == (n,) + qipu_client.row_shapes(19)[name]
        assert isinstance(batch["cursor"], bytes) and batch["cursor"]
        cursors.add(batch["cursor"])
        assert batch["games_done"] >= games_done
        games_done = batch["games_done"]
        planes = qipu_client.unpack_inputs(batch)
        assert (planes[:, 0].sum(axis=(1, 2)) == 361).all()
    assert len(cursors) == len(got)
    keys = [k for b in got for k in row_keys(b)]
    assert len(keys) == len(set(keys))  # Every row once.
    games = {k[:3] for k in keys}
    assert games_done == len(games)
    # 6 positions a game, fewer only for games that short.
    per_game = collections.Counter(k[:3] for k in keys)
    assert max(per_game.values()) == 6
    assert sum(1 for c in per_game.values() if c == 6) > 0.9 * len(games)


def read_export(out):
    files = sorted(glob.glob(os.path.join(out, "*.npz")))
    assert files, f"no .npz in {out}"
    return qipu_client.concat(qipu_client.load_npz(f) for f in files)


@pytest.mark.parametrize("options", [
    dict(symmetries=1, seed=0, pos_len=19, shuffle_window=0, **SAMPLE),
    dict(symmetries=8, seed=11, pos_len=19, shuffle_window=0,
         positions_per_game=3, min_move=20),
    dict(symmetries=8, seed=5, pos_len=20, shuffle_window=0,
         positions_per_game=2),
    dict(symmetries=8, seed=7, pos_len=19, shuffle_window=1500, **SAMPLE),
])
def test_rows_equal_export(server, export_db, tmp_root, options):
    """The rows pulled equal, byte for byte and in order, the rows
    `qipu train export --db` writes for the same request from a database
    of its own (the same games: imported games are keyed by content)."""
    got = qipu_client.concat(pull(server, batch_size=500, **options))
    out = os.path.join(tmp_root, "export_" + "_".join(
        f"{k}{v}" for k, v in sorted(options.items())))
    # The pull asks for key order (the request's default); the export's
    # default is the games' own order.
    args = ["train", "export", "--db", export_db, "--out", out,
            "--rows-per-file", 1000, "--json", "--order", "key"]
    for k, v in sorted(options.items()):
        args += ["--" + k.replace("_", "-"), v]
    summary = last_json(run_qipu(args))
    want = read_export(out)
    assert summary["rows"] == want["qipuRowIdNC"].shape[0]
    for name in qipu_client.MEMBERS:
        assert got[name].shape == want[name].shape, name
        assert got[name].tobytes() == want[name].tobytes(), name


def test_shuffled_rows_are_the_same_rows(server):
    """A shuffle window changes the order of the rows, not the rows."""
    plain = pull(server, batch_size=256, shuffle_window=0, symmetries=8,
                 seed=4, **SAMPLE)
    mixed = pull(server, batch_size=256, shuffle_window=2000, symmetries=8,
                 seed=4, **SAMPLE)
    a = [r for b in plain for r in rows_as_bytes(b)]
    b = [r for b in mixed for r in rows_as_bytes(b)]
    assert a != b
    assert sorted(a) == sorted(b)
    # The same seed, the same stream.
    again = pull(server, batch_size=256, shuffle_window=2000, symmetries=8,
                 seed=4, **SAMPLE)
    assert [r for x in again for r in rows_as_bytes(x)] == b


CURSOR_OPTIONS = dict(batch_size=100, shuffle_window=700, symmetries=8,
                      seed=9, **SAMPLE)


def check_exactly_once(reference, received):
    """Every selected game's rows, each exactly once: the multiset of rows
    `received` equals the reference stream's."""
    ref = collections.Counter(k for b in reference for k in row_keys(b))
    got = collections.Counter(received)
    assert max(got.values()) == 1, [k for k, c in got.items() if c > 1][:5]
    assert got == ref, (len(got), len(ref))


@pytest.mark.parametrize("stop_after", [1, 7, 23])
def test_cursor_resumes_without_repeating_or_skipping(server, stop_after):
    reference = pull(server, **CURSOR_OPTIONS)
    assert len(reference) > stop_after + 5
    received = []
    cursor = None
    stream = qipu_client.batches(server.address, timeout=300,
                                 **CURSOR_OPTIONS)
    for i, batch in enumerate(stream):
        received += row_keys(batch)
        cursor = batch["cursor"]
        if i + 1 == stop_after:
            break
    stream.close()  # Cancels the call mid-stream.
    rest = pull(server, cursor=cursor, **CURSOR_OPTIONS)
    assert rest
    for batch in rest:
        received += row_keys(batch)
    check_exactly_once(reference, received)


def test_resumable_batches_with_a_cursor_file(server, tmp_path):
    reference = pull(server, **CURSOR_OPTIONS)
    path = str(tmp_path / "cursor")
    received = []
    for run in range(100):
        before = len(received)
        for i, batch in enumerate(qipu_client.resumable_batches(
                server.address, path, timeout=300, **CURSOR_OPTIONS)):
            received += row_keys(batch)
            if i == 4:
                break  # Leaves after 5 batches: they count as consumed.
        if len(received) == before:
            break
    assert run > 2
    check_exactly_once(reference, received)


# A trainer killed at any moment: each batch's row keys and its cursor are
# saved together, atomically (one file, renamed), so the state on disk is
# always "these rows, and the cursor after them".
KILLED_CLIENT = r"""
import json, os, sys
import qipu_client
server, state_path, options = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
state = {"rows": [], "cursor": ""}
if os.path.exists(state_path):
    state = json.load(open(state_path))
options["cursor"] = bytes.fromhex(state["cursor"])
for batch in qipu_client.batches(server, timeout=300, **options):
    state["rows"] += [[int(v) for v in r[:4]] for r in batch["qipuRowIdNC"]]
    state["cursor"] = batch["cursor"].hex()
    with open(state_path + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(state_path + ".tmp", state_path)
print("done", flush=True)
"""


def test_killed_client_restarts_from_its_cursor(server, tmp_path):
    reference = pull(server, **CURSOR_OPTIONS)
    state_path = str(tmp_path / "state.json")
    env = dict(os.environ)
    argv = [PYTHON, "-c", KILLED_CLIENT, server.address, state_path,
            json.dumps(CURSOR_OPTIONS)]
    # First run: SIGKILL once it has saved a few batches.
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while True:
        rows = 0
        if os.path.exists(state_path):
            with open(state_path) as f:
                rows = len(json.load(f)["rows"])
        if rows >= 500 or p.poll() is not None:
            break
        assert time.monotonic() < deadline, "the client saved no batches"
        time.sleep(0.005)  # Polling the state file.
    p.send_signal(signal.SIGKILL)
    p.wait()
    with open(state_path) as f:
        first = len(json.load(f)["rows"])
    total = sum(b["qipuRowIdNC"].shape[0] for b in reference)
    assert 0 < first < total, "killed too late to test anything"
    # Second run: from the saved cursor to the end.
    out = subprocess.run(argv, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert "done" in out.stdout
    with open(state_path) as f:
        received = [tuple(r) for r in json.load(f)["rows"]]
    check_exactly_once(reference, received)


def test_recent_games_window(server):
    full = pull(server, batch_size=256, shuffle_window=0, **SAMPLE)
    order = []
    for b in full:
        for g in qipu_client.game_ids(b):
            if not order or order[-1] != g:
                order.append(g)
    assert len(order) == len(set(order))  # Game order: a game's rows together.
    recent = pull(server, batch_size=256, shuffle_window=0, recent_games=50,
                  **SAMPLE)
    games = {g for b in recent for g in qipu_client.game_ids(b)}
    assert games == set(order[-50:])


def test_max_rows(server):
    got = pull(server, batch_size=64, max_rows=1000, **SAMPLE)
    assert sum(b["qipuRowIdNC"].shape[0] for b in got) == 1000
    assert all(b["qipuRowIdNC"].shape[0] <= 64 for b in got)


def test_filters(server):
    # No 9x9 game in the corpus: an empty stream.
    assert pull(server, width=9, **SAMPLE) == []
    everything = pull(server, batch_size=1000, **SAMPLE)
    games = {g for b in everything for g in qipu_client.game_ids(b)}
    kept = pull(server, batch_size=1000, drop_void=True, **SAMPLE)
    kept_games = {g for b in kept for g in qipu_client.game_ids(b)}
    assert kept_games <= games
    for b in kept:  # No row of a game without a result.
        assert (b["globalTargetsNC"][:, 2] < 1).all()
    for b in everything:
        void = b["globalTargetsNC"][:, 2] == 1
        assert not (set(qipu_client.game_ids(
            {"qipuRowIdNC": b["qipuRowIdNC"][void]})) & kept_games)


@pytest.mark.parametrize("options,reason", [
    (dict(batch_size=0), "batch"),
    (dict(batch_size=100000), "batch"),
    (dict(rules="no-such-rules"), "rules"),
    (dict(symmetries=3), "symmetr"),
    (dict(width=19, pos_len=9), "pos"),
    (dict(cursor=b"\xffnot a cursor"), "cursor"),
])
def test_bad_requests_are_invalid_argument(server, options, reason):
    with pytest.raises(qipu_client.QipuError) as e:
        pull(server, **options)
    assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT, str(e.value)
    assert reason in e.value.message.lower(), e.value.message


# A shuffle window whose memory reservation (rows x 5,567 bytes) exceeds
# half the coordinator's 2 GiB budget for training streams: one such stream
# at a time. With 8 positions a game the corpus has few rows, so the rows
# actually built stay small.
BIG_WINDOW = dict(shuffle_window=200000, positions_per_game=8, batch_size=8)


def start_when_admitted(ch, seed, timeout=60):
    """A stream's generator and its first batch, retrying while the server
    refuses it for its memory budget (RESOURCE_EXHAUSTED: another stream's
    reservation is not released yet). Returns (stream, batch, refusals)."""
    deadline = time.monotonic() + timeout
    refusals = 0
    while True:
        stream = qipu_client.batches(ch, seed=seed, timeout=60, **BIG_WINDOW)
        try:
            return stream, next(stream), refusals
        except qipu_client.QipuError as e:
            if e.code != grpc.StatusCode.RESOURCE_EXHAUSTED:
                raise
            refusals += 1
            assert time.monotonic() < deadline, (
                f"a cancelled stream still holds its memory after {timeout} s:"
                f" {e.message}")
            time.sleep(0.02)  # Polling: the release is asynchronous.


def test_cancelled_streams_free_their_memory(server):
    ch = qipu_client.channel(server.address)
    try:
        # While one stream holds its reservation, a second is refused with
        # the reason.
        first, _, _ = start_when_admitted(ch, seed=0)
        with pytest.raises(qipu_client.QipuError) as e:
            next(qipu_client.batches(ch, seed=1, timeout=60, **BIG_WINDOW))
        assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "shuffle_window" in e.value.message
        first.close()  # Cancelled mid-stream.
        # Each stream cancelled after its first batch frees its memory:
        # the next one is admitted (after a few refusals at most, while
        # the server notices the cancellation).
        for seed in range(1, 11):
            stream, batch, _ = start_when_admitted(ch, seed)
            assert batch["qipuRowIdNC"].shape[0] == 8
            stream.close()
        # A full stream still works (and the fixture checks that the
        # coordinator then stops cleanly, exit status 0).
        got = list(qipu_client.batches(ch, timeout=300, **SAMPLE))
        assert sum(b["qipuRowIdNC"].shape[0] for b in got) > 3000
    finally:
        ch.close()
