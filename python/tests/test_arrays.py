"""qipu_client without a server: the layout of train/README.md, the
zero-copy wire parser against the generated TrainingBatch class, requests,
unpack_inputs, the cursor file, and a call to a port nobody serves."""

import os
import socket

import pytest

from qipu_testing import need_module

np = need_module("numpy")
need_module("grpc")
need_module("google.protobuf")

import grpc  # noqa: E402
import qipu_client  # noqa: E402
from qipu.v1 import train_pb2  # noqa: E402

# The README's table, written out for pos_len 19 and 9.
README_19 = {
    "binaryInputNCHWPacked": ("uint8", (22, 46)),
    "globalInputNC": ("float32", (19,)),
    "qipuGlobalInputNC": ("float32", (6,)),
    "policyTargetsNCMove": ("int16", (2, 362)),
    "globalTargetsNC": ("float32", (80,)),
    "scoreDistrN": ("int8", (842,)),
    "valueTargetsNCHW": ("int8", (5, 19, 19)),
    "qipuRowIdNC": ("uint64", (5,)),
}


def test_row_shapes_follow_the_readme():
    assert qipu_client.row_shapes(19) == {k: v[1] for k, v in README_19.items()}
    for name, (dtype, _) in README_19.items():
        assert qipu_client.MEMBERS[name][1] == np.dtype(dtype).newbyteorder("<")
    shapes9 = qipu_client.row_shapes(9)
    assert shapes9["binaryInputNCHWPacked"] == (22, 11)
    assert shapes9["policyTargetsNCMove"] == (2, 82)
    assert shapes9["scoreDistrN"] == (282,)
    # train/README.md: "A 19x19 row is 5,567 bytes stored".
    assert qipu_client.row_bytes(19) == 5567
    with pytest.raises(ValueError):
        qipu_client.row_shapes(0)


def random_batch_message(rng, rows, pos_len, cursor=b"\x01cur"):
    """A TrainingBatch of random bytes of the right sizes."""
    msg = train_pb2.TrainingBatch(rows=rows, pos_len=pos_len, cursor=cursor,
                                  games_done=123456789012)
    for name, shape in qipu_client.row_shapes(pos_len).items():
        field, dtype = qipu_client.MEMBERS[name]
        size = rows * int(np.prod(shape)) * dtype.itemsize
        setattr(msg, field, rng.integers(0, 256, size, np.uint8).tobytes())
    return msg


def test_wire_parser_equals_generated_class():
    rng = np.random.default_rng(7)
    for rows, pos_len in [(1, 19), (3, 9), (17, 13), (256, 19), (0, 19)]:
        msg = random_batch_message(rng, rows, pos_len)
        data = msg.SerializeToString()
        batch = qipu_client.parse_batch(data)
        assert batch["cursor"] == msg.cursor
        assert batch["games_done"] == msg.games_done
        assert qipu_client.check_batch(batch, pos_len) == rows
        shapes = qipu_client.row_shapes(pos_len)
        for name, (field, dtype) in qipu_client.MEMBERS.items():
            a = batch[name]
            assert a.shape == (rows,) + shapes[name]
            assert a.dtype == dtype
            assert a.tobytes() == getattr(msg, field), name
            # Little-endian values: the same as numpy reading the bytes.
            want = np.frombuffer(getattr(msg, field), dtype=dtype)
            assert np.array_equal(a.reshape(-1), want,
                                  equal_nan=a.dtype.kind == "f"), name
            if rows:
                assert not a.flags.writeable  # A view of the message.


def test_wire_parser_is_zero_copy():
    msg = random_batch_message(np.random.default_rng(1), 8, 19)
    data = msg.SerializeToString()
    batch = qipu_client.parse_batch(data)
    for name in qipu_client.MEMBERS:
        base = batch[name]
        while isinstance(base, np.ndarray) and base.base is not None:
            base = base.base
        # The arrays' memory is the received message itself.
        assert isinstance(base, (memoryview, bytes)), (name, type(base))
        assert np.shares_memory(
            batch[name], np.frombuffer(data, dtype=np.uint8)), name


def varint(n):
    """n as a protobuf varint."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def test_wire_parser_skips_unknown_fields_and_takes_the_last_value():
    msg = random_batch_message(np.random.default_rng(2), 2, 9)
    data = msg.SerializeToString()
    # Unknown fields of every wire type (varint 20, fixed64 21, bytes 22,
    # fixed32 23), then rows and cursor again (the last value wins).
    extra = (varint(20 << 3 | 0) + varint(150) +
             varint(21 << 3 | 1) + b"\0" * 8 +
             varint(22 << 3 | 2) + varint(3) + b"abc" +
             varint(23 << 3 | 5) + b"\0" * 4 +
             varint(11 << 3 | 2) + varint(2) + b"zz")
    batch = qipu_client.parse_batch(data + extra)
    assert batch["cursor"] == b"zz"
    assert qipu_client.check_batch(batch, 9) == 2
    parsed = train_pb2.TrainingBatch.FromString(data + extra)
    assert parsed.cursor == b"zz"


def test_wire_parser_refuses_malformed_messages():
    msg = random_batch_message(np.random.default_rng(3), 2, 9)
    data = msg.SerializeToString()
    with pytest.raises(qipu_client.WireError):
        qipu_client.parse_batch(data[:-1])  # The last field is cut short.
    with pytest.raises(qipu_client.WireError):
        qipu_client.parse_batch(b"\x80")  # A varint without its end.
    with pytest.raises(qipu_client.WireError):
        qipu_client.parse_batch(bytes([30 << 3 | 3]))  # Group: refused.
    # rows says 3, the arrays hold 2 rows.
    msg.rows = 3
    with pytest.raises(qipu_client.LayoutError, match="binaryInputNCHWPacked"):
        qipu_client.parse_batch(msg.SerializeToString())


def test_unpack_inputs_is_katagos_unpackbits():
    rng = np.random.default_rng(4)
    for pos_len in (19, 9, 13, 7):
        area = pos_len * pos_len
        planes = rng.integers(0, 2, (5, 22, area), np.uint8)
        packed = np.packbits(planes, axis=2)  # MSB first, zero padded.
        assert packed.shape == (5, 22, (area + 7) // 8)
        got = qipu_client.unpack_inputs(packed, pos_len)
        assert got.shape == (5, 22, pos_len, pos_len)
        assert np.array_equal(got.reshape(5, 22, area), planes)
        # Point (x, y) is index y * pos_len + x: row y, column x.
        assert got[1, 3, 2, 1] == planes[1, 3, 2 * pos_len + 1]
    with pytest.raises(qipu_client.LayoutError):
        qipu_client.unpack_inputs(np.zeros((1, 22, 46), np.uint8), 9)
    with pytest.raises(ValueError):
        qipu_client.unpack_inputs(np.zeros((1, 22, 46), np.uint8))


def test_requests():
    r = qipu_client.make_request(width=9, rules="chinese", komi=7.5,
                                 handicap=0, job=4, cycles="with",
                                 drop_void=True, batch_size=64,
                                 shuffle_window=100, seed=5, symmetries=8,
                                 pos_len=13, positions_per_game=3, min_move=2,
                                 recent_games=10, cursor=b"c", max_rows=99)
    assert (r.filter.width, r.filter.height) == (9, 9)
    assert r.filter.rules == "chinese"
    assert r.filter.has_komi and r.filter.komi == 7.5
    assert r.filter.has_handicap and r.filter.handicap == 0
    assert r.filter.source == "job:4"
    assert r.cycles == train_pb2.CYCLE_SELECTION_WITH
    assert r.drop_void and r.batch_size == 64 and r.shuffle_window == 100
    assert (r.seed, r.symmetries, r.pos_len) == (5, 8, 13)
    assert (r.positions_per_game, r.min_move, r.recent_games) == (3, 2, 10)
    assert (r.cursor, r.max_rows) == (b"c", 99)
    d = qipu_client.make_request()
    assert not d.filter.has_komi and not d.filter.has_handicap
    assert d.filter.width == 0 and d.cursor == b"" and d.batch_size == 256
    with pytest.raises(ValueError, match="cycles"):
        qipu_client.make_request(cycles="some")
    with pytest.raises(ValueError, match="source or job"):
        qipu_client.make_request(source="x", job=1)


def test_cursor_file(tmp_path):
    path = str(tmp_path / "cursor")
    assert qipu_client.load_cursor(path) is None
    qipu_client.save_cursor(path, b"\x00abc")
    assert qipu_client.load_cursor(path) == b"\x00abc"
    qipu_client.save_cursor(path, b"")
    assert qipu_client.load_cursor(path) == b""
    assert os.listdir(tmp_path) == ["cursor"]  # No temporary file left.


def free_port():
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_server_is_a_qipu_error():
    with pytest.raises(qipu_client.QipuError) as e:
        next(qipu_client.batches(f"127.0.0.1:{free_port()}", timeout=5))
    assert e.value.code in (grpc.StatusCode.UNAVAILABLE,
                            grpc.StatusCode.DEADLINE_EXCEEDED)
    assert e.value.code.name in str(e.value)


def test_tune_malloc():
    # glibc (Debian): mallopt accepts the settings.
    assert qipu_client.tune_malloc() is True
    # Memory still works afterwards: a batch-sized allocation and parse.
    msg = random_batch_message(np.random.default_rng(5), 256, 19)
    assert qipu_client.check_batch(
        qipu_client.parse_batch(msg.SerializeToString())) == 256
