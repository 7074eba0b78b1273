"""A TrainingBatch read straight from its wire bytes, without copying.

The generated protobuf class copies every bytes field out of the message
(once into the message, once more into a Python bytes object on access);
at 5.5 KB a 19x19 row that is most of a fast client's time. parse_batch()
walks the protobuf wire format of the received message instead and hands
out memoryview slices of it, which np.frombuffer wraps as they are.
tests/test_arrays.py checks it against the generated class.
"""

from . import arrays

# TrainingBatch field numbers (proto/qipu/v1/train.proto).
_ROWS = 1
_POS_LEN = 2
_CURSOR = 11
_GAMES_DONE = 12
_ARRAY_FIELDS = {
    3: "binaryInputNCHWPacked",
    4: "globalInputNC",
    5: "qipuGlobalInputNC",
    6: "policyTargetsNCMove",
    7: "globalTargetsNC",
    8: "scoreDistrN",
    9: "valueTargetsNCHW",
    10: "qipuRowIdNC",
}


class WireError(ValueError):
    """Bytes that are not a well-formed TrainingBatch."""


def _varint(data, pos):
    """The varint at data[pos:] and the position after it."""
    result = 0
    shift = 0
    end = len(data)
    while True:
        if pos >= end:
            raise WireError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift >= 64:
            raise WireError("varint longer than 10 bytes")


def parse_fields(data):
    """The fields of a serialized TrainingBatch: a dict with rows, pos_len,
    games_done (ints), cursor (bytes) and buffers (member name ->
    memoryview into `data`). Unknown fields are skipped; a field that
    occurs twice keeps its last value (protobuf's rule for singular
    fields). Raises WireError on malformed bytes."""
    view = memoryview(data)
    if view.ndim != 1 or view.itemsize != 1:
        view = view.cast("B")
    out = {"rows": 0, "pos_len": 0, "games_done": 0, "cursor": b""}
    buffers = {name: view[0:0] for name in _ARRAY_FIELDS.values()}
    pos = 0
    end = len(view)
    while pos < end:
        key, pos = _varint(view, pos)
        field, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, pos = _varint(view, pos)
            if field == _ROWS:
                out["rows"] = value & 0xFFFFFFFF
            elif field == _POS_LEN:
                out["pos_len"] = value & 0xFFFFFFFF
            elif field == _GAMES_DONE:
                out["games_done"] = value
        elif wire_type == 2:
            size, pos = _varint(view, pos)
            if pos + size > end:
                raise WireError(
                    f"field {field}: {size} bytes, only {end - pos} left")
            if field in _ARRAY_FIELDS:
                buffers[_ARRAY_FIELDS[field]] = view[pos:pos + size]
            elif field == _CURSOR:
                out["cursor"] = view[pos:pos + size].tobytes()
            pos += size
        elif wire_type == 1:
            pos += 8
        elif wire_type == 5:
            pos += 4
        else:
            raise WireError(f"field {field}: unsupported wire type {wire_type}")
        if pos > end:
            raise WireError(f"field {field} runs past the end")
    out["buffers"] = buffers
    return out


def parse_batch(data):
    """A serialized TrainingBatch as a batch dict: the eight members as
    read-only numpy arrays over `data` (see arrays.from_buffers) plus
    `cursor` (bytes) and `games_done` (int). Raises WireError or
    arrays.LayoutError when the message is malformed."""
    fields = parse_fields(data)
    pos_len = fields["pos_len"] or 19
    batch = arrays.from_buffers(fields["buffers"], fields["rows"], pos_len)
    batch["cursor"] = fields["cursor"]
    batch["games_done"] = fields["games_done"]
    return batch
