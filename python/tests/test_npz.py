"""load_npz on files written by the C++ writer: the fox-pro corpus
imported into a database (`qipu import --db`) and exported with
`qipu train export`; every member with its documented dtype and shape,
the rows the command reports, what np.load reads, and planes that make
sense for the rows' boards."""

import glob
import os

import pytest

from qipu_testing import last_json, need_module, run_qipu, corpus_dir

np = need_module("numpy")
import qipu_client  # noqa: E402


@pytest.fixture(scope="module")
def fox_pro_db(tmp_root):
    corpus = corpus_dir("fox-pro")
    db = os.path.join(tmp_root, "db")
    summary = last_json(run_qipu(["import", "--db", db, corpus, "--json",
                                  "--no-progress"]))
    assert summary["imported"] > 600, summary
    return db


def export(db, out, *args):
    return last_json(run_qipu(["train", "export", "--db", db, "--out", out,
                               "--json"] + [str(a) for a in args]))


@pytest.mark.parametrize("pos_len,symmetries", [(19, 1), (19, 8), (21, 8)])
def test_exported_files_load(fox_pro_db, tmp_root, pos_len, symmetries):
    out = os.path.join(tmp_root, f"npz_{pos_len}_{symmetries}")
    summary = export(fox_pro_db, out, "--rows-per-file", 5000,
                     "--positions-per-game", 8, "--pos-len", pos_len,
                     "--symmetries", symmetries, "--seed", 3)
    files = sorted(glob.glob(os.path.join(out, "*.npz")))
    assert len(files) == summary["files"] > 1
    rows = 0
    games = set()
    area = pos_len * pos_len
    for path in files:
        batch = qipu_client.load_npz(path)
        assert set(batch) == set(qipu_client.MEMBERS)
        n = qipu_client.check_batch(batch, pos_len)
        assert 0 < n <= 5000
        rows += n
        # What any numpy user reads: KataGo's members in the .npz, qipu's
        # in its sidecar.
        with np.load(path) as raw, \
                np.load(qipu_client.arrays.sidecar_path(path)) as extras:
            for name, (_, dtype) in qipu_client.MEMBERS.items():
                src = extras if name in qipu_client.arrays.EXTRA_MEMBERS else raw
                assert name not in (raw if src is extras else extras).files
                assert src[name].dtype == dtype
                assert np.array_equal(src[name], batch[name])
        planes = qipu_client.unpack_inputs(batch)
        assert planes.shape == (n, 22, pos_len, pos_len)
        # The corpus is 19x19: plane 0 (on board) is the top-left 19x19.
        assert (planes[:, 0, :19, :19] == 1).all()
        assert planes[:, 0].reshape(n, area).sum(axis=1).tolist() == [361] * n
        # Own and opponent stones never share a point, and sit on board.
        assert not (planes[:, 1] & planes[:, 2]).any()
        assert not ((planes[:, 1] | planes[:, 2]) & (1 - planes[:, 0])).any()
        # The move played: one-hot on an empty on-board point or the pass.
        policy = batch["policyTargetsNCMove"][:, 0]
        assert (policy.sum(axis=1) == 1).all()
        move = policy.argmax(axis=1)
        on_point = move < area
        occupied = (planes[:, 1] | planes[:, 2]).reshape(n, area)
        assert not occupied[on_point, move[on_point]].any()
        # Value targets: win / loss / no result sum to 1.
        assert np.allclose(batch["globalTargetsNC"][:, 0:3].sum(axis=1), 1)
        # Imported games (kind 2), the row's turn in column 3.
        ids = batch["qipuRowIdNC"]
        assert (ids[:, 0] == 2).all()
        assert (ids[:, 3] == batch["qipuGlobalInputNC"][:, 1]).all()
        if symmetries == 1:
            assert (ids[:, 4] == 0).all()
        games.update(qipu_client.game_ids(batch))
    assert rows == summary["rows"]
    assert len(games) == summary["games"]


def test_load_npz_refuses_other_files(tmp_root):
    path = os.path.join(tmp_root, "other.npz")
    np.savez(path, globalInputNC=np.zeros((2, 19), np.float32))
    with pytest.raises(qipu_client.LayoutError, match="no member"):
        qipu_client.load_npz(path)
    shapes = qipu_client.row_shapes(9)
    members = {name: np.zeros((2,) + shapes[name], dtype)
               for name, (_, dtype) in qipu_client.MEMBERS.items()}
    members["globalTargetsNC"] = np.zeros((2, 80), np.float64)
    np.savez(path, **members)
    with pytest.raises(qipu_client.LayoutError, match="globalTargetsNC"):
        qipu_client.load_npz(path)
