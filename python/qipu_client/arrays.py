"""The arrays of a training batch: names, dtypes and shapes (train/README.md).

A batch is a dict from member name to a numpy array whose first axis is the
row. The names, dtypes and shapes are those of the members of an `.npz`
file written by `qipu train export`, which follow KataGo's layout:

    binaryInputNCHWPacked  uint8   [N, 22, ceil(L*L/8)]  bits packed MSB first
    globalInputNC          float32 [N, 19]
    qipuGlobalInputNC      float32 [N, 6]
    policyTargetsNCMove    int16   [N, 2, L*L + 1]
    globalTargetsNC        float32 [N, 80]
    scoreDistrN            int8    [N, 2*L*L + 120]
    valueTargetsNCHW       int8    [N, 5, L, L]
    qipuRowIdNC            uint64  [N, 5]

where L is the pos_len of the rows. On the wire (TrainingBatch) and in the
files every array is little-endian and row-major.
"""

import numpy as np

# Member name -> (TrainingBatch field name, little-endian dtype).
MEMBERS = {
    "binaryInputNCHWPacked": ("binary_input_nchw_packed", np.dtype("u1")),
    "globalInputNC": ("global_input_nc", np.dtype("<f4")),
    "qipuGlobalInputNC": ("qipu_global_input_nc", np.dtype("<f4")),
    "policyTargetsNCMove": ("policy_targets_ncmove", np.dtype("<i2")),
    "globalTargetsNC": ("global_targets_nc", np.dtype("<f4")),
    "scoreDistrN": ("score_distr_n", np.dtype("i1")),
    "valueTargetsNCHW": ("value_targets_nchw", np.dtype("i1")),
    "qipuRowIdNC": ("qipu_row_id_nc", np.dtype("<u8")),
}

# Input planes of binaryInputNCHWPacked (KataGo's count).
NUM_PLANES = 22


class LayoutError(ValueError):
    """Arrays that do not have the documented names, dtypes or shapes."""


def row_shapes(pos_len):
    """The shape of one row of each member for rows padded to `pos_len`."""
    if not isinstance(pos_len, (int, np.integer)) or pos_len < 1:
        raise ValueError(f"pos_len must be a positive integer, not {pos_len!r}")
    area = pos_len * pos_len
    return {
        "binaryInputNCHWPacked": (NUM_PLANES, (area + 7) // 8),
        "globalInputNC": (19,),
        "qipuGlobalInputNC": (6,),
        "policyTargetsNCMove": (2, area + 1),
        "globalTargetsNC": (80,),
        "scoreDistrN": (2 * area + 120,),
        "valueTargetsNCHW": (5, pos_len, pos_len),
        "qipuRowIdNC": (5,),
    }


def row_bytes(pos_len):
    """Bytes of one row, all members together."""
    total = 0
    for name, shape in row_shapes(pos_len).items():
        total += MEMBERS[name][1].itemsize * int(np.prod(shape))
    return total


def from_buffers(buffers, rows, pos_len):
    """Wraps raw little-endian buffers as a batch, without copying.

    `buffers` maps member names to bytes-like objects (bytes, memoryview):
    each must hold exactly `rows` rows. The arrays share the buffers'
    memory (np.frombuffer) and are read-only when the buffers are; copy an
    array (`a.copy()`) before writing to it. Raises LayoutError when a
    member is missing or has the wrong size.
    """
    shapes = row_shapes(pos_len)
    batch = {}
    for name, (_, dtype) in MEMBERS.items():
        if name not in buffers:
            raise LayoutError(f"batch has no member {name}")
        buf = buffers[name]
        shape = (rows,) + shapes[name]
        want = dtype.itemsize * int(np.prod(shape))
        size = memoryview(buf).nbytes
        if size != want:
            raise LayoutError(
                f"{name}: {size} bytes, but {rows} rows of pos_len {pos_len} "
                f"take {want} ({dtype.str} {list(shape)})")
        batch[name] = np.frombuffer(buf, dtype=dtype).reshape(shape)
    return batch


def pos_len_of(batch):
    """The pos_len of a batch's rows, read from valueTargetsNCHW."""
    shape = batch["valueTargetsNCHW"].shape
    if len(shape) != 4 or shape[2] != shape[3]:
        raise LayoutError(f"valueTargetsNCHW has shape {shape}, not [N,5,L,L]")
    return int(shape[2])


def check_batch(batch, pos_len=None):
    """Raises LayoutError unless `batch` has every member with the
    documented dtype and shape and the same number of rows in each.
    `pos_len` defaults to the batch's own (valueTargetsNCHW). Returns the
    number of rows."""
    if pos_len is None:
        pos_len = pos_len_of(batch)
    shapes = row_shapes(pos_len)
    rows = None
    for name, (_, dtype) in MEMBERS.items():
        if name not in batch:
            raise LayoutError(f"batch has no member {name}")
        a = batch[name]
        if a.dtype != dtype:
            raise LayoutError(f"{name}: dtype {a.dtype.str}, not {dtype.str}")
        if a.shape[1:] != shapes[name]:
            raise LayoutError(
                f"{name}: shape {list(a.shape)}, not [N, "
                f"{', '.join(str(s) for s in shapes[name])}] "
                f"(pos_len {pos_len})")
        if rows is None:
            rows = a.shape[0]
        elif a.shape[0] != rows:
            raise LayoutError(f"{name}: {a.shape[0]} rows, other members {rows}")
    return rows


# qipu's own members, which `qipu train export` writes to a sidecar
# ("<stem>.qipu.zip" beside "<stem>.npz") so that the .npz holds exactly
# KataGo's members (plus qValueTargetsNCMove, which the wire does not carry).
EXTRA_MEMBERS = ("qipuGlobalInputNC", "qipuRowIdNC")


def sidecar_path(path):
    """The sidecar of an exported `.npz`: "<stem>.qipu.zip"."""
    stem = path[:-4] if path.endswith(".npz") else path
    return stem + ".qipu.zip"


def load_npz(path):
    """The batch stored in an `.npz` file written by `qipu train export`.

    Returns a dict of the eight members (no cursor), checked against the
    documented dtypes and shapes (LayoutError otherwise; zipfile or numpy
    errors for a file that is not an .npz). qipu's members come from the
    file's sidecar (`sidecar_path()`) when the file does not hold them
    (`--extras` puts them inside). Members the layout does not name
    (qValueTargetsNCMove) are left out.
    """
    import os
    batch = {}
    with np.load(path, allow_pickle=False) as npz:
        for name in MEMBERS:
            if name in npz.files:
                batch[name] = npz[name]
    extras = sidecar_path(path)
    if any(name not in batch for name in EXTRA_MEMBERS) and os.path.exists(extras):
        with np.load(extras, allow_pickle=False) as npz:
            for name in EXTRA_MEMBERS:
                if name in npz.files and name not in batch:
                    batch[name] = npz[name]
    missing = [name for name in MEMBERS if name not in batch]
    if missing:
        raise LayoutError(f"{path}: no member {', '.join(missing)}")
    check_batch(batch)
    return batch


def unpack_inputs(batch, pos_len=None):
    """The input planes as 0/1 uint8 [N, 22, L, L].

    `batch` is a batch dict or its binaryInputNCHWPacked array. This is
    what KataGo's loader does: np.unpackbits(..., axis=2)[:, :, :L*L].
    `pos_len` defaults to the batch's own (needs a batch dict).
    """
    if isinstance(batch, dict):
        packed = batch["binaryInputNCHWPacked"]
        if pos_len is None:
            pos_len = pos_len_of(batch)
    else:
        packed = batch
        if pos_len is None:
            raise ValueError("unpack_inputs of a bare array needs pos_len")
    area = pos_len * pos_len
    if packed.ndim != 3 or packed.shape[2] != (area + 7) // 8:
        raise LayoutError(
            f"binaryInputNCHWPacked has shape {list(packed.shape)}, not "
            f"[N, {NUM_PLANES}, {(area + 7) // 8}] for pos_len {pos_len}")
    planes = np.unpackbits(packed, axis=2)[:, :, :area]
    return planes.reshape(packed.shape[0], packed.shape[1], pos_len, pos_len)


def game_ids(batch):
    """The game id of each row as (kind, hi, lo) tuples (qipuRowIdNC 0-2:
    kind 1 self-play, 2 imported)."""
    ids = batch["qipuRowIdNC"]
    return [tuple(int(v) for v in row[:3]) for row in ids]


def concat(batches):
    """The rows of several batches (same pos_len) as one batch (copies).
    Keys other than the members (the cursor) are left out."""
    batches = list(batches)
    if not batches:
        raise ValueError("concat of no batches")
    return {name: np.concatenate([b[name] for b in batches])
            for name in MEMBERS}

