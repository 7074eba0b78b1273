"""`qipu train export` files read as KataGo's pipeline reads them.

An independent loader written from KataGo's documented layout
(cpp/dataio/trainingwrite.h, python/shuffle.py, python/katago/train/
data_processing_pytorch.py of lightvector/KataGo v1.17): zipfile and
numpy's .npy header reader only, no qipu_client. On the fox-pro corpus
(imports) and on self-play games it checks the member set shuffle.py
requires, each member's dtype and shape, and what the channels mean
(liberties recomputed from the stone planes, the komi parity wave
recomputed from the komi, history masks against the history shown, the
"unknown" encodings and their weights), the sidecar of qipu's members, the
file times shuffle.py orders files by, row weights (constant, length,
recency), the games' own order across files, and the pos_len error (one
size, and a mixed selection with --skip-oversize).
"""

import glob
import os
import subprocess
import zipfile

import pytest

from qipu_testing import corpus_dir, last_json, need_module, qipu_bin, run_qipu

np = need_module("numpy")

# shuffle.py's assert_keys(): exactly these, plus qValueTargetsNCMove.
KATAGO_KEYS = {"binaryInputNCHWPacked", "globalInputNC", "policyTargetsNCMove",
               "globalTargetsNC", "scoreDistrN", "valueTargetsNCHW"}
Q_KEY = "qValueTargetsNCMove"


def katago_shapes(pos_len):
    """(dtype, row shape) of each member, from trainingwrite.h."""
    area = pos_len * pos_len
    return {
        "binaryInputNCHWPacked": (np.dtype("uint8"), (22, (area + 7) // 8)),
        "globalInputNC": (np.dtype("<f4"), (19,)),
        "policyTargetsNCMove": (np.dtype("<i2"), (2, area + 1)),
        "globalTargetsNC": (np.dtype("<f4"), (80,)),
        "scoreDistrN": (np.dtype("int8"), (2 * area + 120,)),
        "valueTargetsNCHW": (np.dtype("int8"), (5, pos_len, pos_len)),
        Q_KEY: (np.dtype("<i2"), (3, area + 1)),
    }


def read_npz(path):
    """Members of a zip of .npy files: name -> array (header read by
    numpy.lib.format, as shuffle.py's get_numpy_npz_headers does)."""
    out = {}
    with zipfile.ZipFile(path) as z:
        for member in z.namelist():
            assert member.endswith(".npy"), member
            with z.open(member) as f:
                assert np.lib.format.read_magic(f) == (1, 0)
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
                assert not fortran
                data = f.read()
            out[member[:-4]] = np.frombuffer(data, dtype=dtype).reshape(shape)
    return out


def liberty_planes(own, opp):
    """Planes 3-5 recomputed: stones whose chain has exactly 1, 2, 3
    liberties (flood fill over the stone planes of one row)."""
    size = own.shape[0]
    stones = own.astype(np.int8) - opp.astype(np.int8)
    seen = np.zeros_like(stones, dtype=bool)
    out = np.zeros((3, size, size), np.uint8)
    for y in range(size):
        for x in range(size):
            if stones[y, x] == 0 or seen[y, x]:
                continue
            colour = stones[y, x]
            chain, libs, todo = [], set(), [(y, x)]
            seen[y, x] = True
            while todo:
                cy, cx = todo.pop()
                chain.append((cy, cx))
                for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                    if not (0 <= ny < size and 0 <= nx < size):
                        continue
                    if stones[ny, nx] == 0:
                        libs.add((ny, nx))
                    elif stones[ny, nx] == colour and not seen[ny, nx]:
                        seen[ny, nx] = True
                        todo.append((ny, nx))
            if 1 <= len(libs) <= 3:
                for cy, cx in chain:
                    out[len(libs) - 1, cy, cx] = 1
    return out


def parity_wave(self_komi, area):
    """nninputs.cpp's komi parity wave, written from its comment."""
    if area % 2 == 0:
        floor_komi = np.floor(self_komi / 2.0) * 2.0
    else:
        floor_komi = np.floor((self_komi - 1.0) / 2.0) * 2.0 + 1.0
    delta = min(max(self_komi - floor_komi, 0.0), 2.0)
    if delta < 0.5:
        return delta
    if delta < 1.5:
        return 1.0 - delta
    return delta - 2.0


def export(db, out, *args):
    return last_json(run_qipu(["train", "export", "--db", db, "--out", out,
                               "--json"] + [str(a) for a in args]))


def check_files(out, pos_len, board, rows_wanted, self_play, ladders_on=False):
    files = sorted(glob.glob(os.path.join(out, "*.npz")))
    assert files, out
    shapes = katago_shapes(pos_len)
    area = pos_len * pos_len
    rows = 0
    checked = 0
    ladders = 0
    mtimes = [os.path.getmtime(f) for f in files]
    # shuffle.py sorts files by time: the export's order, one second apart.
    assert mtimes == sorted(mtimes) and len(set(mtimes)) == len(mtimes)
    for path in files:
        m = read_npz(path)
        keys = set(m)
        if Q_KEY in keys:
            keys.discard(Q_KEY)
        assert keys == KATAGO_KEYS, sorted(m)
        assert Q_KEY in m  # KataGo's version-16 loader reads it
        n = m["globalInputNC"].shape[0]
        for name, (dtype, shape) in shapes.items():
            assert m[name].dtype == dtype, name
            assert m[name].shape == (n,) + shape, name
        extras = read_npz(path[:-4] + ".qipu.zip")
        assert set(extras) == {"qipuGlobalInputNC", "qipuRowIdNC"}
        assert extras["qipuRowIdNC"].shape == (n, 5)
        assert (extras["qipuRowIdNC"][:, 0] == (1 if self_play else 2)).all()
        rows += n
        gt = m["globalTargetsNC"]
        gi = m["globalInputNC"]
        assert (gt[:, 63] == 3).all()  # data format version
        assert (gt[:, 25] == 1).all()  # row weight (constant)
        # TD value targets: KataGo's "unknown", weight 1 - C24 = 0.
        assert (gt[:, 24] == 1).all()
        # TD score targets (7, 11, 15, 19), weighted by C27 in KataGo's
        # loss: the final score where C27 = 1, else 0 with weight 0.
        own = gt[:, 27] == 1
        for c in (7, 11, 15, 19):
            assert np.array_equal(gt[own, c], gt[own, 20])
            assert (gt[~own, c] == 0).all()
        if self_play:
            assert own.all()
        # No search stands behind these moves: no q-value target (visits 0
        # masks every move out of KataGo's loss).
        assert not m[Q_KEY].any()
        # Lead, future positions, seki: unknown with weight 0.
        assert (gt[:, 29] == 0).all() and (gt[:, 33] == 0).all()
        planes = np.unpackbits(m["binaryInputNCHWPacked"], axis=2)[:, :, :area]
        planes = planes.reshape(n, 22, pos_len, pos_len)
        # History masks: 1 exactly for the history the row shows, first ones
        # first.
        shown = (planes[:, 9:14].reshape(n, 5, area).any(axis=2)
                 | (gi[:, 0:5] == 1))
        masks = gt[:, 36:41] == 1
        assert (masks >= shown).all()
        assert (masks[:, 1:] <= masks[:, :-1]).all()
        assert masks.sum(axis=1).max() <= 5
        # Ladder planes: laddered stones are stones of chains with 1 or 2
        # liberties; working moves are empty points on the board.
        stones = planes[:, 1] | planes[:, 2]
        assert not (planes[:, 14] & (1 - (planes[:, 3] | planes[:, 4]))).any()
        assert not (planes[:, 17] & (stones | (1 - planes[:, 0]))).any()
        for c in (15, 16):
            assert not (planes[:, c] & (1 - planes[:, 0])).any()
        ladders += int(planes[:, 14].any(axis=(1, 2)).sum())
        if not ladders_on:
            assert not planes[:, 14:18].any()
        for r in range(0, n, max(1, n // 40)):
            # Komi parity wave, global input 18 (area scoring).
            # Input 5 is komi/20 in float32: read back it is an ulp off
            # (6.9999995 for 7), so round to the half point a komi is.
            self_komi = round(float(gi[r, 5]) * 20.0 * 2.0) / 2.0
            assert gi[r, 18] == pytest.approx(parity_wave(self_komi, board * board))
            # Liberties exactly 1, 2, 3 (planes 3-5).
            b = planes[r, :, :board, :board]
            assert np.array_equal(b[3:6], liberty_planes(b[1], b[2])), r
            checked += 1
        # On 19x19 with komi 7.5 the wave is +0.5 for White, -0.5 for Black.
        if board == 19:
            komi75 = np.isclose(np.abs(gi[:, 5] * 20), 7.5)
            assert np.allclose(np.abs(gi[komi75, 18]), 0.5)
    assert rows == rows_wanted
    assert checked > 20
    if ladders_on:
        assert ladders > 0  # real games have laddered chains


@pytest.fixture(scope="module")
def fox_pro_db(tmp_root):
    corpus = corpus_dir("fox-pro")
    db = os.path.join(tmp_root, "katago_fox_db")
    summary = last_json(run_qipu(["import", "--db", db, corpus, "--json",
                                  "--no-progress"]))
    assert summary["imported"] > 600, summary
    return db


@pytest.fixture(scope="module")
def self_play_db(tmp_root):
    db = os.path.join(tmp_root, "katago_selfplay_db")
    run_qipu(["local", "--games", "40", "--size", "9", "--db", db, "--seed", "5"])
    return db


def test_fox_pro_rows_are_katagos(fox_pro_db, tmp_root):
    out = os.path.join(tmp_root, "katago_fox")
    s = export(fox_pro_db, out, "--rows-per-file", 3000,
               "--positions-per-game", 10, "--max-rows", 9000,
               "--symmetries", 8, "--seed", 4, "--ladders")
    assert s["files"] == 3
    check_files(out, 19, 19, s["rows"], self_play=False, ladders_on=True)


def test_self_play_rows_are_katagos(self_play_db, tmp_root):
    out = os.path.join(tmp_root, "katago_self")
    s = export(self_play_db, out, "--rows-per-file", 500, "--pos-len", 9,
               "--all-positions", "--symmetries", 8)
    assert s["files"] >= 2
    check_files(out, 9, 9, s["rows"], self_play=True)
    # 9x9 padded into 19.
    out19 = os.path.join(tmp_root, "katago_self19")
    s = export(self_play_db, out19, "--rows-per-file", 800, "--all-positions")
    check_files(out19, 19, 9, s["rows"], self_play=True)


def test_weight_by_length(self_play_db, tmp_root):
    out = os.path.join(tmp_root, "katago_weights")
    export(self_play_db, out, "--rows-per-file", 100000, "--pos-len", 9,
           "--all-positions", "--weight-by", "length", "--row-weight", 2)
    m = read_npz(os.path.join(out, "rows-000000.npz"))
    ids = read_npz(os.path.join(out, "rows-000000.qipu.zip"))["qipuRowIdNC"]
    w = m["globalTargetsNC"][:, 25]
    games = {}
    for row, weight in zip(ids, w):
        games.setdefault((int(row[1]), int(row[2])), []).append(float(weight))
    assert len(games) == 40
    for weights in games.values():
        # Every game weighs 2 * 100 in total, whatever its length.
        assert sum(weights) == pytest.approx(200.0, rel=1e-4)
        assert max(weights) == min(weights)


def test_extras_inline(self_play_db, tmp_root):
    out = os.path.join(tmp_root, "katago_extras")
    export(self_play_db, out, "--rows-per-file", 100000, "--pos-len", 9,
           "--extras")
    m = read_npz(os.path.join(out, "rows-000000.npz"))
    assert {"qipuGlobalInputNC", "qipuRowIdNC"} <= set(m)
    assert not os.path.exists(os.path.join(out, "rows-000000.qipu.zip"))


def test_pos_len_smaller_than_the_boards_is_an_error(fox_pro_db, tmp_root):
    out = os.path.join(tmp_root, "katago_small")
    p = subprocess.run([qipu_bin(), "train", "export", "--db", fox_pro_db,
                        "--out", out, "--pos-len", "9", "--max-rows", "10"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "pos_len 9" in p.stderr and "19x19" in p.stderr, p.stderr


# kLadder of tests/train/ladder_test.cc as an SGF: White's (2,2) is in
# atari, extends to (2,3) and Black ladders it from (2,4), the only
# working move (from (1,3) White would escape with 3 liberties).
LADDER_SGF = ("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[B+R]"
              "AB[cb][bc][dc][dd]AW[cc]PL[W];W[cd];B[ce];W[bd];B[be])")


def test_hand_made_ladder(tmp_root):
    d = os.path.join(tmp_root, "katago_ladder")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "ladder.sgf"), "w") as f:
        f.write(LADDER_SGF)
    db = os.path.join(tmp_root, "katago_ladder_db")
    run_qipu(["import", "--db", db, d, "--json", "--no-progress"])
    out = os.path.join(tmp_root, "katago_ladder_out")
    export(db, out, "--pos-len", 9, "--all-positions", "--ladders")
    m = read_npz(os.path.join(out, "rows-000000.npz"))
    turns = read_npz(os.path.join(out, "rows-000000.qipu.zip"))["qipuRowIdNC"][:, 3]
    planes = np.unpackbits(m["binaryInputNCHWPacked"], axis=2)[:, :, :81]
    planes = planes.reshape(-1, 22, 9, 9)

    def points(turn, c):
        r = int(np.nonzero(turns == turn)[0][0])
        ys, xs = np.nonzero(planes[r, c])
        return {(int(x), int(y)) for x, y in zip(xs, ys)}

    assert len(turns) == 4
    # White to move, its (2,2) in atari and laddered; the setup hides the
    # history, so planes 15 and 16 show the same position.
    for c in (14, 15, 16):
        assert points(0, c) == {(2, 2)}, c
    assert points(0, 17) == set()  # its own chain: no working moves
    # Black to move: White's two stones laddered now and one move ago;
    # the working move is (2,4) alone.
    assert points(1, 14) == {(2, 2), (2, 3)}
    assert points(1, 15) == {(2, 2)}
    assert points(1, 17) == {(2, 4)}


def write_sgfs(folder, games):
    """One SGF per (name, size, komi, date) in `games`: a short game of
    its size whose komi tells it apart in the rows."""
    os.makedirs(folder, exist_ok=True)
    for i, (name, size, komi, date) in enumerate(games):
        # Distinct moves: an import's identity is its moves (not its komi).
        col = "abcdefghi"[i]
        with open(os.path.join(folder, name + ".sgf"), "w") as f:
            f.write("(;GM[1]FF[4]SZ[%d]KM[%s]RU[Chinese]RE[B+R]DT[%s]"
                    ";B[%sa];W[%sc];B[%se];W[%sg])"
                    % (size, komi, date, col, col, col, col))


def test_files_follow_the_games_dates_and_recency_weighs_them(tmp_root):
    # Komi k.5 for the k-th game by date; written (and keyed) out of order.
    dated = [("g%d" % k, 9, "%d.5" % k, "20%02d-03-04" % (10 + k))
             for k in range(6)]
    src = os.path.join(tmp_root, "katago_dated")
    write_sgfs(src, [dated[i] for i in (3, 0, 5, 1, 4, 2)])
    db = os.path.join(tmp_root, "katago_dated_db")
    run_qipu(["import", "--db", db, src, "--json", "--no-progress"])
    out = os.path.join(tmp_root, "katago_dated_out")
    s = export(db, out, "--pos-len", 9, "--all-positions",
               "--rows-per-file", 4, "--weight-by", "recency")
    assert s["rows"] == 24 and s["files"] == 6, s
    files = sorted(glob.glob(os.path.join(out, "*.npz")))
    mtimes = [os.path.getmtime(f) for f in files]
    assert mtimes == sorted(mtimes) and len(set(mtimes)) == len(files)
    # Each file holds one game's 4 rows, oldest game first; its weight is
    # 2 (rank + 1) / (games + 1).
    for rank, f in enumerate(files):
        gt = read_npz(f)["globalTargetsNC"]
        komi = np.abs(gt[:, 47])
        assert list(komi) == [rank + 0.5] * 4, (f, komi)
        assert gt[:, 25] == pytest.approx([2.0 * (rank + 1) / 7] * 4), f
    # Key order (content hash) is another order; recency needs dates.
    out_key = os.path.join(tmp_root, "katago_dated_key")
    s = export(db, out_key, "--pos-len", 9, "--all-positions",
               "--rows-per-file", 4, "--order", "key")
    firsts = [float(np.abs(read_npz(f)["globalTargetsNC"][0, 47]))
              for f in sorted(glob.glob(os.path.join(out_key, "*.npz")))]
    assert sorted(firsts) == [k + 0.5 for k in range(6)]
    p = subprocess.run([qipu_bin(), "train", "export", "--db", db, "--out",
                        out_key + "2", "--order", "key", "--weight-by",
                        "recency"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2 and "order date" in p.stderr, p.stderr


def test_mixed_sizes_smaller_pos_len_is_an_error_or_skipped(tmp_root):
    src = os.path.join(tmp_root, "katago_mixed")
    write_sgfs(src, [("a", 9, "7.5", "2020-01-01"),
                     ("b", 13, "6.5", "2020-01-02"),
                     ("c", 13, "5.5", "2020-01-03"),
                     ("d", 9, "4.5", "2020-01-04")])
    db = os.path.join(tmp_root, "katago_mixed_db")
    run_qipu(["import", "--db", db, src, "--json", "--no-progress"])
    out = os.path.join(tmp_root, "katago_mixed_out")
    p = subprocess.run([qipu_bin(), "train", "export", "--db", db,
                        "--out", out, "--pos-len", "9"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert ("pos_len 9" in p.stderr and "13x13" in p.stderr
            and "2 of the 4" in p.stderr), p.stderr
    assert not glob.glob(os.path.join(out, "*.npz"))
    s = export(db, out, "--pos-len", 9, "--all-positions", "--skip-oversize")
    assert s["games"] == 2 and s["games_oversize"] == 2 and s["rows"] == 8, s
    gt = read_npz(os.path.join(out, "rows-000000.npz"))["globalTargetsNC"]
    assert sorted(set(np.abs(gt[:, 47]).tolist())) == [4.5, 7.5]
    # A pos_len that holds every board: no error, nothing left out.
    s = export(db, out + "13", "--pos-len", 13, "--all-positions")
    assert s["games"] == 4 and s["games_oversize"] == 0, s
